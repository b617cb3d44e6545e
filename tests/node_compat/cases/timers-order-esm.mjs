// In an ES module the promise jobs of the module come before its ticks.
Promise.resolve().then(() => console.log('microtask'));
process.nextTick(() => console.log('tick'));
queueMicrotask(() => console.log('queueMicrotask'));
setTimeout(() => {
  setTimeout(() => console.log('inner timeout'), 0);
  setImmediate(() => console.log('inner immediate'));
}, 0);
console.log('sync');
