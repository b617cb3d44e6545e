// `querystring`: Node's legacy form encoding (parse, stringify, escape,
// unescape; decode/encode aliases).

function escape(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function unescape(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/%([0-9a-fA-F]{2})/g, (m, hex) => String.fromCharCode(parseInt(hex, 16)));
  }
}

function stringifyPrimitive(value) {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return '';
}

function stringify(object, sep = '&', eq = '=', options) {
  const encode = options?.encodeURIComponent ?? escape;
  if (object === null || typeof object !== 'object') return '';
  const parts = [];
  for (const key of Object.keys(object)) {
    const value = object[key];
    const k = encode(stringifyPrimitive(key)) + eq;
    if (Array.isArray(value)) {
      for (const item of value) parts.push(k + encode(stringifyPrimitive(item)));
    } else {
      parts.push(k + encode(stringifyPrimitive(value)));
    }
  }
  return parts.join(sep);
}

function parse(text, sep = '&', eq = '=', options) {
  const result = Object.create(null);
  if (typeof text !== 'string' || text.length === 0) return result;
  const decode = options?.decodeURIComponent ?? unescape;
  const max = options?.maxKeys ?? 1000;
  let pieces = text.split(sep);
  if (max > 0) pieces = pieces.slice(0, max);
  for (const piece of pieces) {
    if (piece.length === 0) continue;
    const at = piece.indexOf(eq);
    const rawKey = at >= 0 ? piece.slice(0, at) : piece;
    const rawValue = at >= 0 ? piece.slice(at + eq.length) : '';
    const key = decode(rawKey.replace(/\+/g, ' '));
    const value = decode(rawValue.replace(/\+/g, ' '));
    if (!(key in result)) result[key] = value;
    else if (Array.isArray(result[key])) result[key].push(value);
    else result[key] = [result[key], value];
  }
  return result;
}

return { parse, stringify, escape, unescape, decode: parse, encode: stringify, unescapeBuffer: (s) => require('buffer').Buffer.from(unescape(s)) };
