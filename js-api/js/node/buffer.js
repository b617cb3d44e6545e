// `buffer`: Buffer as Node's — a Uint8Array with Node's encodings
// (utf8, hex, base64, base64url, latin1/binary, ascii, utf16le/ucs2),
// slices that share memory, the read/write methods for every integer and
// float width in both byte orders, and `<Buffer ..>` in console output.

const { node } = natives;
const kMaxLength = 2 ** 32;
const encodings = ['utf8', 'utf-8', 'hex', 'base64', 'base64url', 'ascii', 'latin1', 'binary', 'ucs2', 'ucs-2', 'utf16le', 'utf-16le'];

function normalizeEncoding(encoding) {
  if (encoding === undefined || encoding === null || encoding === '') return 'utf8';
  const lower = String(encoding).toLowerCase();
  if (!encodings.includes(lower)) {
    const err = new TypeError(`Unknown encoding: ${encoding}`);
    err.code = 'ERR_UNKNOWN_ENCODING';
    throw err;
  }
  if (lower === 'utf-8') return 'utf8';
  if (lower === 'binary') return 'latin1';
  if (lower === 'ucs2' || lower === 'ucs-2' || lower === 'utf-16le') return 'utf16le';
  return lower;
}

function typeError(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be ${expected}. Received ${received(value)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function received(value) {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'function') return `function ${value.name}`;
  if (typeof value === 'object') return value.constructor?.name ? `an instance of ${value.constructor.name}` : internals.inspect(value);
  return `type ${typeof value} (${internals.inspect(value)})`;
}

function outOfRange(name, range, value) {
  const err = new RangeError(`The value of "${name}" is out of range. It must be ${range}. Received ${value}`);
  err.code = 'ERR_OUT_OF_RANGE';
  return err;
}

function bytesOf(string, encoding) {
  const enc = normalizeEncoding(encoding);
  return node.encode(string, enc);
}

class Buffer extends Uint8Array {
  constructor(arg, encodingOrOffset, length) {
    if (typeof arg === 'number') {
      super(arg);
    } else if (typeof arg === 'string') {
      const bytes = bytesOf(arg, encodingOrOffset);
      super(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } else if (arg instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && arg instanceof SharedArrayBuffer)) {
      super(arg, encodingOrOffset ?? 0, length ?? arg.byteLength - (encodingOrOffset ?? 0));
    } else {
      super(arg);
    }
  }

  static from(value, encodingOrOffset, length) {
    if (typeof value === 'string') return new Buffer(value, encodingOrOffset);
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
      const offset = encodingOrOffset === undefined ? 0 : Number(encodingOrOffset);
      if (offset > value.byteLength) throw new RangeError('"offset" is outside of buffer bounds');
      const size = length === undefined ? value.byteLength - offset : Number(length);
      if (offset + size > value.byteLength) throw new RangeError('"length" is outside of buffer bounds');
      return new Buffer(value, offset, size);
    }
    if (ArrayBuffer.isView(value)) {
      const copy = new Buffer(value.byteLength);
      copy.set(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
      return value instanceof Uint8Array ? copy : new Buffer(Array.from(value, (v) => Number(v) & 255));
    }
    if (value !== null && typeof value === 'object') {
      if (typeof value.valueOf === 'function') {
        const primitive = value.valueOf();
        if (primitive !== value && primitive !== null && primitive !== undefined) return Buffer.from(primitive, encodingOrOffset, length);
      }
      if (value.type === 'Buffer' && Array.isArray(value.data)) return new Buffer(value.data.map((v) => v & 255));
      if (typeof value.length === 'number' || Array.isArray(value)) {
        const out = new Buffer(value.length >>> 0);
        for (let i = 0; i < out.length; i++) out[i] = Number(value[i]) & 255;
        return out;
      }
      if (typeof value[Symbol.toPrimitive] === 'function') return Buffer.from(value[Symbol.toPrimitive]('string'), encodingOrOffset);
    }
    throw typeError('first argument', 'of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object', value);
  }

  static alloc(size, fill, encoding) {
    checkSize(size);
    const buffer = new Buffer(size);
    if (fill !== undefined && fill !== 0 && size > 0) buffer.fill(fill, encoding);
    return buffer;
  }

  static allocUnsafe(size) { checkSize(size); return new Buffer(size); }
  static allocUnsafeSlow(size) { checkSize(size); return new Buffer(size); }

  static isBuffer(value) { return value instanceof Buffer; }

  static isEncoding(encoding) {
    return typeof encoding === 'string' && encoding.length !== 0 && encodings.includes(encoding.toLowerCase());
  }

  static byteLength(value, encoding) {
    if (typeof value !== 'string') {
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
      throw typeError('string', 'of type string or an instance of Buffer or ArrayBuffer', value);
    }
    return bytesOf(value, encoding).length;
  }

  static compare(a, b) {
    if (!(a instanceof Uint8Array)) throw typeError('buf1', 'an instance of Buffer or Uint8Array', a);
    if (!(b instanceof Uint8Array)) throw typeError('buf2', 'an instance of Buffer or Uint8Array', b);
    return compareBytes(a, b);
  }

  static concat(list, totalLength) {
    if (!Array.isArray(list)) throw typeError('list', 'an instance of Array', list);
    if (list.length === 0) return new Buffer(0);
    if (totalLength === undefined) totalLength = list.reduce((n, item) => n + item.length, 0);
    const out = Buffer.alloc(totalLength);
    let at = 0;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      if (!(item instanceof Uint8Array)) throw typeError(`list[${i}]`, 'an instance of Buffer or Uint8Array', item);
      if (at >= totalLength) break;
      const room = Math.min(item.length, totalLength - at);
      out.set(room === item.length ? item : item.subarray(0, room), at);
      at += room;
    }
    return out;
  }

  static copyBytesFrom(view, offset = 0, length) {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    const size = view.BYTES_PER_ELEMENT ?? 1;
    const end = length === undefined ? view.length : offset + length;
    return Buffer.from(bytes.slice(offset * size, end * size));
  }

  toString(encoding, start = 0, end = this.length) {
    if (arguments.length === 0) return node.decode(this, 'utf8');
    start = Math.max(0, start | 0);
    end = Math.min(this.length, end === undefined ? this.length : end | 0);
    if (end <= start) return '';
    const view = start === 0 && end === this.length ? this : this.subarray(start, end);
    const enc = normalizeEncoding(encoding);
    return node.decode(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), enc);
  }

  toLocaleString(encoding, start, end) { return this.toString(encoding, start, end); }

  toJSON() { return { type: 'Buffer', data: Array.from(this) }; }

  equals(other) {
    if (!(other instanceof Uint8Array)) throw typeError('otherBuffer', 'an instance of Buffer or Uint8Array', other);
    return compareBytes(this, other) === 0;
  }

  compare(target, targetStart = 0, targetEnd = target.length, sourceStart = 0, sourceEnd = this.length) {
    if (!(target instanceof Uint8Array)) throw typeError('target', 'an instance of Buffer or Uint8Array', target);
    return compareBytes(this.subarray(sourceStart, sourceEnd), target.subarray(targetStart, targetEnd));
  }

  copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
    if (!(target instanceof Uint8Array)) throw typeError('target', 'an instance of Buffer or Uint8Array', target);
    sourceEnd = Math.min(sourceEnd, this.length);
    const count = Math.max(0, Math.min(sourceEnd - sourceStart, target.length - targetStart));
    if (count > 0) target.set(this.subarray(sourceStart, sourceStart + count), targetStart);
    return count;
  }

  slice(start, end) { return this.subarray(start, end); }

  write(string, offset, length, encoding) {
    if (typeof offset === 'string') { encoding = offset; offset = 0; length = undefined; }
    else if (typeof length === 'string') { encoding = length; length = undefined; }
    offset = offset === undefined ? 0 : offset >>> 0;
    const bytes = bytesOf(string, encoding);
    const room = Math.min(bytes.length, this.length - offset, length === undefined ? Infinity : length);
    let count = room;
    if (normalizeEncoding(encoding) === 'utf8') {
      // Never a partial character.
      while (count > 0 && count < bytes.length && (bytes[count] & 0xc0) === 0x80) count--;
    }
    this.set(bytes.subarray(0, count), offset);
    return count;
  }

  fill(value, offset = 0, end = this.length, encoding) {
    if (typeof offset === 'string') { encoding = offset; offset = 0; end = this.length; }
    else if (typeof end === 'string') { encoding = end; end = this.length; }
    if (offset < 0 || offset > this.length) throw outOfRange('offset', `>= 0 && <= ${this.length}`, offset);
    if (end > this.length) throw outOfRange('end', `>= 0 && <= ${this.length}`, end);
    if (typeof value === 'number') return Uint8Array.prototype.fill.call(this, value & 255, offset, end);
    if (typeof value === 'boolean') return Uint8Array.prototype.fill.call(this, Number(value), offset, end);
    const bytes = typeof value === 'string' ? bytesOf(value, encoding) : value;
    if (bytes.length === 0) {
      if (typeof value === 'string' && value.length > 0) {
        const err = new TypeError(`The argument 'value' is invalid. Received '${value}'`);
        err.code = 'ERR_INVALID_ARG_VALUE';
        throw err;
      }
      return Uint8Array.prototype.fill.call(this, 0, offset, end);
    }
    for (let i = offset, j = 0; i < end; i++, j = (j + 1) % bytes.length) this[i] = bytes[j];
    return this;
  }

  indexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, true); }
  lastIndexOf(value, byteOffset, encoding) { return search(this, value, byteOffset, encoding, false); }
  includes(value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; }

  swap16() { return swap(this, 2); }
  swap32() { return swap(this, 4); }
  swap64() { return swap(this, 8); }

  get parent() { return this.buffer; }
  get offset() { return this.byteOffset; }

  [Symbol.for('nodejs.util.inspect.custom')]() {
    const shown = Math.min(this.length, 50);
    let text = '';
    for (let i = 0; i < shown; i++) text += ` ${this[i].toString(16).padStart(2, '0')}`;
    const more = this.length - shown;
    return `<${this.constructor.name}${text}${more > 0 ? ` ... ${more} more byte${more > 1 ? 's' : ''}` : ''}>`;
  }
}
Buffer.poolSize = 8192;

function checkSize(size) {
  if (typeof size !== 'number') throw typeError('size', 'of type number', size);
  if (!(size >= 0 && size <= kMaxLength)) throw outOfRange('size', `>= 0 && <= ${kMaxLength}`, size);
}

function compareBytes(a, b) {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

function search(buffer, value, byteOffset, encoding, forward) {
  if (typeof byteOffset === 'string') { encoding = byteOffset; byteOffset = undefined; }
  let needle;
  if (typeof value === 'number') needle = new Uint8Array([value & 255]);
  else if (typeof value === 'string') needle = bytesOf(value, encoding);
  else if (value instanceof Uint8Array) needle = value;
  else throw typeError('value', 'one of type number or string or an instance of Buffer or Uint8Array', value);
  const length = buffer.length;
  let start = byteOffset === undefined ? (forward ? 0 : length) : Number(byteOffset);
  if (Number.isNaN(start)) start = forward ? 0 : length;
  if (start < 0) start = Math.max(length + start, forward ? 0 : -1);
  if (needle.length === 0) return forward ? Math.min(start, length) : Math.min(start, length);
  if (forward) {
    outer: for (let i = start; i <= length - needle.length; i++) {
      for (let j = 0; j < needle.length; j++) if (buffer[i + j] !== needle[j]) continue outer;
      return i;
    }
  } else {
    outer: for (let i = Math.min(start, length - needle.length); i >= 0; i--) {
      for (let j = 0; j < needle.length; j++) if (buffer[i + j] !== needle[j]) continue outer;
      return i;
    }
  }
  return -1;
}

function swap(buffer, size) {
  if (buffer.length % size !== 0) {
    const err = new RangeError(`Buffer size must be a multiple of ${size * 8}-bits`);
    err.code = 'ERR_INVALID_BUFFER_SIZE';
    throw err;
  }
  for (let i = 0; i < buffer.length; i += size) {
    for (let a = i, b = i + size - 1; a < b; a++, b--) {
      const t = buffer[a]; buffer[a] = buffer[b]; buffer[b] = t;
    }
  }
  return buffer;
}

// The read/write methods: every width, both byte orders, through DataView.
function view(buffer) { return new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength); }
function checkOffset(buffer, offset, size) {
  if (offset === undefined) offset = 0;
  if (typeof offset !== 'number') throw typeError('offset', 'of type number', offset);
  if (!Number.isInteger(offset)) throw outOfRange('offset', 'an integer', offset);
  if (offset < 0 || offset + size > buffer.length) {
    if (buffer.length - size < 0) {
      const err = new RangeError('Attempt to access memory outside buffer bounds');
      err.code = 'ERR_BUFFER_OUT_OF_BOUNDS';
      throw err;
    }
    throw outOfRange('offset', `>= 0 and <= ${buffer.length - size}`, offset);
  }
  return offset;
}
const widths = [
  ['UInt8', 1, 'getUint8', 'setUint8', 0, 255],
  ['Int8', 1, 'getInt8', 'setInt8', -128, 127],
  ['UInt16', 2, 'getUint16', 'setUint16', 0, 65535],
  ['Int16', 2, 'getInt16', 'setInt16', -32768, 32767],
  ['UInt32', 4, 'getUint32', 'setUint32', 0, 4294967295],
  ['Int32', 4, 'getInt32', 'setInt32', -2147483648, 2147483647],
  ['Float', 4, 'getFloat32', 'setFloat32'],
  ['Double', 8, 'getFloat64', 'setFloat64'],
  ['BigUInt64', 8, 'getBigUint64', 'setBigUint64'],
  ['BigInt64', 8, 'getBigInt64', 'setBigInt64'],
];
for (const [name, size, get, set, min, max] of widths) {
  const orders = size === 1 ? [['', false]] : [['LE', true], ['BE', false]];
  for (const [suffix, little] of orders) {
    const read = function (offset) {
      offset = checkOffset(this, offset, size);
      return view(this)[get](offset, little);
    };
    const write = function (value, offset) {
      offset = checkOffset(this, offset, size);
      if (min !== undefined && (value < min || value > max || Number.isNaN(value))) {
        throw outOfRange('value', `>= ${min} and <= ${max}`, value);
      }
      view(this)[set](offset, value, little);
      return offset + size;
    };
    Buffer.prototype[`read${name}${suffix}`] = read;
    Buffer.prototype[`write${name}${suffix}`] = write;
    if (name.includes('UInt')) {
      const lower = name.replace('UInt', 'Uint');
      Buffer.prototype[`read${lower}${suffix}`] = read;
      Buffer.prototype[`write${lower}${suffix}`] = write;
    }
  }
}
function readVariable(buffer, offset, byteLength, little, signed) {
  offset = checkOffset(buffer, offset, byteLength);
  let value = 0;
  for (let i = 0; i < byteLength; i++) {
    const byte = buffer[offset + (little ? i : byteLength - 1 - i)];
    value += byte * 2 ** (8 * i);
  }
  if (signed && value >= 2 ** (8 * byteLength - 1)) value -= 2 ** (8 * byteLength);
  return value;
}
function writeVariable(buffer, value, offset, byteLength, little, signed) {
  offset = checkOffset(buffer, offset, byteLength);
  const limit = 2 ** (8 * byteLength);
  const min = signed ? -limit / 2 : 0;
  const max = signed ? limit / 2 - 1 : limit - 1;
  if (value < min || value > max) throw outOfRange('value', `>= ${min} and <= ${max}`, value);
  let rest = value < 0 ? value + limit : value;
  for (let i = 0; i < byteLength; i++) {
    buffer[offset + (little ? i : byteLength - 1 - i)] = rest % 256;
    rest = Math.floor(rest / 256);
  }
  return offset + byteLength;
}
Object.assign(Buffer.prototype, {
  readUIntLE(offset, n) { return readVariable(this, offset, n, true, false); },
  readUIntBE(offset, n) { return readVariable(this, offset, n, false, false); },
  readIntLE(offset, n) { return readVariable(this, offset, n, true, true); },
  readIntBE(offset, n) { return readVariable(this, offset, n, false, true); },
  writeUIntLE(value, offset, n) { return writeVariable(this, value, offset, n, true, false); },
  writeUIntBE(value, offset, n) { return writeVariable(this, value, offset, n, false, false); },
  writeIntLE(value, offset, n) { return writeVariable(this, value, offset, n, true, true); },
  writeIntBE(value, offset, n) { return writeVariable(this, value, offset, n, false, true); },
});
Buffer.prototype.readUintLE = Buffer.prototype.readUIntLE;
Buffer.prototype.readUintBE = Buffer.prototype.readUIntBE;
Buffer.prototype.writeUintLE = Buffer.prototype.writeUIntLE;
Buffer.prototype.writeUintBE = Buffer.prototype.writeUIntBE;

function btoa(data) {
  if (arguments.length === 0) throw typeError('data', 'of type string', undefined);
  const text = String(data);
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 255) throw invalidCharacter();
  }
  return node.decode(node.encode(text, 'latin1'), 'base64');
}

function atob(data) {
  if (arguments.length === 0) throw typeError('data', 'of type string', undefined);
  const text = String(data).replace(/[\t\n\f\r ]/g, '');
  if (/[^A-Za-z0-9+/=]/.test(text) || (text.length % 4 === 1) || /=[^=]/.test(text)) throw invalidCharacter();
  return node.decode(node.encode(text, 'base64'), 'latin1');
}

function invalidCharacter() {
  const err = new Error('Invalid character');
  err.name = 'InvalidCharacterError';
  err.code = 5;
  return err;
}

const constants = { MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: 2 ** 29 - 24 };
return {
  Buffer,
  atob,
  btoa,
  constants,
  kMaxLength,
  kStringMaxLength: constants.MAX_STRING_LENGTH,
  INSPECT_MAX_BYTES: 50,
  SlowBuffer: Buffer,
  isUtf8: (input) => { try { new TextDecoder('utf-8', { fatal: true }).decode(input); return true; } catch { return false; } },
  isAscii: (input) => Array.prototype.every.call(input, (b) => b < 128),
  transcode: (source, from, to) => Buffer.from(Buffer.from(source).toString(from), to),
};
