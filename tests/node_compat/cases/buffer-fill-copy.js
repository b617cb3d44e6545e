const b = Buffer.alloc(10);
b.fill('ab', 1, 7);
const t = Buffer.alloc(4, '.');
const n = b.copy(t, 1, 1, 4);
console.log(b.toString('latin1').replace(/\0/g, '_'), t.toString(), n);
console.log(Buffer.from('abc').fill(0).join(','), b.write('XYZ', 8), b.toString('latin1', 7));
