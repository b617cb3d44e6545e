const util = require('util');
console.log(new util.TextEncoder().encode('ab').length, new util.TextDecoder().decode(new Uint8Array([0x68, 0x69])));
console.log(util.types.isPromise(Promise.resolve()), util.types.isRegExp(/x/), util.types.isDate(new Date()));
console.log(util.stripVTControlCharacters('\u001b[31mred\u001b[0m'));
