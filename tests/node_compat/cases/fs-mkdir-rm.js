const fs = require('fs');
console.log(fs.mkdirSync('x/y/z', { recursive: true }).endsWith('x'));
console.log(fs.mkdirSync('x/y', { recursive: true }));
fs.writeFileSync('x/y/z/f.txt', 'f');
fs.rmSync('x', { recursive: true });
console.log(fs.existsSync('x'));
fs.rmSync('nothing-here', { force: true });
try { fs.rmSync('nothing-here'); } catch (e) { console.log(e.code); }
