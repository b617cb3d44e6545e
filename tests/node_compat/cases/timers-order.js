setTimeout(() => console.log('timeout 10'), 10);
setTimeout(() => console.log('timeout 0'), 0);
setImmediate(() => console.log('immediate'));
Promise.resolve().then(() => console.log('microtask'));
process.nextTick(() => console.log('tick'));
queueMicrotask(() => console.log('queueMicrotask'));
console.log('sync');
