process.nextTick((a, b) => console.log('tick', a, b), 1, 2);
console.log('first');
