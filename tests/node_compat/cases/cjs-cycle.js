const a = require('./src/cycle-a');
const b = require('./src/cycle-b');
console.log(a.loaded, a.seenB, b.loaded, b.seenA);
