// `assert`: Node's assertions with Node's AssertionError (code
// ERR_ASSERTION, actual, expected, operator, generatedMessage) and its
// messages for the common cases; `assert.strict` has the strict forms.

const util = require('util');
const { inspect } = internals;

class AssertionError extends Error {
  constructor(options) {
    const { message, actual, expected, operator } = options;
    super(message === undefined ? generate(actual, expected, operator) : String(message));
    this.generatedMessage = message === undefined;
    this.code = 'ERR_ASSERTION';
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
  }
  get name() { return 'AssertionError'; }
  toString() { return `AssertionError [ERR_ASSERTION]: ${this.message}`; }
}

const deep = (value) => inspect(value, { depth: 1000 });

// A line diff of the two values' inspections, as Node shows it.
function diff(actual, expected) {
  const a = deep(actual).split('\n');
  const b = deep(expected).split('\n');
  const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const lines = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) { lines.push(`  ${a[i]}`); i++; j++; }
    else if (j < b.length && (i === a.length || table[i][j + 1] > table[i + 1][j])) { lines.push(`- ${b[j]}`); j++; }
    else { lines.push(`+ ${a[i]}`); i++; }
  }
  return lines.join('\n');
}

function generate(actual, expected, operator) {
  switch (operator) {
    case 'strictEqual':
      if (typeof actual === 'object' && actual !== null && typeof expected === 'object' && expected !== null) {
        return `Expected values to be strictly equal:\n+ actual - expected\n\n${diff(actual, expected)}`;
      }
      if (typeof actual === 'string' && typeof expected === 'string' && (actual.includes('\n') || expected.includes('\n'))) {
        return `Expected values to be strictly equal:\n+ actual - expected\n\n${diff(actual, expected)}`;
      }
      return `Expected values to be strictly equal:\n\n${inspect(actual)} !== ${inspect(expected)}\n`;
    case 'deepStrictEqual':
      return `Expected values to be strictly deep-equal:\n+ actual - expected\n\n${diff(actual, expected)}`;
    case 'deepEqual':
      return `Expected values to be loosely deep-equal:\n\n${deep(actual)}\n\nshould loosely deep-equal\n\n${deep(expected)}`;
    case 'notStrictEqual':
      return `Expected "actual" to be strictly unequal to: ${inspect(expected)}`;
    case 'notDeepStrictEqual':
      return `Expected "actual" not to be strictly deep-equal to: ${deep(expected)}`;
    case 'notDeepEqual':
      return `Expected "actual" not to be loosely deep-equal to:\n\n${deep(expected)}`;
    case '==':
    case '!=':
      return `${inspect(actual)} ${operator} ${inspect(expected)}`;
    case 'fail':
      return 'Failed';
    default:
      return `${inspect(actual)} ${operator} ${inspect(expected)}`;
  }
}

function fail(options, message) {
  if (message instanceof Error) throw message;
  throw new AssertionError({ ...options, message });
}

function innerOk(value, message, operator = '==') {
  if (!value) {
    if (message instanceof Error) throw message;
    const generated = message === undefined;
    const err = new AssertionError({
      actual: value,
      expected: true,
      operator,
      message: generated ? (arguments.length === 0 ? 'No value argument passed to `assert.ok()`' : 'The expression evaluated to a falsy value') : message,
    });
    err.generatedMessage = generated;
    throw err;
  }
}

function ok(...args) { innerOk(args[0], args[1]); if (args.length === 0) innerOk(undefined, 'No value argument passed to `assert.ok()`'); }

function matchesError(error, expected, message, fnName) {
  if (expected === undefined) return;
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && error instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) {
      throw error;
    }
    if (expected.call({}, error) === true) return;
    throw new AssertionError({ actual: error, expected, operator: fnName, message: message ?? `The ${fnName === 'rejects' ? 'rejection' : 'error'} validation function is expected to return "true". Received ${inspect(expected.call({}, error))}` });
  }
  if (expected instanceof RegExp) {
    if (expected.test(String(error))) return;
    throw new AssertionError({ actual: error, expected, operator: fnName, message: message ?? `The input did not match the regular expression ${inspect(expected)}. Input:\n\n${inspect(String(error))}\n` });
  }
  if (typeof expected === 'object' && expected !== null) {
    for (const key of Object.keys(expected)) {
      const want = expected[key];
      const have = error?.[key];
      const same = want instanceof RegExp && typeof have === 'string' ? want.test(have) : util.isDeepStrictEqual(have, want);
      if (!same) {
        throw new AssertionError({ actual: error, expected, operator: fnName, message: message ?? `Expected values to be strictly deep-equal:\n+ actual - expected\n\n${diff(have, want)}` });
      }
    }
  }
}

function throws(fn, expected, message) {
  if (typeof fn !== 'function') {
    const err = new TypeError(`The "fn" argument must be of type function. Received ${inspect(fn)}`);
    err.code = 'ERR_INVALID_ARG_TYPE';
    throw err;
  }
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try {
    fn();
  } catch (error) {
    matchesError(error, expected, message, 'throws');
    return;
  }
  const name = expected?.name ? ` (${expected.name})` : '';
  throw new AssertionError({ actual: undefined, expected, operator: 'throws', message: message ?? `Missing expected exception${name}.` });
}

function doesNotThrow(fn, expected, message) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  try {
    fn();
  } catch (error) {
    throw new AssertionError({ actual: error, expected, operator: 'doesNotThrow', message: `Got unwanted exception${message ? `: ${message}` : '.'}\nActual message: "${error?.message}"` });
  }
}

async function rejects(promiseOrFn, expected, message) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  const promise = typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn;
  try {
    await promise;
  } catch (error) {
    matchesError(error, expected, message, 'rejects');
    return;
  }
  const name = expected?.name ? ` (${expected.name})` : '';
  throw new AssertionError({ actual: undefined, expected, operator: 'rejects', message: message ?? `Missing expected rejection${name}.` });
}

async function doesNotReject(promiseOrFn, expected, message) {
  if (typeof expected === 'string') { message = expected; expected = undefined; }
  const promise = typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn;
  try {
    await promise;
  } catch (error) {
    throw new AssertionError({ actual: error, expected, operator: 'doesNotReject', message: `Got unwanted rejection${message ? `: ${message}` : '.'}\nActual message: "${error?.message}"` });
  }
}

const deepEqualImpl = util.deepEqualImpl;
function makeAssert(strict) {
  const assert = (...args) => ok(...args);
  const equal = strict
    ? (actual, expected, message) => { if (!Object.is(actual, expected)) fail({ actual, expected, operator: 'strictEqual' }, message); }
    : (actual, expected, message) => { if (!(actual == expected || (actual !== actual && expected !== expected))) fail({ actual, expected, operator: '==' }, message); };
  const notEqual = strict
    ? (actual, expected, message) => { if (Object.is(actual, expected)) fail({ actual, expected, operator: 'notStrictEqual' }, message); }
    : (actual, expected, message) => { if (actual == expected || (actual !== actual && expected !== expected)) fail({ actual, expected, operator: '!=' }, message); };
  const deepEq = strict
    ? (actual, expected, message) => { if (!deepEqualImpl(actual, expected, true)) fail({ actual, expected, operator: 'deepStrictEqual' }, message); }
    : (actual, expected, message) => { if (!deepEqualImpl(actual, expected, false)) fail({ actual, expected, operator: 'deepEqual' }, message); };
  const notDeepEq = strict
    ? (actual, expected, message) => { if (deepEqualImpl(actual, expected, true)) fail({ actual, expected, operator: 'notDeepStrictEqual' }, message); }
    : (actual, expected, message) => { if (deepEqualImpl(actual, expected, false)) fail({ actual, expected, operator: 'notDeepEqual' }, message); };
  Object.assign(assert, {
    ok,
    equal,
    notEqual,
    deepEqual: deepEq,
    notDeepEqual: notDeepEq,
    strictEqual(actual, expected, message) { if (!Object.is(actual, expected)) fail({ actual, expected, operator: 'strictEqual' }, message); },
    notStrictEqual(actual, expected, message) { if (Object.is(actual, expected)) fail({ actual, expected, operator: 'notStrictEqual' }, message); },
    deepStrictEqual(actual, expected, message) { if (!deepEqualImpl(actual, expected, true)) fail({ actual, expected, operator: 'deepStrictEqual' }, message); },
    notDeepStrictEqual(actual, expected, message) { if (deepEqualImpl(actual, expected, true)) fail({ actual, expected, operator: 'notDeepStrictEqual' }, message); },
    throws,
    doesNotThrow,
    rejects,
    doesNotReject,
    match(string, regexp, message) {
      if (!regexp.test(string)) fail({ actual: string, expected: regexp, operator: 'match', message: message ?? `The input did not match the regular expression ${inspect(regexp)}. Input:\n\n${inspect(string)}\n` });
    },
    doesNotMatch(string, regexp, message) {
      if (regexp.test(string)) fail({ actual: string, expected: regexp, operator: 'doesNotMatch', message: message ?? `The input was expected to not match the regular expression ${inspect(regexp)}. Input:\n\n${inspect(string)}\n` });
    },
    fail(message = 'Failed') {
      if (message instanceof Error) throw message;
      throw new AssertionError({ message, operator: 'fail' });
    },
    ifError(value) {
      if (value !== null && value !== undefined) {
        if (value instanceof Error) throw value;
        throw new AssertionError({ actual: value, expected: null, operator: 'ifError', message: `ifError got unwanted exception: ${inspect(value)}` });
      }
    },
    AssertionError,
  });
  return assert;
}

const assert = makeAssert(false);
assert.strict = makeAssert(true);
assert.strict.strict = assert.strict;
return assert;
