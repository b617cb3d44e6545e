const fs = require('fs');
fs.writeFileSync('bad.js', 'throw new Error("module failed");');
try { require('./bad'); } catch (e) { console.log(e.message); }
try { require('./bad'); } catch (e) { console.log('again', e.message); }
