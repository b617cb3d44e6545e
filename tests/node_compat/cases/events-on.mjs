import { on, EventEmitter } from 'events';
const e = new EventEmitter();
setTimeout(() => { e.emit('n', 1); e.emit('n', 2); e.emit('n', 3); }, 1);
let total = 0;
for await (const [n] of on(e, 'n')) { total += n; if (n === 3) break; }
console.log('total', total, e.listenerCount('n'));
