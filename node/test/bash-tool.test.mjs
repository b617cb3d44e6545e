// bash-tool's createBashTool, unchanged, over a goccia Sandbox: the three
// tools a model calls reach goccia, the files it uploads land in the VFS,
// and the write tool is fenced by the policy as the guest is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createBashTool } from "bash-tool";
import { Sandbox } from "../index.mjs";

const call = { toolCallId: "t1", messages: [] };

test("createBashTool takes a goccia Sandbox as its sandbox", async () => {
  const sandbox = new Sandbox();
  const { tools, sandbox: used } = await createBashTool({
    sandbox,
    files: { "src/index.ts": "export const x = 1; // TODO\n", "README.md": "# demo\n" },
  });
  assert.equal(used, sandbox, "bash-tool uses the Sandbox itself (not as just-bash)");
  assert.deepEqual(Object.keys(tools).sort(), ["bash", "readFile", "writeFile"]);
  // The uploaded files are in the VFS, under bash-tool's /workspace.
  assert.equal(await sandbox.readFile("/workspace/src/index.ts"), "export const x = 1; // TODO\n");
  const found = await tools.bash.execute({ command: "grep -rn TODO . | sort" }, call);
  assert.equal(found.stdout, "./src/index.ts:1:export const x = 1; // TODO\n");
  assert.equal(found.exitCode, 0);
  const failed = await tools.bash.execute({ command: "cat missing.txt" }, call);
  assert.equal(failed.exitCode, 1);
  assert.match(failed.stderr, /missing.txt: No such file or directory/);
  await tools.writeFile.execute({ path: "notes/plan.md", content: "1. tests\n" }, call);
  assert.equal(await sandbox.readFile("/workspace/notes/plan.md"), "1. tests\n");
  const read = await tools.readFile.execute({ path: "README.md" }, call);
  assert.deepEqual(read, { content: "# demo\n" });
  // The session persists between the model's calls, as a terminal does.
  await tools.bash.execute({ command: "export STAGE=two" }, call);
  assert.equal((await tools.bash.execute({ command: "echo $STAGE" }, call)).stdout, "two\n");
  const changes = (await sandbox.changes()).map((c) => c.path);
  assert.ok(changes.includes("/workspace/notes/plan.md"), changes.join(" "));
});

test("the model's writes are under the policy; its commands too", async () => {
  const sandbox = new Sandbox({ policy: "workspace-write", writable: ["/workspace"] });
  const { tools } = await createBashTool({ sandbox, files: { "a.txt": "a\n" } });
  await tools.writeFile.execute({ path: "b.txt", content: "b\n" }, call);
  await assert.rejects(tools.writeFile.execute({ path: "/etc/passwd", content: "x" }, call), (error) => {
    assert.equal(error.code, "FS_SANDBOX_DENIED");
    return true;
  });
  const denied = await tools.bash.execute({ command: "echo x > /etc/motd" }, call);
  assert.equal(denied.exitCode, 1);
  assert.match(denied.stderr, /file access denied under workspace-write mode/);
});

test("a stop goccia made is told on the tool's stderr", async () => {
  // bash-tool runs each command in its destination, /workspace: the
  // sandbox must hold it (here, made by the files uploaded).
  const sandbox = new Sandbox({ limits: { timeoutMs: 200 } });
  const { tools } = await createBashTool({ sandbox, files: { "x.txt": "x" } });
  const spun = await tools.bash.execute({ command: "while :; do :; done" }, call);
  assert.equal(spun.exitCode, 4);
  assert.match(spun.stderr, /goccia: timeout: the run's deadline of 200 ms passed/);
});
