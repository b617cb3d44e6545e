// The built-in `goccia:fetch`: `fetch`, `Headers` and `Response`, made
// the first time a guest names one of them. A request is refused unless
// the host allowed its target (docs/network.md); the host does the
// request, this wraps its answer.

const { TextEncoder, TextDecoder } = require('goccia:encoding');
const { URL } = internals;

class Headers {
  #map = new Map();
  constructor(init) {
    if (init === undefined || init === null) return;
    const pairs = init instanceof Headers ? [...init.entries()]
      : Array.isArray(init) ? init
      : Object.entries(init);
    for (const pair of pairs) {
      if (!Array.isArray(pair) || pair.length !== 2) throw new TypeError('Headers: each entry must be a [name, value] pair');
      this.append(pair[0], pair[1]);
    }
  }
  append(name, value) {
    const key = String(name).toLowerCase();
    const old = this.#map.get(key);
    this.#map.set(key, old === undefined ? String(value) : `${old}, ${value}`);
  }
  set(name, value) { this.#map.set(String(name).toLowerCase(), String(value)); }
  get(name) { return this.#map.get(String(name).toLowerCase()) ?? null; }
  has(name) { return this.#map.has(String(name).toLowerCase()); }
  delete(name) { this.#map.delete(String(name).toLowerCase()); }
  *entries() { yield* [...this.#map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)); }
  *keys() { for (const [k] of this.entries()) yield k; }
  *values() { for (const [, v] of this.entries()) yield v; }
  forEach(callback, thisArg) { for (const [k, v] of this.entries()) callback.call(thisArg, v, k, this); }
  [Symbol.iterator]() { return this.entries(); }
}

class Response {
  #body;
  #used = false;
  constructor(body, init = {}) {
    this.#body = body === undefined || body === null ? new Uint8Array(0)
      : typeof body === 'string' ? new TextEncoder().encode(body)
      : body instanceof ArrayBuffer ? new Uint8Array(body)
      : body;
    this.status = init.status ?? 200;
    this.statusText = init.statusText ?? '';
    this.headers = new Headers(init.headers);
    this.url = init.url ?? '';
    this.redirected = Boolean(init.redirected);
    this.ok = this.status >= 200 && this.status < 300;
    this.type = 'basic';
  }
  get bodyUsed() { return this.#used; }
  #take() {
    if (this.#used) return internals.Promise.reject(new TypeError('Body is unusable: body has already been read'));
    this.#used = true;
    return internals.Promise.resolve(this.#body);
  }
  arrayBuffer() { return this.#take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); }
  bytes() { return this.#take().then((b) => new Uint8Array(b)); }
  text() { return this.#take().then((b) => new TextDecoder().decode(b)); }
  json() { return this.text().then((t) => JSON.parse(t)); }
}

function fetch(input, init = {}) {
  return new internals.Promise((resolve, reject) => {
    try {
      const url = new URL(input instanceof URL ? input.href : String(input));
      const options = init === null || typeof init !== 'object' ? {} : init;
      let body = options.body;
      if (body !== undefined && body !== null && typeof body !== 'string') {
        if (body instanceof ArrayBuffer) body = new Uint8Array(body);
        else if (!ArrayBuffer.isView(body)) body = String(body);
        else body = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
      }
      const raw = internals.hostFetch(url.href, {
        method: options.method === undefined ? 'GET' : String(options.method),
        headers: [...new Headers(options.headers).entries()],
        body: body ?? null,
      });
      resolve(new Response(raw.body, raw));
    } catch (error) {
      reject(error);
    }
  });
}

return { Headers, Response, fetch };
