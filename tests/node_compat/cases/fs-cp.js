const fs = require('fs');
fs.cpSync('src', 'src-copy', { recursive: true });
console.log(fs.readdirSync('src-copy').sort().join(' '));
console.log(fs.readFileSync('src-copy/a.js', 'utf8') === fs.readFileSync('src/a.js', 'utf8'));
