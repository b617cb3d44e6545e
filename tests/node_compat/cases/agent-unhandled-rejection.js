console.log('before');
Promise.reject(new Error('unhandled!'));
