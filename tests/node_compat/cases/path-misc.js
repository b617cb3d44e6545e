const path = require('path');
console.log(path.sep, path.delimiter, path.isAbsolute('/x'), path.isAbsolute('x'), path.posix === path);
try { path.join(1); } catch (e) { console.log(e.code, e.name); }
