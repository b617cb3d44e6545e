import { createHash } from 'node:crypto';
const h = createHash('sha256').update('abc');
const copy = h.copy();
copy.update('def');
console.log(h.digest('hex'));
console.log(copy.digest('hex'));
try { h.digest(); } catch (e) { console.log(e.code); }
