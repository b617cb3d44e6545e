const { isDeepStrictEqual } = require('util');
console.log(isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), isDeepStrictEqual([1], ['1']));
console.log(isDeepStrictEqual(new Map([[1, { x: 1 }]]), new Map([[1, { x: 1 }]])), isDeepStrictEqual(new Set([1, 2]), new Set([2, 1])));
console.log(isDeepStrictEqual(NaN, NaN), isDeepStrictEqual(0, -0), isDeepStrictEqual(new Date(1), new Date(1)), isDeepStrictEqual({ a: undefined }, {}));
