// Drives `goccia mcp` with the official MCP TypeScript SDK for
// cli/tests/e2e/mcp.rs. Usage: node client.mjs '<json config>' — the same
// config as ../python/client.py: the server (command + args, or url +
// token), the calls in order, the answers to elicitations. Prints one JSON
// object (protocol version, tools, every result); asserts nothing itself.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const config = JSON.parse(process.argv[2]);
const answers = [...(config.elicitation ?? [])];
const questions = [];
const capabilities = config.elicitation ? { elicitation: { form: {} } } : {};
const client = new Client({ name: "goccia-test", version: "1.0.0" }, { capabilities });
if (config.elicitation) {
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
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
const out = { protocolVersion: transport.protocolVersion ?? null, calls: [] };
const listed = await client.listTools();
out.tools = listed.tools.map((tool) => ({
  name: tool.name,
  description: tool.description,
  inputSchema: tool.inputSchema,
}));
for (const [name, args] of config.calls ?? []) {
  try {
    const result = await client.callTool({ name, arguments: args });
    out.calls.push({
      isError: Boolean(result.isError),
      text: result.content.filter((block) => block.type === "text").map((block) => block.text).join(""),
    });
  } catch (error) {
    out.calls.push({ protocolError: String(error.message ?? error) });
  }
}
out.questions = questions;
await client.close();
console.log(JSON.stringify(out));
