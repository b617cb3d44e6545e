import { once, EventEmitter } from 'node:events';
const e = new EventEmitter();
setTimeout(() => e.emit('ready', 42, 'x'), 5);
const values = await once(e, 'ready');
console.log(values);
setTimeout(() => e.emit('error', new Error('failed')), 5);
try { await once(e, 'never'); } catch (err) { console.log('rejected', err.message); }
