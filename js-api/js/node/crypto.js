// `crypto`: hashes and HMACs (md5, sha1, sha224, sha256, sha384, sha512),
// random bytes, UUIDs and integers, timingSafeEqual, and the web crypto's
// getRandomValues and subtle.digest.

const { node } = natives;
// `buffer` loads only when a Buffer is made (a digest without an
// encoding, random bytes): a hex or base64 digest of a string needs none.
const buffer = () => require('buffer').Buffer;
const TEXT_ENCODINGS = ['utf8', 'utf-8', 'hex', 'base64', 'base64url', 'latin1', 'binary', 'ascii', 'utf16le', 'ucs2', 'ucs-2', 'utf-16le'];
const textEncoding = (encoding) => (encoding === undefined || encoding === null ? 'utf8'
  : TEXT_ENCODINGS.includes(String(encoding).toLowerCase()) ? String(encoding).toLowerCase() : null);
const algorithms = ['md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'];
const aliases = { 'sha-1': 'sha1', 'sha-224': 'sha224', 'sha-256': 'sha256', 'sha-384': 'sha384', 'sha-512': 'sha512', 'rsa-sha256': 'sha256' };

function algorithmOf(name) {
  const lower = String(name).toLowerCase();
  const known = aliases[lower] ?? lower;
  if (!algorithms.includes(known)) {
    const err = new Error('Digest method not supported');
    err.code = 'ERR_CRYPTO_INVALID_DIGEST';
    throw err;
  }
  return known;
}

function bytesOf(data, encoding, name = 'data') {
  if (typeof data === 'string') {
    const known = textEncoding(encoding);
    return known === null ? buffer().from(data, encoding) : node.encode(data, known === 'utf-8' ? 'utf8' : known);
  }
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const err = new TypeError(`The "${name}" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${internals.inspect(data)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  throw err;
}

function output(digest, encoding) {
  const known = encoding === undefined || encoding === 'buffer' ? null : textEncoding(encoding);
  if (known !== null) return node.decode(digest, known === 'utf-8' ? 'utf8' : known);
  const bytes = buffer().from(digest.buffer, digest.byteOffset, digest.byteLength);
  return encoding === undefined || encoding === 'buffer' ? bytes : bytes.toString(encoding);
}

class Hash {
  #algorithm;
  #chunks = [];
  #done = false;
  constructor(algorithm) { this.#algorithm = algorithmOf(algorithm); }
  update(data, encoding) {
    if (this.#done) {
      const err = new Error('Digest already called');
      err.code = 'ERR_CRYPTO_HASH_FINALIZED';
      throw err;
    }
    this.#chunks.push(Uint8Array.from(bytesOf(data, encoding)));
    return this;
  }
  digest(encoding) {
    if (this.#done) {
      const err = new Error('Digest already called');
      err.code = 'ERR_CRYPTO_HASH_FINALIZED';
      throw err;
    }
    this.#done = true;
    return output(node.digest(this.#algorithm, this.#chunks), encoding);
  }
  copy() {
    const copy = new Hash(this.#algorithm);
    for (const chunk of this.#chunks) copy.update(chunk);
    return copy;
  }
}

class Hmac {
  #algorithm;
  #key;
  #chunks = [];
  #done = false;
  constructor(algorithm, key, encoding) {
    this.#algorithm = algorithmOf(algorithm);
    this.#key = Uint8Array.from(bytesOf(key, encoding, 'key'));
  }
  update(data, encoding) {
    this.#chunks.push(Uint8Array.from(bytesOf(data, encoding)));
    return this;
  }
  digest(encoding) {
    if (this.#done) return output(new Uint8Array(0), encoding);
    this.#done = true;
    return output(node.hmac(this.#algorithm, this.#key, this.#chunks), encoding);
  }
}

function randomBytes(size, callback) {
  if (typeof size !== 'number' || !(size >= 0 && size <= 2 ** 31 - 1)) {
    const err = new RangeError(`The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ${size}`);
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  const bytes = node.randomBytes(size);
  const made = buffer().from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (typeof callback === 'function') {
    internals.defer(() => callback(null, made));
    return undefined;
  }
  return made;
}

function getRandomValues(array) {
  if (!ArrayBuffer.isView(array) || array instanceof Float32Array || array instanceof Float64Array || array instanceof DataView) {
    const err = new TypeError("The data argument must be an integer-type TypedArray");
    err.name = 'TypeMismatchError';
    err.code = 17;
    throw err;
  }
  if (array.byteLength > 65536) {
    const err = new RangeError(`The ArrayBufferView's byte length (${array.byteLength}) exceeds the number of bytes of entropy available via this API (65536)`);
    err.name = 'QuotaExceededError';
    err.code = 22;
    throw err;
  }
  new Uint8Array(array.buffer, array.byteOffset, array.byteLength).set(node.randomBytes(array.byteLength));
  return array;
}

function randomUUID() {
  const b = node.randomBytes(16);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function randomInt(min, max, callback) {
  if (max === undefined || typeof max === 'function') { callback = max; max = min; min = 0; }
  if (!Number.isSafeInteger(min) || !Number.isSafeInteger(max) || max <= min) {
    const err = new RangeError(`The value of "max" is out of range. It must be greater than the value of "min" (${min}). Received ${max}`);
    err.code = 'ERR_OUT_OF_RANGE';
    throw err;
  }
  const range = max - min;
  const bytes = node.randomBytes(6);
  const value = bytes.reduce((n, b) => n * 256 + b, 0);
  const result = min + (value % range);
  if (typeof callback === 'function') { internals.defer(() => callback(null, result)); return undefined; }
  return result;
}

function timingSafeEqual(a, b) {
  const x = bytesOf(a, undefined, 'buf1');
  const y = bytesOf(b, undefined, 'buf2');
  if (x.byteLength !== y.byteLength) {
    const err = new RangeError('Input buffers must have the same byte length');
    err.code = 'ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH';
    throw err;
  }
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}

const subtle = {
  digest(algorithm, data) {
    return new Promise((resolve, reject) => {
      try {
        const name = typeof algorithm === 'string' ? algorithm : algorithm?.name;
        const known = aliases[String(name).toLowerCase()];
        if (!known || known === 'sha224') {
          const err = new Error('Unrecognized algorithm name');
          err.name = 'NotSupportedError';
          throw err;
        }
        const digest = node.digest(known, [Uint8Array.from(bytesOf(data))]);
        resolve(digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength));
      } catch (error) {
        reject(error);
      }
    });
  },
};

const webcrypto = { getRandomValues, randomUUID, subtle };

return {
  createHash: (algorithm, options) => new Hash(algorithm, options),
  createHmac: (algorithm, key, options) => new Hmac(algorithm, key, options),
  hash: (algorithm, data, encoding = 'hex') => new Hash(algorithm).update(data).digest(encoding),
  getHashes: () => algorithms.slice(),
  randomBytes,
  pseudoRandomBytes: randomBytes,
  randomFillSync: (array, offset = 0, size) => {
    const view = new Uint8Array(array.buffer ?? array, array.byteOffset ?? 0, array.byteLength);
    const end = size === undefined ? view.length : offset + size;
    view.set(node.randomBytes(end - offset), offset);
    return array;
  },
  randomUUID,
  randomInt,
  getRandomValues,
  timingSafeEqual,
  webcrypto,
  subtle,
  Hash,
  Hmac,
  constants: {},
};
