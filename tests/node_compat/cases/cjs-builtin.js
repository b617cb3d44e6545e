console.log(require('path') === require('node:path'));
console.log(require('fs') === require('node:fs'));
console.log(typeof require('events'), typeof require('util').inspect);
console.log(require('module').builtinModules.includes('path'));
try { require('node:nope'); } catch (e) { console.log(e.code); }
