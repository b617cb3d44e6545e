const qs = require('querystring');
console.log(JSON.stringify(qs.parse('a=1&b=x%20y&a=2&c')));
console.log(qs.stringify({ a: [1, 2], b: 'x y', c: '' }));
console.log(qs.escape('a b&c'), qs.unescape('a%20b'));
console.log(JSON.stringify(qs.parse('a:1;b:2', ';', ':')));
console.log(qs.stringify({ w: 'é' }, ';', ':'));
