const util = require('util');
console.log(util.inspect({ a: 1, b: 'two', c: [3, 4], d: { e: { f: { g: 1 } } } }));
console.log(util.inspect({ a: { b: { c: { d: {} } } } }, { depth: null }));
console.log(util.inspect('str'), util.inspect([1, 'x', null, undefined]), util.inspect(new Map([[1, 2]])), util.inspect(new Set(['a'])));
