const path = require('path');
const a = require('./src/a');
const key = require.resolve('./src/a');
console.log(require.cache[key].exports === a);
delete require.cache[key];
console.log(require('./src/a') === a);
