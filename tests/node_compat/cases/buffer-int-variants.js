const b = Buffer.alloc(16);
b.writeInt16BE(-2, 0); b.writeUInt16LE(65535, 2); b.writeInt32LE(-123456, 4); b.writeDoubleBE(1.5, 8);
console.log(b.toString('hex'));
console.log(b.readInt16BE(0), b.readUInt16LE(2), b.readInt32LE(4), b.readDoubleBE(8));
b.writeBigUInt64LE(2n ** 63n, 8);
console.log(b.readBigUInt64LE(8), b.readBigInt64LE(8));
b.writeUIntBE(0x123456, 0, 3);
console.log(b.readUIntBE(0, 3).toString(16), b.readIntLE(0, 3));
try { b.readUInt32LE(14); } catch (e) { console.log(e.code, e.name); }
