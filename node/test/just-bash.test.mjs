// goccia/just-bash against the real just-bash 3.4.2: the examples of
// just-bash's README run through both, with the same stdout and exit
// codes; then what goccia refuses by name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Bash as JustBash } from "just-bash";
import { Bash } from "../just-bash.mjs";
import cjs from "../just-bash.cjs";

/** Runs `scenario` against both and compares every exec's stdout and code. */
async function both(options, scenario) {
  const results = [];
  for (const Class of [JustBash, Bash]) {
    const bash = new Class(options);
    const seen = [];
    await scenario(bash, (result) => seen.push({ stdout: result.stdout, exitCode: result.exitCode }));
    results.push(seen);
  }
  assert.deepEqual(results[1], results[0]);
  return results[1];
}

test("the quick start", async () => {
  const seen = await both(undefined, async (bash, record) => {
    await bash.exec('echo "Hello" > greeting.txt');
    record(await bash.exec("cat greeting.txt"));
  });
  assert.deepEqual(seen, [{ stdout: "Hello\n", exitCode: 0 }]);
});

test("each exec has its own shell state; the file system is shared", async () => {
  await both(undefined, async (bash, record) => {
    await bash.exec("export A=1; f() { echo f; }; cd /tmp; echo kept > /tmp/k");
    record(await bash.exec('echo "A=$A"; pwd; f 2>/dev/null || echo no f; cat /tmp/k'));
  });
});

test("configuration: files, env, cwd, and per-exec overrides", async () => {
  const options = { files: { "/data/file.txt": "content" }, env: { MY_VAR: "value" }, cwd: "/app" };
  await both(options, async (bash, record) => {
    record(await bash.exec("pwd; echo $MY_VAR; cat /data/file.txt"));
    record(await bash.exec("echo $TEMP; pwd", { env: { TEMP: "value" }, cwd: "/tmp" }));
    record(await bash.exec("cat", { stdin: "hello from stdin\n" }));
    record(await bash.exec("echo ${MY_VAR:-unset} $ONLY", { replaceEnv: true, env: { ONLY: "this" } }));
    record(await bash.exec("exit 3"));
  });
});

test("readFile and writeFile share the tree with exec", async () => {
  await both({ cwd: "/app" }, async (bash, record) => {
    await bash.writeFile("/app/in.txt", "b\na\n");
    record(await bash.exec("sort in.txt > out.txt; wc -l < in.txt"));
    record({ stdout: await bash.readFile("out.txt"), exitCode: 0 });
  });
});

test("args pass words to the first command without shell parsing", async () => {
  await both({ files: { "/src/a.txt": "TODO: x\n" } }, async (bash, record) => {
    // (just-bash prints `src//a.txt` for `src/`, GNU grep and goccia
    // `src/a.txt`: the words here avoid that difference.)
    record(await bash.exec("grep", { args: ["-r", "TODO", "src"] }));
  });
});

test("an abort ends the script", async () => {
  const bash = new Bash();
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const result = await bash.exec("while true; do sleep 1; done", { signal: controller.signal });
  assert.notEqual(result.exitCode, 0);
});

test("what goccia cannot do is refused by name", () => {
  assert.equal(cjs.Bash, Bash);
  assert.throws(() => new Bash({ customCommands: [{}] }), /customCommands: not supported by goccia\/just-bash: goccia's shell runs no JavaScript commands/);
  assert.throws(() => new Bash({ fs: {} }), /fs: not supported/);
  assert.throws(() => new Bash({ executionLimits: { maxSedIterations: 1 } }), /executionLimits.maxSedIterations: goccia has no such limit/);
  const bash = new Bash({ executionLimits: { maxLoopIterations: 5 } });
  assert.equal(bash.sandbox.spec.limits.maxLoopIterations, 5);
});
