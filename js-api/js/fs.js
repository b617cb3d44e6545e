// The guest's `fs` module (contract §3): Node-shaped sync, callback and
// promise forms over the host's synchronous VFS operations. Callbacks and
// promises settle on a later macrotask, after the call has returned.
const native = natives.fs;
const { policy } = natives;

const { defer, inspect, Promise } = internals;

const constants = Object.freeze({
  F_OK: 0, R_OK: 4, W_OK: 2, X_OK: 1,
  COPYFILE_EXCL: 1, COPYFILE_FICLONE: 2, COPYFILE_FICLONE_FORCE: 4,
  S_IFMT: 0o170000, S_IFREG: 0o100000, S_IFDIR: 0o040000, S_IFLNK: 0o120000,
});

function received(value) {
  if (value === null || value === undefined) return ` Received ${value}`;
  if (typeof value === 'function') return ` Received function ${value.name || '<anonymous>'}`;
  if (typeof value === 'object') {
    const name = value.constructor && value.constructor.name;
    return name ? ` Received an instance of ${name}` : ` Received ${inspect(value)}`;
  }
  let shown = inspect(value);
  if (shown.length > 28) shown = `${shown.slice(0, 25)}...`;
  return ` Received type ${typeof value} (${shown})`;
}

function argTypeError(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be ${expected}.${received(value)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function toPath(value, name = 'path') {
  if (typeof value === 'string') return value;
  if (value instanceof URL) {
    if (value.protocol !== 'file:') {
      const err = new TypeError('The URL must be of scheme file');
      err.code = 'ERR_INVALID_URL_SCHEME';
      throw err;
    }
    return decodeURIComponent(value.pathname);
  }
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  throw argTypeError(name, 'of type string or an instance of Buffer or URL', value);
}

const encodings = ['utf8', 'utf-8', 'base64', 'base64url', 'hex', 'latin1', 'binary', 'ascii', 'utf16le', 'ucs2', 'ucs-2', 'utf-16le'];

function checkEncoding(encoding) {
  if (encoding === null || encoding === undefined || encoding === 'buffer') return null;
  if (typeof encoding !== 'string' || !encodings.includes(encoding.toLowerCase())) {
    const err = new TypeError(`The argument 'encoding' is invalid encoding. Received ${inspect(encoding)}`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  return encoding.toLowerCase();
}

function optionsOf(options, defaults) {
  if (options === null || options === undefined || typeof options === 'function') return { ...defaults };
  if (typeof options === 'string') return { ...defaults, encoding: options };
  if (typeof options !== 'object') throw argTypeError('options', 'of type object', options);
  return { ...defaults, ...options };
}

function toData(data) {
  if (typeof data === 'string') return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  throw argTypeError('data', 'of type string or an instance of Buffer, TypedArray, or DataView', data);
}

const kMode = Symbol('mode');

class Stats {
  constructor(raw) {
    const isDir = raw.type === 'directory';
    const kind = isDir ? constants.S_IFDIR : raw.type === 'symlink' ? constants.S_IFLNK : constants.S_IFREG;
    this.dev = 1;
    this.mode = kind | raw.mode;
    this.nlink = isDir ? 2 : 1;
    this.uid = 0;
    this.gid = 0;
    this.rdev = 0;
    this.blksize = 4096;
    this.ino = raw.ino;
    this.size = raw.size;
    this.blocks = Math.ceil(raw.size / 512);
    this.atimeMs = raw.mtimeMs;
    this.mtimeMs = raw.mtimeMs;
    this.ctimeMs = raw.mtimeMs;
    this.birthtimeMs = raw.mtimeMs;
    this.atime = new Date(raw.mtimeMs);
    this.mtime = new Date(raw.mtimeMs);
    this.ctime = new Date(raw.mtimeMs);
    this.birthtime = new Date(raw.mtimeMs);
    Object.defineProperty(this, kMode, { value: raw.type });
  }
  isFile() { return this[kMode] === 'file'; }
  isDirectory() { return this[kMode] === 'directory'; }
  isSymbolicLink() { return this[kMode] === 'symlink'; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

class Dirent {
  constructor(name, parentPath, type) {
    this.name = name;
    this.parentPath = parentPath;
    this.path = parentPath;
    Object.defineProperty(this, kMode, { value: type });
  }
  isFile() { return this[kMode] === 'file'; }
  isDirectory() { return this[kMode] === 'directory'; }
  isSymbolicLink() { return this[kMode] === 'symlink'; }
  isBlockDevice() { return false; }
  isCharacterDevice() { return false; }
  isFIFO() { return false; }
  isSocket() { return false; }
}

function joinPath(dir, name) {
  return dir.endsWith('/') ? dir + name : `${dir}/${name}`;
}

// A write call whose options carry `sandboxPermissions`/`justification`
// asks the host to run exactly this call under a wider write policy
// (contract §12); without them it simply runs.
function escalated(opts, detail, run) {
  if (opts === null || typeof opts !== 'object'
      || (opts.sandboxPermissions === undefined && opts.justification === undefined)) {
    return run();
  }
  return policy.escalate('operation', detail, opts.sandboxPermissions, opts.justification, run);
}

// The options of a call whose Node signature has none (unlink, rename):
// an extra trailing object, read only for escalation.
function extraOptions(options) {
  return options !== null && typeof options === 'object' ? options : undefined;
}

// ----- sync forms -----

function readFileSync(path, options) {
  const opts = optionsOf(options, { encoding: null, flag: 'r' });
  // Descriptor 0 and /dev/stdin are the run's standard input.
  if (path === 0 || path === '/dev/stdin') {
    const encoding = checkEncoding(opts.encoding);
    const bytes = asBuffer(internals.takeStdin());
    return encoding ? bytes.toString(encoding) : bytes;
  }
  const data = native.readFile(toPath(path), checkEncoding(opts.encoding));
  return typeof data === 'string' ? data : asBuffer(data);
}

// Bytes the host made, as a Buffer (no copy; `buffer` loads on the first).
let bufferPrototype;
function asBuffer(bytes) {
  bufferPrototype ??= require('buffer').Buffer.prototype;
  return Object.setPrototypeOf(bytes, bufferPrototype);
}

function writeFlag(flag, fallback) {
  if (flag === undefined || flag === null) return fallback;
  if (typeof flag !== 'string') throw argTypeError('flag', 'of type string', flag);
  const known = { w: 'w', 'w+': 'w', wx: 'wx', 'wx+': 'wx', xw: 'wx', a: 'a', 'a+': 'a', ax: 'ax', 'ax+': 'ax', xa: 'ax', as: 'a', 'as+': 'a' };
  if (!(flag in known)) {
    const err = new TypeError(`The value "${flag}" is invalid for option "flags"`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  return known[flag];
}

function writeFileSync(path, data, options) {
  const opts = optionsOf(options, { encoding: 'utf8', flag: 'w' });
  const target = toPath(path);
  const bytes = toData(data);
  const encoding = checkEncoding(opts.encoding) || 'utf8';
  const flag = writeFlag(opts.flag, 'w');
  escalated(opts, `writeFile ${target}`, () => native.writeFile(target, bytes, encoding, flag));
}

function appendFileSync(path, data, options) {
  const opts = optionsOf(options, { encoding: 'utf8', flag: 'a' });
  const target = toPath(path);
  const bytes = toData(data);
  const encoding = checkEncoding(opts.encoding) || 'utf8';
  const flag = writeFlag(opts.flag, 'a');
  escalated(opts, `appendFile ${target}`, () => native.writeFile(target, bytes, encoding, flag));
}

function mkdirSync(path, options) {
  const opts = typeof options === 'number' || typeof options === 'string' ? {} : optionsOf(options, { recursive: false });
  const target = toPath(path);
  return escalated(opts, `mkdir ${target}`, () => native.mkdir(target, Boolean(opts.recursive)));
}

function readdirSync(path, options) {
  const opts = optionsOf(options, { withFileTypes: false, recursive: false });
  const root = toPath(path);
  const out = [];
  // Folder by folder, as Node lists a tree: every entry of a level before
  // the next level's.
  const queue = [[root, '']];
  while (queue.length > 0) {
    const [dir, prefix] = queue.shift();
    for (const [name, type] of native.readdir(dir)) {
      const relative = prefix === '' ? name : `${prefix}/${name}`;
      const parent = prefix === '' ? root : require('path').join(root, prefix);
      out.push(opts.withFileTypes ? new Dirent(name, parent, type) : relative);
      if (opts.recursive && type === 'directory') queue.push([joinPath(dir, name), relative]);
    }
  }
  return out;
}

// `fs.globSync` (Node 22's): paths under `cwd` matching the patterns
// (`*`, `?`, `**`, `[...]`, `{a,b}`), relative to `cwd`, sorted; with
// `exclude` (a function or patterns) and `withFileTypes`.
function globSync(pattern, options = {}) {
  const patterns = Array.isArray(pattern) ? pattern : [pattern];
  for (const each of patterns) {
    if (typeof each !== 'string') throw argTypeError('pattern', 'of type string', each);
  }
  const { globToRegExp } = require('goccia:web');
  const cwd = options.cwd === undefined ? '.' : toPath(options.cwd, 'cwd');
  const matchers = patterns.map((each) => globToRegExp(each));
  const excluded = typeof options.exclude === 'function' ? options.exclude
    : Array.isArray(options.exclude) ? ((test) => (name) => test.some((re) => re.test(name)))(options.exclude.map((each) => globToRegExp(each)))
    : () => false;
  const found = [];
  const walk = (dir, prefix) => {
    for (const [name, type] of native.readdir(dir)) {
      const relative = prefix === '' ? name : `${prefix}/${name}`;
      if (excluded(options.withFileTypes ? new Dirent(name, dir, type) : relative)) continue;
      if (matchers.some((re) => re.test(relative))) {
        found.push(options.withFileTypes ? new Dirent(name, prefix === '' ? cwd : require('path').join(cwd, prefix), type) : relative);
      }
      if (type === 'directory') walk(joinPath(dir, name), relative);
    }
  };
  walk(cwd, '');
  if (!options.withFileTypes) found.sort();
  return found;
}

// Links resolve inside the sandbox's filesystem only (contract §9a).
function realpathSync(path) {
  return native.realpath(toPath(path), false);
}
realpathSync.native = function realpathSync(path) {
  return native.realpath(toPath(path), true);
};

function symlinkSync(target, path, type) {
  const to = toPath(target, 'target');
  const at = toPath(path);
  escalated(extraOptions(type), `symlink ${at} -> ${to}`, () => native.symlink(to, at));
}

function readlinkSync(path, options) {
  const opts = optionsOf(options, { encoding: 'utf8' });
  const target = native.readlink(toPath(path));
  return opts.encoding === 'buffer' ? Buffer.from(target) : target;
}

function mkdtempSync(prefix) {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = require('crypto').randomBytes(6);
  const path = `${toPath(prefix, 'prefix')}${Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('')}`;
  mkdirSync(path);
  return path;
}

function statWith(syscall) {
  return function statSync(path, options) {
    const opts = optionsOf(options, { throwIfNoEntry: true });
    const raw = native.stat(toPath(path), syscall, opts.throwIfNoEntry !== false);
    return raw === undefined ? undefined : new Stats(raw);
  };
}
const statSync = statWith('stat');
const lstatSync = statWith('lstat');

function existsSync(path) {
  let resolved;
  try { resolved = toPath(path); } catch (_) { return false; }
  return resolved !== '' && native.exists(resolved);
}

function rmSync(path, options) {
  const opts = optionsOf(options, { recursive: false, force: false });
  const target = toPath(path);
  escalated(opts, `rm ${target}`, () => native.rm(target, Boolean(opts.recursive), Boolean(opts.force)));
}

function rmdirSync(path, options) {
  const opts = optionsOf(options, { recursive: false });
  const target = toPath(path);
  escalated(opts, `rmdir ${target}`, () => native.rmdir(target, Boolean(opts.recursive)));
}

function unlinkSync(path, options) {
  const target = toPath(path);
  escalated(extraOptions(options), `unlink ${target}`, () => native.unlink(target));
}

function renameSync(oldPath, newPath, options) {
  const from = toPath(oldPath, 'oldPath');
  const to = toPath(newPath, 'newPath');
  escalated(extraOptions(options), `rename ${from} -> ${to}`, () => native.rename(from, to));
}

// `mode` may be the options object itself (escalation), or a number
// followed by one.
function copyFileSync(src, dest, mode = 0, options) {
  if (mode !== null && typeof mode === 'object') [mode, options] = [0, mode];
  const from = toPath(src, 'src');
  const to = toPath(dest, 'dest');
  const exclusive = (Number(mode) & constants.COPYFILE_EXCL) !== 0;
  escalated(extraOptions(options), `copyFile ${from} -> ${to}`, () => native.copyFile(from, to, exclusive));
}

function cpSync(src, dest, options) {
  const opts = optionsOf(options, { recursive: false, force: true, errorOnExist: false });
  const from = toPath(src, 'src');
  const to = toPath(dest, 'dest');
  escalated(opts, `cp ${from} -> ${to}`, () => native.cp(from, to, Boolean(opts.recursive), opts.force !== false, Boolean(opts.errorOnExist)));
}

function accessSync(path, mode = constants.F_OK) {
  native.access(toPath(path), Number(mode) | 0);
}

// ----- callback and promise forms -----

function callbackForm(sync, name) {
  return function (...args) {
    const callback = args.pop();
    if (typeof callback !== 'function') {
      const err = argTypeError('cb', 'of type function', callback);
      throw err;
    }
    let result;
    let error = null;
    try {
      result = sync(...args);
    } catch (e) {
      error = e;
    }
    defer(() => (error ? callback(error) : callback(null, result)));
  };
}

function promiseForm(sync) {
  return (...args) => new Promise((resolve, reject) => {
    let result;
    let error = null;
    try {
      result = sync(...args);
    } catch (e) {
      error = e;
    }
    defer(() => (error ? reject(error) : resolve(result)));
  });
}

const syncForms = {
  readFile: readFileSync, writeFile: writeFileSync, appendFile: appendFileSync,
  mkdir: mkdirSync, readdir: readdirSync, stat: statSync, lstat: lstatSync,
  rm: rmSync, rmdir: rmdirSync, unlink: unlinkSync, rename: renameSync,
  copyFile: copyFileSync, cp: cpSync, access: accessSync, exists: existsSync,
  symlink: symlinkSync, readlink: readlinkSync, realpath: realpathSync,
};

const promises = {};
const callbacks = {};
for (const [name, sync] of Object.entries(syncForms)) {
  promises[name] = promiseForm(sync);
  callbacks[name] = callbackForm(sync, name);
}
// Node's callback `exists` passes only a boolean (no error argument).
callbacks.exists = function exists(path, callback) {
  if (typeof callback !== 'function') throw argTypeError('cb', 'of type function', callback);
  const result = existsSync(path);
  defer(() => callback(result));
};
promises.constants = constants;

callbacks.glob = function glob(pattern, options, callback) {
  if (typeof options === 'function') { callback = options; options = {}; }
  if (typeof callback !== 'function') throw argTypeError('callback', 'of type function', callback);
  let result;
  try { result = globSync(pattern, options); } catch (error) { defer(() => callback(error)); return; }
  defer(() => callback(null, result));
};
callbacks.realpath.native = callbacks.realpath;
callbacks.mkdtemp = callbackForm(mkdtempSync, 'mkdtemp');
promises.mkdtemp = promiseForm(mkdtempSync);
promises.glob = async function* glob(pattern, options) {
  for (const found of globSync(pattern, options)) yield found;
};

// Descriptors, FileHandles and streams live in `goccia:fs-handles`, made
// on the first call that needs one.
const handles = () => require('goccia:fs-handles');
const handleForms = {};
for (const name of ['openSync', 'closeSync', 'readSync', 'writeSync', 'truncateSync', 'ftruncateSync',
  'fstatSync', 'fsyncSync', 'fdatasyncSync', 'createReadStream', 'createWriteStream']) {
  handleForms[name] = { [name](...args) { return handles()[name](...args); } }[name];
}
for (const name of ['open', 'close', 'truncate', 'ftruncate', 'fstat', 'fsync', 'fdatasync']) {
  callbacks[name] = callbackForm(handleForms[`${name}Sync`], name);
}
promises.truncate = promiseForm(handleForms.truncateSync);
promises.open = (...args) => handles().openHandle(...args);
// Node's read and write callbacks get (error, count, buffer).
callbacks.read = function read(fd, buffer, ...rest) {
  const callback = rest.pop();
  if (typeof callback !== 'function') throw argTypeError('cb', 'of type function', callback);
  let count;
  try { count = handleForms.readSync(fd, buffer, ...rest); } catch (error) { defer(() => callback(error)); return; }
  defer(() => callback(null, count, buffer));
};
callbacks.write = function write(fd, data, ...rest) {
  const callback = rest.pop();
  if (typeof callback !== 'function') throw argTypeError('cb', 'of type function', callback);
  let count;
  try { count = handleForms.writeSync(fd, data, ...rest); } catch (error) { defer(() => callback(error)); return; }
  defer(() => callback(null, count, data));
};

const fs = {
  ...callbacks,
  ...handleForms,
  globSync, realpathSync, mkdtempSync, symlinkSync, readlinkSync,
  readFileSync, writeFileSync, appendFileSync, mkdirSync, readdirSync, statSync, lstatSync,
  existsSync, rmSync, rmdirSync, unlinkSync, renameSync, copyFileSync, cpSync, accessSync,
  promises, constants, Stats, Dirent,
};

return fs;
