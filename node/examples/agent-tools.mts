// An AI SDK agent's tools over goccia: bash-tool's createBashTool takes a
// goccia Sandbox unchanged. Runnable without a model: the tool calls a
// model would make are scripted below. Run: node/test/run-examples.mjs.
import { createBashTool } from "bash-tool";
import { Sandbox } from "goccia";

await using sandbox = new Sandbox({ policy: "workspace-write", writable: ["/workspace"] });
const { tools } = await createBashTool({
  sandbox,
  files: { "src/app.ts": "export const greet = (name: string) => `hello ${name}`;\n// TODO: tests\n" },
});

// The uploaded files are the starting point: the diff shows only what
// the agent changes from here.
await sandbox.rebaseline();

// What a model would ask for, one tool call at a time.
const options = { toolCallId: "call", messages: [] };
const found = await tools.bash.execute!({ command: "grep -rn TODO src" }, options);
console.log("bash:", JSON.stringify(found));
await tools.writeFile.execute!({ path: "src/app.test.ts", content: "// the tests\n" }, options);
const read = await tools.readFile.execute!({ path: "src/app.test.ts" }, options);
console.log("readFile:", JSON.stringify(read));

// What the agent changed, as a patch for review.
console.log(await sandbox.diff({ root: "/workspace" }));
