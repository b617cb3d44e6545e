console.log('going to throw');
throw new TypeError('top-level type error');
