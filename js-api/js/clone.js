// The built-in `goccia:clone`: what the global `structuredClone` does,
// made the first time it is called.
function cloneError(message) {
  return new DOMException(message, 'DataCloneError');
}
function structuredCloneImpl(value, memory) {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) {
    if (typeof value === 'symbol') throw cloneError(`${value.toString()} could not be cloned.`);
    return value;
  }
  if (typeof value === 'function') throw cloneError(`${require('goccia:inspect').functionBase(value)} could not be cloned.`);
  if (memory.has(value)) return memory.get(value);
  let out;
  if (Array.isArray(value)) {
    out = new Array(value.length);
    memory.set(value, out);
    for (const key of Object.keys(value)) out[key] = structuredCloneImpl(value[key], memory);
    return out;
  }
  if (value instanceof Date) out = new Date(value.getTime());
  else if (value instanceof RegExp) out = new RegExp(value.source, value.flags);
  else if (value instanceof Boolean || value instanceof Number || value instanceof String) out = Object(value.valueOf());
  else if (value instanceof ArrayBuffer) out = value.slice(0);
  else if (value instanceof DataView) {
    out = new DataView(structuredCloneImpl(value.buffer, memory), value.byteOffset, value.byteLength);
  } else if (ArrayBuffer.isView(value)) {
    out = new value.constructor(structuredCloneImpl(value.buffer, memory), value.byteOffset, value.length);
  } else if (value instanceof Map) {
    out = new Map();
    memory.set(value, out);
    for (const [k, v] of value) out.set(structuredCloneImpl(k, memory), structuredCloneImpl(v, memory));
    return out;
  } else if (value instanceof Set) {
    out = new Set();
    memory.set(value, out);
    for (const v of value) out.add(structuredCloneImpl(v, memory));
    return out;
  } else if (value instanceof Error) {
    const ctors = { EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };
    const Ctor = ctors[value.name] || Error;
    out = new Ctor(value.message);
    memory.set(value, out);
    if (typeof value.stack === 'string') out.stack = value.stack;
    if ('cause' in value) out.cause = structuredCloneImpl(value.cause, memory);
    return out;
  } else if (value instanceof Promise || value instanceof WeakMap || value instanceof WeakSet) {
    throw cloneError(`${require('goccia:inspect').constructorName(value)} object could not be cloned.`);
  } else {
    out = {};
    memory.set(value, out);
    for (const key of Object.keys(value)) out[key] = structuredCloneImpl(value[key], memory);
    return out;
  }
  memory.set(value, out);
  return out;
}
return { structuredClone: (value) => structuredCloneImpl(value, new Map()) };
