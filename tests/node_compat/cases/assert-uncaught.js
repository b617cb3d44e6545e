const assert = require('assert');
console.log('before');
assert.strictEqual(1 + 1, 3);
console.log('after');
