try {
  const m = require('./src/esm.mjs');
  console.log(typeof m);
} catch (e) { console.log(e.code); }
