// The declarations hold: native.d.ts is what napi-rs generates from the
// binding today, and TypeScript compiles the examples against index.d.ts;
// then the compiled examples run (no model needed).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const pkg = path.dirname(here);
const examples = path.join(pkg, "examples");

function run(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

test("native.d.ts is what napi-rs generates from the binding", { timeout: 600_000 }, () => {
  run(path.join(pkg, "regen-dts.sh"), ["--check"], pkg);
});

test("the examples type-check and run", { timeout: 120_000 }, () => {
  // The examples import bash-tool and ai as a user's project would: from
  // a node_modules beside them (this harness's).
  const modules = path.join(examples, "node_modules");
  if (!fs.existsSync(modules)) fs.symlinkSync(path.join(here, "node_modules"), modules);
  run(path.join(here, "node_modules/.bin/tsc"), ["-p", examples], examples);
  const tools = run(process.execPath, [path.join(examples, ".out/agent-tools.mjs")], examples);
  assert.match(tools, /bash: \{"stdout":"src\/app.ts:2:\/\/ TODO: tests\\n","stderr":"","exitCode":0\}/);
  assert.match(tools, /readFile: \{"content":"\/\/ the tests\\n"\}/);
  assert.match(tools, /^\+\+\+ b\/src\/app.test.ts/m);
  assert.doesNotMatch(tools, /b\/src\/app.ts/, "only the agent's change is in the diff");
  const fanOut = run(process.execPath, [path.join(examples, ".out/fan-out.mjs")], examples);
  assert.match(fanOut, /"applied":\["\/work\/out.txt"\]/);
  assert.match(fanOut, /1\n2\n3\n/);
});
