const b = Buffer.from('hello world');
const s = b.subarray(0, 5); s[0] = 72;
console.log(b.toString(), b.slice(6).toString(), b.slice(-5, -1).toString(), b.toString('utf8', 1, 4));
console.log(Buffer.isBuffer(s), s instanceof Uint8Array, Buffer.isBuffer(new Uint8Array(1)));
