// `timers/promises`: the timers as promises and async iterators.

function aborted(signal) {
  const err = new Error('The operation was aborted');
  err.name = 'AbortError';
  err.code = 'ABORT_ERR';
  err.cause = signal.reason;
  return err;
}

function delay(schedule, clear, ms, value, options = {}) {
  const { signal } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(signal));
    const id = schedule(() => resolve(value), ms);
    signal?.addEventListener('abort', () => { clear(id); reject(aborted(signal)); }, { once: true });
  });
}

async function* setIntervalIterator(ms, value, options = {}) {
  while (true) {
    yield await delay(setTimeout, clearTimeout, ms, value, options);
  }
}

return {
  setTimeout: (ms, value, options) => delay(setTimeout, clearTimeout, ms, value, options),
  setImmediate: (value, options) => delay((fn) => setImmediate(fn), clearImmediate, 0, value, options),
  setInterval: setIntervalIterator,
  scheduler: {
    wait: (ms, options) => delay(setTimeout, clearTimeout, ms, undefined, options),
    yield: () => delay((fn) => setImmediate(fn), clearImmediate, 0, undefined),
  },
};
