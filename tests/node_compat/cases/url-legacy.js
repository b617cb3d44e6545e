const url = require('url');
const p = url.parse('http://user@host.com:8080/p/a/t/h?query=string#hash', true);
console.log(p.protocol, p.auth, p.host, p.port, p.hostname, p.hash, p.pathname, p.path);
console.log(JSON.stringify(p.query), p.search);
console.log(url.format({ protocol: 'https', hostname: 'ex.com', pathname: '/x', query: { a: 1 } }));
console.log(url.resolve('http://a/b/c', '../d'), url.resolve('/one/two', 'three'));
