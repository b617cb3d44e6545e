const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const files = fs.readdirSync('.', { recursive: true })
  .filter((f) => !f.startsWith('node_modules') && fs.statSync(f).isFile() && !f.endsWith('.js'))
  .sort();
const manifest = {};
for (const f of files) manifest[f] = crypto.createHash('sha1').update(fs.readFileSync(f)).digest('hex').slice(0, 10);
console.log(JSON.stringify(manifest, null, 1));
