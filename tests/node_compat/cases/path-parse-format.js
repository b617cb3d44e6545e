const path = require('path');
for (const p of ['/home/user/dir/file.txt', './x/y.js', 'noext', '/']) console.log(JSON.stringify(path.parse(p)));
console.log(path.format({ root: '/', dir: '/home/u', base: 'f.txt' }));
console.log(path.format({ name: 'file', ext: 'md' }), path.format({ dir: 'a', name: 'b', ext: '.c' }));
