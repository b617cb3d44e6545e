const path = require('path');
console.log(path.relative('/data/orandea/test/aaa', '/data/orandea/impl/bbb'));
console.log(JSON.stringify(path.relative('/a/b', '/a/b')), path.relative('/a', '/a/b/c'), path.relative('/a/b/c', '/a'));
