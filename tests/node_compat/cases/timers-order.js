setTimeout(() => console.log("timeout 200"), 200);
setTimeout(() => {
  console.log('timeout 0');
  // Inside a timer callback Node runs the immediate first, always.
  setTimeout(() => console.log('inner timeout'), 0);
  setImmediate(() => console.log('inner immediate'));
  process.nextTick(() => console.log('inner tick'));
}, 0);
Promise.resolve().then(() => console.log('microtask'));
process.nextTick(() => console.log('tick'));
queueMicrotask(() => console.log('queueMicrotask'));
console.log('sync');
