console.log(Buffer.from('hello'));
console.log([Buffer.from([1, 2])], { b: Buffer.alloc(2) });
console.log(Buffer.alloc(60, 1));
