const { Readable } = require('stream');
const r = Readable.from(['a', 'b', 'c']);
const got = [];
r.on('data', (c) => got.push(c));
r.on('end', () => console.log('end', got.join('')));
