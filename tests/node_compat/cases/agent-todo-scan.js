const fs = require('fs');
const path = require('path');
let count = 0;
function walk(dir) {
  for (const ent of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, ent.name);
    if (ent.isDirectory()) { if (ent.name !== 'node_modules') walk(p); }
    else if (p.endsWith('.md')) {
      fs.readFileSync(p, 'utf8').split('\n').forEach((line, i) => {
        if (line.includes('TODO')) { count++; console.log(`${p}:${i + 1}: ${line.trim()}`); }
      });
    }
  }
}
walk('.');
console.log(`${count} TODOs`);
process.exitCode = count > 0 ? 2 : 0;
