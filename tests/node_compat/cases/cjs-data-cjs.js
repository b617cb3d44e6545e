const d = require('./src/data.cjs');
console.log(d.items, d.total);
