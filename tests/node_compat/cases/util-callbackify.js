const util = require('util');
const f = util.callbackify(async (x) => x * 2);
f(21, (err, v) => console.log(err, v));
const g = util.callbackify(async () => { throw new Error('boom'); });
g((err) => console.log(err.message));
