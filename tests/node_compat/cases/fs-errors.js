const fs = require('fs');
for (const f of [() => fs.readFileSync('nope.txt'), () => fs.readdirSync('data/words.txt'), () => fs.mkdirSync('data'), () => fs.rmdirSync('data'), () => fs.unlinkSync('data')]) {
  try { f(); } catch (e) { console.log(e.code, e.syscall, typeof e.errno, e.message.split(',')[0]); }
}
