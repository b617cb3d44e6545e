// The globals every guest gets besides the ECMAScript built-ins: console,
// timers on virtual time, URL, URLSearchParams, and, made from built-in
// modules on first use, TextEncoder/TextDecoder (js/encoding.js),
// structuredClone (js/clone.js), fetch/Headers/Response (js/fetch.js) and
// Node's (Buffer, process, ...). The globals prelude, evaluated once per
// context before any guest code; `native` holds the host functions and is
// never reachable from guest code.

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
lazyGlobal('TextEncoder', () => requireBuiltin('goccia:encoding').TextEncoder);
lazyGlobal('TextDecoder', () => requireBuiltin('goccia:encoding').TextDecoder);
lazyGlobal('Headers', () => requireBuiltin('goccia:fetch').Headers);
lazyGlobal('Response', () => requireBuiltin('goccia:fetch').Response);
// Functions Node defines as values: they stay values, and make their
// module when first called.
define('fetch', (input, ...init) => requireBuiltin('goccia:fetch').fetch(input, ...init));
define('structuredClone', (value) => requireBuiltin('goccia:clone').structuredClone(value));
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

// Standard input is read once, whole, by its first reader (`process.stdin`,
// `fs.readFileSync(0)`); later readers find it consumed, as in Node.
let stdinTaken = false;
function takeStdin() {
  if (stdinTaken) return new Uint8Array(0);
  stdinTaken = true;
  if (moduleNatives === undefined) moduleNatives = native.moduleNatives();
  return moduleNatives.node.readStdin() ?? new Uint8Array(0);
}

// Internals for the host and the built-in modules only.
const internals = Object.freeze({
  requireBuiltin,
  takeStdin,
  write: (fd, text) => native.write(fd, text),
  // For `goccia:encoding` and `goccia:fetch`: the host's UTF-8 codec and
  // request, and the prelude's own URL (a guest may replace the global).
  encodeUtf8: native.encodeUtf8,
  decodeUtf8: native.decodeUtf8,
  hostFetch: native.fetch,
  URL,
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
