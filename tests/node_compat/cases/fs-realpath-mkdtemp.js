const fs = require('fs');
const path = require('path');
console.log(path.relative(process.cwd(), fs.realpathSync('data/../src')));
const d = fs.mkdtempSync(path.join(process.cwd(), 'tmp-'));
console.log(path.basename(d).startsWith('tmp-'), path.basename(d).length, fs.statSync(d).isDirectory());
