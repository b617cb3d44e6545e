const fs = require('fs');
fs.writeFileSync('t.txt', 'hello world');
fs.truncateSync('t.txt', 5);
console.log(JSON.stringify(fs.readFileSync('t.txt', 'utf8')));
fs.truncateSync('t.txt');
console.log(fs.statSync('t.txt').size);
