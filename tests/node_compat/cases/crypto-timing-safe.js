const crypto = require('crypto');
console.log(crypto.timingSafeEqual(Buffer.from('abc'), Buffer.from('abc')));
console.log(crypto.timingSafeEqual(Buffer.from('abc'), Buffer.from('abd')));
try { crypto.timingSafeEqual(Buffer.from('a'), Buffer.from('ab')); } catch (e) { console.log(e.code); }
