"use strict";
// `goccia/just-bash`: the `Bash` class of the npm package just-bash
// (3.4.x), over a goccia Sandbox, so a caller switches by changing the
// import. What just-bash does that this cannot (custom commands in
// JavaScript, pluggable file systems, ...) is refused by name, never
// ignored; node/README.md has the table.

const path = require("node:path");
const { Sandbox, SpecError } = require("./index.cjs");
const { commandResult } = require("./command-result.cjs");

/** Options of just-bash's Bash that goccia cannot honour, and why. */
const UNSUPPORTED = {
  fs: "goccia's file system is its own VFS (seed it with `files`)",
  customCommands: "goccia's shell runs no JavaScript commands",
  fetch: "goccia's network is configured by the spec's `network` (use goccia's Sandbox)",
  network: "goccia's network is configured by the spec's `network` (use goccia's Sandbox)",
  python: "goccia has no Python interpreter (host commands can run the real one: use goccia's Sandbox)",
  javascript: "goccia runs JavaScript with `goccia run` and runScript, not js-exec",
  commands: "goccia's commands cannot be narrowed to a list",
  sleep: "goccia's sleep uses the real clock",
  logger: "goccia has no per-command logger",
  trace: "goccia has no per-command trace callback",
  defenseInDepth: "goccia confines guest code itself (docs/security.md)",
  coverage: "goccia has no coverage writer",
  processInfo: "goccia's process identity is fixed",
};

/** just-bash's limit names → goccia's (`limits.` in the spec). */
const LIMITS = {
  maxCallDepth: "maxFunctionDepth",
  maxCommandCount: "maxCommands",
  maxLoopIterations: "maxLoopIterations",
  maxOutputSize: "maxOutput",
};

function quote(word) {
  return `'${String(word).replaceAll("'", "'\\''")}'`;
}

function limitsOf(options) {
  const limits = {};
  const given = { ...options.executionLimits };
  for (const old of ["maxCallDepth", "maxCommandCount", "maxLoopIterations"]) {
    if (options[old] != null && given[old] == null) given[old] = options[old];
  }
  for (const [name, value] of Object.entries(given)) {
    if (value == null) continue;
    const ours = LIMITS[name];
    if (!ours) {
      throw new SpecError(
        `executionLimits.${name}: goccia has no such limit (it takes ${Object.keys(LIMITS).join(", ")}; ` +
          "its own limits are in goccia's Sandbox spec)",
        "ERR_GOCCIA_SPEC",
      );
    }
    limits[ours] = value;
  }
  return limits;
}

/** `files` of just-bash (content, `{content}`, or a function giving it) as goccia's. */
function filesOf(files) {
  const out = {};
  for (const [name, value] of Object.entries(files ?? {})) {
    let content = typeof value === "function" ? value() : value;
    if (content && typeof content === "object" && !(content instanceof Uint8Array)) {
      content = content.content;
    }
    if (content && typeof content.then === "function") {
      throw new SpecError(
        `files[${JSON.stringify(name)}]: an async lazy file cannot seed goccia (give its content)`,
        "ERR_GOCCIA_SPEC",
      );
    }
    out[name] = content;
  }
  return out;
}

class Bash {
  #sandbox;
  #cwd;
  #env;
  #ready;

  constructor(options = {}) {
    for (const [name, why] of Object.entries(UNSUPPORTED)) {
      if (options[name] != null && options[name] !== false) {
        throw new SpecError(`${name}: not supported by goccia/just-bash: ${why}`, "ERR_GOCCIA_SPEC");
      }
    }
    // As just-bash: a home folder and /tmp only when neither a cwd nor
    // files were given; the working folder is then the home, else "/".
    const defaultLayout = !options.cwd && !options.files;
    const home = defaultLayout ? "/home/user" : "/";
    this.#cwd = options.cwd || home;
    this.#env = { HOME: home, PATH: "/usr/bin:/bin", ...options.env };
    const limits = limitsOf(options);
    this.#sandbox = new Sandbox({
      files: filesOf(options.files),
      env: this.#env,
      ...(Object.keys(limits).length > 0 ? { limits } : {}),
    });
    const folders = defaultLayout ? ["/home/user", "/tmp"] : [this.#cwd];
    this.#ready = this.#sandbox.runShell(`mkdir -p ${folders.map(quote).join(" ")}`);
  }

  /** Runs a script in a shell state of its own (variables, functions and
   * the working folder reset per call, as just-bash does); the file system
   * is shared. */
  async exec(commandLine, options = {}) {
    await this.#ready;
    const { env, cwd, stdin, signal, replaceEnv, args } = options;
    const lines = [];
    if (replaceEnv) {
      for (const name of Object.keys(this.#env)) lines.push(`unset ${name}`);
    }
    for (const [name, value] of Object.entries(env ?? {})) {
      lines.push(`export ${name}=${quote(value)}`);
    }
    lines.push(`cd ${quote(path.posix.resolve(this.#cwd, cwd ?? "."))} || exit 1`);
    const argv = (args ?? []).map(quote).join(" ");
    lines.push(argv ? `${commandLine} ${argv}` : commandLine);
    // A subshell: nothing the script sets outlives the call.
    const run = await this.#sandbox.runShell(`(\n${lines.join("\n")}\n)`, {
      ...(stdin != null ? { stdin } : {}),
      ...(signal != null ? { signal } : {}),
    });
    const result = commandResult(run);
    const finalEnv = replaceEnv ? { ...env } : { ...this.#env, ...env };
    return { ...result, env: finalEnv };
  }

  /** A file's text (a relative path from the working folder). */
  async readFile(file) {
    return this.#sandbox.readFile(path.posix.resolve(this.#cwd, file));
  }

  /** Writes a file's text, creating its folders. */
  async writeFile(file, content) {
    await this.#sandbox.writeFile(path.posix.resolve(this.#cwd, file), content);
  }

  getCwd() {
    return this.#cwd;
  }

  getEnv() {
    return { ...this.#env };
  }

  /** The goccia Sandbox underneath (diffs, snapshots, children). */
  get sandbox() {
    return this.#sandbox;
  }
}

module.exports = { Bash };
