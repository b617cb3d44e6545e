#!/usr/bin/env node
process.nextTick(() => console.log('tick'));
Promise.resolve().then(() => console.log('job'));
setTimeout(() => console.log('timeout'), 0);
console.log('sync', typeof Buffer, [1, { a: 'b' }]);
