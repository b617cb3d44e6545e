const url = require('url');
console.log(url.pathToFileURL('/tmp/a b.txt').href);
console.log(url.fileURLToPath('file:///tmp/a%20b.txt'));
console.log(url.fileURLToPath(new URL('file:///x/y')));
