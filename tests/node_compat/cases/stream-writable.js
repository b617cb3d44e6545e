const { Writable } = require('stream');
const parts = [];
const w = new Writable({
  write(chunk, enc, cb) { parts.push(chunk.toString()); cb(); },
  final(cb) { console.log('final', parts); cb(); },
});
w.write('a');
w.write(Buffer.from('b'));
w.end('c', () => console.log('ended'));
w.on('finish', () => console.log('finish'));
