console.log(btoa('hello'), atob('aGVsbG8='), atob(btoa('\u00ff\u0000x')).length);
try { btoa('✓'); } catch (e) { console.log(e.name); }
const { Buffer: B, constants } = require('buffer');
console.log(B === Buffer, typeof constants.MAX_LENGTH);
