// `stream`: Readable, Writable, Duplex, Transform, PassThrough, pipeline
// and finished — Node's model in a smaller form: buffered chunks (bytes
// or objects), flowing and paused reading, pipe with backpressure by
// `drain`, destroy with `error` and `close`, async iteration.

const EventEmitter = require('events');
const { Buffer } = require('buffer');
const tick = (fn, ...args) => queueMicrotask(() => fn(...args));

function toBuffer(chunk, encoding) {
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding);
  if (chunk instanceof Uint8Array && !(chunk instanceof Buffer)) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return chunk;
}

function invalidChunk(chunk) {
  const err = new TypeError(`The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ${internals.inspect(chunk)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

class Stream extends EventEmitter {
  pipe(destination, options) { return Readable.prototype.pipe.call(this, destination, options); }
}

class Readable extends Stream {
  constructor(options = {}) {
    super();
    this._readableState = {
      objectMode: Boolean(options.objectMode || options.readableObjectMode),
      highWaterMark: options.highWaterMark ?? options.readableHighWaterMark ?? (options.objectMode ? 16 : 16384),
      buffer: [],
      length: 0,
      ended: false,
      endEmitted: false,
      flowing: null,
      reading: false,
      encoding: options.encoding ?? null,
      decoder: null,
      pipes: [],
    };
    if (options.encoding) this.setEncoding(options.encoding);
    this.destroyed = false;
    this.readable = true;
    if (typeof options.read === 'function') this._read = options.read;
    if (typeof options.destroy === 'function') this._destroy = options.destroy;
    if (options.signal) options.signal.addEventListener('abort', () => this.destroy(abortError()), { once: true });
  }

  get readableEnded() { return this._readableState.endEmitted; }
  get readableFlowing() { return this._readableState.flowing; }
  get readableLength() { return this._readableState.length; }
  get readableObjectMode() { return this._readableState.objectMode; }
  get readableHighWaterMark() { return this._readableState.highWaterMark; }
  get readableEncoding() { return this._readableState.encoding; }

  _read() {
    const err = new Error('The _read() method is not implemented');
    err.code = 'ERR_METHOD_NOT_IMPLEMENTED';
    this.destroy(err);
  }

  push(chunk, encoding) {
    const state = this._readableState;
    if (chunk === null) {
      state.ended = true;
      state.reading = false;
      tick(() => this._flow());
      return false;
    }
    if (state.ended) {
      const err = new Error('stream.push() after EOF');
      err.code = 'ERR_STREAM_PUSH_AFTER_EOF';
      this.destroy(err);
      return false;
    }
    if (!state.objectMode) {
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) { this.destroy(invalidChunk(chunk)); return false; }
      chunk = toBuffer(chunk, encoding);
      if (state.decoder) chunk = state.decoder.write(chunk);
      if (chunk.length === 0) { state.reading = false; return true; }
    }
    state.buffer.push(chunk);
    state.length += state.objectMode ? 1 : chunk.length;
    state.reading = false;
    tick(() => this._flow());
    return state.length < state.highWaterMark;
  }

  unshift(chunk) {
    const state = this._readableState;
    state.buffer.unshift(chunk);
    state.length += state.objectMode ? 1 : chunk.length;
  }

  read(size) {
    const state = this._readableState;
    let chunk = null;
    if (state.buffer.length > 0) {
      if (state.objectMode || size === undefined) {
        chunk = state.objectMode ? state.buffer.shift() : concat(state.buffer.splice(0), state.decoder !== null);
      } else {
        const all = concat(state.buffer.splice(0), state.decoder !== null);
        chunk = all.slice(0, size);
        if (all.length > size) state.buffer.push(all.slice(size));
      }
      state.length -= state.objectMode ? 1 : chunk.length;
    }
    this._more();
    if (chunk === null && state.ended && state.buffer.length === 0) this._end();
    return chunk;
  }

  _more() {
    const state = this._readableState;
    if (!state.ended && !state.reading && state.length < state.highWaterMark && !this.destroyed) {
      state.reading = true;
      tick(() => { try { this._read(state.highWaterMark); } catch (err) { this.destroy(err); } });
    }
  }

  _flow() {
    const state = this._readableState;
    if (this.destroyed) return;
    while (state.flowing && state.buffer.length > 0) {
      const chunk = state.buffer.shift();
      state.length -= state.objectMode ? 1 : chunk.length;
      this.emit('data', chunk);
    }
    if (state.flowing !== false && state.buffer.length === 0 && state.ended) this._end();
    else if (state.flowing) this._more();
    else if (state.flowing === null && state.buffer.length > 0) this.emit('readable');
  }

  _end() {
    const state = this._readableState;
    if (state.endEmitted) return;
    state.endEmitted = true;
    this.readable = false;
    tick(() => {
      this.emit('end');
      if (!(this instanceof Duplex) || this._writableState.finished) this._close();
    });
  }

  _close() {
    if (this._closed) return;
    this._closed = true;
    tick(() => this.emit('close'));
  }

  on(event, listener) {
    super.on(event, listener);
    if (event === 'data' && this._readableState.flowing !== false) this.resume();
    if (event === 'readable') { this._more(); }
    return this;
  }

  resume() {
    const state = this._readableState;
    state.flowing = true;
    this._more();
    tick(() => this._flow());
    return this;
  }

  pause() { this._readableState.flowing = false; return this; }
  isPaused() { return this._readableState.flowing === false; }

  setEncoding(encoding) {
    const { StringDecoder } = require('string_decoder');
    this._readableState.decoder = new StringDecoder(encoding);
    this._readableState.encoding = this._readableState.decoder.encoding;
    return this;
  }

  pipe(destination, options = {}) {
    const source = this;
    source.on('data', (chunk) => {
      if (destination.write(chunk) === false) {
        source.pause();
        destination.once('drain', () => source.resume());
      }
    });
    if (options.end !== false) source.on('end', () => destination.end());
    destination.emit('pipe', source);
    return destination;
  }

  unpipe() { this.removeAllListeners('data'); return this; }

  destroy(error) {
    if (this.destroyed) return this;
    this.destroyed = true;
    const finish = (err) => {
      if (err) tick(() => this.emit('error', err));
      this._close();
    };
    if (this._destroy) this._destroy(error ?? null, finish);
    else finish(error);
    return this;
  }

  [Symbol.asyncIterator]() {
    const stream = this;
    const chunks = [];
    const waiting = [];
    let done = false;
    let failure = null;
    const settle = () => {
      while (waiting.length > 0 && (chunks.length > 0 || done || failure)) {
        const { resolve, reject } = waiting.shift();
        if (chunks.length > 0) resolve({ value: chunks.shift(), done: false });
        else if (failure) reject(failure);
        else resolve({ value: undefined, done: true });
      }
    };
    stream.on('data', (chunk) => { chunks.push(chunk); settle(); });
    stream.on('end', () => { done = true; settle(); });
    stream.on('error', (err) => { failure = err; settle(); });
    stream.on('close', () => { done = true; settle(); });
    return {
      next: () => new Promise((resolve, reject) => { waiting.push({ resolve, reject }); settle(); }),
      return: () => { done = true; stream.destroy(); return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return this; },
    };
  }

  async toArray() {
    const out = [];
    for await (const chunk of this) out.push(chunk);
    return out;
  }

  static from(iterable, options = {}) {
    if (typeof iterable === 'string' || iterable instanceof Uint8Array) {
      const chunk = iterable;
      let sent = false;
      return new Readable({ objectMode: true, ...options, read() { if (sent) { this.push(null); } else { sent = true; this.push(chunk); } } });
    }
    const iterator = iterable[Symbol.asyncIterator] ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
    return new Readable({
      objectMode: true,
      ...options,
      read() {
        Promise.resolve(iterator.next()).then(({ value, done }) => {
          if (done) this.push(null);
          else Promise.resolve(value).then((v) => this.push(v), (err) => this.destroy(err));
        }, (err) => this.destroy(err));
      },
    });
  }
}

function concat(chunks, strings) {
  if (strings || typeof chunks[0] === 'string') return chunks.join('');
  return Buffer.concat(chunks);
}

function writableState(options) {
  return {
    objectMode: Boolean(options.objectMode || options.writableObjectMode),
    highWaterMark: options.highWaterMark ?? options.writableHighWaterMark ?? (options.objectMode ? 16 : 16384),
    decodeStrings: options.decodeStrings !== false,
    queue: [],
    length: 0,
    writing: false,
    ending: false,
    ended: false,
    finished: false,
    needDrain: false,
  };
}

const writableMethods = {
  write(chunk, encoding, callback) {
    if (typeof encoding === 'function') { callback = encoding; encoding = undefined; }
    const state = this._writableState;
    if (state.ending) {
      const err = new Error('write after end');
      err.code = 'ERR_STREAM_WRITE_AFTER_END';
      tick(() => { callback?.(err); this.emit('error', err); });
      return false;
    }
    if (!state.objectMode) {
      if (chunk === null) { const err = new TypeError('May not write null values to stream'); err.code = 'ERR_STREAM_NULL_VALUES'; throw err; }
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) throw invalidChunk(chunk);
      if (state.decodeStrings || typeof chunk !== 'string') chunk = toBuffer(chunk, encoding);
    }
    state.queue.push({ chunk, encoding: typeof chunk === 'string' ? (encoding ?? 'utf8') : 'buffer', callback });
    state.length += state.objectMode ? 1 : chunk.length;
    const ok = state.length < state.highWaterMark;
    if (!ok) state.needDrain = true;
    this._drain();
    return ok;
  },
  _drain() {
    const state = this._writableState;
    if (state.writing || this.destroyed) return;
    const next = state.queue.shift();
    if (next === undefined) {
      if (state.needDrain) { state.needDrain = false; tick(() => this.emit('drain')); }
      if (state.ending && !state.ended) this._finish();
      return;
    }
    state.writing = true;
    const done = (err) => {
      state.writing = false;
      state.length -= state.objectMode ? 1 : next.chunk.length;
      if (err) {
        tick(() => next.callback?.(err));
        this.destroy(err);
        return;
      }
      tick(() => next.callback?.(null));
      tick(() => this._drain());
    };
    try {
      this._write(next.chunk, next.encoding, done);
    } catch (err) {
      done(err);
    }
  },
  _finish() {
    const state = this._writableState;
    state.ended = true;
    const finished = (err) => {
      if (err) { this.destroy(err); return; }
      state.finished = true;
      this.writable = false;
      tick(() => {
        this.emit('finish');
        if (!(this instanceof Readable) || this._readableState.endEmitted) this._close();
      });
    };
    if (typeof this._final === 'function') this._final(finished);
    else finished();
  },
  end(chunk, encoding, callback) {
    if (typeof chunk === 'function') { callback = chunk; chunk = undefined; }
    else if (typeof encoding === 'function') { callback = encoding; encoding = undefined; }
    if (chunk !== undefined && chunk !== null) this.write(chunk, encoding);
    const state = this._writableState;
    if (callback) this.once('finish', () => callback());
    if (!state.ending) {
      state.ending = true;
      tick(() => this._drain());
    }
    return this;
  },
  cork() {},
  uncork() {},
  setDefaultEncoding() { return this; },
};

class Writable extends Stream {
  constructor(options = {}) {
    super();
    this._writableState = writableState(options);
    this.destroyed = false;
    this.writable = true;
    if (typeof options.write === 'function') this._write = options.write;
    if (typeof options.writev === 'function' && typeof options.write !== 'function') {
      this._write = (chunk, encoding, cb) => options.writev.call(this, [{ chunk, encoding }], cb);
    }
    if (typeof options.final === 'function') this._final = options.final;
    if (typeof options.destroy === 'function') this._destroy = options.destroy;
  }
  get writableEnded() { return this._writableState.ending; }
  get writableFinished() { return this._writableState.finished; }
  get writableLength() { return this._writableState.length; }
  get writableObjectMode() { return this._writableState.objectMode; }
  get writableHighWaterMark() { return this._writableState.highWaterMark; }
  _write() {
    const err = new Error('The _write() method is not implemented');
    err.code = 'ERR_METHOD_NOT_IMPLEMENTED';
    throw err;
  }
  _close() {
    if (this._closed) return;
    this._closed = true;
    tick(() => this.emit('close'));
  }
  destroy(error) { return Readable.prototype.destroy.call(this, error); }
}
Object.assign(Writable.prototype, writableMethods);

class Duplex extends Readable {
  constructor(options = {}) {
    super(options);
    this._writableState = writableState(options);
    this.writable = true;
    if (typeof options.write === 'function') this._write = options.write;
    if (typeof options.final === 'function') this._final = options.final;
    if (options.allowHalfOpen === false) this.once('end', () => this.end());
  }
  get writableEnded() { return this._writableState.ending; }
  get writableFinished() { return this._writableState.finished; }
}
for (const name of ['write', '_drain', '_finish', 'end', 'cork', 'uncork', 'setDefaultEncoding']) {
  Duplex.prototype[name] = writableMethods[name];
}

class Transform extends Duplex {
  constructor(options = {}) {
    super(options);
    if (typeof options.transform === 'function') this._transform = options.transform;
    if (typeof options.flush === 'function') this._flush = options.flush;
  }
  _write(chunk, encoding, callback) {
    this._transform(chunk, encoding, (err, data) => {
      if (err) { callback(err); return; }
      if (data !== undefined && data !== null) this.push(data);
      callback();
    });
  }
  _final(callback) {
    const done = (err, data) => {
      if (err) { callback(err); return; }
      if (data !== undefined && data !== null) this.push(data);
      this.push(null);
      callback();
    };
    if (typeof this._flush === 'function') this._flush(done);
    else done();
  }
  _read() {}
  _transform() {
    const err = new Error('The _transform() method is not implemented');
    err.code = 'ERR_METHOD_NOT_IMPLEMENTED';
    throw err;
  }
}

class PassThrough extends Transform {
  _transform(chunk, encoding, callback) { callback(null, chunk); }
}

function abortError() {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  err.code = 'ABORT_ERR';
  return err;
}

function finished(stream, options, callback) {
  if (typeof options === 'function') { callback = options; options = {}; }
  options = options ?? {};
  let called = false;
  const done = (err) => { if (!called) { called = true; callback(err); } };
  const readable = stream._readableState !== undefined && options.readable !== false;
  const writable = stream._writableState !== undefined && options.writable !== false;
  let ended = !readable || stream._readableState?.endEmitted;
  let finishedWriting = !writable || stream._writableState?.finished;
  const check = () => { if (ended && finishedWriting) done(); };
  stream.on('end', () => { ended = true; check(); });
  stream.on('finish', () => { finishedWriting = true; check(); });
  stream.on('error', (err) => done(err));
  stream.on('close', () => {
    if (!ended || !finishedWriting) {
      const err = new Error('Premature close');
      err.code = 'ERR_STREAM_PREMATURE_CLOSE';
      done(err);
    }
  });
  if (ended && finishedWriting) tick(done);
  return () => {};
}

function pipeline(...streams) {
  const callback = typeof streams[streams.length - 1] === 'function' ? streams.pop() : () => {};
  if (Array.isArray(streams[0])) streams = streams[0];
  const all = streams.map((stream, index) => {
    if (typeof stream === 'function') {
      const produced = stream(index === 0 ? undefined : streams[index - 1]);
      return produced?.on ? produced : Readable.from(produced);
    }
    if (!stream?.on && (stream?.[Symbol.asyncIterator] || stream?.[Symbol.iterator])) return Readable.from(stream);
    return stream;
  });
  let done = false;
  const finish = (err) => {
    if (done) return;
    done = true;
    if (err) for (const stream of all) stream.destroy?.(err);
    callback(err);
  };
  for (let i = 0; i < all.length - 1; i++) all[i].pipe(all[i + 1]);
  for (const stream of all) stream.on('error', finish);
  finished(all[all.length - 1], (err) => finish(err));
  return all[all.length - 1];
}

Stream.Stream = Stream;
Stream.Readable = Readable;
Stream.Writable = Writable;
Stream.Duplex = Duplex;
Stream.Transform = Transform;
Stream.PassThrough = PassThrough;
Stream.pipeline = pipeline;
Stream.finished = finished;
Object.defineProperty(Stream, 'promises', { enumerable: true, get: () => require('stream/promises') });
Stream.isReadable = (stream) => stream instanceof Readable && !stream.destroyed && !stream.readableEnded;
Stream.isErrored = (stream) => Boolean(stream?.errored);
Stream.addAbortSignal = (signal, stream) => { signal.addEventListener('abort', () => stream.destroy(abortError()), { once: true }); return stream; };
return Stream;
