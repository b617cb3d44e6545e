console.log(typeof crypto.randomUUID(), crypto.randomUUID().length);
const a = crypto.getRandomValues(new Uint32Array(4));
console.log(a.length, a instanceof Uint32Array);
