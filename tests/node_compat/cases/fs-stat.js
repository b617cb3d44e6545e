const fs = require('fs');
const s = fs.statSync('data');
console.log(s.isDirectory(), s.isFile(), s.isSymbolicLink(), typeof s.mtimeMs, s.mtime instanceof Date);
console.log(fs.statSync('nope', { throwIfNoEntry: false }));
const f = fs.statSync('data/words.txt');
console.log(f.size, (f.mode & 0o777).toString(8).length, f.isFile());
