// The gateway from Node (docs/network.md): rules and secrets given in the
// spec's `network`, against a loopback server this test starts. The guest
// sees a placeholder, the server sees the value, the value comes back
// redacted, and the sandbox's spec never holds it.
import { test } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Sandbox } from "../index.mjs";

const VALUE = "node-secret-8c1f";

function upstream() {
  const seen = [];
  const server = http.createServer((request, response) => {
    seen.push({ path: request.url, authorization: request.headers.authorization });
    response.end(`you sent ${request.headers.authorization ?? "nothing"}`);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, seen, port: server.address().port })));
}

test("a secret is set on the wire, seen as a placeholder and redacted on the way back", async () => {
  const { server, seen, port } = await upstream();
  const sandbox = new Sandbox({
    network: {
      allowHost: [`127.0.0.1:${port}/v1@GET`],
      secrets: { TOKEN: { value: VALUE } },
      secretHeaders: ["127.0.0.1:Authorization=Bearer {TOKEN}"],
    },
  });
  const run = await sandbox.runShell(`echo "$TOKEN"; curl -s http://127.0.0.1:${port}/v1/me; echo; curl -s http://127.0.0.1:${port}/v2 || echo refused`);
  assert.equal(run.stdout, "goccia-secret:TOKEN\nyou sent Bearer [secret TOKEN]\nrefused\n");
  const js = await sandbox.runCode(`export default [process.env.TOKEN, await (await fetch("http://127.0.0.1:${port}/v1/js")).text()]`);
  assert.deepEqual(js.result, ["goccia-secret:TOKEN", "you sent Bearer [secret TOKEN]"]);
  assert.deepEqual(seen.map((s) => [s.path, s.authorization]), [
    ["/v1/me", `Bearer ${VALUE}`],
    ["/v1/js", `Bearer ${VALUE}`],
  ]);
  assert.ok(!JSON.stringify(sandbox.spec).includes(VALUE), "the spec never holds the value");
  assert.ok(!JSON.stringify(run).includes(VALUE) && !JSON.stringify(js).includes(VALUE));
  sandbox.close();
  server.close();
});

test("a secret written out as a string is refused, naming the setting", () => {
  assert.throws(
    () => new Sandbox({ network: { secrets: { TOKEN: VALUE } } }),
    /network\.secrets\.TOKEN: give the value as @FILE or env:VAR/,
  );
});
