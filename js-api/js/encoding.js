// The built-in `goccia:encoding`: TextEncoder and TextDecoder (UTF-8, the
// host's codec), made the first time a guest names either global (Node
// makes them on first use too: both are accessors on its global object).
class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input = '') { return internals.encodeUtf8(String(input)); }
  encodeInto(source, destination) {
    const bytes = internals.encodeUtf8(String(source));
    let read = 0;
    let written = 0;
    for (const ch of String(source)) {
      const size = new Uint8Array(internals.encodeUtf8(ch)).length;
      if (written + size > destination.length) break;
      destination.set(bytes.subarray(written, written + size), written);
      written += size;
      read += ch.length;
    }
    return { read, written };
  }
}
const utf8Labels = ['utf-8', 'utf8', 'unicode-1-1-utf-8'];
class TextDecoder {
  #fatal;
  #ignoreBOM;
  constructor(label = 'utf-8', options = {}) {
    if (!utf8Labels.includes(String(label).trim().toLowerCase())) {
      throw new RangeError(`The "${label}" encoding is not supported`);
    }
    this.#fatal = Boolean(options && options.fatal);
    this.#ignoreBOM = Boolean(options && options.ignoreBOM);
  }
  get encoding() { return 'utf-8'; }
  get fatal() { return this.#fatal; }
  get ignoreBOM() { return this.#ignoreBOM; }
  decode(input = new Uint8Array(0)) {
    let bytes;
    if (input instanceof ArrayBuffer) bytes = new Uint8Array(input);
    else if (ArrayBuffer.isView(input)) bytes = new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    else throw new TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView');
    let text = internals.decodeUtf8(bytes, this.#fatal);
    if (!this.#ignoreBOM && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    return text;
  }
}
return { TextEncoder, TextDecoder };
