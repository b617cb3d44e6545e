import('./src/esm.mjs').then((m) => console.log(m.answer, m.default));
import('path').then((m) => console.log(typeof m.join, typeof m.default.join));
