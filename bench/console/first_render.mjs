// The console with many sessions open (docs/console.md): how long the page
// takes from "Open the console" to the whole session list drawn, and from a
// click on a session to its timeline, measured inside Debian's Chromium
// (performance marks the page sets itself).
//
//   node bench/console/first_render.mjs [goccia binary] [sessions] [runs]
//
// Defaults: target/release/goccia, 1000 sessions, 7 runs. Uses the
// playwright-core of cli/tests/console (npm ci --prefix cli/tests/console).

import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(path.join(root, "cli/tests/console/package.json"));
const { chromium } = require("playwright-core");

const binary = path.resolve(process.argv[2] || path.join(root, "target/release/goccia"));
const count = Number(process.argv[3] || 1000);
const runs = Number(process.argv[4] || 7);

const dir = mkdtempSync(path.join(tmpdir(), "goccia-console-bench-"));
mkdirSync(path.join(dir, "ws"));
writeFileSync(path.join(dir, "ws", "a.txt"), "a\n");
const server = spawn(binary, [
  "serve", "--listen", "127.0.0.1:0", "--workspace", "w=ws",
  "--admin-token-file", "admin.token", "--console",
], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
const address = await new Promise((resolve, reject) => {
  let seen = "";
  server.stderr.setEncoding("utf8");
  server.stderr.on("data", (chunk) => {
    seen += chunk;
    const found = seen.match(/goccia: listening on http:\/\/(\S+)/);
    if (found) resolve(found[1]);
  });
  server.on("exit", (code) => reject(new Error(`goccia serve exited ${code}: ${seen}`)));
});
const base = `http://${address}`;
const admin = readFileSync(path.join(dir, "admin.token"), "utf8").trim();

const opened = [];
const started = performance.now();
for (let i = 0; i < count; i += 1) {
  const response = await fetch(`${base}/v1/sandboxes`, {
    method: "POST",
    headers: { Authorization: `Bearer ${admin}`, "Content-Type": "application/json" },
    body: JSON.stringify({ workspace: "w", seeds: [{ from: ".", to: "/w" }], capabilities: ["shell"] }),
  });
  if (response.status !== 201) throw new Error(`open: ${response.status} ${await response.text()}`);
  opened.push(await response.json());
}
// One session with a timeline of 200 calls, to open from the list.
const busy = opened[Math.floor(count / 2)];
for (let i = 0; i < 200; i += 1) {
  await fetch(`${base}/v1/sandboxes/${busy.sandboxId}/shell`, {
    method: "POST",
    headers: { Authorization: `Bearer ${busy.token}`, "Content-Type": "application/json" },
    body: JSON.stringify({ command: `echo call ${i}` }),
  });
}
console.log(`${count} sessions opened in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const browser = await chromium.launch({
  executablePath: process.env.GOCCIA_CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
const firstRender = [];
const openSession = [];
for (let run = 0; run < runs; run += 1) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${base}/console`);
  await page.getByLabel("Admin token").fill(admin);
  await page.getByRole("button", { name: "Open the console" }).click();
  await page.waitForFunction((n) => document.body.dataset.rendered === String(n), count);
  firstRender.push(await page.evaluate(() =>
    performance.measure("first", "goccia-console-signin", "goccia-console-rendered").duration));
  const rows = await page.locator("#sessions tbody tr").count();
  if (rows !== count) throw new Error(`${rows} rows drawn, not ${count}`);
  // A click on the busy session until its 200 calls are drawn.
  const button = page.getByRole("button", { name: `Show session ${busy.sandboxId}` });
  await page.evaluate(() => performance.mark("goccia-bench-click"));
  await button.click();
  await page.waitForFunction(() => document.querySelectorAll("#timeline li").length === 200);
  openSession.push(await page.evaluate(() => {
    performance.mark("goccia-bench-shown");
    return performance.measure("open", "goccia-bench-click", "goccia-bench-shown").duration;
  }));
  await context.close();
}
await browser.close();
server.kill("SIGTERM");
rmSync(dir, { recursive: true, force: true });

const summary = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `min ${sorted[0].toFixed(0)} / median ${at(0.5).toFixed(0)} / max ${sorted.at(-1).toFixed(0)} ms`;
};
console.log(`sign-in to ${count} sessions drawn: ${summary(firstRender)} (${runs} runs)`);
console.log(`click to a 200-call timeline drawn: ${summary(openSession)}`);
