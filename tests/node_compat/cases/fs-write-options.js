const fs = require('fs');
fs.writeFileSync('w.txt', 'abc');
try { fs.writeFileSync('w.txt', 'x', { flag: 'wx' }); } catch (e) { console.log(e.code); }
fs.writeFileSync('w.txt', 'def', { flag: 'a' });
console.log(fs.readFileSync('w.txt', 'utf8'));
fs.writeFileSync('b.bin', new Uint8Array([104, 105]));
console.log(fs.readFileSync('b.bin', 'latin1'), fs.readFileSync('b.bin', 'hex'), fs.readFileSync('b.bin', 'base64'));
