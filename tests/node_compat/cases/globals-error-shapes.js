const e = new Error('outer', { cause: new Error('inner') });
console.log(e.cause.message);
class MyErr extends Error { constructor(m) { super(m); this.name = 'MyErr'; this.code = 'E_MINE'; } }
try { throw new MyErr('custom'); } catch (x) { console.log(x.name, x.message, x.code, x instanceof Error, String(x)); }
const agg = new AggregateError([new Error('a'), new Error('b')], 'many');
console.log(agg.errors.length, agg.message);
