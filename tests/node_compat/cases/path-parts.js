const path = require('path');
for (const p of ['/home/u/file.txt', 'a.tar.gz', '.bashrc', 'dir/', '/', 'x.', '..']) {
  console.log(JSON.stringify([path.dirname(p), path.basename(p), path.extname(p)]));
}
console.log(path.basename('/a/b.html', '.html'), path.basename('b.html', 'html'));
