const a = require('./src/a');
const b = require('./src/b.js');
console.log(a.name, b.name, b.uses);
console.log(require('./src/a') === a);
