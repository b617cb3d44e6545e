const path = require('path');
const rel = (p) => path.relative(process.cwd(), p);
console.log(rel(require.resolve('./src/a')));
console.log(rel(require.resolve('greet')));
console.log(require.resolve('path'), require.resolve('node:fs'));
try { require.resolve('./missing'); } catch (e) { console.log(e.code); }
