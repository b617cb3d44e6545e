const fs = require('fs');
const cfg = JSON.parse(fs.readFileSync('data/config.json', 'utf8'));
cfg.threshold += 1;
fs.writeFileSync('data/config.json', JSON.stringify(cfg, null, 2) + '\n');
console.log(fs.readFileSync('data/config.json', 'utf8'));
