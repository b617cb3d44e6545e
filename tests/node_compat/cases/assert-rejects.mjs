import assert from 'node:assert/strict';
await assert.rejects(Promise.reject(new Error('r')), /r/);
await assert.doesNotReject(Promise.resolve(1));
try { await assert.rejects(Promise.resolve(1)); } catch (e) { console.log(e.code); }
try { assert.equal(1, '1'); } catch (e) { console.log('strict', e.operator); }
console.log('fin');
