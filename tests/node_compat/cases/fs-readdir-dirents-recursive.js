const fs = require('fs');
const path = require('path');
const ents = fs.readdirSync('node_modules', { withFileTypes: true, recursive: true });
console.log(ents.map((d) => path.join(d.parentPath, d.name) + (d.isDirectory() ? '/' : '')).sort().join('\n'));
