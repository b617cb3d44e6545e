const h = new Headers({ 'Content-Type': 'text/plain', 'X-A': '1' });
h.append('x-a', '2');
console.log(h.get('content-type'), h.get('X-A'), h.has('x-b'), [...h.keys()].join(','));
const res = new Response('body text', { status: 201, headers: { 'x-r': 'y' } });
console.log(res.status, res.ok, res.headers.get('x-r'));
res.text().then((t) => console.log(t));
const req = new Request('https://example.com/a?b=1', { method: 'POST', body: 'p' });
console.log(req.method, req.url);
console.log(typeof performance.now(), performance.now() >= 0);
