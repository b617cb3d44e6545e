// `%o` is inspect with showHidden (and depth 4): every own property, the
// ones not enumerable in brackets — an array's length at any depth, a
// function's length and name (and a sloppy function's arguments and
// caller, as V8 has them), a prototype's constructor.
const { format, inspect } = require('util');
console.log(format('%o', [1, 2]));
console.log(format('%o', { a: [] }));
console.log(format('%o', 'str'), format('%o', 42), format('%o', ['a']));
console.log(format('%o', function foo() {}));
console.log(format('%o', { f() {} }));
console.log(format('%O', [1, [2]]));
console.log(format('%o', new Map([[1, [2]]])));
console.log(format('%o', [[1, [2, [3, [4, [5]]]]]]));
function strictOne() { 'use strict'; }
console.log(format('%o', strictOne), format('%o', () => 1));
class K { m() {} }
console.log(format('%o', new K()), inspect(K.prototype), inspect(new K()));
console.log(inspect([1, 2], { showHidden: true }), inspect({ a: 1 }, { showHidden: true }));
