// Every method of the Sandbox, through the built addon.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  AccessError,
  ClosedError,
  EscalationError,
  GocciaError,
  Sandbox,
  SnapshotError,
  SpecError,
} from "../index.mjs";
import cjs from "../index.cjs";

test("the CommonJS and ESM entry points give the same classes", () => {
  assert.equal(cjs.Sandbox, Sandbox);
  assert.equal(cjs.SpecError, SpecError);
});

test("runs: the shell keeps its session, scripts and code return the one envelope", async () => {
  const sandbox = new Sandbox({ files: { "/m.js": "console.log('js'); export default { answer: 42 }" } });
  const first = await sandbox.runShell("cd /tmp && greet() { echo \"hi $1\"; }");
  assert.equal(first.ok, true);
  const shell = await sandbox.runShell("greet there; pwd; exit 3");
  assert.deepEqual([shell.stdout, shell.exitCode, shell.ok, shell.failureKind], ["hi there\n/tmp\n", 3, false, "script-error"]);
  const script = await sandbox.runScript("/m.js");
  assert.deepEqual([script.stdout, script.result, script.ok], ["js\n", { answer: 42 }, true]);
  const code = await sandbox.runCode("throw new Error('boom')");
  assert.equal(code.failureKind, "script-error");
  assert.match(code.error, /boom/);
  for (const key of ["ok", "exitCode", "failureKind", "result", "stdout", "stderr", "error", "events", "policy", "isolation", "stats"]) {
    assert.ok(key in code, key);
  }
  assert.equal(typeof code.stats.durationMs, "number");
  assert.equal(code.stats.outputTruncated, false);
});

test("call options: stdin, timeoutMs, streamed chunks", async () => {
  const sandbox = new Sandbox();
  const upper = await sandbox.runShell("tr a-z A-Z", { stdin: "hi\n" });
  assert.equal(upper.stdout, "HI\n");
  const slow = await sandbox.runShell("while :; do :; done", { timeoutMs: 100 });
  assert.deepEqual([slow.exitCode, slow.failureKind], [4, "timeout"]);
  assert.match(slow.error, /deadline of 100 ms passed \(ask for a larger timeoutMs\)/);
  const out = [];
  const err = [];
  const streamed = await sandbox.runShell("echo one; echo two >&2; echo three", {
    onStdout: (chunk) => out.push(chunk.toString()),
    onStderr: (chunk) => err.push(chunk.toString()),
  });
  assert.equal(out.join(""), "one\nthree\n");
  assert.equal(err.join(""), "two\n");
  assert.equal(streamed.stdout, "one\nthree\n", "the answer holds what was streamed too");
  await assert.rejects(sandbox.runShell("true", { timeoutMs: 0 }), (error) => {
    assert.ok(error instanceof SpecError);
    assert.equal(error.message, "timeoutMs: must be at least 1 ms");
    return true;
  });
  await assert.rejects(sandbox.runShell("true", { timeout: 5 }), /timeout: no such call option/);
  await assert.rejects(sandbox.runScript("/x.js", { stdin: "x" }), /stdin: only the shell reads stdin/);
});

test("files: read, write, list, remove, and errors with codes", async () => {
  const sandbox = new Sandbox({ files: { "/d/a.txt": "A", "/d/e/b.bin": new Uint8Array([0, 1, 2]) } });
  assert.equal(await sandbox.readFile("/d/a.txt"), "A");
  assert.deepEqual([...(await sandbox.readFile("/d/e/b.bin", null))], [0, 1, 2]);
  await sandbox.writeFile("/d/new/c.txt", "C");
  assert.deepEqual(await sandbox.list("/d"), [
    { path: "/d/a.txt", type: "file" },
    { path: "/d/e", type: "directory" },
    { path: "/d/new", type: "directory" },
  ]);
  assert.deepEqual(
    (await sandbox.list("/d", { recursive: true })).map((entry) => entry.path),
    ["/d/a.txt", "/d/e", "/d/e/b.bin", "/d/new", "/d/new/c.txt"],
  );
  await sandbox.remove("/d/new");
  await assert.rejects(sandbox.readFile("/d/new/c.txt"), (error) => {
    assert.ok(error instanceof AccessError && error instanceof GocciaError);
    assert.equal(error.code, "ENOENT");
    assert.equal(error.message, "/d/new/c.txt: No such file or directory");
    return true;
  });
});

test("a bad spec is refused naming the setting, as every surface words it", () => {
  assert.throws(() => new Sandbox({ policy: "open" }), (error) => {
    assert.ok(error instanceof SpecError);
    assert.equal(error.code, "ERR_GOCCIA_SPEC");
    assert.equal(error.message, "policy: `open` is not one of read-only, workspace-write, full");
    return true;
  });
  assert.throws(() => new Sandbox({ limits: { maxMemory: 1 } }), /limits.maxMemory: the memory limit of 1 is out of range/);
  assert.throws(() => new Sandbox({ colour: "red" }), /colour/);
  const spec = Sandbox.resolveSpec({ policy: "read-only", limits: { timeoutMs: 5000 } });
  assert.equal(spec.policy, "read-only");
  assert.equal(spec.limits.timeoutMs, 5000);
  assert.equal(new Sandbox({ policy: "read-only" }).spec.policy, "read-only");
});

test("changes, diffs, children, apply and merge", async () => {
  const parent = new Sandbox({ files: { "/w/a.txt": "1\n2\n3\n" } });
  const child = await parent.child(["/w"]);
  await child.runShell("cd /w && sed -i s/1/one/ a.txt && echo new > b.txt");
  const changes = await child.changes();
  assert.deepEqual(changes.map((c) => [c.kind, c.path]), [["modify", "/w/a.txt"], ["create", "/w/b.txt"]]);
  assert.equal(changes[1].newContent.toString(), "new\n");
  assert.match(changes[0].newHash, /^blake3:[0-9a-f]{64}$/);
  const unified = await child.diff();
  assert.match(unified, /^--- a\/w\/a.txt/m);
  assert.match(await child.diff({ root: "/w" }), /^\+\+\+ b\/b.txt/m);
  const json = await child.diff({ format: "json" });
  assert.deepEqual(json.changes.map((c) => c.path), ["/w/a.txt", "/w/b.txt"]);
  // The parent edits another line: the child's edit merges in.
  await parent.runShell("sed -i s/3/three/ /w/a.txt");
  const report = await parent.apply(changes);
  assert.deepEqual(report.merged, ["/w/a.txt"]);
  assert.deepEqual(report.applied, ["/w/b.txt"]);
  assert.equal(await parent.readFile("/w/a.txt"), "one\n2\nthree\n");
  // A conflicting edit is reported, nothing of it applied.
  const other = await parent.child([{ from: "/w", to: "/w" }]);
  await other.runShell("echo mine > /w/b.txt");
  await parent.runShell("echo theirs > /w/b.txt");
  const conflicted = await parent.merge(other);
  assert.equal(conflicted.conflicts[0].path, "/w/b.txt");
  assert.equal(await parent.readFile("/w/b.txt"), "theirs\n");
  await assert.rejects(parent.child("nope"), SpecError);
});

test("snapshots restore the tree, and a limit refuses one", async () => {
  const sandbox = new Sandbox({ files: { "/a": "1" }, limits: { maxSnapshots: 1 } });
  const id = await sandbox.snapshot();
  await sandbox.runShell("echo 2 > /a; touch /b");
  await sandbox.restore(id);
  assert.equal(await sandbox.readFile("/a"), "1");
  await assert.rejects(sandbox.snapshot(), (error) => {
    assert.ok(error instanceof SnapshotError);
    assert.equal(error.code, "ERR_GOCCIA_SNAPSHOT_LIMIT");
    return true;
  });
  await assert.rejects(sandbox.restore(7), (error) => error.code === "ERR_GOCCIA_UNKNOWN_SNAPSHOT");
  await sandbox.runShell("echo 3 > /a");
  await sandbox.reset();
  assert.deepEqual(await sandbox.changes(), []);
});

test("snapshots hold the shell's state, list their parents, and fork", async () => {
  const sandbox = new Sandbox({ files: { "/w/a.txt": "a\n" } });
  await sandbox.runShell("cd /w; export STAGE=one; greet() { echo \"hi $STAGE\"; }");
  const id = await sandbox.snapshot("start");
  await sandbox.runShell("cd /; STAGE=two; unset -f greet");
  await sandbox.restore(id);
  assert.equal((await sandbox.runShell("pwd; greet")).stdout, "/w\nhi one\n");
  const [info] = await sandbox.snapshots();
  assert.deepEqual([info.id, info.parent, info.label, info.bytes, info.hasShellState], [0, null, "start", 2, true]);
  assert.ok(info.takenAt instanceof Date);
  const forks = await sandbox.fork(id, 2);
  await forks[0].runShell("echo b >> a.txt");
  assert.equal((await forks[1].runShell("pwd; greet; cat a.txt")).stdout, "/w\nhi one\na\n");
  assert.equal((await forks[0].runShell("cat a.txt")).stdout, "a\nb\n");
  await assert.rejects(sandbox.fork(9), (error) => error.code === "ERR_GOCCIA_UNKNOWN_SNAPSHOT");
});

test("writeBack writes copyRw seeds to the host", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "goccia-node-"));
  fs.writeFileSync(path.join(dir, "a.txt"), "a\n");
  const sandbox = new Sandbox({ seeds: [{ from: dir, to: "/w", copyRw: true }] });
  await sandbox.runShell("echo b > /w/a.txt && echo c > /w/c.txt && rm /w/a.txt && echo b > /w/a.txt");
  const report = await sandbox.writeBack();
  assert.deepEqual(report.written.map((w) => w.path).sort(), ["/w/a.txt", "/w/c.txt"]);
  assert.equal(fs.readFileSync(path.join(dir, "c.txt"), "utf8"), "c\n");
  assert.match(report.summary, /2 written/);
  fs.rmSync(dir, { recursive: true });
});

test("the guest's writes are fenced by the policy; the host's are not", async () => {
  const sandbox = new Sandbox({ policy: "read-only", approve: "never" });
  const run = await sandbox.runShell("echo x > /f");
  assert.match(run.stderr, /file access denied under read-only mode/);
  assert.equal(run.events.some((event) => event.decision === "deny"), true, "the call's own events");
  await assert.rejects(sandbox.writeFiles([{ path: "/f", content: "x" }]), (error) => {
    assert.ok(error instanceof AccessError);
    assert.equal(error.code, "FS_SANDBOX_DENIED");
    return true;
  });
  await sandbox.writeFile("/f", "host");
  assert.equal(await sandbox.readFile("/f"), "host");
  assert.ok(EscalationError.prototype instanceof AccessError);
});

test("close and asyncDispose end the sandbox; later calls say so", async () => {
  const sandbox = new Sandbox();
  // What `await using` calls at the end of its block (Node 20 has the
  // symbol, not the syntax; the TypeScript examples use the syntax).
  const scoped = new Sandbox();
  await scoped.runShell("true");
  assert.equal(scoped.closed, false);
  await scoped[Symbol.asyncDispose]();
  assert.equal(scoped.closed, true);
  await sandbox.close();
  await assert.rejects(sandbox.runShell("true"), (error) => {
    assert.ok(error instanceof ClosedError);
    assert.equal(error.code, "ERR_GOCCIA_CLOSED");
    return true;
  });
  await assert.rejects(sandbox.readFile("/x"), ClosedError);
});

test("a child takes narrower limits, policy and its own variables", async () => {
  const parent = new Sandbox({ files: { "/w/a.txt": "a\n" }, env: { FROM: "parent" }, limits: { timeoutMs: 10000 } });
  await parent.runShell("export STAGE=review");
  const child = await parent.child(["/w"], { limits: { timeoutMs: 200 }, policy: "read-only", env: { TASK: "lint" } });
  assert.equal(child.spec.limits.timeoutMs, 200);
  assert.equal(child.spec.limits.maxOutput, parent.spec.limits.maxOutput, "left out: the parent's");
  assert.equal((await child.runShell("echo $FROM $STAGE $TASK")).stdout, "parent review lint\n");
  const denied = await child.runShell("echo b > /w/a.txt");
  assert.match(denied.stderr, /read-only/);
  const spun = await child.runShell("while :; do :; done");
  assert.match(spun.error, /deadline of 200 ms/);
  await assert.rejects(parent.child([], { limits: { timeoutMs: 60000 } }), (error) => {
    assert.ok(error instanceof SpecError);
    assert.match(error.message, /^limits.timeoutMs asks for 60000, more than the 10000 allowed here/);
    return true;
  });
  await assert.rejects(parent.child([], { policy: "open" }), /policy: `open` is not one of/);
  await assert.rejects(parent.child([], { colour: 1 }), /colour: not a child option/);
  const started = await parent.child(["/w"], { cwd: "/w" });
  assert.equal((await started.runShell("pwd; cat a.txt")).stdout, "/w\na\n");
  await assert.rejects(parent.child(["/w"], { cwd: "/elsewhere" }), /cwd `\/elsewhere`: not a folder the child was seeded with/);
});

test("a shell call's own cwd and env last for that call", async () => {
  const sandbox = new Sandbox({ files: { "/p/a.txt": "x" } });
  await sandbox.runShell("cd /tmp");
  const run = await sandbox.runShell("ls; echo $ONLY", { cwd: "/p", env: { ONLY: "call" } });
  assert.equal(run.stdout, "a.txt\ncall\n");
  assert.equal((await sandbox.runShell('pwd; echo "[$ONLY]"')).stdout, "/tmp\n[]\n");
  await assert.rejects(sandbox.runShell("true", { cwd: "/nope" }), (error) => {
    assert.ok(error instanceof AccessError);
    assert.equal(error.code, "ENOENT");
    assert.equal(error.message, "cwd `/nope`: No such file or directory");
    return true;
  });
  await assert.rejects(sandbox.runCode("1", { cwd: "/p" }), /cwd: only a shell call takes one/);
});

test("bad child options and call scopes are refused naming what is wrong", async () => {
  const sandbox = new Sandbox({ files: { "/p/a.txt": "x" } });
  await assert.rejects(sandbox.child([], { env: { A: 1 } }), /env.A: a string/);
  await assert.rejects(sandbox.child([], { limits: { maxMemory: "lots" } }), /limits.maxMemory: `lots` is not a size/);
  await assert.rejects(sandbox.runShell("true", { cwd: 7 }), /cwd: a VFS path/);
  await assert.rejects(sandbox.runShell("true", { env: { A: 1 } }), /env: an object of strings/);
  await assert.rejects(sandbox.runShell("true", { cwd: "/p/a.txt" }), (error) => error.code === "ENOTDIR");
});
