// `readline` (and `readline/promises`): the lines of a readable stream —
// `process.stdin` above all — as Node gives them: a `line` event for each
// line (ended by \n, \r\n or \r; a last line without its end comes when
// the input ends), `close` once, async iteration, `question`. There is no
// terminal: nothing is echoed, and the cursor helpers only say they did
// their (empty) work.

const EventEmitter = require('events');
const { StringDecoder } = require('string_decoder');

const promisesFlavour = moduleName === 'readline/promises';

function argType(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be ${expected}. Received ${internals.inspect(value)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

class Interface extends EventEmitter {
  constructor(input, output, completer, terminal) {
    super();
    const options = input !== null && typeof input === 'object' && typeof input.on !== 'function'
      ? input
      : { input, output, completer, terminal };
    if (options.input === null || typeof options.input !== 'object' || typeof options.input.on !== 'function') {
      throw argType('input', 'an instance of Readable', options.input);
    }
    this.input = options.input;
    this.output = options.output;
    this.terminal = false;
    this.line = '';
    this.closed = false;
    this._prompt = options.prompt === undefined ? '> ' : String(options.prompt);
    this._decoder = new StringDecoder('utf8');
    this._pending = '';
    this._sawReturn = false;
    this._questions = [];
    this._paused = false;
    this._onData = (chunk) => this._take(typeof chunk === 'string' ? chunk : this._decoder.write(chunk));
    this._onEnd = () => {
      this._take(this._decoder.end());
      if (this._pending.length > 0) {
        const last = this._pending;
        this._pending = '';
        this._emitLine(last);
      }
      this.close();
    };
    this.input.on('data', this._onData);
    this.input.on('end', this._onEnd);
  }

  _take(text) {
    let rest = this._pending + text;
    this._pending = '';
    let at = 0;
    for (let i = 0; i < rest.length; i++) {
      const c = rest[i];
      if (c === '\n' || c === '\r') {
        // A \n right after the \r that ended the last line ends nothing.
        if (c === '\n' && i === at && this._sawReturn) { at = i + 1; this._sawReturn = false; continue; }
        this._emitLine(rest.slice(at, i));
        this._sawReturn = c === '\r';
        at = i + 1;
        if (this.closed) return;
      } else {
        this._sawReturn = false;
      }
    }
    rest = rest.slice(at);
    this._pending = rest;
  }

  _emitLine(line) {
    const question = this._questions.shift();
    if (question !== undefined) question(line);
    else this.emit('line', line);
  }

  setPrompt(prompt) { this._prompt = String(prompt); }
  getPrompt() { return this._prompt; }

  prompt() {
    if (this.closed) throw closedError();
    if (this.output && typeof this.output.write === 'function') this.output.write(this._prompt);
  }

  question(query, options, callback) {
    if (typeof options === 'function') callback = options;
    if (this.closed) throw closedError();
    if (this.output && typeof this.output.write === 'function') this.output.write(String(query));
    if (promisesFlavour) return new Promise((resolve) => { this._questions.push(resolve); });
    if (typeof callback === 'function') this._questions.push(callback);
    return undefined;
  }

  write(data) {
    if (this.closed) throw closedError();
    if (typeof data === 'string') this._take(data);
  }

  pause() { if (!this._paused) { this._paused = true; this.input.pause?.(); this.emit('pause'); } return this; }
  resume() { if (this._paused) { this._paused = false; this.input.resume?.(); this.emit('resume'); } return this; }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.input.removeListener('data', this._onData);
    this.input.removeListener('end', this._onEnd);
    this.emit('close');
  }

  getCursorPos() { return { rows: 0, cols: 0 }; }

  [Symbol.asyncIterator]() {
    const lines = [];
    const waiting = [];
    let done = this.closed;
    this.on('line', (line) => {
      const next = waiting.shift();
      if (next) next({ value: line, done: false });
      else lines.push(line);
    });
    this.once('close', () => {
      done = true;
      for (const next of waiting.splice(0)) next({ value: undefined, done: true });
    });
    const iterator = {
      next: () => {
        if (lines.length > 0) return Promise.resolve({ value: lines.shift(), done: false });
        if (done) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => waiting.push(resolve));
      },
      return: () => { this.close(); return Promise.resolve({ value: undefined, done: true }); },
      [Symbol.asyncIterator]() { return iterator; },
    };
    return iterator;
  }
}

function closedError() {
  const err = new Error('readline was closed');
  err.code = 'ERR_USE_AFTER_CLOSE';
  return err;
}

function createInterface(input, output, completer, terminal) {
  return new Interface(input, output, completer, terminal);
}

// No terminal: the cursor and line helpers have nothing to move or clear.
function done(callback) {
  if (typeof callback === 'function') internals.defer(callback);
  return true;
}

const exported = {
  Interface,
  createInterface,
  clearLine: (stream, dir, callback) => done(callback),
  clearScreenDown: (stream, callback) => done(callback),
  cursorTo: (stream, x, y, callback) => done(typeof y === 'function' ? y : callback),
  moveCursor: (stream, dx, dy, callback) => done(callback),
  emitKeypressEvents: () => {},
};
if (!promisesFlavour) {
  exported.promises = require('readline/promises');
}
return exported;
