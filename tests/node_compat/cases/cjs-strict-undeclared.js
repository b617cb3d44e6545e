x = 5;
console.log(typeof x, globalThis.x);
