console.log(typeof process.on, typeof process.emit, typeof process.once);
process.on('custom', (v) => console.log('custom', v));
process.emit('custom', 7);
