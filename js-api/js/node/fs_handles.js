// The parts of `fs` that hold something open: file descriptors
// (`openSync`, `readSync`, `writeSync`, `fstatSync`, `ftruncateSync`,
// `closeSync` and their callback forms), `fs.promises.open`'s FileHandle,
// `truncateSync`, and the read and write streams. The VFS has whole-file
// operations only, so a descriptor is a path with flags and a position:
// a read reads the file and copies the range, a write at the end appends
// and a write elsewhere rewrites the file (each such write costs the
// file's size; sequential writes, the common case, only append). Every
// write goes through the `fs` calls, so the write policy fences it.
// Loaded by `fs` on the first such call.

const fs = require('fs');
const { Buffer } = require('buffer');
const { defer } = internals;

const open = new Map();
let nextFd = 3;

function systemError(code, errno, description, syscall, path) {
  const shown = path === undefined ? '' : ` '${path}'`;
  const err = new Error(`${code}: ${description}, ${syscall}${shown}`);
  err.errno = errno;
  err.code = code;
  err.syscall = syscall;
  if (path !== undefined) err.path = path;
  return err;
}

const badFd = (syscall) => systemError('EBADF', -9, 'bad file descriptor', syscall);

function entryOf(fd, syscall) {
  const entry = typeof fd === 'number' ? open.get(fd) : undefined;
  if (entry === undefined) {
    if (typeof fd !== 'number') {
      const err = new TypeError(`The "fd" argument must be of type number. Received ${internals.inspect(fd)}`);
      err.code = 'ERR_INVALID_ARG_TYPE';
      throw err;
    }
    throw badFd(syscall);
  }
  return entry;
}

// Node's flag strings, as what they allow.
const FLAGS = {
  r: { read: true }, rs: { read: true }, sr: { read: true },
  'r+': { read: true, write: true }, 'rs+': { read: true, write: true }, 'sr+': { read: true, write: true },
  w: { write: true, create: true, truncate: true },
  wx: { write: true, create: true, truncate: true, exclusive: true },
  xw: { write: true, create: true, truncate: true, exclusive: true },
  'w+': { read: true, write: true, create: true, truncate: true },
  'wx+': { read: true, write: true, create: true, truncate: true, exclusive: true },
  'xw+': { read: true, write: true, create: true, truncate: true, exclusive: true },
  a: { write: true, create: true, append: true }, as: { write: true, create: true, append: true },
  ax: { write: true, create: true, append: true, exclusive: true },
  xa: { write: true, create: true, append: true, exclusive: true },
  'a+': { read: true, write: true, create: true, append: true },
  'as+': { read: true, write: true, create: true, append: true },
  'ax+': { read: true, write: true, create: true, append: true, exclusive: true },
  'xa+': { read: true, write: true, create: true, append: true, exclusive: true },
};

function openSync(path, flags = 'r', mode) {
  const name = typeof flags === 'number' ? numericFlags(flags) : flags;
  const allowed = FLAGS[name];
  if (allowed === undefined) {
    const err = new TypeError(`The value "${flags}" is invalid for option "flags"`);
    err.code = 'ERR_INVALID_ARG_VALUE';
    throw err;
  }
  const target = typeof path === 'string' ? path : String(path);
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (stat === undefined && !allowed.create) throw systemError('ENOENT', -2, 'no such file or directory', 'open', target);
  if (stat !== undefined && allowed.exclusive) throw systemError('EEXIST', -17, 'file already exists', 'open', target);
  if (stat !== undefined && stat.isDirectory() && allowed.write) throw systemError('EISDIR', -21, 'illegal operation on a directory', 'open', target);
  if (allowed.truncate || stat === undefined) {
    fs.writeFileSync(target, '', { flag: allowed.exclusive ? 'wx' : 'w' });
  }
  void mode;
  const fd = nextFd++;
  open.set(fd, { path: require('path').resolve(target), flags: allowed, position: 0 });
  return fd;
}

function numericFlags(flags) {
  const access = flags & 3;
  const plus = access === 2 ? '+' : '';
  if (flags & 0o2000) return `a${flags & 0o200 ? 'x' : ''}${plus}`;
  if (flags & 0o1000) return `w${flags & 0o200 ? 'x' : ''}${plus}`;
  return access === 0 ? 'r' : 'r+';
}

function closeSync(fd) {
  entryOf(fd, 'close');
  open.delete(fd);
}

function contents(entry, syscall) {
  if (fs.statSync(entry.path).isDirectory()) throw systemError('EISDIR', -21, 'illegal operation on a directory', syscall);
  return fs.readFileSync(entry.path);
}

// readSync(fd, buffer, offset, length, position) or
// readSync(fd, buffer, { offset, length, position }).
function readSync(fd, buffer, offset, length, position) {
  const entry = entryOf(fd, 'read');
  if (!entry.flags.read) throw badFd('read');
  if (offset !== null && typeof offset === 'object') ({ offset = 0, length, position } = offset);
  offset = offset ?? 0;
  length = length ?? buffer.byteLength - offset;
  const data = contents(entry, 'read');
  const from = position === null || position === undefined || position === -1 ? entry.position : Number(position);
  const bytes = data.subarray(from, from + length);
  new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength).set(bytes, offset);
  if (position === null || position === undefined || position === -1) entry.position += bytes.length;
  return bytes.length;
}

// writeSync(fd, buffer, offset?, length?, position?) or
// writeSync(fd, string, position?, encoding?).
function writeSync(fd, data, offsetOrPosition, lengthOrEncoding, position) {
  const entry = entryOf(fd, 'write');
  if (!entry.flags.write) throw badFd('write');
  let bytes;
  if (typeof data === 'string') {
    bytes = Buffer.from(data, typeof lengthOrEncoding === 'string' ? lengthOrEncoding : 'utf8');
    position = offsetOrPosition;
  } else if (ArrayBuffer.isView(data)) {
    const view = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const offset = offsetOrPosition ?? 0;
    bytes = view.subarray(offset, lengthOrEncoding === undefined ? undefined : offset + lengthOrEncoding);
  } else {
    const err = new TypeError(`The "buffer" argument must be of type string or an instance of Buffer, TypedArray, or DataView.`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  const current = position === null || position === undefined;
  const size = fs.statSync(entry.path).size;
  const at = entry.flags.append ? size : current ? entry.position : Number(position);
  if (at === size) {
    fs.appendFileSync(entry.path, bytes);
  } else {
    const old = fs.readFileSync(entry.path);
    const next = Buffer.alloc(Math.max(old.length, at + bytes.length));
    next.set(old.subarray(0, Math.min(old.length, next.length)));
    next.set(bytes, at);
    fs.writeFileSync(entry.path, next);
  }
  if (current || entry.flags.append) entry.position = at + bytes.length;
  return bytes.length;
}

function truncateSync(path, length = 0) {
  const data = fs.readFileSync(path);
  if (data.length === length) return;
  const next = Buffer.alloc(length);
  next.set(data.subarray(0, length));
  fs.writeFileSync(path, next);
}

function ftruncateSync(fd, length = 0) {
  const entry = entryOf(fd, 'ftruncate');
  if (!entry.flags.write) throw systemError('EINVAL', -22, 'invalid argument', 'ftruncate');
  truncateSync(entry.path, length);
}

function fstatSync(fd) { return fs.statSync(entryOf(fd, 'fstat').path); }
function fsyncSync(fd) { entryOf(fd, 'fsync'); }

// ----- fs.promises.open -----

class FileHandle {
  constructor(fd) { this.fd = fd; }
  async read(buffer = Buffer.alloc(16384), offset, length, position) {
    const bytesRead = readSync(this.fd, buffer, offset, length, position);
    return { bytesRead, buffer };
  }
  async write(data, ...rest) {
    const bytesWritten = writeSync(this.fd, data, ...rest);
    return { bytesWritten, buffer: data };
  }
  async readFile(options) {
    const entry = entryOf(this.fd, 'read');
    const data = contents(entry, 'read').subarray(entry.position);
    const encoding = typeof options === 'string' ? options : options?.encoding;
    return encoding ? data.toString(encoding) : data;
  }
  // From the current position, as Node's FileHandle writes it.
  async writeFile(data, options) {
    const encoding = typeof options === 'string' ? options : options?.encoding;
    writeSync(this.fd, typeof data === 'string' ? Buffer.from(data, encoding ?? 'utf8') : data);
  }
  async appendFile(data, options) {
    const entry = entryOf(this.fd, 'write');
    fs.appendFileSync(entry.path, data, typeof options === 'string' ? options : options?.encoding);
  }
  async stat() { return fstatSync(this.fd); }
  async truncate(length) { ftruncateSync(this.fd, length); }
  async sync() { fsyncSync(this.fd); }
  async close() { if (open.has(this.fd)) closeSync(this.fd); }
  async [Symbol.asyncDispose]() { await this.close(); }
}

async function openHandle(path, flags, mode) {
  return new FileHandle(openSync(path, flags, mode));
}

// ----- streams -----

function createReadStream(path, options) {
  const opts = typeof options === 'string' ? { encoding: options } : (options ?? {});
  const { Readable } = require('stream');
  const stream = new Readable({ encoding: opts.encoding, highWaterMark: opts.highWaterMark ?? 65536, read() {} });
  stream.path = path;
  stream.bytesRead = 0;
  defer(() => {
    try {
      let data = fs.readFileSync(path);
      if (opts.start !== undefined || opts.end !== undefined) data = data.subarray(opts.start ?? 0, opts.end === undefined ? undefined : opts.end + 1);
      stream.emit('open', 3);
      stream.emit('ready');
      const size = opts.highWaterMark ?? 65536;
      for (let at = 0; at < data.length; at += size) {
        const chunk = data.subarray(at, at + size);
        stream.bytesRead += chunk.length;
        stream.push(chunk);
      }
      stream.push(null);
    } catch (error) {
      stream.destroy(error);
    }
  });
  return stream;
}

function createWriteStream(path, options) {
  const opts = typeof options === 'string' ? { encoding: options } : (options ?? {});
  const { Writable } = require('stream');
  let first = !(opts.flags ?? 'w').startsWith('a');
  const stream = new Writable({
    decodeStrings: true,
    defaultEncoding: opts.encoding ?? 'utf8',
    write(chunk, encoding, callback) {
      try {
        if (first) { fs.writeFileSync(path, chunk); first = false; } else { fs.appendFileSync(path, chunk); }
        stream.bytesWritten += chunk.length;
        callback();
      } catch (error) {
        callback(error);
      }
    },
    final(callback) {
      if (first) { try { fs.writeFileSync(path, ''); } catch (error) { callback(error); return; } }
      callback();
    },
  });
  stream.path = path;
  stream.bytesWritten = 0;
  defer(() => { stream.emit('open', 3); stream.emit('ready'); });
  return stream;
}

return {
  openSync, closeSync, readSync, writeSync, truncateSync, ftruncateSync, fstatSync, fsyncSync,
  fdatasyncSync: fsyncSync, openHandle, createReadStream, createWriteStream, FileHandle,
};
