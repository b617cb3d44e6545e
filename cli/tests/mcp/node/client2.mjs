// Drives `goccia mcp` with the official MCP TypeScript SDK 2.x
// (`@modelcontextprotocol/client`) for cli/tests/e2e/mcp_eras.rs. Usage:
// node client2.mjs '<json config>' — the config of ./client.mjs, plus `mode`:
// "legacy" (the default: the initialize handshake) or "auto" (the SDK's
// opt-in negotiation, which picks the 2026-07-28 revision with goccia); in
// that era the driver first calls open_sandbox and names the handle in every
// call that names none. Prints one JSON object; asserts nothing itself.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";

const config = JSON.parse(process.argv[2]);
const mode = config.mode ?? "legacy";
const answers = [...(config.elicitation ?? [])];
const questions = [];
const capabilities = config.elicitation ? { elicitation: { form: {} } } : {};
const client = new Client(
  { name: "goccia-test", version: "1.0.0" },
  { capabilities, versionNegotiation: { mode } },
);
if (config.elicitation) {
  client.setRequestHandler("elicitation/create", async (request) => {
    questions.push(request.params.message);
    const answer = answers.shift() ?? "cancel";
    if (answer === "allow") return { action: "accept", content: { allow: true } };
    if (answer === "deny") return { action: "accept", content: { allow: false } };
    return { action: answer };
  });
}
const transport = config.url
  ? new StreamableHTTPClientTransport(new URL(config.url), {
      requestInit: { headers: { Authorization: `Bearer ${config.token}` } },
    })
  : new StdioClientTransport({ command: config.command, args: config.args, stderr: "inherit" });
await client.connect(transport);
const text = (result) => result.content.filter((block) => block.type === "text").map((block) => block.text).join("");
const out = { protocolVersion: client.getNegotiatedProtocolVersion?.() ?? null, calls: [] };
let handle = null;
if (mode !== "legacy") {
  const opened = await client.callTool({ name: "open_sandbox", arguments: {} });
  out.opened = { isError: Boolean(opened.isError), text: text(opened) };
  handle = opened.isError ? null : JSON.parse(out.opened.text).sandbox;
}
const listed = await client.listTools();
out.tools = listed.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
for (const [name, args] of config.calls ?? []) {
  const named = handle !== null && !("sandbox" in args) ? { ...args, sandbox: handle } : args;
  try {
    const result = await client.callTool({ name, arguments: named });
    out.calls.push({ isError: Boolean(result.isError), text: text(result) });
  } catch (error) {
    out.calls.push({ protocolError: String(error.message ?? error) });
  }
}
out.questions = questions;
await client.close();
console.log(JSON.stringify(out));
