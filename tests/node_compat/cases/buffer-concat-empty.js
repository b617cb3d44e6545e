const parts = [Buffer.alloc(0), Buffer.from('ab'), Buffer.alloc(0), Buffer.from('cd')];
console.log(Buffer.concat(parts).toString(), Buffer.concat(parts, 3).toString(), Buffer.concat([]).length);
console.log(Buffer.concat([new Uint8Array([0x68]), Buffer.from('i')]).toString());
