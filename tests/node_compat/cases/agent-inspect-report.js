const util = require('util');
const data = { files: ['a.js', 'b.js'], counts: new Map([['js', 2]]), when: null, nested: { deep: { deeper: { deepest: 1 } } } };
console.log(util.inspect(data, { depth: 4 }));
console.log(util.inspect('str'), util.inspect([1, [2, [3, [4, [5]]]]]));
console.log(util.isDeepStrictEqual(data, structuredClone(data)));
