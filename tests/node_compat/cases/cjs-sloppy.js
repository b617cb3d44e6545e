// A plain CommonJS script is sloppy code, as under Node.
counter = 0;
for (i = 0; i < 3; i++) counter += i;
console.log(counter, typeof i, (function () { return typeof this; })());
console.log(this === module.exports, delete globalThis.counter);
