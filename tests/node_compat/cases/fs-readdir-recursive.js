const fs = require('fs');
console.log(fs.readdirSync('src').sort());
console.log(fs.readdirSync('node_modules', { recursive: true }).sort());
const ents = fs.readdirSync('data', { withFileTypes: true }).map((d) => [d.name, d.isFile(), d.isDirectory()]);
console.log(JSON.stringify(ents.sort()));
