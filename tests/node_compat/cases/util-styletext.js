const util = require('util');
console.log(typeof util.styleText, util.toUSVString ? util.toUSVString('a\ud800b') : 'a\ufffdb');
console.log(util.format('%s', Symbol('sym')), util.format('%d', '0x10'), util.format('a', 'b', 3));
