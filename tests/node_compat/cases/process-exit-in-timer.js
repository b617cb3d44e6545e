setTimeout(() => { console.log('timer'); process.exit(2); }, 1);
setTimeout(() => console.log('never'), 50);
