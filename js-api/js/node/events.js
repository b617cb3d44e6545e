// `events`: EventEmitter as Node's (listeners in order, once, prepend,
// `error` with no listener throws, `newListener`/`removeListener`, the
// max-listeners warning), `once` (a promise) and `on` (an async iterator).

const kCapture = Symbol('kCapture');
const errorMonitor = Symbol('events.errorMonitor');
let defaultMaxListeners = 10;

function checkListener(listener) {
  if (typeof listener !== 'function') {
    const err = new TypeError(`The "listener" argument must be of type function. Received ${internals.inspect(listener)}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
}

function EventEmitter(options) {
  EventEmitter.init.call(this, options);
}

EventEmitter.init = function init() {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
};

EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;

Object.defineProperty(EventEmitter, 'defaultMaxListeners', {
  enumerable: true,
  get() { return defaultMaxListeners; },
  set(n) { defaultMaxListeners = n; },
});

EventEmitter.prototype.setMaxListeners = function setMaxListeners(n) {
  this._maxListeners = n;
  return this;
};

EventEmitter.prototype.getMaxListeners = function getMaxListeners() {
  return this._maxListeners === undefined ? defaultMaxListeners : this._maxListeners;
};

EventEmitter.prototype.emit = function emit(type, ...args) {
  const events = this._events;
  if (type === 'error' && events !== undefined && events[errorMonitor] !== undefined) {
    this.emit(errorMonitor, ...args);
  }
  const handler = events === undefined ? undefined : events[type];
  if (handler === undefined) {
    if (type === 'error') {
      const er = args[0];
      if (er instanceof Error) throw er;
      const err = new Error(`Unhandled error. (${internals.inspect(er)})`);
      err.code = 'ERR_UNHANDLED_ERROR';
      err.context = er;
      throw err;
    }
    return false;
  }
  if (typeof handler === 'function') {
    handler.apply(this, args);
  } else {
    for (const listener of handler.slice()) listener.apply(this, args);
  }
  return true;
};

function addListener(target, type, listener, prepend) {
  checkListener(listener);
  let events = target._events;
  if (events === undefined) {
    events = target._events = Object.create(null);
    target._eventsCount = 0;
  } else if (events.newListener !== undefined) {
    target.emit('newListener', type, listener.listener ? listener.listener : listener);
    events = target._events;
  }
  const existing = events[type];
  if (existing === undefined) {
    events[type] = listener;
    ++target._eventsCount;
  } else {
    const list = typeof existing === 'function' ? [existing] : existing;
    if (prepend) list.unshift(listener); else list.push(listener);
    events[type] = list;
    const max = target.getMaxListeners();
    if (max > 0 && list.length > max && !list.warned) {
      list.warned = true;
      const name = typeof type === 'symbol' ? type.toString() : type;
      require('process').emitWarning(
        `Possible EventEmitter memory leak detected. ${list.length} ${name} listeners added to ${internals.inspect(target, { depth: -1 })}. MaxListeners is ${max}. Use emitter.setMaxListeners() to increase limit`,
        'MaxListenersExceededWarning',
      );
    }
  }
  return target;
}

EventEmitter.prototype.addListener = function (type, listener) { return addListener(this, type, listener, false); };
EventEmitter.prototype.on = EventEmitter.prototype.addListener;
EventEmitter.prototype.prependListener = function (type, listener) { return addListener(this, type, listener, true); };

function onceWrapper(target, type, listener) {
  const state = { fired: false, target, type, listener };
  function wrapped(...args) {
    if (!state.fired) {
      state.target.removeListener(state.type, wrapped);
      state.fired = true;
      return state.listener.apply(state.target, args);
    }
  }
  wrapped.listener = listener;
  return wrapped;
}

EventEmitter.prototype.once = function once(type, listener) {
  checkListener(listener);
  this.on(type, onceWrapper(this, type, listener));
  return this;
};

EventEmitter.prototype.prependOnceListener = function (type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrapper(this, type, listener));
  return this;
};

EventEmitter.prototype.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    if (--this._eventsCount === 0) this._events = Object.create(null);
    else delete events[type];
    if (events.removeListener) this.emit('removeListener', type, list.listener || listener);
  } else if (typeof list !== 'function') {
    let position = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) { position = i; break; }
    }
    if (position < 0) return this;
    const [removed] = list.splice(position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit('removeListener', type, removed.listener || listener);
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

EventEmitter.prototype.removeAllListeners = function removeAllListeners(type) {
  const events = this._events;
  if (events === undefined) return this;
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = Object.create(null);
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = Object.create(null);
      else delete events[type];
    }
    return this;
  }
  if (arguments.length === 0) {
    for (const key of Reflect.ownKeys(events)) {
      if (key === 'removeListener') continue;
      this.removeAllListeners(key);
    }
    this.removeAllListeners('removeListener');
    this._events = Object.create(null);
    this._eventsCount = 0;
    return this;
  }
  const listeners = events[type];
  if (typeof listeners === 'function') this.removeListener(type, listeners);
  else if (listeners !== undefined) for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  return this;
};

function listenersOf(target, type, unwrap) {
  const events = target._events;
  if (events === undefined) return [];
  const listener = events[type];
  if (listener === undefined) return [];
  if (typeof listener === 'function') return unwrap ? [listener.listener || listener] : [listener];
  return unwrap ? listener.map((l) => l.listener || l) : listener.slice();
}

EventEmitter.prototype.listeners = function (type) { return listenersOf(this, type, true); };
EventEmitter.prototype.rawListeners = function (type) { return listenersOf(this, type, false); };
EventEmitter.prototype.listenerCount = function (type, listener) {
  const list = listenersOf(this, type, true);
  return listener === undefined ? list.length : list.filter((l) => l === listener).length;
};
EventEmitter.listenerCount = (emitter, type) => emitter.listenerCount(type);
EventEmitter.prototype.eventNames = function () {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};

function once(emitter, name, options = {}) {
  return new Promise((resolve, reject) => {
    const signal = options.signal;
    if (signal?.aborted) {
      reject(abortError(signal));
      return;
    }
    const onError = (err) => { emitter.removeListener(name, resolver); reject(err); };
    const resolver = (...args) => {
      if (name !== 'error') emitter.removeListener('error', onError);
      resolve(args);
    };
    if (typeof emitter.addEventListener === 'function') {
      emitter.addEventListener(name, (...args) => resolve(args), { once: true });
      return;
    }
    emitter.once(name, resolver);
    if (name !== 'error') emitter.once('error', onError);
    signal?.addEventListener('abort', () => {
      emitter.removeListener(name, resolver);
      emitter.removeListener('error', onError);
      reject(abortError(signal));
    }, { once: true });
  });
}

function abortError(signal) {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  err.code = 'ABORT_ERR';
  err.cause = signal?.reason;
  return err;
}

function on(emitter, event, options = {}) {
  const queue = [];
  const waiting = [];
  let error = null;
  let finished = false;
  const handler = (...args) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve({ value: args, done: false });
    else queue.push(args);
  };
  const errorHandler = (err) => {
    finished = true;
    const waiter = waiting.shift();
    if (waiter) waiter.reject(err);
    else error = err;
    iterator.return();
  };
  emitter.on(event, handler);
  if (event !== 'error') emitter.on('error', errorHandler);
  const iterator = {
    next() {
      if (queue.length) return Promise.resolve({ value: queue.shift(), done: false });
      if (error) { const err = error; error = null; return Promise.reject(err); }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return() {
      emitter.removeListener(event, handler);
      emitter.removeListener('error', errorHandler);
      finished = true;
      for (const waiter of waiting.splice(0)) waiter.resolve({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) { error = err; emitter.removeListener(event, handler); return Promise.reject(err); },
    [Symbol.asyncIterator]() { return this; },
  };
  options.signal?.addEventListener('abort', () => errorHandler(abortError(options.signal)), { once: true });
  return iterator;
}

EventEmitter.EventEmitter = EventEmitter;
EventEmitter.once = once;
EventEmitter.on = on;
EventEmitter.errorMonitor = errorMonitor;
EventEmitter.captureRejections = false;
EventEmitter.captureRejectionSymbol = Symbol.for('nodejs.rejection');
EventEmitter.getEventListeners = (emitter, name) => (typeof emitter.listeners === 'function' ? emitter.listeners(name) : []);
EventEmitter.setMaxListeners = (n, ...targets) => {
  if (targets.length === 0) defaultMaxListeners = n;
  for (const target of targets) target.setMaxListeners?.(n);
};
EventEmitter.usingDomains = false;
void kCapture;
return EventEmitter;
