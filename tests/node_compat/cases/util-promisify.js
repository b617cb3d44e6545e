const util = require('util');
function old(a, b, cb) { setTimeout(() => cb(null, a + b), 1); }
function bad(cb) { cb(new Error('nope')); }
util.promisify(old)(2, 3).then((v) => console.log('sum', v));
util.promisify(bad)().catch((e) => console.log('err', e.message));
const custom = () => {}; custom[util.promisify.custom] = () => Promise.resolve('custom');
util.promisify(custom)().then(console.log);
