const b = Buffer.from([1, 2, 3, 4, 5, 6, 7, 8]);
console.log(Buffer.from(b).swap16(), Buffer.from(b).swap32(), Buffer.from(b).swap64());
console.log([...Buffer.from('ab').entries()], Array.from(Buffer.from('xy').values()), Buffer.from('ab').map((x) => x + 1));
