// The globals every guest gets besides the ECMAScript built-ins: console,
// timers on virtual time, TextEncoder/TextDecoder, structuredClone, URL,
// URLSearchParams, fetch. Fragment of the globals prelude, evaluated once
// per context before any guest code; `native` holds the host functions and
// is never reachable from guest code.

const intrinsics = Object.freeze({
  Promise,
  queueMicrotask: globalThis.queueMicrotask,
  ObjectFreeze: Object.freeze,
  JSONParse: JSON.parse,
  JSONStringify: JSON.stringify,
});

// The frames of a stack without goccia's CommonJS loader: its own
// frames, the native call into a module's function, and the ES module
// standing for a CommonJS file (which bears the file's name).
function guestFrames(raw) {
  const lines = raw.split('\n');
  const kept = [];
  const isLoader = (line) => line.includes('(node:goccia:') || line.startsWith('    at runPlainEntry (<goccia prelude>');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (isLoader(line)) {
      if (line.includes('at importCommonJs (') || line.includes('at runPlainEntry (')) i++;
      continue;
    }
    if (line === '    at call (native)' && isLoader(lines[i + 1] ?? '')) continue;
    kept.push(line);
  }
  return kept.join('\n');
}

// `error.stack` as V8 words it: the error's `name: message` line, then
// the frames, the line made when the stack is first read (so a subclass
// that sets `this.name` after `super()` shows its own name). QuickJS keeps
// only the frames; a value assigned to `stack` is returned as given.
{
  const frames = Object.getOwnPropertyDescriptor(Error.prototype, 'stack');
  const errorToString = Error.prototype.toString;
  const shown = new WeakMap();
  if (frames && typeof frames.get === 'function') {
    Object.defineProperty(Error.prototype, 'stack', {
      get() {
        if (shown.has(this)) return shown.get(this);
        const raw = frames.get.call(this);
        if (typeof raw !== 'string') return raw;
        let head;
        try { head = errorToString.call(this); } catch (_) { head = 'Error'; }
        const own = guestFrames(raw.replace(/\n+$/, ''));
        const stack = own === '' ? head : `${head}\n${own}`;
        if (typeof this === 'object' && this !== null) shown.set(this, stack);
        return stack;
      },
      set(value) {
        if (typeof this === 'object' && this !== null) shown.set(this, value);
      },
      configurable: true,
      enumerable: false,
    });
  }
}

// ----- formatting: js/inspect.js, made on first use -----
let formatting;
function formatter() {
  if (formatting === undefined) formatting = requireBuiltin('goccia:inspect');
  return formatting;
}
function inspect(value, options) {
  return formatter().inspect(value, options);
}
inspect.custom = Symbol.for('nodejs.util.inspect.custom');
// Strings alone, with no format directive to apply, print as they are,
// joined by spaces: most console output, with no formatter to make.
function formatWithOptions(args) {
  for (let i = 0; i < args.length; i++) {
    if (typeof args[i] !== 'string') return formatter().formatWithOptions(args);
  }
  if (args.length > 1 && args[0].includes('%')) return formatter().formatWithOptions(args);
  return args.join(' ');
}

function define(name, value) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}

// ----- console -----
let groupIndent = '';
const counts = new Map();
const timers_ = new Map();

function emit(fd, args) {
  let text = formatWithOptions(args);
  if (groupIndent !== '') text = groupIndent + text.split('\n').join('\n' + groupIndent);
  native.write(fd, text + '\n');
}

const console = {
  log: (...args) => emit(1, args),
  info: (...args) => emit(1, args),
  debug: (...args) => emit(1, args),
  warn: (...args) => emit(2, args),
  error: (...args) => emit(2, args),
  trace: (...args) => {
    const err = new Error(formatWithOptions(args));
    err.name = 'Trace';
    emit(2, [String(err.stack).replace(/\n+$/, '')]);
  },
  dir: (value, options) => emit(1, [inspect(value, options)]),
  assert: (condition, ...args) => {
    if (!condition) {
      args[0] = `Assertion failed${args.length === 0 ? '' : `: ${args[0]}`}`;
      emit(2, args);
    }
  },
  count: (label = 'default') => {
    label = String(label);
    const n = (counts.get(label) || 0) + 1;
    counts.set(label, n);
    emit(1, [`${label}: ${n}`]);
  },
  countReset: (label = 'default') => { counts.delete(String(label)); },
  time: (label = 'default') => { timers_.set(String(label), performance.now()); },
  timeLog: (label = 'default', ...args) => {
    const start = timers_.get(String(label));
    if (start === undefined) return emit(2, [`Warning: No such label '${label}' for console.timeLog()`]);
    emit(1, [`${label}: ${(performance.now() - start).toFixed(3)}ms`, ...args]);
  },
  timeEnd: (label = 'default') => {
    const start = timers_.get(String(label));
    if (start === undefined) return emit(2, [`Warning: No such label '${label}' for console.timeEnd()`]);
    timers_.delete(String(label));
    emit(1, [`${label}: ${(performance.now() - start).toFixed(3)}ms`]);
  },
  group: (...args) => { if (args.length) emit(1, args); groupIndent += '  '; },
  groupCollapsed: (...args) => { if (args.length) emit(1, args); groupIndent += '  '; },
  groupEnd: () => { groupIndent = groupIndent.slice(0, -2); },
  table: (data) => emit(1, [data]),
};
define('console', console);
define('global', globalThis);

// ----- timers (virtual time, bounded by the deadline) -----
// Time advances instantly to the next due timer; Date.now() stays real.
// The loop runs Node's phases: the timers due now, then the immediates
// queued before that check phase, then time moves on. A delay below 1 ms
// is 1 ms, as in Node, so an immediate comes before a `setTimeout(f, 0)`.
let virtualNow = 0;
let nextTimerId = 1;
const pending = new Map();
const immediates = new Map();
let checkPhase = 0;

const kTimerId = Symbol('timerId');
// Node's Timeout and Immediate handles; an unref'd timer does not keep
// the run alive.
class Timeout {
  constructor(id) { this[kTimerId] = id; }
  ref() { const t = pending.get(this[kTimerId]); if (t) t.ref = true; return this; }
  unref() { const t = pending.get(this[kTimerId]); if (t) t.ref = false; return this; }
  hasRef() { const t = pending.get(this[kTimerId]); return t ? t.ref : false; }
  refresh() { const t = pending.get(this[kTimerId]); if (t) t.due = virtualNow + t.delay; return this; }
  close() { pending.delete(this[kTimerId]); return this; }
  [Symbol.toPrimitive]() { return this[kTimerId]; }
}
class Immediate {
  constructor(id) { this[kTimerId] = id; }
  ref() { const t = immediates.get(this[kTimerId]); if (t) t.ref = true; return this; }
  unref() { const t = immediates.get(this[kTimerId]); if (t) t.ref = false; return this; }
  hasRef() { const t = immediates.get(this[kTimerId]); return t ? t.ref : false; }
}

function checkCallback(callback) {
  if (typeof callback !== 'function') {
    const err = new TypeError(`The "callback" argument must be of type function. Received ${inspect(callback)}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
}

function schedule(callback, delay, args, repeat) {
  checkCallback(callback);
  delay = Number(delay);
  if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
  const id = nextTimerId++;
  pending.set(id, { id, due: virtualNow + delay, delay, callback, args, repeat, ref: true });
  return new Timeout(id);
}

function timerIdOf(handle) {
  return handle !== null && typeof handle === 'object' ? handle[kTimerId] : Number(handle);
}

define('setTimeout', (callback, delay, ...args) => schedule(callback, delay, args, false));
define('setInterval', (callback, delay, ...args) => schedule(callback, delay, args, true));
define('setImmediate', (callback, ...args) => {
  checkCallback(callback);
  const id = nextTimerId++;
  immediates.set(id, { id, callback, args, ref: true });
  return new Immediate(id);
});
define('clearTimeout', (handle) => { pending.delete(timerIdOf(handle)); });
define('clearInterval', (handle) => { pending.delete(timerIdOf(handle)); });
define('clearImmediate', (handle) => { immediates.delete(timerIdOf(handle)); });

function dueTimer() {
  let best;
  for (const timer of pending.values()) {
    if (best === undefined || timer.due < best.due || (timer.due === best.due && timer.id < best.id)) best = timer;
  }
  return best;
}

// The next macrotask: [virtual time it runs at, how to run it], or
// undefined when nothing that keeps the run alive is left.
function nextMacrotask() {
  const keepsAlive = [...pending.values(), ...immediates.values()].some((t) => t.ref);
  if (!keepsAlive) return undefined;
  const timer = dueTimer();
  if (checkPhase === 0 && timer !== undefined && timer.due <= virtualNow) return [virtualNow, () => fire(timer)];
  if (checkPhase === 0 && immediates.size > 0) checkPhase = nextTimerId;
  if (checkPhase !== 0) {
    for (const immediate of immediates.values()) {
      if (immediate.id >= checkPhase) break;
      return [virtualNow, () => { immediates.delete(immediate.id); immediate.callback(...immediate.args); }];
    }
    checkPhase = 0;
    if (timer !== undefined && timer.due <= virtualNow) return [virtualNow, () => fire(timer)];
    if (immediates.size > 0) return nextMacrotask();
  }
  return timer === undefined ? undefined : [timer.due, () => fire(timer)];
}

function fire(timer) {
  virtualNow = Math.max(virtualNow, timer.due);
  if (timer.repeat) timer.due = virtualNow + timer.delay;
  else pending.delete(timer.id);
  timer.callback(...timer.args);
}

// `process.nextTick` callbacks: run after the current macrotask, before
// its promise jobs (the runner calls `runTicks` after each timer and
// before draining jobs; CommonJS runs them right after the main module).
const ticks = [];
function runTicks() {
  let ran = 0;
  while (ticks.length > 0) {
    const [callback, args] = ticks.shift();
    ran++;
    callback(...args);
  }
  return ran;
}

// ----- TextEncoder / TextDecoder (UTF-8) -----
class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input = '') { return native.encodeUtf8(String(input)); }
  encodeInto(source, destination) {
    const bytes = native.encodeUtf8(String(source));
    let read = 0;
    let written = 0;
    for (const ch of String(source)) {
      const size = new Uint8Array(native.encodeUtf8(ch)).length;
      if (written + size > destination.length) break;
      destination.set(bytes.subarray(written, written + size), written);
      written += size;
      read += ch.length;
    }
    return { read, written };
  }
}
const utf8Labels = ['utf-8', 'utf8', 'unicode-1-1-utf-8'];
class TextDecoder {
  #fatal;
  #ignoreBOM;
  constructor(label = 'utf-8', options = {}) {
    if (!utf8Labels.includes(String(label).trim().toLowerCase())) {
      throw new RangeError(`The "${label}" encoding is not supported`);
    }
    this.#fatal = Boolean(options && options.fatal);
    this.#ignoreBOM = Boolean(options && options.ignoreBOM);
  }
  get encoding() { return 'utf-8'; }
  get fatal() { return this.#fatal; }
  get ignoreBOM() { return this.#ignoreBOM; }
  decode(input = new Uint8Array(0)) {
    let bytes;
    if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
    else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    else throw new TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView');
    let text = native.decodeUtf8(bytes, this.#fatal);
    if (!this.#ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text;
  }
}
define('TextEncoder', TextEncoder);
define('TextDecoder', TextDecoder);

// ----- structuredClone -----
function cloneError(message) {
  return new DOMException(message, 'DataCloneError');
}
function structuredCloneImpl(value, memory) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    if (typeof value === 'symbol') throw cloneError(`${value.toString()} could not be cloned.`);
    return value;
  }
  if (typeof value === 'function') throw cloneError(`${formatter().functionBase(value)} could not be cloned.`);
  if (memory.has(value)) return memory.get(value);
  let out;
  if (Array.isArray(value)) {
    out = new Array(value.length);
    memory.set(value, out);
    for (const key of Object.keys(value)) out[key] = structuredCloneImpl(value[key], memory);
    return out;
  }
  if (value instanceof Date) out = new Date(value.getTime());
  else if (value instanceof RegExp) out = new RegExp(value.source, value.flags);
  else if (value instanceof Boolean || value instanceof Number || value instanceof String) out = Object(value.valueOf());
  else if (value instanceof ArrayBuffer) out = value.slice(0);
  else if (value instanceof DataView) {
    out = new DataView(structuredCloneImpl(value.buffer, memory), value.byteOffset, value.byteLength);
  } else if (ArrayBuffer.isView(value)) {
    out = new value.constructor(structuredCloneImpl(value.buffer, memory), value.byteOffset, value.length);
  } else if (value instanceof Map) {
    out = new Map();
    memory.set(value, out);
    for (const [k, v] of value) out.set(structuredCloneImpl(k, memory), structuredCloneImpl(v, memory));
    return out;
  } else if (value instanceof Set) {
    out = new Set();
    memory.set(value, out);
    for (const v of value) out.add(structuredCloneImpl(v, memory));
    return out;
  } else if (value instanceof Error) {
    const ctors = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
    const Ctor = ctors[value.name] || Error;
    out = new Ctor(value.message);
    memory.set(value, out);
    if (typeof value.stack === 'string') out.stack = value.stack;
    if ('cause' in value) out.cause = structuredCloneImpl(value.cause, memory);
    return out;
  } else if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) {
    throw cloneError(`${formatter().constructorName(value)} object could not be cloned.`);
  } else {
    out = {};
    memory.set(value, out);
    for (const key of Object.keys(value)) out[key] = structuredCloneImpl(value[key], memory);
    return out;
  }
  memory.set(value, out);
  return out;
}
define('structuredClone', (value) => structuredCloneImpl(value, new Map()));

// ----- URL / URLSearchParams (WHATWG parsing by the host's `url` crate) -----
const urlFields = ['href', 'protocol', 'username', 'password', 'host', 'hostname', 'port', 'pathname', 'search', 'hash', 'origin'];

function formEncode(text) {
  return encodeURIComponent(text).replace(/%20/g, '+').replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}
function formDecode(text) {
  try { return decodeURIComponent(text.replace(/\+/g, ' ')); } catch (_) { return text; }
}

// Hidden state of URL and URLSearchParams objects, out of guest reach.
const urlParts = new WeakMap();
const paramsOf = new WeakMap();
const paramsState = new WeakMap();

function parseQuery(text) {
  const list = [];
  if (text.startsWith('?')) text = text.slice(1);
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const k = eq === -1 ? part : part.slice(0, eq);
    const v = eq === -1 ? '' : part.slice(eq + 1);
    list.push([formDecode(k), formDecode(v)]);
  }
  return list;
}

class URLSearchParams {
  constructor(init = '') {
    const state = { list: [], url: null };
    paramsState.set(this, state);
    if (typeof init === 'object' && init !== null) {
      if (typeof init[Symbol.iterator] === 'function') {
        for (const pair of init) {
          const [k, v] = Array.from(pair);
          state.list.push([String(k), String(v)]);
        }
      } else {
        for (const key of Object.keys(init)) state.list.push([key, String(init[key])]);
      }
    } else {
      state.list = parseQuery(String(init));
    }
  }
  get size() { return listOf(this).length; }
  append(name, value) { listOf(this).push([String(name), String(value)]); syncUrl(this); }
  delete(name, value) {
    name = String(name);
    const state = paramsState.get(this);
    state.list = state.list.filter(([k, v]) => k !== name || (value !== undefined && v !== String(value)));
    syncUrl(this);
  }
  get(name) { const hit = listOf(this).find(([k]) => k === String(name)); return hit ? hit[1] : null; }
  getAll(name) { return listOf(this).filter(([k]) => k === String(name)).map(([, v]) => v); }
  has(name, value) { return listOf(this).some(([k, v]) => k === String(name) && (value === undefined || v === String(value))); }
  set(name, value) {
    name = String(name);
    const state = paramsState.get(this);
    const index = state.list.findIndex(([k]) => k === name);
    if (index === -1) state.list.push([name, String(value)]);
    else {
      state.list[index][1] = String(value);
      state.list = state.list.filter(([k], i) => k !== name || i === index);
    }
    syncUrl(this);
  }
  sort() { listOf(this).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)); syncUrl(this); }
  forEach(callback, thisArg) { for (const [k, v] of listOf(this)) callback.call(thisArg, v, k, this); }
  keys() { return listOf(this).map(([k]) => k)[Symbol.iterator](); }
  values() { return listOf(this).map(([, v]) => v)[Symbol.iterator](); }
  entries() { return listOf(this).map(([k, v]) => [k, v])[Symbol.iterator](); }
  [Symbol.iterator]() { return this.entries(); }
  toString() { return listOf(this).map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join('&'); }
  get [Symbol.toStringTag]() { return 'URLSearchParams'; }
}

function listOf(params) {
  const state = paramsState.get(params);
  if (state === undefined) throw new TypeError('Illegal invocation');
  return state.list;
}

function syncUrl(params) {
  const state = paramsState.get(params);
  if (state.url === null) return;
  const text = params.toString();
  const parts = native.urlSet(urlParts.get(state.url)[0], 'search', text);
  if (parts != null) urlParts.set(state.url, parts);
}

function attachParams(url, parts) {
  let params = paramsOf.get(url);
  if (params === undefined) {
    params = new URLSearchParams();
    paramsOf.set(url, params);
    paramsState.get(params).url = url;
  }
  paramsState.get(params).list = parseQuery(parts[8]);
}

function partsOf(url) {
  const parts = urlParts.get(url);
  if (parts === undefined) throw new TypeError('Illegal invocation');
  return parts;
}

class URL {
  constructor(input, base) {
    const parts = native.urlParse(String(input), base === undefined ? undefined : String(base));
    if (parts == null) {
      const err = new TypeError('Invalid URL');
      err.code = 'ERR_INVALID_URL';
      err.input = String(input);
      throw err;
    }
    urlParts.set(this, parts);
    attachParams(this, parts);
  }
  static canParse(input, base) {
    return native.urlParse(String(input), base === undefined ? undefined : String(base)) != null;
  }
  static parse(input, base) {
    try { return new URL(input, base); } catch (_) { return null; }
  }
  get searchParams() { partsOf(this); return paramsOf.get(this); }
  toString() { return partsOf(this)[0]; }
  toJSON() { return partsOf(this)[0]; }
  get [Symbol.toStringTag]() { return 'URL'; }
}
urlFields.forEach((field, index) => {
  Object.defineProperty(URL.prototype, field, {
    get() { return partsOf(this)[index]; },
    set: field === 'origin' ? undefined : function (value) {
      const parts = native.urlSet(partsOf(this)[0], field, String(value));
      if (parts == null) {
        if (field === 'href') throw new TypeError('Invalid URL');
        return;
      }
      urlParts.set(this, parts);
      if (field === 'search' || field === 'href') attachParams(this, parts);
    },
    enumerable: true,
    configurable: true,
  });
});
define('URL', URL);
define('URLSearchParams', URLSearchParams);

// ----- fetch: refused unless the host allowed the target (contract §8) -----
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
    if (this.#used) return intrinsics.Promise.reject(new TypeError('Body is unusable: body has already been read'));
    this.#used = true;
    return intrinsics.Promise.resolve(this.#body);
  }
  arrayBuffer() { return this.#take().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)); }
  bytes() { return this.#take().then((b) => new Uint8Array(b)); }
  text() { return this.#take().then((b) => new TextDecoder().decode(b)); }
  json() { return this.text().then((t) => JSON.parse(t)); }
}

define('Headers', Headers);
define('Response', Response);
define('fetch', (input, init = {}) => new intrinsics.Promise((resolve, reject) => {
  try {
    const url = new URL(input instanceof URL ? input.href : String(input));
    const options = init === null || typeof init !== 'object' ? {} : init;
    let body = options.body;
    if (body !== undefined && body !== null && typeof body !== 'string') {
      if (body instanceof ArrayBuffer) body = new Uint8Array(body);
      else if (!ArrayBuffer.isView(body)) body = String(body);
      else body = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
    }
    const raw = native.fetch(url.href, {
      method: options.method === undefined ? 'GET' : String(options.method),
      headers: [...new Headers(options.headers).entries()],
      body: body ?? null,
    });
    resolve(new Response(raw.body, raw));
  } catch (error) {
    reject(error);
  }
}));

// ----- the built-in modules (Node's and goccia's) -----
// Each is a factory compiled to bytecode at build time and made on first
// use, by `import` and `require` alike (one instance per run).
const builtins = new Map();
let moduleNatives;
function requireBuiltin(name) {
  let exports = builtins.get(name);
  if (exports !== undefined) return exports;
  const factory = native.loadFactory(name);
  if (factory === null) throw new Error(`no built-in module ${name}`);
  if (moduleNatives === undefined) moduleNatives = native.moduleNatives();
  exports = factory(requireBuiltin, moduleNatives, internals);
  builtins.set(name, exports);
  return exports;
}

// Globals made on first use (their modules cost nothing until then).
function lazyGlobal(name, make) {
  Object.defineProperty(globalThis, name, {
    get() { const value = make(); define(name, value); return value; },
    set(value) { define(name, value); },
    configurable: true,
    enumerable: false,
  });
}
lazyGlobal('Buffer', () => requireBuiltin('buffer').Buffer);
lazyGlobal('process', () => requireBuiltin('process'));
lazyGlobal('EventTarget', () => requireBuiltin('goccia:web').EventTarget);
lazyGlobal('Event', () => requireBuiltin('goccia:web').Event);
lazyGlobal('CustomEvent', () => requireBuiltin('goccia:web').CustomEvent);
lazyGlobal('AbortController', () => requireBuiltin('goccia:web').AbortController);
lazyGlobal('AbortSignal', () => requireBuiltin('goccia:web').AbortSignal);
lazyGlobal('Request', () => requireBuiltin('goccia:web').Request);
lazyGlobal('crypto', () => requireBuiltin('crypto').webcrypto);
define('atob', (data) => requireBuiltin('buffer').atob(data));
define('btoa', (data) => requireBuiltin('buffer').btoa(data));

// The `{}` each CommonJS module starts with: a CommonJS entry that
// leaves it empty has no result (the runner asks).
const initialExports = new WeakSet();

// A CommonJS entry whose source names none of the module system's
// bindings (`require`, `module`, `exports`, ..., checked by the host's
// loader): nothing in it can tell whether the module system exists, so it
// runs as Node runs a main module, without it — Node's wrapper, `this` the
// empty exports, the main module's ticks before its promise jobs — and
// the module system is made only when something asks for it.
function runPlainEntry(filename, dirname, source) {
  if (source.charCodeAt(0) === 0xfeff) source = source.slice(1);
  if (source.startsWith('#!')) source = `//${source.slice(2)}`;
  const exports = {};
  initialExports.add(exports);
  native.compileCommonJs(source, filename).call(exports, exports, undefined, undefined, filename, dirname);
  runTicks();
  return exports;
}

// Internals for the host and the built-in modules only.
const internals = Object.freeze({
  requireBuiltin,
  write: (fd, text) => native.write(fd, text),
  Headers,
  Response,
  inspect,
  format: formatWithOptions,
  hasTimers: () => nextMacrotask() !== undefined,
  nextTimerDue: () => { const next = nextMacrotask(); return next === undefined ? -1 : next[0]; },
  runNextTimer: () => {
    const next = nextMacrotask();
    if (next === undefined) return false;
    next[1]();
    return true;
  },
  // The settling of an fs callback or promise: a timer due now.
  defer: (fn) => { const id = nextTimerId++; pending.set(id, { id, due: virtualNow, delay: 0, callback: fn, args: [], repeat: false, ref: true }); },
  queueTick: (callback, args) => { ticks.push([callback, args]); },
  initialExports,
  runPlainEntry,
  runTicks,
  Promise: intrinsics.Promise,
  // Captured before any guest code runs: the built-in modules do not use
  // what a guest may have replaced.
  JSONParse: intrinsics.JSONParse,
  JSONStringify: intrinsics.JSONStringify,
});
return internals;
