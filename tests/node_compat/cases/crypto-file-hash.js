const fs = require('fs');
const crypto = require('crypto');
for (const f of ['data/words.txt', 'data/config.json', 'data/scores.csv']) {
  const h = crypto.createHash('sha256').update(fs.readFileSync(f)).digest('hex');
  console.log(h.slice(0, 12), f);
}
