console.log('start');
setTimeout(() => { throw new Error('late failure'); }, 1);
