const fs = require('fs');
const path = require('path');
for (const name of fs.readdirSync('src').filter((n) => n.endsWith('.js')).sort()) {
  const p = path.join('src', name);
  const before = fs.readFileSync(p, 'utf8');
  const after = before.replace(/require\('\.\/(\w+)'\)/g, "require('./$1.js')");
  if (after !== before) { fs.writeFileSync(p, after); console.log('rewrote', p); }
}
console.log(require('./src/b.js').uses);
