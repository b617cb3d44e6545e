const path = require('path');
console.log(path.join('/a/b', '../c', './d'));
console.log(path.join('a', '', 'b/'), path.join(''), path.join('/', '..', 'x'));
console.log(path.join('a/b', '../../..', 'c'));
