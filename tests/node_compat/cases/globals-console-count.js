console.count(); console.count(); console.count('x'); console.countReset(); console.count();
console.group('G'); console.log('inside'); console.group(); console.log('deeper'); console.groupEnd(); console.groupEnd();
console.log('out');
console.assert(1 === 1, 'no'); 
console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
