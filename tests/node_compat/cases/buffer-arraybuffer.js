const ab = new ArrayBuffer(8);
const view = new Uint8Array(ab); view[0] = 1; view[7] = 9;
const b = Buffer.from(ab, 4, 4);
b[3] = 7;
console.log(view[7], b.length, Buffer.from(ab).length, Buffer.from(new Uint16Array([1, 258])));
