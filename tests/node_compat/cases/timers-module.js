const timers = require('timers');
console.log(typeof timers.setTimeout, typeof timers.setInterval, typeof timers.setImmediate);
const t = timers.setTimeout(() => {}, 1);
console.log(typeof t.ref, typeof t.unref, t.hasRef());
t.unref();
console.log(t.hasRef());
clearTimeout(t);
