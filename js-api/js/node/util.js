// `util`: format, inspect, promisify/callbackify, types, inherits,
// deprecate, isDeepStrictEqual, parseArgs, and the rest agents reach for.

const { inspect, format: formatArgs } = internals;

function invalidArg(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be ${expected}. Received ${inspect(value)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

const kCustomPromisify = Symbol.for('nodejs.util.promisify.custom');

function promisify(original) {
  if (typeof original !== 'function') throw invalidArg('original', 'of type function', original);
  if (original[kCustomPromisify]) {
    const fn = original[kCustomPromisify];
    if (typeof fn !== 'function') throw invalidArg('util.promisify.custom', 'of type function', fn);
    return fn;
  }
  function fn(...args) {
    return new Promise((resolve, reject) => {
      original.call(this, ...args, (err, ...values) => {
        if (err) return reject(err);
        resolve(values.length > 1 ? values : values[0]);
      });
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = kCustomPromisify;

function callbackify(original) {
  if (typeof original !== 'function') throw invalidArg('original', 'of type function', original);
  return function callbackified(...args) {
    const callback = args.pop();
    if (typeof callback !== 'function') throw invalidArg('last argument', 'of type function', callback);
    original.apply(this, args).then(
      (value) => queueMicrotask(() => callback(null, value)),
      (reason) => {
        if (!reason) {
          const err = new Error('Promise was rejected with a falsy value');
          err.code = 'ERR_FALSY_VALUE_REJECTION';
          err.reason = reason;
          reason = err;
        }
        queueMicrotask(() => callback(reason));
      },
    );
  };
}

function inherits(ctor, superCtor) {
  if (typeof ctor !== 'function') throw invalidArg('ctor', 'of type function', ctor);
  if (typeof superCtor !== 'function') throw invalidArg('superCtor', 'of type function', superCtor);
  if (superCtor.prototype === undefined) throw invalidArg('superCtor.prototype', 'of type object', superCtor.prototype);
  Object.defineProperty(ctor, 'super_', { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const warned = new Set();
function deprecate(fn, message, code) {
  if (typeof fn !== 'function') throw invalidArg('fn', 'of type function', fn);
  let done = false;
  function deprecated(...args) {
    if (!done && !(code !== undefined && warned.has(code))) {
      done = true;
      if (code !== undefined) warned.add(code);
      require('process').emitWarning(message, 'DeprecationWarning', code);
    }
    return new.target ? Reflect.construct(fn, args, new.target) : fn.apply(this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

const toString = (value) => Object.prototype.toString.call(value);
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const typedTag = (value) => (ArrayBuffer.isView(value) && !(value instanceof DataView) ? value[Symbol.toStringTag] : undefined);
const types = {
  isPromise: (v) => v instanceof Promise,
  isRegExp: (v) => toString(v) === '[object RegExp]',
  isDate: (v) => toString(v) === '[object Date]',
  isMap: (v) => toString(v) === '[object Map]',
  isSet: (v) => toString(v) === '[object Set]',
  isWeakMap: (v) => toString(v) === '[object WeakMap]',
  isWeakSet: (v) => toString(v) === '[object WeakSet]',
  isMapIterator: (v) => toString(v) === '[object Map Iterator]',
  isSetIterator: (v) => toString(v) === '[object Set Iterator]',
  isNativeError: (v) => v instanceof Error,
  isAsyncFunction: (v) => typeof v === 'function' && v[Symbol.toStringTag] === 'AsyncFunction',
  isGeneratorFunction: (v) => typeof v === 'function' && /^(Async)?GeneratorFunction$/.test(v[Symbol.toStringTag] || ''),
  isGeneratorObject: (v) => toString(v) === '[object Generator]',
  isArrayBuffer: (v) => v instanceof ArrayBuffer,
  isSharedArrayBuffer: (v) => typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer,
  isAnyArrayBuffer: (v) => v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer),
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isDataView: (v) => v instanceof DataView,
  isTypedArray: (v) => v instanceof TypedArrayProto.constructor,
  isUint8Array: (v) => typedTag(v) === 'Uint8Array',
  isUint8ClampedArray: (v) => typedTag(v) === 'Uint8ClampedArray',
  isUint16Array: (v) => typedTag(v) === 'Uint16Array',
  isUint32Array: (v) => typedTag(v) === 'Uint32Array',
  isInt8Array: (v) => typedTag(v) === 'Int8Array',
  isInt16Array: (v) => typedTag(v) === 'Int16Array',
  isInt32Array: (v) => typedTag(v) === 'Int32Array',
  isFloat32Array: (v) => typedTag(v) === 'Float32Array',
  isFloat64Array: (v) => typedTag(v) === 'Float64Array',
  isBigInt64Array: (v) => typedTag(v) === 'BigInt64Array',
  isBigUint64Array: (v) => typedTag(v) === 'BigUint64Array',
  isBoxedPrimitive: (v) => ['[object Number]', '[object String]', '[object Boolean]', '[object BigInt]', '[object Symbol]'].includes(toString(v)) && typeof v === 'object',
  isNumberObject: (v) => typeof v === 'object' && toString(v) === '[object Number]',
  isStringObject: (v) => typeof v === 'object' && toString(v) === '[object String]',
  isBooleanObject: (v) => typeof v === 'object' && toString(v) === '[object Boolean]',
  isSymbolObject: (v) => typeof v === 'object' && toString(v) === '[object Symbol]',
  isProxy: () => false,
  isModuleNamespaceObject: (v) => toString(v) === '[object Module]',
};

// Deep equality as assert.deepStrictEqual has it.
function isDeepStrictEqual(a, b) {
  return deepEqual(a, b, true, new Map());
}

function deepEqual(a, b, strict, memo) {
  if (strict ? Object.is(a, b) : (a == b || (a !== a && b !== b))) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return false;
  }
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const tagA = toString(a);
  if (tagA !== toString(b)) return false;
  if (memo.get(a) === b) return true;
  memo.set(a, b);
  if (a instanceof Date) {
    if (a.getTime() !== b.getTime()) return false;
  } else if (a instanceof RegExp) {
    if (String(a) !== String(b) || a.lastIndex !== b.lastIndex) return false;
  } else if (a instanceof Error) {
    if (a.message !== b.message || a.name !== b.name) return false;
  } else if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i]) && !(!strict && a[i] == b[i])) return false;
  } else if (typeof a.valueOf === 'function' && types.isBoxedPrimitive(a)) {
    if (!Object.is(a.valueOf(), b.valueOf())) return false;
  }
  if (a instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [key, value] of a) {
      if (!b.has(key) || !deepEqual(value, b.get(key), strict, memo)) return false;
    }
  } else if (a instanceof Set) {
    if (a.size !== b.size) return false;
    outer: for (const value of a) {
      if (b.has(value)) continue;
      if (typeof value === 'object' && value !== null) {
        for (const other of b) if (deepEqual(value, other, strict, memo)) continue outer;
      }
      return false;
    }
  }
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (const key of keysA) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (ArrayBuffer.isView(a) && /^\d+$/.test(key)) continue;
    if (!deepEqual(a[key], b[key], strict, memo)) return false;
  }
  if (strict) {
    const symbolsA = Object.getOwnPropertySymbols(a).filter((s) => Object.prototype.propertyIsEnumerable.call(a, s));
    const symbolsB = Object.getOwnPropertySymbols(b).filter((s) => Object.prototype.propertyIsEnumerable.call(b, s));
    if (symbolsA.length !== symbolsB.length) return false;
    for (const symbol of symbolsA) if (!deepEqual(a[symbol], b[symbol], strict, memo)) return false;
  }
  return true;
}

function parseArgs(config = {}) {
  const args = config.args ?? require('process').argv.slice(2);
  const options = config.options ?? {};
  const strict = config.strict ?? true;
  const allowPositionals = config.allowPositionals ?? !strict;
  const values = { __proto__: null };
  const positionals = [];
  const tokens = [];
  const fail = (code, message) => { const err = new TypeError(message); err.code = code; throw err; };
  const byShort = new Map();
  for (const [name, option] of Object.entries(options)) {
    if (option.short) byShort.set(option.short, name);
  }
  const store = (name, value, raw) => {
    const option = options[name];
    if (option === undefined) {
      if (strict) fail('ERR_PARSE_ARGS_UNKNOWN_OPTION', `Unknown option '${raw}'`);
      values[name] = value ?? true;
      return;
    }
    if (option.type === 'string' && value === undefined) {
      fail('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${raw} <value>' argument missing`);
    }
    if (option.type === 'boolean' && value !== undefined && strict) {
      fail('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${raw}' does not take an argument`);
    }
    const stored = option.type === 'boolean' ? true : value;
    if (option.multiple) {
      if (!Array.isArray(values[name])) values[name] = [];
      values[name].push(stored);
    } else {
      values[name] = stored;
    }
  };
  // Tokens as Node gives them: each option with its name as written, the
  // index of the argument it came from, its value and whether that was
  // inline (undefined for a boolean); positionals and the `--`.
  const option = (name, rawName, index, value, inlineValue) =>
    tokens.push({ kind: 'option', name, rawName, index, value, inlineValue });
  const positional = (index, value) => {
    if (!allowPositionals) {
      fail('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', `Unexpected argument '${value}'. This command does not take positional arguments`);
    }
    positionals.push(value);
    tokens.push({ kind: 'positional', index, value });
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--') {
      tokens.push({ kind: 'option-terminator', index: i });
      for (let j = i + 1; j < args.length; j++) positional(j, args[j]);
      break;
    }
    if (arg.startsWith('--')) {
      const index = i;
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
      let value = inline;
      if (value === undefined && options[name]?.type === 'string' && i + 1 < args.length) value = args[++i];
      store(name, value, `--${name}`);
      const typed = value !== undefined || options[name]?.type === 'string';
      option(name, `--${name}`, index, value, typed ? inline !== undefined : undefined);
    } else if (arg.startsWith('-') && arg.length > 1) {
      const index = i;
      for (let j = 1; j < arg.length; j++) {
        const short = arg[j];
        const name = byShort.get(short) ?? short;
        if (options[name]?.type === 'string') {
          const inline = j + 1 < arg.length;
          const value = inline ? arg.slice(j + 1) : args[++i];
          store(name, value, `-${short}`);
          option(name, `-${short}`, index, value, inline);
          break;
        }
        store(name, undefined, `-${short}`);
        option(name, `-${short}`, index, undefined, undefined);
      }
    } else {
      positional(i, arg);
    }
  }
  for (const [name, option] of Object.entries(options)) {
    if (option.default !== undefined && values[name] === undefined) values[name] = option.default;
  }
  const result = { values, positionals };
  if (config.tokens) result.tokens = tokens;
  return result;
}

function stripVTControlCharacters(text) {
  return String(text).replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, '');
}

// ANSI styles by name, as `util.inspect.colors` lists them: [open, close].
const STYLES = {
  reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25],
  inverse: [7, 27], hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24],
  black: [30, 39], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39],
  cyan: [36, 39], white: [37, 39], gray: [90, 39], grey: [90, 39], blackBright: [90, 39],
  redBright: [91, 39], greenBright: [92, 39], yellowBright: [93, 39], blueBright: [94, 39],
  magentaBright: [95, 39], cyanBright: [96, 39], whiteBright: [97, 39],
  bgBlack: [40, 49], bgRed: [41, 49], bgGreen: [42, 49], bgYellow: [43, 49], bgBlue: [44, 49],
  bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49], bgGray: [100, 49],
  framed: [51, 54], overlined: [53, 55],
};

// `util.styleText`: the guest's stdout is never a terminal, but Node adds
// the codes regardless of the stream unless asked (`validateStream`).
function styleText(format, text) {
  if (typeof text !== 'string') {
    const err = new TypeError(`The "text" argument must be of type string. Received ${inspect(text)}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  let out = text;
  for (const name of Array.isArray(format) ? format : [format]) {
    const style = STYLES[name];
    if (style === undefined) {
      const err = new TypeError(`The argument 'format' must be one of: ${Object.keys(STYLES).map((k) => `'${k}'`).join(', ')}. Received ${inspect(name)}`);
      err.code = 'ERR_INVALID_ARG_VALUE';
      throw err;
    }
    out = `\u001b[${style[0]}m${out}\u001b[${style[1]}m`;
  }
  return out;
}

const util = {
  format: (...args) => formatArgs(args),
  formatWithOptions: (options, ...args) => formatArgs(args),
  inspect,
  promisify,
  callbackify,
  inherits,
  deprecate,
  types,
  isDeepStrictEqual,
  parseArgs,
  stripVTControlCharacters,
  styleText,
  toUSVString: (text) => String(text).toWellFormed(),
  TextEncoder,
  TextDecoder,
  isArray: Array.isArray,
  isBoolean: (v) => typeof v === 'boolean',
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v === null || v === undefined,
  isNumber: (v) => typeof v === 'number',
  isString: (v) => typeof v === 'string',
  isSymbol: (v) => typeof v === 'symbol',
  isUndefined: (v) => v === undefined,
  isRegExp: types.isRegExp,
  isObject: (v) => v !== null && typeof v === 'object',
  isDate: types.isDate,
  isError: (v) => v instanceof Error,
  isFunction: (v) => typeof v === 'function',
  isPrimitive: (v) => v === null || (typeof v !== 'object' && typeof v !== 'function'),
};
// For `assert` (not Node's: not enumerable, so not an export).
Object.defineProperty(util, 'deepEqualImpl', { value: (a, b, strict) => deepEqual(a, b, strict, new Map()) });
return util;
