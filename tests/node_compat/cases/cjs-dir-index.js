const fs = require('fs');
fs.mkdirSync('lib/inner', { recursive: true });
fs.writeFileSync('lib/inner/index.js', 'module.exports = "from index";');
fs.writeFileSync('lib/pkgdir.json', '{"x": 1}');
console.log(require('./lib/inner'), require('./lib/inner/'));
console.log(require('./lib/pkgdir.json').x);
