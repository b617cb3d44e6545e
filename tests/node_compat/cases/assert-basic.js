const assert = require('assert');
assert(true); assert.ok(1); assert.equal(1, '1'); assert.strictEqual(2, 2);
assert.deepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] });
assert.notDeepStrictEqual({ a: 1 }, { a: '1' });
assert.deepEqual({ a: 1 }, { a: '1' });
try { assert.strictEqual(1, 2); } catch (e) { console.log(e.name, e.code, e.actual, e.expected, e.operator); }
try { assert(false, 'custom msg'); } catch (e) { console.log(e.message, e.code); }
try { assert.deepStrictEqual([1], [2]); } catch (e) { console.log(e.code, e.operator); }
console.log('done');
