console.log(Buffer.alloc(4), Buffer.alloc(5, 'ab'), Buffer.alloc(3, 1), Buffer.allocUnsafe(2).length);
console.log(Buffer.alloc(0).length, Buffer.from([256, -1, 3.7]), Buffer.from('xyz').length);
try { Buffer.alloc(-1); } catch (e) { console.log(e.code); }
