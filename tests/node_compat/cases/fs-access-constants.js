const fs = require('fs');
console.log(typeof fs.constants.F_OK, fs.constants.R_OK, fs.constants.W_OK);
fs.accessSync('data/words.txt', fs.constants.R_OK);
try { fs.accessSync('no-file'); } catch (e) { console.log(e.code); }
console.log(fs.existsSync('data'), fs.existsSync(''));
