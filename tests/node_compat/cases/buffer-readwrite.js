const b = Buffer.alloc(16);
b.writeUInt32BE(0xdeadbeef, 0); b.writeInt16LE(-2, 4); b.writeUInt8(255, 6); b.writeFloatLE(1.5, 8); b.writeDoubleBE(Math.PI, 8);
console.log(b.readUInt32BE(0).toString(16), b.readInt16LE(4), b.readUInt8(6), b.readDoubleBE(8).toFixed(5), b.readUInt16LE(0));
b.writeBigUInt64LE(123456789012345678n, 0);
console.log(b.readBigUInt64LE(0), b.readUIntBE(0, 3), b.readIntLE(0, 6));
try { b.readUInt32LE(14); } catch (e) { console.log(e.code, e.name); }
