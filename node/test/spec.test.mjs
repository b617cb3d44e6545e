// One spec, every surface (docs/spec.md): every setting of the sandbox
// spec, given in Node's spelling (the JSON one), reaches the sandbox and
// is read back from it; the walk fails when the spec gains a setting this
// file does not set. The same bad values are refused with the words every
// other surface uses (cli/tests/e2e/spec_parity.rs, python/tests/test_spec.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Sandbox, SpecError } from "../index.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const goccia = process.env.GOCCIA_BIN ?? path.join(root, "target/debug/goccia");
process.env.GOCCIA_WORKER ??= goccia;

/** Every setting away from its default. */
function everySetting(dir) {
  return {
    seeds: [{ from: path.join(dir, "ws"), to: "/w", copyRw: true }],
    exclude: ["*.log"],
    gitignore: true,
    symlinks: "skip",
    env: { GREETING: "hi" },
    limits: {
      timeoutMs: 15000,
      maxMemory: 268435456,
      stackSize: 524288,
      fsQuotaBytes: 536870912,
      fsNodeLimit: 500000,
      maxOutput: 33554432,
      outputOverflow: "truncate",
      maxDepth: 16,
      maxSnapshots: 32,
      maxCommands: 5000000,
      maxLoopIterations: 5000000,
      maxFunctionDepth: 500,
      maxSubstitutionBytes: 33554432,
      maxBufferedInput: 134217728,
      maxConcurrentStages: 128,
      maxValueBytes: 33554432,
    },
    network: {
      allowHost: ["example.com"],
      denyPrivateRanges: true,
      fetchMaxBytes: 1048576,
      secrets: { TOKEN: "env:HOME" },
      secretHeaders: ["example.com:Authorization=Bearer {TOKEN}"],
      caFiles: ["/etc/ssl/certs/ca-certificates.crt"],
    },
    policy: "workspace-write",
    writable: ["/out"],
    approve: "always",
    isolation: "process",
    hostCommands: [{ name: "python3" }],
    hostCommandMemory: 536870912,
    mode: "bytecode",
    auditLog: path.join(dir, "audit.jsonl"),
  };
}

test("every setting reaches the sandbox and is read back", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "goccia-spec-"));
  fs.mkdirSync(path.join(dir, "ws"));
  fs.writeFileSync(path.join(dir, "ws/a.txt"), "a\n");
  const defaults = JSON.parse(execFileSync(goccia, ["spec"], { encoding: "utf8" }));
  const given = everySetting(dir);
  // The walk covers the whole spec: a setting added to it and not here
  // fails this line.
  for (const [key, value] of Object.entries(defaults)) {
    if (value && typeof value === "object" && !Array.isArray(value)) {
      for (const inner of Object.keys(value)) {
        assert.ok(inner in (given[key] ?? {}), `${key}.${inner} is not walked`);
        assert.notDeepEqual(given[key][inner], value[inner], `${key}.${inner} is left at its default`);
      }
    } else {
      assert.ok(key in given, `${key} is not walked`);
      assert.notDeepEqual(given[key], value, `${key} is left at its default`);
    }
  }
  const sandbox = new Sandbox(given);
  const built = sandbox.spec;
  assert.deepEqual(built, Sandbox.resolveSpec(given));
  // The command line's spelling of the same spec builds the same one.
  const file = path.join(dir, "spec.json");
  fs.writeFileSync(file, JSON.stringify(given));
  assert.deepEqual(JSON.parse(execFileSync(goccia, ["spec", "--spec", file], { encoding: "utf8" })), built);
  for (const [key, value] of Object.entries(given)) {
    assert.deepEqual(built[key], value, key);
  }
  sandbox.close();
  fs.rmSync(dir, { recursive: true });
});

test("a bad value is refused with the same words as every surface", () => {
  const bad = [
    [{ policy: "open" }, "policy: `open` is not one of read-only, workspace-write, full"],
    [{ symlinks: "follow" }, "symlinks: `follow` is not one of refuse, skip, keep"],
    [{ limits: { maxMemory: 1 } }, "limits.maxMemory: the memory limit of 1 is out of range: it must be at least 1048576"],
    [{ limits: { maxMemory: "lots" } }, "limits.maxMemory: `lots` is not a size"],
    [{ writable: ["out"] }, "writable: `out` is not an absolute sandbox path"],
    [{ network: { allowHost: ["http://x/"] } }, "network.allowHost: `http://x/`: give HOST[:PORT][/PATH-PREFIX][@METHOD,...], not a URL"],
  ];
  for (const [spec, words] of bad) {
    assert.throws(() => new Sandbox(spec), (error) => {
      assert.ok(error instanceof SpecError, String(error));
      assert.equal(error.code, "ERR_GOCCIA_SPEC");
      assert.ok(error.message.includes(words), `${JSON.stringify(spec)}: ${error.message}`);
      return true;
    });
  }
});
