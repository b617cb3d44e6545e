const fs = require('fs');
fs.writeFileSync('package.json', JSON.stringify({ name: 'app', version: '0.1.0', scripts: { test: 'x' } }, null, 2));
const pkg = require('./package.json');
const [maj, min, patch] = pkg.version.split('.').map(Number);
pkg.version = [maj, min + 1, 0].join('.');
fs.writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
console.log(fs.readFileSync('package.json', 'utf8'));
