import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
const chunks = [];
await pipeline(
  Readable.from(['one ', 'two ', 'three']),
  new Transform({ transform(chunk, enc, cb) { cb(null, chunk.toString().toUpperCase()); } }),
  new Writable({ write(chunk, enc, cb) { chunks.push(chunk.toString()); cb(); } }),
);
console.log(chunks.join(''));
