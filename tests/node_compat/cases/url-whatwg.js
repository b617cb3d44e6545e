const u = new URL('https://user:pw@example.com:8080/a/b?x=1&y=two#frag');
console.log(u.protocol, u.username, u.password, u.host, u.hostname, u.port);
console.log(u.pathname, u.search, u.hash, u.origin);
u.searchParams.append('z', '3');
u.pathname = '/c';
console.log(u.href);
console.log(new URL('../x?q', 'http://h/a/b/c').href);
