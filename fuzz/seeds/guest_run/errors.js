class E extends Error {}
Promise.reject(new E("later"));
const f = n => f(n + 1);
try { f(0) } catch (e) { console.error(e instanceof RangeError) }
throw Object.create(null);
