// Node-style value formatting for console output (a port of the parts of
// Node's util.inspect that agents see most: objects and arrays broken at
// 80 columns, short arrays grouped into columns, depth 2, circular refs).
// The built-in `goccia:inspect`, made the first time a value is formatted
// (console.log of strings alone never needs it): the prelude's `inspect`
// and `formatWithOptions` hand over to what this returns.

const kBreakLength = 80;
const kCompact = 3;
const kMaxArrayLength = 100;
const kMaxStringLength = 10000;
const kDepth = 2;
const intrinsicToString = Object.prototype.toString;
const identifierRe = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function quoteString(str) {
  let quote = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) quote = '"';
    else if (!str.includes('`') && !str.includes('${')) quote = '`';
  }
  let out = '';
  for (const ch of str) {
    const code = ch.codePointAt(0);
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + code.toString(16).padStart(2, '0').toUpperCase();
    else out += ch;
  }
  return quote + out + quote;
}

function formatKey(key) {
  if (typeof key === 'symbol') return '[' + key.toString() + ']';
  return identifierRe.test(key) ? key : quoteString(key);
}

function formatPrimitive(value) {
  switch (typeof value) {
    case 'string': {
      let trailer = '';
      if (value.length > kMaxStringLength) {
        trailer = `... ${value.length - kMaxStringLength} more characters`;
        value = value.slice(0, kMaxStringLength);
      }
      return quoteString(value) + trailer;
    }
    case 'number': return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint': return String(value) + 'n';
    case 'boolean': return String(value);
    case 'undefined': return 'undefined';
    case 'symbol': return value.toString();
  }
  return String(value);
}

function functionBase(fn) {
  let source = '';
  try { source = Function.prototype.toString.call(fn); } catch (_) { }
  if (source.startsWith('class') && /^class\s*[{\s\w$]/.test(source)) {
    return `[class ${fn.name || '(anonymous)'}]`;
  }
  let kind = 'Function';
  const ctorName = fn.constructor && fn.constructor.name;
  if (ctorName === 'AsyncFunction') kind = 'AsyncFunction';
  else if (ctorName === 'GeneratorFunction') kind = 'GeneratorFunction';
  else if (ctorName === 'AsyncGeneratorFunction') kind = 'AsyncGeneratorFunction';
  return fn.name ? `[${kind}: ${fn.name}]` : `[${kind} (anonymous)]`;
}

function getPrefix(constructor, tag, fallback, size) {
  if (constructor === null) {
    if (tag !== '' && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `;
    return `[${fallback}${size}: null prototype] `;
  }
  if (tag !== '' && constructor !== tag) return `${constructor}${size} [${tag}] `;
  return `${constructor}${size} `;
}

function constructorName(obj) {
  let proto = obj;
  while (proto !== null) {
    const desc = Object.getOwnPropertyDescriptor(proto, 'constructor');
    // Only a constructor `obj` is an instance of names it: a function's
    // `prototype` object is an `Object`, not a `foo`.
    if (desc !== undefined && typeof desc.value === 'function' && desc.value.name !== ''
        && isInstance(obj, desc.value)) {
      return desc.value.name;
    }
    proto = Object.getPrototypeOf(proto);
  }
  return null;
}

function isInstance(obj, ctor) {
  try { return obj instanceof ctor; } catch (_) { return false; }
}

// What V8 gives a sloppy-mode plain function and QuickJS does not: own
// `arguments` and `caller`, both null, which Node's `showHidden` lists
// after `name`. (QuickJS lets a sloppy function's `caller` be read and
// throws for a strict one.)
function isSloppyPlainFunction(fn) {
  if (Object.getPrototypeOf(fn) !== Function.prototype) return false;
  if (!Object.prototype.hasOwnProperty.call(fn, 'prototype')) return false;
  if (/^class\b/.test(Function.prototype.toString.call(fn))) return false;
  try { void fn.caller; return true; } catch (_) { return false; }
}

function formatError(err) {
  const stack = typeof err.stack === 'string' ? err.stack : '';
  let head;
  try { head = Error.prototype.toString.call(err); } catch (_) { head = '[Error]'; }
  const trimmed = stack.replace(/\n+$/, '');
  if (trimmed === '') return head;
  // Node shows the stack, whose first line names the error; a stack set
  // to something else is shown after the error's name.
  return trimmed.startsWith(head) ? trimmed : `${head}\n${trimmed}`;
}

function isBelowBreakLength(ctx, output, start, base) {
  let totalLength = output.length + start;
  if (totalLength + output.length > kBreakLength) return false;
  for (let i = 0; i < output.length; i++) {
    totalLength += output[i].length;
    if (totalLength > kBreakLength) return false;
  }
  return base === '' || !base.includes('\n');
}

function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (ctx.extraEntry) outputLength--;
  const separatorSpace = 2;
  const dataLen = new Array(outputLength);
  for (let i = 0; i < outputLength; i++) {
    const len = output[i].length;
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < kBreakLength &&
      (totalLength / actualMax > 5 || maxLength <= 6)) {
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
      Math.floor((kBreakLength - ctx.indentationLvl) / actualMax),
      kCompact * 4,
      15,
    );
    if (columns <= 1) return output;
    const tmp = [];
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) {
        if (dataLen[j] > lineLength) lineLength = dataLen[j];
      }
      maxLineLength.push(lineLength + separatorSpace);
    }
    let padStart = true;
    if (value !== undefined) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== 'number' && typeof value[i] !== 'bigint') {
          padStart = false;
          break;
        }
      }
    }
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let str = '';
      let j = i;
      for (; j < max - 1; j++) {
        const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
        const cell = `${output[j]}, `;
        str += padStart ? cell.padStart(padding, ' ') : cell.padEnd(padding, ' ');
      }
      if (padStart) {
        const padding = maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace;
        str += output[j].padStart(padding, ' ');
      } else {
        str += output[j];
      }
      tmp.push(str);
    }
    if (ctx.extraEntry) tmp.push(output[outputLength]);
    output = tmp;
  }
  return output;
}

function reduceToSingleString(ctx, output, base, braces, isArrayLike, recurseTimes, value) {
  const entries = output.length;
  if (isArrayLike && entries > 6) output = groupArrayElements(ctx, output, value);
  if (ctx.currentDepth - recurseTimes < kCompact && entries === output.length) {
    const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
    if (isBelowBreakLength(ctx, output, start, base)) {
      const joined = output.join(', ');
      if (!joined.includes('\n')) {
        return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`;
      }
    }
  }
  const indentation = `\n${' '.repeat(ctx.indentationLvl)}`;
  return `${base ? `${base} ` : ''}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
}

function formatProperty(ctx, value, recurseTimes, key) {
  if (typeof key === 'object') return key.shown;
  const desc = Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
  // With `showHidden`, a property that is not enumerable shows in brackets.
  const name = desc.enumerable === false ? `[${typeof key === 'symbol' ? key.toString() : key}]` : formatKey(key);
  let str;
  if (desc.value !== undefined || !('get' in desc)) {
    ctx.indentationLvl += 2;
    str = formatValue(ctx, desc.value, recurseTimes);
    ctx.indentationLvl -= 2;
  } else if (desc.get !== undefined) {
    str = desc.set !== undefined ? '[Getter/Setter]' : '[Getter]';
  } else {
    str = desc.set !== undefined ? '[Setter]' : 'undefined';
  }
  return `${name}: ${str}`;
}

// The keys shown: the enumerable own ones, or with `showHidden` every own
// one (an array's `length`, a function's `name`, a prototype's
// `constructor`), as Node shows them.
function ownKeys(value, showHidden) {
  const keys = showHidden ? Object.getOwnPropertyNames(value) : Object.keys(value);
  for (const sym of Object.getOwnPropertySymbols(value)) {
    if (showHidden || Object.prototype.propertyIsEnumerable.call(value, sym)) keys.push(sym);
  }
  return keys;
}

const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

function formatValue(ctx, value, recurseTimes, topLevel) {
  if (value === null) return 'null';
  if (typeof value !== 'object' && typeof value !== 'function') {
    return formatPrimitive(value);
  }
  // A value met again on its own path is circular: numbered in the order
  // found, and the value itself is marked `<ref *N>` where it is shown.
  if (ctx.seen.includes(value)) {
    let index = ctx.circular.get(value);
    if (index === undefined) {
      index = ctx.circular.size + 1;
      ctx.circular.set(value, index);
    }
    return `[Circular *${index}]`;
  }
  const custom = value[inspectCustom];
  if (typeof custom === 'function' && custom !== inspect) {
    const options = { depth: ctx.depth - recurseTimes, customInspect: true };
    const shown = custom.call(value, ctx.depth - recurseTimes, options, inspect);
    if (shown !== value) {
      return typeof shown === 'string' ? shown : formatValue(ctx, shown, recurseTimes, topLevel);
    }
  }
  return formatRaw(ctx, value, recurseTimes, topLevel);
}

function formatRaw(ctx, value, recurseTimes) {
  let keys = ownKeys(value, ctx.showHidden);
  const ctor = constructorName(value);
  let tag = value[Symbol.toStringTag];
  if (typeof tag !== 'string') tag = '';
  let base = '';
  let braces;
  let formatter = null;
  let isArrayLike = false;
  let extraKeys = keys;

  if (Array.isArray(value)) {
    const prefix = (ctor !== 'Array' || tag !== '') ? getPrefix(ctor, tag, 'Array', `(${value.length})`) : '';
    extraKeys = keys.filter((k) => typeof k !== 'string' || !/^(0|[1-9][0-9]*)$/.test(k));
    braces = [`${prefix}[`, ']'];
    if (value.length === 0 && extraKeys.length === 0) return `${braces[0]}]`;
    isArrayLike = true;
    formatter = formatArray;
  } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const size = value.length;
    braces = [`${getPrefix(ctor, tag, 'TypedArray', `(${size})`)}[`, ']'];
    extraKeys = keys.filter((k) => typeof k !== 'string' || !/^(0|[1-9][0-9]*)$/.test(k));
    if (size === 0 && extraKeys.length === 0) return `${braces[0]}]`;
    isArrayLike = true;
    formatter = formatTypedArray;
  } else if (value instanceof Map) {
    braces = [`${getPrefix(ctor, tag, 'Map', `(${value.size})`)}{`, '}'];
    if (value.size === 0 && keys.length === 0) return `${braces[0]}}`;
    formatter = formatMap;
  } else if (value instanceof Set) {
    braces = [`${getPrefix(ctor, tag, 'Set', `(${value.size})`)}{`, '}'];
    if (value.size === 0 && keys.length === 0) return `${braces[0]}}`;
    formatter = formatSet;
  } else if (typeof value === 'function') {
    base = functionBase(value);
    if (ctx.showHidden && isSloppyPlainFunction(value)) {
      const at = keys.indexOf('name') + 1;
      keys.splice(at, 0, { shown: '[arguments]: null' }, { shown: '[caller]: null' });
      extraKeys = keys;
    }
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (value instanceof RegExp) {
    base = RegExp.prototype.toString.call(value);
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (value instanceof Date) {
    base = Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (value instanceof Error) {
    base = formatError(value);
    keys = keys.filter((k) => k !== 'stack' && k !== 'message');
    extraKeys = keys;
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else if (value instanceof ArrayBuffer) {
    const bytes = new Uint8Array(value);
    const shown = Array.from(bytes.subarray(0, 50), (b) => b.toString(16).padStart(2, '0')).join(' ');
    const more = bytes.length > 50 ? ` ... ${bytes.length - 50} more bytes` : '';
    braces = [`${getPrefix(ctor, tag, 'ArrayBuffer', '')}{`, '}'];
    formatter = () => [`[Uint8Contents]: <${shown}${more}>`, `byteLength: ${value.byteLength}`];
  } else if (value instanceof Promise) {
    braces = [`${getPrefix(ctor, tag, 'Promise', '')}{`, '}'];
    formatter = () => ['<unknown>'];
  } else if (value instanceof WeakMap || value instanceof WeakSet) {
    braces = [`${getPrefix(ctor, tag, value instanceof WeakMap ? 'WeakMap' : 'WeakSet', '')}{`, '}'];
    formatter = () => ['<items unknown>'];
  } else if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    const primitive = value.valueOf();
    const type = value instanceof Number ? 'Number' : value instanceof String ? 'String' : 'Boolean';
    base = `[${type}: ${formatPrimitive(primitive)}]`;
    if (value instanceof String) keys = keys.filter((k) => !/^(0|[1-9][0-9]*)$/.test(k));
    extraKeys = keys;
    if (keys.length === 0) return base;
    braces = ['{', '}'];
  } else {
    if (ctor === 'Object') {
      braces = [tag !== '' ? `${getPrefix(ctor, tag, 'Object', '')}{` : '{', '}'];
    } else {
      braces = [`${getPrefix(ctor, tag, 'Object', '')}{`, '}'];
    }
    if (keys.length === 0) {
      return `${braces[0]}}`;
    }
  }

  if (recurseTimes > ctx.depth) {
    const name = (ctor || tag || 'Object');
    return Array.isArray(value) ? '[Array]' : `[${name}]`;
  }
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  let output;
  ctx.extraEntry = false;
  try {
    output = formatter ? formatter(ctx, value, recurseTimes) : [];
    const extra = ctx.extraEntry;
    for (const key of extraKeys) output.push(formatProperty(ctx, value, recurseTimes, key));
    ctx.extraEntry = extra && extraKeys.length === 0;
  } finally {
    ctx.seen.pop();
  }
  const index = ctx.circular.get(value);
  if (index !== undefined) base = base === '' ? `<ref *${index}>` : `<ref *${index}> ${base}`;
  const result = reduceToSingleString(ctx, output, base, braces, isArrayLike, recurseTimes, value);
  ctx.extraEntry = false;
  return result;
}

function formatArray(ctx, value, recurseTimes) {
  const len = value.length;
  const shown = Math.min(kMaxArrayLength, len);
  const output = [];
  let holes = 0;
  for (let i = 0; i < shown; i++) {
    if (!Object.prototype.hasOwnProperty.call(value, i)) {
      holes++;
      continue;
    }
    if (holes > 0) {
      output.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
      holes = 0;
    }
    ctx.indentationLvl += 2;
    output.push(formatValue(ctx, value[i], recurseTimes));
    ctx.indentationLvl -= 2;
  }
  if (holes > 0) output.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`);
  if (len > shown) {
    output.push(`... ${len - shown} more item${len - shown > 1 ? 's' : ''}`);
    ctx.extraEntry = true;
  }
  return output;
}

function formatTypedArray(ctx, value) {
  const shown = Math.min(kMaxArrayLength, value.length);
  const output = [];
  for (let i = 0; i < shown; i++) output.push(formatPrimitive(value[i]));
  if (value.length > shown) {
    output.push(`... ${value.length - shown} more item${value.length - shown > 1 ? 's' : ''}`);
    ctx.extraEntry = true;
  }
  return output;
}

function formatMap(ctx, value, recurseTimes) {
  const output = [];
  ctx.indentationLvl += 2;
  for (const [k, v] of value) {
    output.push(`${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`);
  }
  ctx.indentationLvl -= 2;
  return output;
}

function formatSet(ctx, value, recurseTimes) {
  const output = [];
  ctx.indentationLvl += 2;
  for (const v of value) output.push(formatValue(ctx, v, recurseTimes));
  ctx.indentationLvl -= 2;
  return output;
}

function inspect(value, options) {
  let depth = kDepth;
  if (options !== null && typeof options === 'object' && 'depth' in options) {
    depth = options.depth === null ? Infinity : Number(options.depth);
  }
  const showHidden = options !== null && typeof options === 'object' && options.showHidden === true;
  const ctx = { seen: [], circular: new Map(), indentationLvl: 0, currentDepth: 0, extraEntry: false, depth, showHidden };
  return formatValue(ctx, value, 0, true);
}
inspect.custom = inspectCustom;

function formatWithOptions(args) {
  const first = args[0];
  let start = 0;
  let out = '';
  if (typeof first === 'string' && args.length > 1 && first.includes('%')) {
    let a = 1;
    let last = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue; // '%'
      const next = first[i + 1];
      let piece;
      if (next === '%') {
        out += first.slice(last, i) + '%';
        last = i + 2;
        i++;
        continue;
      }
      if (a >= args.length) continue;
      const arg = args[a];
      switch (next) {
        case 's':
          piece = typeof arg === 'string' ? arg
            : typeof arg === 'bigint' ? `${arg}n`
            : (typeof arg === 'object' && arg !== null) ? inspect(arg)
            : formatPrimitive(arg);
          if (typeof arg === 'symbol') piece = arg.toString();
          break;
        case 'd': case 'i':
          piece = typeof arg === 'bigint' ? `${arg}n`
            : typeof arg === 'symbol' ? 'NaN'
            : formatPrimitive(next === 'i' ? Math.trunc(Number(arg)) : Number(arg));
          break;
        case 'f': piece = typeof arg === 'symbol' ? 'NaN' : formatPrimitive(parseFloat(arg)); break;
        case 'j':
          try { piece = JSON.stringify(arg); } catch (_) { piece = '[Circular]'; }
          break;
        case 'o':
          piece = inspect(arg, { depth: 4, showHidden: true });
          break;
        case 'O': piece = inspect(arg); break;
        case 'c': piece = ''; break;
        default: continue;
      }
      out += first.slice(last, i) + piece;
      last = i + 2;
      i++;
      a++;
    }
    out += first.slice(last);
    start = a;
    for (let i = start; i < args.length; i++) {
      out += ' ' + (typeof args[i] === 'string' ? args[i] : inspect(args[i]));
    }
    return out;
  }
  for (let i = 0; i < args.length; i++) {
    if (i > 0) out += ' ';
    out += typeof args[i] === 'string' ? args[i] : inspect(args[i]);
  }
  return out;
}

return { inspect, formatWithOptions, functionBase, constructorName };
