// Runs happen off the JavaScript thread: the event loop keeps turning,
// sandboxes overlap, and an abort ends a call promptly. Timings are
// printed, never asserted as speed (bench/README.md has the figures).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Sandbox } from "../index.mjs";

const SPIN = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo done";

test("the event loop keeps ticking during a long run", async () => {
  const sandbox = new Sandbox();
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  const run = await sandbox.runShell(SPIN);
  const elapsed = performance.now() - started;
  clearInterval(timer);
  assert.equal(run.stdout, "done\n");
  console.log(`# a ${elapsed.toFixed(0)} ms run: the 10 ms interval ticked ${ticks} times`);
  // A blocked loop would tick at most once, after the run.
  assert.ok(ticks >= 3, `${ticks} ticks during ${elapsed} ms`);
});

test("several sandboxes run at once", async () => {
  const sandboxes = Array.from({ length: 4 }, () => new Sandbox());
  const spans = [];
  const started = performance.now();
  await Promise.all(
    sandboxes.map(async (sandbox) => {
      const run = await sandbox.runCode(
        "const t = Date.now(); let n = 0; while (Date.now() - t < 300) n++; export default { start: t, end: Date.now() };",
      );
      spans.push(run.result);
    }),
  );
  const wall = performance.now() - started;
  const latestStart = Math.max(...spans.map((s) => s.start));
  const earliestEnd = Math.min(...spans.map((s) => s.end));
  console.log(`# 4 runs of 300 ms each took ${wall.toFixed(0)} ms of wall time together`);
  // Every run was under way while every other was: their spans overlap.
  assert.ok(latestStart < earliestEnd, JSON.stringify(spans));
});

test("an AbortSignal ends a run as cancelled", async () => {
  const sandbox = new Sandbox();
  for (const call of [
    (signal) => sandbox.runShell("while :; do :; done", { signal }),
    (signal) => sandbox.runCode("for (;;) {}", { signal }),
  ]) {
    const controller = new AbortController();
    const pending = call(controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const aborted = performance.now();
    controller.abort();
    const run = await pending;
    const latency = performance.now() - aborted;
    console.log(`# settled ${latency.toFixed(1)} ms after the abort`);
    assert.deepEqual([run.exitCode, run.failureKind], [130, "cancelled"]);
  }
  // Aborted before the call: it ends at once, cancelled.
  const run = await sandbox.runShell("sleep 5", { signal: AbortSignal.abort() });
  assert.equal(run.failureKind, "cancelled");
  // A later call without the signal runs normally.
  assert.equal((await sandbox.runShell("echo after")).stdout, "after\n");
});
