const ac = new AbortController();
ac.signal.addEventListener('abort', () => console.log('aborted', ac.signal.reason.name));
console.log(ac.signal.aborted);
ac.abort();
console.log(ac.signal.aborted);
const s = AbortSignal.abort('why');
console.log(s.aborted, s.reason);
try { s.throwIfAborted(); } catch (e) { console.log('threw', e); }
