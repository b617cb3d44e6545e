"use strict";
// The package `goccia` (node/README.md): `Sandbox` over the native addon.
// Nothing of the sandbox is here — this file gives the binding its
// JavaScript shape: an options object per call, `AbortSignal`, error
// classes, promises, and bash-tool's three methods.

const binding = require("./binding.cjs");
const errors = require("./errors.cjs");
const { commandResult } = require("./command-result.cjs");

const { native, fromNative, SpecError } = errors;

/** Constructs a Sandbox around a native one (children). */
const WRAP = Symbol("goccia.wrap");
const asyncDispose = Symbol.asyncDispose ?? Symbol.for("nodejs.asyncDispose");

function bytes(data, what) {
  if (typeof data === "string") return Buffer.from(data, "utf8");
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  throw new SpecError(`${what}: a string or a Uint8Array`, "ERR_INVALID_ARG_VALUE");
}

/** `files: {"/path": text | bytes}` as the spec's inline seeds. */
function inlineSeeds(files) {
  if (files == null) return [];
  if (typeof files !== "object" || Array.isArray(files)) {
    throw new SpecError('files: an object of {"/path": content}', "ERR_GOCCIA_SPEC");
  }
  return Object.entries(files).map(([path, content]) =>
    typeof content === "string"
      ? { path, text: content }
      : { path, base64: bytes(content, `files[${JSON.stringify(path)}]`).toString("base64") },
  );
}

/** The spec as JSON: `files` is folded into `seeds`. */
function specJson(spec) {
  if (spec == null) spec = {};
  if (typeof spec !== "object" || Array.isArray(spec)) {
    throw new SpecError("spec: an object of settings (docs/spec.md)", "ERR_GOCCIA_SPEC");
  }
  const { files, ...rest } = spec;
  const inline = inlineSeeds(files);
  if (inline.length > 0) rest.seeds = [...(rest.seeds ?? []), ...inline];
  return JSON.stringify(rest);
}

const CALL_OPTIONS = new Set(["timeoutMs", "signal", "stdin", "onStdout", "onStderr", "cwd", "env"]);

function callOptions(options, kind) {
  if (options == null) return {};
  if (typeof options !== "object") {
    throw new SpecError("options: an object of call options", "ERR_INVALID_ARG_VALUE");
  }
  for (const name of Object.keys(options)) {
    if (!CALL_OPTIONS.has(name)) {
      throw new SpecError(`${name}: no such call option (${[...CALL_OPTIONS].join(", ")})`, "ERR_INVALID_ARG_VALUE");
    }
  }
  const { timeoutMs, signal, stdin, onStdout, onStderr, cwd, env } = options;
  if ((cwd != null || env != null) && kind !== "shell") {
    throw new SpecError(`${cwd != null ? "cwd" : "env"}: only a shell call takes one (a script runs in the session's folder and environment)`, "ERR_INVALID_ARG_VALUE");
  }
  if (cwd != null && typeof cwd !== "string") {
    throw new SpecError("cwd: a VFS path", "ERR_INVALID_ARG_VALUE");
  }
  if (env != null && (typeof env !== "object" || Object.values(env).some((v) => typeof v !== "string"))) {
    throw new SpecError("env: an object of strings", "ERR_INVALID_ARG_VALUE");
  }
  if (timeoutMs != null && (typeof timeoutMs !== "number" || !(timeoutMs >= 1))) {
    throw new SpecError("timeoutMs: must be at least 1 ms", "ERR_GOCCIA_SPEC");
  }
  if (stdin != null && kind !== "shell") {
    throw new SpecError("stdin: only the shell reads stdin", "ERR_INVALID_ARG_VALUE");
  }
  for (const [name, value] of [["onStdout", onStdout], ["onStderr", onStderr]]) {
    if (value != null && typeof value !== "function") {
      throw new SpecError(`${name}: a function receiving each chunk (a Buffer)`, "ERR_INVALID_ARG_VALUE");
    }
  }
  if (signal != null && typeof signal.addEventListener !== "function") {
    throw new SpecError("signal: an AbortSignal", "ERR_INVALID_ARG_VALUE");
  }
  return options;
}

/** Where durable snapshots are saved (docs/snapshots.md): the path of an
 * SQLite file or a PostgreSQL URL. */
class SnapshotStore {
  #native;

  constructor(location) {
    if (typeof location !== "string") {
      throw new SpecError("location: the path of an SQLite file or a postgres:// URL", "ERR_INVALID_ARG_VALUE");
    }
    this.#native = native(() => new binding.NativeStore(location));
  }

  /** The store, its password hidden. */
  get location() {
    return this.#native.location;
  }

  /** Every saved snapshot, oldest first. */
  async list() {
    return JSON.parse(await settled(this.#native.list())).map((info) => ({
      ...info,
      takenAt: new Date(info.takenAt),
      savedAt: new Date(info.savedAt),
    }));
  }

  /** Removes a saved snapshot (its blobs go at the next `gc`); whether there was one. */
  async drop(savedId) {
    return settled(native(() => this.#native.drop(savedId)));
  }

  /** Removes every blob no saved snapshot names: `{blobs, bytes}` freed. */
  async gc() {
    return JSON.parse(await settled(this.#native.gc()));
  }

  static nativeOf(store) {
    return store.#native;
  }
}

/** A native promise's answer, its rejection as the library's error class. */
async function settled(promise) {
  try {
    return await promise;
  } catch (error) {
    throw fromNative(error);
  }
}

function storeOf(store) {
  if (!(store instanceof SnapshotStore)) {
    throw new SpecError("store: a SnapshotStore", "ERR_INVALID_ARG_VALUE");
  }
  return SnapshotStore.nativeOf(store);
}

class Sandbox {
  #native;

  /**
   * A sandbox built from `spec` (docs/spec.md, the JSON spelling), plus
   * `files: {"/path": content}` for inline files.
   */
  constructor(spec = {}, wrapped) {
    this.#native = spec === WRAP ? wrapped : native(() => new binding.NativeSandbox(specJson(spec)));
  }

  /** The spec `new Sandbox(spec)` would be built from, validated, host paths absolute. */
  static resolveSpec(spec = {}) {
    return JSON.parse(native(() => binding.NativeSandbox.resolveSpec(specJson(spec))));
  }

  /** What this sandbox was built from. */
  get spec() {
    return JSON.parse(native(() => this.#native.spec()));
  }

  /** Whether `close()` was called. */
  get closed() {
    return this.#native.closed;
  }

  async #run(kind, source, options) {
    const { timeoutMs, signal, stdin, onStdout, onStderr, cwd, env } = callOptions(options, kind);
    if (typeof source !== "string") {
      throw new SpecError(`${kind === "script" ? "path" : kind === "code" ? "source" : "command"}: a string`, "ERR_INVALID_ARG_VALUE");
    }
    // A token only for a call that can be aborted.
    const token = signal ? new binding.CancelToken() : null;
    const abort = () => token.cancel();
    if (signal?.aborted) token.cancel();
    else signal?.addEventListener("abort", abort, { once: true });
    try {
      const text = await this.#native.run(
        kind,
        source,
        timeoutMs ?? null,
        stdin == null ? null : bytes(stdin, "stdin"),
        token,
        onStdout ?? null,
        onStderr ?? null,
        cwd ?? null,
        env ?? null,
      );
      return JSON.parse(text);
    } catch (error) {
      throw fromNative(error);
    } finally {
      signal?.removeEventListener("abort", abort);
    }
  }

  /** A command line in the sandbox's one shell session (its cwd, variables and functions persist). */
  runShell(command, options) {
    return this.#run("shell", command, options);
  }

  /** The JS module at `path` (a VFS path) on a fresh runtime. */
  runScript(path, options) {
    return this.#run("script", path, options);
  }

  /** JS `source` as the entry module, never written to the VFS. */
  runCode(source, options) {
    return this.#run("code", source, options);
  }

  /** A file's content: text in `encoding` (default "utf8"), or a Buffer for `null`/"buffer". */
  async readFile(path, encoding = "utf8") {
    const data = native(() => this.#native.readFile(path));
    return encoding == null || encoding === "buffer" ? data : data.toString(encoding);
  }

  /** Writes a file as the host (no policy applies), creating its folders. */
  async writeFile(path, data) {
    native(() => this.#native.writeFile(path, bytes(data, "data")));
  }

  /** Removes a file or folder as the host. */
  async remove(path) {
    native(() => this.#native.remove(path));
  }

  /** `[{path, type}]` under `path`; every level with `{recursive: true}`. */
  async list(path = "/", { recursive = false } = {}) {
    return native(() => this.#native.list(path, Boolean(recursive)));
  }

  /** Changes since the baseline, in apply order (pass them to another sandbox's `apply`). */
  async changes() {
    return native(() => this.#native.changes());
  }

  /** The diff: a unified patch (`format: "unified"`, the default; `root` makes paths relative to a folder), or `format: "json"`, the changes as objects. */
  async diff({ format = "unified", root } = {}) {
    const text = native(() => this.#native.diff(format, root ?? null));
    return format === "json" ? JSON.parse(text) : text;
  }

  /** A child seeded in O(1) from this sandbox: seeds are VFS paths,
   * `{from, to}` or `{path, text}`; `options`, its own `{limits, policy,
   * env}`, each no wider than this sandbox's (limits left out are this
   * sandbox's). */
  async child(seeds, options) {
    const list = Array.isArray(seeds) ? seeds : seeds?.seeds;
    if (!Array.isArray(list)) {
      throw new SpecError("seeds: a list of child seeds", "ERR_INVALID_ARG_VALUE");
    }
    const own = options == null ? null : JSON.stringify(options);
    const child = native(() => this.#native.child(JSON.stringify(list), own));
    return new Sandbox(WRAP, child);
  }

  /** Applies another sandbox's changes with the merge rules; the merge report. */
  async apply(changes) {
    return native(() => this.#native.apply(changes));
  }

  /** Merges a child's changes, its `{from, to}` seeds mapped back; the merge report. */
  async merge(child) {
    if (!(child instanceof Sandbox)) {
      throw new SpecError("child: a Sandbox from child()", "ERR_INVALID_ARG_VALUE");
    }
    return native(() => this.#native.merge(child.#native));
  }

  /** Remembers the tree and the shell session's state (an optional
   * label); the number restores it. */
  async snapshot(label) {
    return native(() => this.#native.snapshot(label ?? null));
  }

  /** Every snapshot, with its parent, label, time and bytes. */
  async snapshots() {
    return native(() => this.#native.snapshots()).map((info) => ({ ...info, takenAt: new Date(info.takenAt) }));
  }

  /** `count` sandboxes from a snapshot (or the state as it is now), the
   * tree shared and each one's changes its own. */
  async fork(id, count = 1) {
    return native(() => this.#native.fork(id ?? null, count)).map((forked) => new Sandbox(WRAP, forked));
  }

  /** Writes snapshot `id` (files, baseline, shell state) to `store` (a
   * `SnapshotStore`); the saved id, which `Sandbox.open` takes here or in
   * another process. */
  async save(store, id) {
    return settled(native(() => this.#native.save(storeOf(store), id)));
  }

  /** Replaces the files, baseline and shell session with saved snapshot
   * `savedId` of `store`; this sandbox's own settings stay. */
  async loadSaved(store, savedId) {
    await settled(native(() => this.#native.loadSaved(storeOf(store), savedId)));
  }

  /** A sandbox with the default settings holding saved snapshot `savedId`
   * of `store` (`new Sandbox(spec)` then `loadSaved` for other settings). */
  static async open(store, savedId) {
    return new Sandbox(WRAP, await settled(native(() => binding.NativeSandbox.open(storeOf(store), savedId))));
  }

  /** Puts the tree back as it was at a snapshot. */
  async restore(id) {
    native(() => this.#native.restore(id));
  }

  /** Back to the baseline. */
  async reset() {
    native(() => this.#native.reset());
  }

  /** The tree as it is becomes the baseline. */
  async rebaseline() {
    native(() => this.#native.rebaseline());
  }

  /** Writes the changes back to the `copyRw` seeds; `{written, skipped, summary}`. */
  async writeBack() {
    return native(() => this.#native.writeBack());
  }

  /** Lets the sandbox go; a run in flight finishes first. */
  async close() {
    this.#native.close();
  }

  async [asyncDispose]() {
    await this.close();
  }

  // bash-tool's Sandbox interface: the model's three tools. They act as
  // the guest: executeCommand runs in the shell, writeFiles is checked
  // against the write policy (the host's writeFile is not).

  /** bash-tool: a command line → `{stdout, stderr, exitCode}`. */
  async executeCommand(command) {
    return commandResult(await this.runShell(command));
  }

  /** bash-tool: writes files as the guest would (under the write policy). */
  async writeFiles(files) {
    for (const { path, content } of files) {
      native(() => this.#native.writeAsGuest(path, bytes(content, `content of ${path}`)));
    }
  }
}

/** Sends this process's spans (calls, shell commands, host commands,
 * fetches) to an OpenTelemetry collector over OTLP/HTTP, such as
 * http://127.0.0.1:4318 (docs/telemetry.md); what is left is sent when the
 * process exits or by `stopTracing()`. */
function startTracing(url) {
  native(() => binding.startTracing(url));
  process.once("exit", stopTracing);
}

/** Sends the spans not sent yet and stops tracing. */
function stopTracing() {
  binding.stopTracing();
}

module.exports = { Sandbox, SnapshotStore, startTracing, stopTracing, ...errors };
delete module.exports.fromNative;
delete module.exports.native;
