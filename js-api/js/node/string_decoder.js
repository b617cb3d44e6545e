// `string_decoder`: decoding a stream of buffers without splitting a
// character across chunks (utf8, utf16le, base64; the one-byte encodings
// need no carrying).

const { Buffer } = require('buffer');

class StringDecoder {
  constructor(encoding = 'utf8') {
    const lower = String(encoding).toLowerCase();
    const normal = { 'utf-8': 'utf8', ucs2: 'utf16le', 'ucs-2': 'utf16le', 'utf-16le': 'utf16le', binary: 'latin1' }[lower] ?? lower;
    if (!Buffer.isEncoding(normal)) {
      const err = new TypeError(`Unknown encoding: ${encoding}`);
      err.code = 'ERR_UNKNOWN_ENCODING';
      throw err;
    }
    this.encoding = normal;
    this.pending = Buffer.alloc(0);
  }

  write(chunk) {
    if (typeof chunk === 'string') return chunk;
    const bytes = Buffer.concat([this.pending, Buffer.from(chunk)]);
    const keep = this.incomplete(bytes);
    this.pending = bytes.subarray(bytes.length - keep);
    return bytes.subarray(0, bytes.length - keep).toString(this.encoding);
  }

  end(chunk) {
    let out = chunk === undefined ? '' : this.write(chunk);
    if (this.pending.length > 0) out += this.pending.toString(this.encoding);
    this.pending = Buffer.alloc(0);
    return out;
  }

  // Bytes at the end of `bytes` that may start a character not complete yet.
  incomplete(bytes) {
    if (this.encoding === 'utf8') {
      for (let back = 1; back <= Math.min(3, bytes.length); back++) {
        const byte = bytes[bytes.length - back];
        if ((byte & 0xc0) === 0x80) continue;
        const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
        return need > back ? back : 0;
      }
      return 0;
    }
    if (this.encoding === 'utf16le') {
      let keep = bytes.length % 2;
      if (keep === 0 && bytes.length >= 2) {
        const unit = bytes[bytes.length - 2] | (bytes[bytes.length - 1] << 8);
        if (unit >= 0xd800 && unit <= 0xdbff) keep = 2;
      }
      return keep;
    }
    if (this.encoding === 'base64' || this.encoding === 'base64url') return bytes.length % 3;
    return 0;
  }

  get lastNeed() { return this.pending.length; }
  get lastTotal() { return this.pending.length; }
}

return { StringDecoder };
