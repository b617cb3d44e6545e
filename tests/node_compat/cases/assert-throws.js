const assert = require('assert');
assert.throws(() => { throw new TypeError('bad'); }, TypeError);
assert.throws(() => { throw new Error('boom 42'); }, /boom/);
assert.throws(() => { throw new Error('x'); }, { message: 'x' });
try { assert.throws(() => {}); } catch (e) { console.log(e.code, e.message); }
assert.doesNotThrow(() => 1);
try { assert.fail('nope'); } catch (e) { console.log(e.message, e instanceof assert.AssertionError); }
assert.match('abc', /b/);
try { assert.notStrictEqual(1, 1); } catch (e) { console.log(e.operator); }
console.log('ok');
