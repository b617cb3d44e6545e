const fs = require('fs');
const lines = fs.readFileSync('data/scores.csv', 'utf8').trim().split(/\r?\n/);
const header = lines.shift().split(',');
const recs = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [header[i], Number(v)])));
const scores = recs.map((r) => r.score);
const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
console.log(header, recs.length, mean.toFixed(3), Math.max(...scores));
console.table ? console.log('table ok') : null;
