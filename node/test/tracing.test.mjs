// Traces from Node (docs/telemetry.md): startTracing sends the process's
// spans to an OTLP/HTTP collector; here a receiver in a child process's
// own http server (tracing is once per process).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const entry = fileURLToPath(new URL("../index.cjs", import.meta.url));

test("startTracing sends the call's and the commands' spans", () => {
  const script = `
    const http = require("node:http");
    const { Sandbox, startTracing, stopTracing } = require(${JSON.stringify(entry)});
    const bodies = [];
    const server = http.createServer((request, response) => {
      let text = "";
      request.on("data", (chunk) => (text += chunk));
      request.on("end", () => { bodies.push(JSON.parse(text)); response.end("{}"); });
    });
    server.listen(0, "127.0.0.1", async () => {
      startTracing("http://127.0.0.1:" + server.address().port);
      const sandbox = new Sandbox();
      await sandbox.runShell("echo private-words > /f; cat /f");
      // The exporter's thread posts while this loop serves the receiver.
      setTimeout(() => {
        stopTracing();
        setTimeout(() => {
          const spans = bodies.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
          process.stdout.write(JSON.stringify({ names: spans.map((s) => s.name), raw: JSON.stringify(bodies) }));
          server.close();
        }, 300);
      }, 500);
    });`;
  const out = JSON.parse(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
  assert.equal(out.names.filter((name) => name === "goccia.shell.command").length, 2, JSON.stringify(out.names));
  assert.ok(out.names.includes("goccia.call"));
  assert.ok(!out.raw.includes("private-words"));
});
