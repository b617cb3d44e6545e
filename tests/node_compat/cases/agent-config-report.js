const fs = require('fs');
const path = require('path');
const config = JSON.parse(fs.readFileSync(path.join(__dirname, 'data', 'config.json'), 'utf8'));
const rows = fs.readFileSync('data/scores.csv', 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').map(Number));
const below = rows.filter(([, s]) => s < config.threshold);
const report = { name: config.name, total: rows.length, below: below.map(([id]) => id) };
fs.mkdirSync('out', { recursive: true });
fs.writeFileSync('out/report.json', JSON.stringify(report, null, 2));
console.log(fs.readFileSync('out/report.json', 'utf8'));
if (below.length) { console.error('scores below threshold'); process.exit(1); }
