const fs = require('fs');
function load(p) {
  try { return JSON.parse(fs.readFileSync(p, 'utf8')); }
  catch (e) { console.log(`cannot load ${p}: ${e.code || e.name}`); return null; }
}
const a = load('data/config.json');
const b = load('data/missing.json');
console.log(a && a.name, b);
if (!b) process.exit(3);
