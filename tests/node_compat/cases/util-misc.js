const util = require('util');
console.log(util.isArray([]), typeof util.TextEncoder, util.stripVTControlCharacters('\u001b[31mred\u001b[0m'));
console.log(util.format('%s', Symbol('s')), util.format('%d', '0x10'), util.format('%i', 7.9));
