const { PassThrough, Duplex, Stream } = require('stream');
const p = new PassThrough();
let out = '';
p.on('data', (d) => (out += d));
p.on('end', () => console.log(out, p instanceof Stream));
p.write('hi ');
p.end('there');
console.log(typeof Duplex);
