// The `goccia` module: `$` (a lazy, thenable shell command over the
// sandbox's shared shell) and `runScript` (another entry, shared or in a
// child sandbox). The host functions run synchronously; promises settle
// after the call returns.
const native = natives.goccia;
const { policy } = natives;

const { defer, Promise, JSONParse, JSONStringify } = internals;

// One shell word: single-quoted, with `'` as `'\''`.
function quoteWord(value) {
  const text = String(value);
  if (text !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function interpolate(value) {
  if (Array.isArray(value)) return value.map(interpolate).join(' ');
  if (value !== null && typeof value === 'object' && typeof value.raw === 'string') {
    return value.raw;
  }
  if (value instanceof ShellCommand) {
    throw new TypeError('$: a command cannot be interpolated into another; await it first');
  }
  return quoteWord(value);
}

function commandLine(strings, values) {
  if (typeof strings === 'string') return strings;
  if (!Array.isArray(strings) || !Array.isArray(strings.raw)) {
    throw new TypeError('$ is a template tag or takes one command string');
  }
  let text = strings[0];
  for (let i = 0; i < values.length; i++) text += interpolate(values[i]) + strings[i + 1];
  return text;
}

class ShellError extends Error {
  constructor(command, result) {
    super(`command failed with exit code ${result.exitCode}: ${command}`);
    this.name = 'ShellError';
    this.exitCode = result.exitCode;
    this.stdout = result.stdout;
    this.stderr = result.stderr;
  }
}

class ShellCommand {
  #command;
  #options = { quiet: false, nothrow: false, cwd: undefined, env: undefined, stdin: undefined };
  #escalation = null;
  #promise = null;

  constructor(command) {
    this.#command = command;
  }

  #set(name, value) {
    if (this.#promise) throw new Error(`$: .${name}() after the command started`);
    this.#options[name] = value;
    return this;
  }

  quiet() { return this.#set('quiet', true); }
  nothrow() { return this.#set('nothrow', true); }
  cwd(path) { return this.#set('cwd', String(path)); }
  env(vars) {
    if (vars === null || typeof vars !== 'object') throw new TypeError('$: .env() takes an object');
    return this.#set('env', Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)])));
  }
  // Asks the host to run this one command under a wider write policy.
  escalate(mode, justification) {
    if (this.#promise) throw new Error('$: .escalate() after the command started');
    this.#escalation = { mode, justification };
    return this;
  }
  stdin(input) {
    if (typeof input !== 'string' && !(input instanceof Uint8Array)) {
      throw new TypeError('$: .stdin() takes a string or a Uint8Array');
    }
    return this.#set('stdin', input);
  }

  // Runs the command once; later calls return the same promise.
  run() {
    if (!this.#promise) {
      const options = this.#options;
      const command = this.#command;
      let outcome;
      const escalation = this.#escalation;
      const run = () => native.shell(command, options);
      try {
        outcome = {
          result: escalation === null
            ? run()
            : policy.escalate('command', command, escalation.mode, escalation.justification, run),
        };
      } catch (error) {
        outcome = { error };
      }
      this.#promise = new Promise((resolve, reject) => defer(() => {
        if (outcome.error) return reject(outcome.error);
        const raw = outcome.result;
        const result = { exitCode: raw.exitCode, stdout: raw.stdout, stderr: raw.stderr, ok: raw.exitCode === 0 };
        if (!result.ok && !options.nothrow) reject(new ShellError(command, result));
        else resolve(result);
      }));
    }
    return this.#promise;
  }

  then(onFulfilled, onRejected) { return this.run().then(onFulfilled, onRejected); }
  catch(onRejected) { return this.run().catch(onRejected); }
  finally(onFinally) { return this.run().finally(onFinally); }

  text() {
    if (!this.#promise) this.#options.quiet = true;
    return this.run().then((result) => result.stdout);
  }

  json() {
    return this.text().then((text) => {
      try {
        return JSONParse(text);
      } catch (cause) {
        throw new SyntaxError(`$: the output of \`${this.#command}\` is not JSON: ${cause.message}`);
      }
    });
  }

  lines() {
    return this.text().then((text) => {
      const lines = text.split('\n');
      if (lines[lines.length - 1] === '') lines.pop();
      return lines;
    });
  }
}

function $(strings, ...values) {
  return new ShellCommand(commandLine(strings, values));
}

function runScript(path, options = {}) {
  if (typeof path !== 'string') throw new TypeError('runScript: the path must be a string');
  if (options === null || typeof options !== 'object') {
    throw new TypeError('runScript: options must be an object');
  }
  const run = () => native.runScript(path, JSONStringify(options));
  const raw = options.sandboxPermissions === undefined && options.justification === undefined
    ? run()
    : policy.escalate('command', `runScript ${path}`, options.sandboxPermissions, options.justification, run);
  return {
    ok: raw.exitCode === 0,
    exitCode: raw.exitCode,
    stdout: raw.stdout,
    stderr: raw.stderr,
    result: raw.resultJson == null ? undefined : JSONParse(raw.resultJson),
    error: raw.error ?? null,
    diff: raw.diff ?? null,
    changes: raw.changesJson == null ? null : JSONParse(raw.changesJson),
    failureKind: raw.failureKind ?? null,
  };
}

return { $, runScript };
