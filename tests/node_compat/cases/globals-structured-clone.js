const o = { a: [1, { b: new Date(0) }], m: new Map([[1, 2]]), s: new Set(['x']) };
const c = structuredClone(o);
console.log(c !== o, c.a[1].b instanceof Date, c.a[1].b.getTime(), c.m.get(1), c.s.has('x'));
try { structuredClone(() => 1); } catch (e) { console.log(e.name); }
