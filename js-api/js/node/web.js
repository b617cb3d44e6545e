// Web platform classes the guest gets as globals: Event, CustomEvent,
// EventTarget, AbortController and AbortSignal, Request; and the glob
// matching `fs.glob` and `path.matchesGlob` share.

class Event {
  #type;
  #defaultPrevented = false;
  #stopped = false;
  constructor(type, options = {}) {
    if (arguments.length === 0) {
      const err = new TypeError('The "type" argument must be specified');
      err.code = 'ERR_MISSING_ARGS';
      throw err;
    }
    this.#type = String(type);
    this.bubbles = Boolean(options.bubbles);
    this.cancelable = Boolean(options.cancelable);
    this.composed = Boolean(options.composed);
    this.timeStamp = 0;
    this.target = null;
    this.currentTarget = null;
    this.eventPhase = 0;
    this.isTrusted = false;
  }
  get type() { return this.#type; }
  get defaultPrevented() { return this.cancelable && this.#defaultPrevented; }
  preventDefault() { this.#defaultPrevented = true; }
  stopPropagation() {}
  stopImmediatePropagation() { this.#stopped = true; }
  get immediateStopped() { return this.#stopped; }
  get [Symbol.toStringTag]() { return 'Event'; }
}
Event.NONE = 0;
Event.CAPTURING_PHASE = 1;
Event.AT_TARGET = 2;
Event.BUBBLING_PHASE = 3;

class CustomEvent extends Event {
  constructor(type, options = {}) {
    super(type, options);
    this.detail = options.detail ?? null;
  }
  get [Symbol.toStringTag]() { return 'CustomEvent'; }
}

const listenersOf = new WeakMap();
class EventTarget {
  constructor() { listenersOf.set(this, new Map()); }
  addEventListener(type, listener, options = {}) {
    if (listener === null || listener === undefined) return;
    const once = typeof options === 'object' ? Boolean(options.once) : false;
    const signal = typeof options === 'object' ? options.signal : undefined;
    if (signal?.aborted) return;
    const map = listenersOf.get(this) ?? new Map();
    listenersOf.set(this, map);
    const list = map.get(type) ?? [];
    if (list.some((entry) => entry.listener === listener)) return;
    const entry = { listener, once };
    list.push(entry);
    map.set(type, list);
    signal?.addEventListener('abort', () => this.removeEventListener(type, listener), { once: true });
  }
  removeEventListener(type, listener) {
    const list = listenersOf.get(this)?.get(type);
    if (!list) return;
    const index = list.findIndex((entry) => entry.listener === listener);
    if (index !== -1) list.splice(index, 1);
  }
  dispatchEvent(event) {
    if (!(event instanceof Event)) {
      const err = new TypeError(`The "event" argument must be an instance of Event. Received ${internals.inspect(event)}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    event.target = this;
    event.currentTarget = this;
    event.eventPhase = 2;
    const handler = this[`on${event.type}`];
    const list = (listenersOf.get(this)?.get(event.type) ?? []).slice();
    if (typeof handler === 'function') handler.call(this, event);
    for (const entry of list) {
      if (entry.once) this.removeEventListener(event.type, entry.listener);
      if (typeof entry.listener === 'function') entry.listener.call(this, event);
      else entry.listener.handleEvent?.(event);
      if (event.immediateStopped) break;
    }
    event.currentTarget = null;
    event.eventPhase = 0;
    return !event.defaultPrevented;
  }
  get [Symbol.toStringTag]() { return 'EventTarget'; }
}

function domException(message, name) {
  const err = new Error(message);
  err.name = name;
  err.code = name === 'AbortError' ? 20 : name === 'TimeoutError' ? 23 : 0;
  return err;
}

class AbortSignal extends EventTarget {
  #aborted = false;
  #reason = undefined;
  constructor(key) {
    if (key !== kCreate) throw new TypeError('Illegal constructor');
    super();
    this.onabort = null;
  }
  get aborted() { return this.#aborted; }
  get reason() { return this.#reason; }
  throwIfAborted() { if (this.#aborted) throw this.#reason; }
  abortWith(reason) {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason === undefined ? domException('This operation was aborted', 'AbortError') : reason;
    this.dispatchEvent(new Event('abort'));
  }
  static abort(reason) {
    const signal = new AbortSignal(kCreate);
    signal.abortWith(reason);
    return signal;
  }
  static timeout(ms) {
    const signal = new AbortSignal(kCreate);
    setTimeout(() => signal.abortWith(domException('The operation was aborted due to timeout', 'TimeoutError')), ms);
    return signal;
  }
  static any(signals) {
    const signal = new AbortSignal(kCreate);
    for (const source of signals) {
      if (source.aborted) { signal.abortWith(source.reason); break; }
      source.addEventListener('abort', () => signal.abortWith(source.reason), { once: true });
    }
    return signal;
  }
  get [Symbol.toStringTag]() { return 'AbortSignal'; }
}
const kCreate = Symbol('create');

class AbortController {
  #signal = new AbortSignal(kCreate);
  get signal() { return this.#signal; }
  abort(reason) { this.#signal.abortWith(reason); }
  get [Symbol.toStringTag]() { return 'AbortController'; }
}

class Request {
  constructor(input, init = {}) {
    const base = input instanceof Request ? input : null;
    this.url = base ? base.url : new URL(String(input)).href;
    this.method = String(init.method ?? base?.method ?? 'GET').toUpperCase();
    this.headers = new (require('goccia:fetch').Headers)(init.headers ?? base?.headers);
    this.body = init.body ?? base?.body ?? null;
    this.signal = init.signal ?? base?.signal ?? new AbortController().signal;
    this.redirect = init.redirect ?? 'follow';
  }
  clone() { return new Request(this); }
  text() { return Promise.resolve(this.body === null ? '' : String(this.body)); }
  json() { return this.text().then((text) => JSON.parse(text)); }
  get [Symbol.toStringTag]() { return 'Request'; }
}

// Glob patterns as regular expressions: `*` and `?` within a name, `**`
// across folders, `[...]` classes, `{a,b}` alternatives.
function globToRegExp(pattern) {
  let out = '^';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '/' && pattern.slice(i) === '/**') {
      // A trailing globstar matches the folder itself too.
      out += '(?:/.*)?';
      break;
    }
    if (c === '*') {
      if (pattern[i + 1] === '*') {
        const slash = pattern[i + 2] === '/';
        out += slash ? '(?:[^/]*(?:/|$))*' : '.*';
        i += slash ? 2 : 1;
      } else {
        out += '[^/]*';
      }
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '[') {
      const end = pattern.indexOf(']', i + 1);
      if (end === -1) { out += '\\['; continue; }
      let body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
      if (body[0] === '!') body = `^${body.slice(1)}`;
      out += `[${body}]`;
      i = end;
    } else if (c === '{') {
      const end = pattern.indexOf('}', i + 1);
      if (end === -1) { out += '\\{'; continue; }
      out += `(?:${pattern.slice(i + 1, end).split(',').map((part) => globToRegExp(part).source.slice(1, -1)).join('|')})`;
      i = end;
    } else {
      out += c.replace(/[.+^$()|\\]/g, '\\$&');
    }
  }
  return new RegExp(`${out}$`);
}

return { Event, CustomEvent, EventTarget, AbortController, AbortSignal, Request, globToRegExp };
