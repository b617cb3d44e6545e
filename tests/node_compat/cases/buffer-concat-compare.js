const a = Buffer.from('abc'), b = Buffer.from('abd');
console.log(Buffer.concat([a, b]).toString(), Buffer.concat([a, b], 4).toString(), Buffer.concat([]).length);
console.log(Buffer.compare(a, b), Buffer.compare(b, a), a.compare(Buffer.from('abc')), a.equals(Buffer.from('abc')));
console.log([b, a].sort(Buffer.compare).map(String));
