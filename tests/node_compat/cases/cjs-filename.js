const path = require('path');
console.log(path.basename(__filename), path.basename(__dirname) === path.basename(process.cwd()));
console.log(__dirname === process.cwd());
console.log(typeof module, typeof exports, module.exports === exports);
console.log(require.main === module, module.id);
