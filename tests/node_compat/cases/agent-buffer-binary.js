const fs = require('fs');
const header = Buffer.alloc(8);
header.write('GOC', 0, 'ascii');
header.writeUInt8(1, 3);
header.writeUInt32LE(0xdeadbeef, 4);
fs.writeFileSync('blob.bin', Buffer.concat([header, Buffer.from('payload')]));
const back = fs.readFileSync('blob.bin');
console.log(back.toString('ascii', 0, 3), back.readUInt8(3), back.readUInt32LE(4).toString(16), back.subarray(8).toString());
