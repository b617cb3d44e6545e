const path = require('path');
console.log(path.relative(process.cwd(), path.resolve('x/y', '../z')));
console.log(path.resolve('/a', 'b', '/c', 'd'));
console.log(path.resolve('/a/b/', './c/'));
