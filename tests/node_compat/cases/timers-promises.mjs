import { setTimeout as sleep, setImmediate as immediate } from 'node:timers/promises';
const v = await sleep(5, 'value');
console.log(v);
console.log(await immediate('imm'));
const ac = new AbortController();
const p = sleep(1000, null, { signal: ac.signal });
ac.abort();
try { await p; } catch (e) { console.log(e.name, e.code); }
