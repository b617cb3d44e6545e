console.log('%s is %d years', 'Al', 42.5);
console.log('%i|%f|%j|%%|%o', 3.9, '2.5', { a: 1 }, [1]);
console.log({ a: 1, b: 'two', c: [1, 2, { d: 3 }] });
console.log([undefined, null, NaN, -0, 1n, Symbol('s')]);
console.log(new Map([['k', 1]]), new Set([1, 'a']));
console.info('info'); console.debug('debug');
console.log('nested', { a: { b: { c: { d: { e: 1 } } } } });
console.table && console.log('has table');
