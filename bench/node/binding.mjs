#!/usr/bin/env node
// goccia's Node binding against just-bash 3.4.2, side by side in one
// process (issue 43): a warm `echo hi` round trip, a new sandbox plus
// `echo hi`, `grep -r` over 1,000 files, a 10,000-iteration shell loop;
// and the binding's overhead over the same call made in Rust
// (bench/examples/shell_call.rs --captured, run here too).
//
//   cargo build --release -p goccia-node -p goccia-bench --example shell_call
//   GOCCIA_NODE_PROFILE=release node node/build.cjs
//   npm ci --prefix node/test
//   node bench/node/binding.mjs [--quick]
//
// Each case alternates the two implementations round by round, so both see
// the same machine state; it prints the median and 90th percentile.

import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(path.join(root, "node/test/package.json"));
const { Bash } = require("just-bash");
const { Sandbox } = require(path.join(root, "node/index.cjs"));

const quick = process.argv.includes("--quick");
const scale = quick ? 0.1 : 1;

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
  return { p50: at(0.5), p90: at(0.9) };
}

function show(ms) {
  return ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`;
}

/** Times `rounds` of each case after `warm` unmeasured rounds, the cases
 * alternating call by call — or, with `block`, in alternating blocks of
 * that many calls (each implementation's threads stay warm within one). */
async function compare(title, rounds, warm, cases, block = 1) {
  const times = Object.fromEntries(Object.keys(cases).map((name) => [name, []]));
  for (let round = 0; round < warm + rounds; round += block) {
    for (const [name, once] of Object.entries(cases)) {
      for (let i = round; i < round + block; i++) {
        const started = performance.now();
        await once();
        const took = performance.now() - started;
        if (i >= warm) times[name].push(took);
      }
    }
  }
  const figures = Object.fromEntries(Object.entries(times).map(([name, t]) => [name, stats(t)]));
  const [a, b] = Object.keys(figures);
  const ratio = figures[b].p50 / figures[a].p50;
  console.log(`\n${title} (${rounds} rounds)`);
  for (const [name, { p50, p90 }] of Object.entries(figures)) {
    console.log(`  ${name.padEnd(10)} p50 ${show(p50).padStart(10)}   p90 ${show(p90).padStart(10)}`);
  }
  console.log(`  ${a} is ${ratio.toFixed(1)}x faster at the median`);
  return figures;
}

function check(result, expected, who) {
  if (result.stdout !== expected) {
    throw new Error(`${who}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(result.stdout)} ${result.stderr}`);
  }
}

// 1. Warm round trip: call by call (every call finds the other's threads
// asleep, as a harness's calls separated by a model's answer do), and in
// blocks of 100 (calls back to back).
const warmGoccia = new Sandbox();
const warmJust = new Bash();
const echo = {
  goccia: async () => check(await warmGoccia.runShell("echo hi"), "hi\n", "goccia"),
  "just-bash": async () => check(await warmJust.exec("echo hi"), "hi\n", "just-bash"),
};
await compare("warm `echo hi`, alternating call by call", Math.round(2000 * scale), 200, echo);
const warm = await compare("warm `echo hi`, back to back in blocks of 100", Math.round(2000 * scale), 200, echo, 100);

// 2. New sandbox + echo.
await compare("new sandbox + `echo hi`", Math.round(300 * scale), 20, {
  goccia: async () => {
    const sandbox = new Sandbox();
    check(await sandbox.runShell("echo hi"), "hi\n", "goccia");
    await sandbox.close();
  },
  "just-bash": async () => check(await new Bash().exec("echo hi"), "hi\n", "just-bash"),
});

// 3. grep -r over 1,000 files (the same tree in both).
const files = {};
for (let i = 0; i < 1000; i++) {
  const lines = Array.from({ length: 20 }, (_, line) => `line ${line} of file ${i}${line === i % 20 ? " needle" : ""}`);
  files[`/data/d${i % 10}/f${i}.txt`] = `${lines.join("\n")}\n`;
}
const grepGoccia = new Sandbox({ files });
const grepJust = new Bash({ files });
await compare("`grep -r needle /data | wc -l` over 1,000 files", Math.round(30 * scale) || 3, 3, {
  goccia: async () => check(await grepGoccia.runShell("grep -r needle /data | wc -l"), "1000\n", "goccia"),
  "just-bash": async () => check(await grepJust.exec("grep -r needle /data | wc -l"), "1000\n", "just-bash"),
});

// 4. A 10,000-iteration loop.
const loop = "i=0; while [ $i -lt 10000 ]; do i=$((i+1)); done; echo $i";
const loopGoccia = new Sandbox();
const loopJust = new Bash({ executionLimits: { maxLoopIterations: 100000, maxCommandCount: 1000000 } });
await compare("a 10,000-iteration `while` loop", Math.round(20 * scale) || 3, 2, {
  goccia: async () => check(await loopGoccia.runShell(loop), "10000\n", "goccia"),
  "just-bash": async () => check(await loopJust.exec(loop), "10000\n", "just-bash"),
});

// 5. The binding's overhead: the same warm call in Rust, measured now.
const example = path.join(root, "target/release/examples/shell_call");
try {
  const rust = execFileSync(example, ["--captured", String(Math.round(2200 * scale))], { encoding: "utf8" });
  const match = /p50 ([\d.]+)(µs|ns|ms)/.exec(rust);
  const unit = { ns: 1e-6, "µs": 1e-3, ms: 1 }[match[2]];
  const rustP50 = Number(match[1]) * unit;
  console.log(`\nthe binding's overhead over Rust's run_shell("echo hi") (calls back to back)`);
  console.log(`  Rust    p50 ${show(rustP50)}`);
  console.log(`  Node    p50 ${show(warm.goccia.p50)}`);
  console.log(`  overhead    ${show(warm.goccia.p50 - rustP50)} per call`);
} catch (error) {
  console.log(`\n(the Rust floor needs ${example}: cargo build --release -p goccia-bench --example shell_call; ${error.message})`);
}
process.exit(0);
