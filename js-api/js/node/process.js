// `process`, deterministic and with nothing ambient (contract §11): argv
// is ["/usr/bin/node", <entry>], env only what the host passed with
// --env, cwd()/chdir() the session's, exit()/exitCode end the run with
// that code, fixed platform and versions, a monotonic hrtime.

const { node } = natives;
const EventEmitter = require('events');

function writer(fd) {
  const stream = new EventEmitter();
  stream.fd = fd;
  stream.isTTY = false;
  stream.writable = true;
  stream.columns = 80;
  stream.write = (chunk, encoding, callback) => {
    if (typeof encoding === 'function') { callback = encoding; encoding = undefined; }
    let text;
    if (typeof chunk === 'string') text = chunk;
    else if (chunk instanceof Uint8Array) text = require('buffer').Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString(encoding);
    else {
      const err = new TypeError(`The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ${internals.inspect(chunk)}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    internals.write(fd, text);
    if (typeof callback === 'function') internals.defer(callback);
    return true;
  };
  stream.end = (chunk, encoding, callback) => {
    if (chunk !== undefined && typeof chunk !== 'function') stream.write(chunk, encoding);
    const done = typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') internals.defer(done);
    return stream;
  };
  stream.cork = () => {};
  stream.uncork = () => {};
  stream.getColorDepth = () => 1;
  stream.hasColors = () => false;
  return stream;
}

const process = new EventEmitter();
const startNs = node.monotonicNs();

function hrtime(previous) {
  const now = node.monotonicNs();
  let seconds = Math.floor(now / 1e9);
  let nanos = Math.floor(now % 1e9);
  if (previous !== undefined) {
    seconds -= previous[0];
    nanos -= previous[1];
    if (nanos < 0) { seconds -= 1; nanos += 1e9; }
  }
  return [seconds, nanos];
}
hrtime.bigint = () => BigInt(Math.floor(node.monotonicNs()));

let exitCode;
Object.assign(process, {
  title: 'node',
  version: 'v20.0.0',
  versions: Object.freeze({ node: '20.0.0', v8: '0.0', uv: '0.0', modules: '115', goccia: '0.1.0' }),
  arch: 'x64',
  platform: 'linux',
  release: Object.freeze({ name: 'node' }),
  argv: ['/usr/bin/node', node.entry()],
  argv0: 'node',
  execArgv: [],
  execPath: '/usr/bin/node',
  env: node.env(),
  pid: 1,
  ppid: 0,
  features: {},
  config: { variables: {} },
  stdout: writer(1),
  stderr: writer(2),
  cwd: () => node.cwd(),
  chdir: (directory) => {
    if (typeof directory !== 'string') {
      const err = new TypeError(`The "directory" argument must be of type string. Received ${internals.inspect(directory)}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    node.chdir(directory);
  },
  exit: (code) => {
    const final = code === undefined ? (exitCode ?? 0) : Number(code) | 0;
    process.emit('exit', final);
    node.exit(final);
  },
  abort: () => node.exit(134),
  hrtime,
  uptime: () => (node.monotonicNs() - startNs) / 1e9,
  memoryUsage: Object.assign(() => {
    const heapUsed = node.heapUsed();
    return { rss: heapUsed, heapTotal: heapUsed, heapUsed, external: 0, arrayBuffers: 0 };
  }, { rss: () => node.heapUsed() }),
  cpuUsage: () => ({ user: 0, system: 0 }),
  resourceUsage: () => ({ userCPUTime: 0, systemCPUTime: 0, maxRSS: 0 }),
  nextTick: (callback, ...args) => {
    if (typeof callback !== 'function') {
      const err = new TypeError(`The "callback" argument must be of type function. Received ${internals.inspect(callback)}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    internals.queueTick(callback, args);
  },
  emitWarning: (warning, type = 'Warning', code) => {
    if (typeof type === 'object' && type !== null) { code = type.code; type = type.type ?? 'Warning'; }
    const name = warning instanceof Error ? warning.name : type;
    const message = warning instanceof Error ? warning.message : String(warning);
    internals.write(2, `(node:1) ${code ? `[${code}] ` : ''}${name}: ${message}\n`);
  },
  umask: () => 0o22,
  getuid: () => 1000,
  geteuid: () => 1000,
  getgid: () => 1000,
  getegid: () => 1000,
  getgroups: () => [1000],
  kill: () => { const err = new Error('kill is not available in the sandbox'); err.code = 'ERR_SANDBOX_UNSUPPORTED'; throw err; },
  binding: () => { const err = new Error('process.binding is not available in the sandbox'); err.code = 'ERR_SANDBOX_UNSUPPORTED'; throw err; },
});
Object.defineProperty(process, 'exitCode', {
  enumerable: true,
  get: () => exitCode,
  set: (code) => {
    exitCode = code === undefined || code === null ? undefined : Number(code) | 0;
    node.setExitCode(exitCode);
  },
});
// A readable stream of the run's standard input (the calling shell's, for
// `node` and `goccia` run from the shell; none, so at once ended, for a
// top-level run), made on first use and read when first consumed.
let stdin;
Object.defineProperty(process, 'stdin', {
  enumerable: true,
  configurable: true,
  get() {
    if (stdin === undefined) {
      const { Readable } = require('stream');
      const { Buffer } = require('buffer');
      stdin = new Readable({
        read() {
          const bytes = internals.takeStdin();
          if (bytes.length > 0) this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
          this.push(null);
        },
      });
      Object.assign(stdin, { fd: 0, isTTY: false });
    }
    return stdin;
  },
  set(value) { stdin = value; },
});
Object.defineProperty(process, Symbol.toStringTag, { value: 'process' });
return process;
