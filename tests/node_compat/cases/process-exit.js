process.on('exit', (code) => console.log('exit event', code));
console.log('a');
process.exit(4);
console.log('never');
