const fs = require('fs');
fs.writeFileSync('counter.js', 'let n = 0; module.exports = () => ++n; module.exports.kind = "fn";');
const c = require('./counter');
console.log(c(), c(), c.kind, require('./counter')());
fs.writeFileSync('thisexp.js', 'this.viaThis = 1; exports.viaExports = 2;');
console.log(JSON.stringify(require('./thisexp.js')));
