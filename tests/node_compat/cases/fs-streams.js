const fs = require('fs');
const w = fs.createWriteStream('stream-out.txt');
w.write('a,');
w.write('b,');
w.end('c\n');
w.on('finish', () => {
  let text = '';
  fs.createReadStream('stream-out.txt', { encoding: 'utf8' })
    .on('data', (c) => (text += c))
    .on('end', () => console.log(JSON.stringify(text)));
});
