// Circular references: the value referred to is marked `<ref *N>` where
// it is shown, numbered in the order the cycles are found.
const util = require('util');
const a = { x: 1 };
a.self = a;
console.log(util.inspect(a));
const list = [1];
list.push(list);
console.log(list);
console.log(new Map([[1, { a }]]));
const b = { name: 'b' };
const c = { name: 'c', b };
b.c = c;
b.me = b;
console.log(util.inspect({ b, c }, { depth: 4 }));
console.log(util.format('%O', a));
