const path = require('node:path');
for (const p of ['/a//b/../c/.', 'a/./b/', './', '../a/..', '//x', '', 'a/../..']) console.log(JSON.stringify(path.normalize(p)));
