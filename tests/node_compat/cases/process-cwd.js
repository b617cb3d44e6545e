const fs = require('fs');
const path = require('path');
const start = process.cwd();
fs.mkdirSync('sub', { recursive: true });
process.chdir('sub');
console.log(path.relative(start, process.cwd()));
fs.writeFileSync('in-sub.txt', 'x');
process.chdir('..');
console.log(fs.existsSync('sub/in-sub.txt'));
try { process.chdir('/no/such/dir'); } catch (e) { console.log(e.code); }
