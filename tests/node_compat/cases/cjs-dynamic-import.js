(async () => {
  const m = await import('./src/esm.mjs');
  console.log(m.answer, m.default);
  const p = await import('path');
  console.log(typeof p.join, typeof p.default.join, p.default === require('path'));
  const c = await import('./src/data.cjs');
  console.log(c.default.total, c.default === require('./src/data.cjs'));
})();
