const e = require('exported');
console.log(e.kind, e.add(2, 3));
console.log(require('exported/feature')());
console.log(require('exported/extra/one'));
console.log(require('exported/package.json').version);
try { require('exported/lib/index.cjs'); } catch (err) { console.log(err.code); }
