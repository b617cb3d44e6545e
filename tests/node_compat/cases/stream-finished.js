const { Readable, Writable, finished } = require('stream');
const { finished: finishedPromise } = require('stream/promises');
const r = Readable.from(['a', 'b']);
finished(r, (err) => console.log('readable finished', err));
r.resume();
const w = new Writable({ write(c, e, cb) { cb(); } });
finishedPromise(w).then(() => console.log('writable finished'));
w.end('x');
