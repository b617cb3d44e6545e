// The console of `goccia serve --console` (docs/console.md) driven in a
// real headless browser: Debian's Chromium through playwright-core (no
// browser is downloaded). The server is the real binary; sessions are
// opened and used with Node's own HTTP client, as an agent's harness would.
//
//   GOCCIA_BIN=target/debug/goccia node --test cli/tests/console/
//
// GOCCIA_CHROMIUM names another Chromium; GOCCIA_CONSOLE_SCREENSHOTS=<dir>
// saves the screenshots the README shows.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const binary = process.env.GOCCIA_BIN || path.join(root, "target/debug/goccia");
const browserPath = process.env.GOCCIA_CHROMIUM || "/usr/bin/chromium";
const shots = process.env.GOCCIA_CONSOLE_SCREENSHOTS;

let dir;
let server;
let base;
let admin;
let browser;

/** Starts `goccia serve` with the console; resolves with its address. */
function serve(args) {
  const child = spawn(binary, ["serve", ...args], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      const found = seen.match(/goccia: listening on (\S+)/);
      if (found) resolve({ child, address: found[1].replace(/^http:\/\//, "") });
    });
    child.on("exit", (code) => reject(new Error(`goccia serve exited ${code}: ${seen}`)));
  });
}

async function call(method, route, token, body) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed = text;
  try { parsed = JSON.parse(text); } catch { /* a patch or an empty body */ }
  return { status: response.status, body: parsed };
}

async function openSession() {
  const opened = await call("POST", "/v1/sandboxes", admin, {
    workspace: "w",
    seeds: [{ from: ".", to: "/w" }],
    capabilities: ["shell", "submit", "diff"],
  });
  assert.equal(opened.status, 201, JSON.stringify(opened.body));
  return { id: opened.body.sandboxId, token: opened.body.token, root: opened.body.root };
}

function shell(session, command) {
  return call("POST", `/v1/sandboxes/${session.id}/shell`, session.token, { command });
}

/** A page that records every request it makes. */
async function newPage(options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const requests = [];
  page.on("request", (request) => requests.push(request.url()));
  const errors = [];
  page.on("pageerror", (error) => errors.push(error.message));
  return { context, page, requests, errors };
}

async function signIn(page, token) {
  await page.goto(`${base}/console`);
  await page.getByLabel("Admin token").fill(token);
  await page.getByRole("button", { name: "Open the console" }).click();
}

async function shot(page, name) {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, name), fullPage: true });
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "goccia-console-"));
  mkdirSync(path.join(dir, "ws", "src"), { recursive: true });
  writeFileSync(path.join(dir, "ws", "a.txt"), "alpha\nbeta\ngamma\n");
  writeFileSync(path.join(dir, "ws", "src", "main.js"), "console.log('hi');\n");
  server = await serve([
    "--listen", "127.0.0.1:0", "--workspace", "w=ws", "--admin-token-file", "admin.token",
    "--console", "--policy", "read-only", "--approve", "console",
  ]);
  base = `http://${server.address}`;
  admin = readFileSync(path.join(dir, "admin.token"), "utf8").trim();
  browser = await chromium.launch({
    executablePath: browserPath,
    // Root in a container: Chromium's own sandbox needs a user namespace
    // it cannot make here; the page is our own.
    args: ["--no-sandbox", "--disable-gpu"],
  });
});

after(async () => {
  await browser?.close();
  server?.child.kill("SIGTERM");
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("nothing is shown without the admin token", async () => {
  const session = await openSession();
  const { context, page } = await newPage();
  await page.goto(`${base}/console`);
  assert.equal(await page.locator("#app").isHidden(), true);
  assert.ok(!(await page.content()).includes(session.id));
  await signIn(page, "not-the-admin-token-of-this-server");
  await page.getByText("That is not this server's admin token.").waitFor();
  assert.equal(await page.locator("#app").isHidden(), true);
  assert.ok(!(await page.content()).includes(session.id));
  // The session's own token is not the operator's either.
  await signIn(page, session.token);
  await page.getByText("That is not this server's admin token.").waitFor();
  assert.ok(!(await page.content()).includes(session.id));
  await context.close();
});

test("sessions and their calls arrive without a reload; a diff by file and hunk", async () => {
  const { context, page, requests, errors } = await newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, admin);
  await page.getByText(/^Live · /).waitFor();
  const navigations = requests.filter((url) => url.endsWith("/console")).length;

  const session = await openSession();
  const row = page.locator(`tr[data-id="${session.id}"]`);
  await row.waitFor();
  await page.getByRole("button", { name: `Show session ${session.id}` }).click();
  await page.getByRole("heading", { name: `Session ${session.id}` }).waitFor();

  assert.equal((await shell(session, "cat /w/a.txt | wc -l")).body.stdout.trim(), "3");
  await page.locator("#timeline li", { hasText: "cat /w/a.txt | wc -l" }).waitFor();
  // A guest's output is text, never markup.
  const hostile = "echo '<img src=x onerror=\"window.__pwned=1\"><b id=injected>bold</b>'; exit 4";
  assert.equal((await shell(session, hostile)).body.exitCode, 4);
  const item = page.locator("#timeline li", { hasText: "exit 4" });
  await item.waitFor();
  assert.match(await item.locator("pre").textContent(), /<img src=x onerror=/);
  assert.equal(await page.locator("#injected").count(), 0);
  assert.equal(await page.evaluate(() => window.__pwned), undefined);
  assert.equal(await row.locator("td").nth(6).textContent(), "2");

  // The diff: a change made under an approved escalation, by file and hunk.
  const writing = shell(session,
    "printf 'alpha\\nBETA\\ngamma\\n' | escalate --mode workspace-write --justification 'fix the case' -- tee /w/a.txt");
  const card = page.locator("#escalations li");
  await card.waitFor();
  await card.getByRole("button", { name: /^Approve/ }).click();
  assert.equal((await writing).body.exitCode, 0);
  const file = page.locator("#diff details", { hasText: "a/w/a.txt" });
  await file.waitFor();
  assert.equal(await file.locator(".hunk").count(), 1);
  assert.equal(await file.locator(".line.del").textContent(), "-beta");
  assert.equal(await file.locator(".line.add").textContent(), "+BETA");
  await shot(page, "console-session.png");

  // Submitted: the change log shows it with its authorship.
  const submitted = await call("POST", `/v1/sandboxes/${session.id}/submit`, session.token, {
    expectedRoot: session.root,
    authorship: {
      vendor: "acme", model: "coder-1", tool: "harness", suggestionType: "agent",
      inputTokens: 10, outputTokens: 5, session: "turn-1",
    },
    message: "Capitalise beta",
  });
  assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
  const change = page.locator("#changes li", { hasText: "Capitalise beta" });
  await change.waitFor();
  assert.match(await change.textContent(), /acme coder-1 via harness/);

  assert.equal(requests.filter((url) => url.endsWith("/console")).length, navigations, "no reload");
  assert.deepEqual(errors, []);
  for (const url of requests) assert.ok(url.startsWith(`${base}/`), `a request left the server: ${url}`);
  const stored = await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie]);
  assert.deepEqual(stored, [0, 0, ""], "the token is kept in memory only");
  await context.close();
});

test("one escalation approved, another denied from the keyboard: the calls finish accordingly", async () => {
  const { context, page, requests } = await newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, admin);
  await page.getByText(/^Live · /).waitFor();
  const session = await openSession();

  const approved = shell(session,
    "escalate --mode workspace-write --justification 'write the build report' -- touch /w/report.txt");
  const first = page.locator("#escalations li", { hasText: "touch /w/report.txt" });
  await first.waitFor();
  assert.match(await first.textContent(), /write the build report/);
  assert.match(await first.textContent(), /Asks for workspace-write \(now read-only\)/);
  await shot(page, "console-escalation.png");
  await first.getByRole("button", { name: "Approve: touch /w/report.txt" }).click();
  const approvedRun = (await approved).body;
  assert.equal(approvedRun.exitCode, 0, JSON.stringify(approvedRun));
  await first.waitFor({ state: "detached" });

  const denied = shell(session,
    "escalate --mode full --justification 'clean up' -- rm -r /w/src");
  const second = page.locator("#escalations li", { hasText: "rm -r /w/src" });
  await second.waitFor();
  await second.getByRole("button", { name: "Deny: rm -r /w/src" }).focus();
  await page.keyboard.press("Enter");
  const deniedRun = (await denied).body;
  assert.equal(deniedRun.exitCode, 1, JSON.stringify(deniedRun));
  assert.match(deniedRun.stderr, /rejected/);
  await second.waitFor({ state: "detached" });
  await page.getByText("None waiting.").waitFor();

  const listing = (await shell(session, "ls /w /w/src")).body.stdout;
  assert.match(listing, /report\.txt/);
  assert.match(listing, /main\.js/, "the denied removal did not run");
  for (const url of requests) assert.ok(url.startsWith(`${base}/`), `a request left the server: ${url}`);
  await context.close();
});

/** WCAG contrast ratio of an element's text against the background it
 * sits on (the nearest ancestor with an opaque one). */
function contrastOf(selector) {
  const parse = (text) => text.match(/[\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => {
    const channel = (c) => {
      const v = c / 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const node = document.querySelector(selector);
  if (!node) return null;
  let back = node;
  let background = [255, 255, 255];
  while (back) {
    const color = parse(getComputedStyle(back).backgroundColor);
    if (color.length < 4 || color[3] > 0) {
      if (color.length >= 3 && !(color.length === 4 && color[3] === 0)) {
        background = color.slice(0, 3);
        break;
      }
    }
    back = back.parentElement;
  }
  const text = luminance(parse(getComputedStyle(node).color).slice(0, 3));
  const ground = luminance(background);
  return (Math.max(text, ground) + 0.05) / (Math.min(text, ground) + 0.05);
}

test("text keeps a contrast of 4.5:1 or more (WCAG AA)", async () => {
  const { context, page } = await newPage({ viewport: { width: 1280, height: 900 } });
  await signIn(page, admin);
  await page.getByText(/^Live · /).waitFor();
  const session = await openSession();
  await page.getByRole("button", { name: `Show session ${session.id}` }).click();
  await shell(session, "echo hello; exit 2");
  await page.locator("#timeline .failed").waitFor();
  const pending = shell(session,
    "printf 'x\\n' | escalate --mode workspace-write --justification 'contrast' -- tee /w/a.txt");
  const card = page.locator("#escalations li");
  await card.waitFor();
  for (const selector of [
    "body", ".bar h1", "#status", "h2", ".hint", "#sessions td", ".link", "#timeline .failed",
    "pre.excerpt", ".card p", ".card button", ".card button.deny", "label",
  ]) {
    const ratio = await page.evaluate(contrastOf, selector);
    assert.ok(ratio !== null, `${selector} is on the page`);
    assert.ok(ratio >= 4.5, `${selector}: contrast ${ratio.toFixed(2)}:1`);
  }
  await card.getByRole("button", { name: /^Approve/ }).click();
  await pending;
  // The diff's added and removed lines, once drawn.
  const line = page.locator("#diff .line.add");
  await line.first().waitFor();
  for (const selector of ["#diff .line.add", "#diff .line.del", "#diff .line.at"]) {
    const ratio = await page.evaluate(contrastOf, selector);
    assert.ok(ratio >= 4.5, `${selector}: contrast ${ratio.toFixed(2)}:1`);
  }
  await context.close();
});

test("usable at a phone's width", async () => {
  const { context, page } = await newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  await signIn(page, admin);
  await page.getByText(/^Live · /).waitFor();
  const session = await openSession();
  await page.locator(`tr[data-id="${session.id}"]`).waitFor();
  await page.getByRole("button", { name: `Show session ${session.id}` }).click();
  await page.getByRole("heading", { name: `Session ${session.id}` }).waitFor();
  const pending = shell(session,
    "escalate --mode workspace-write --justification 'phone check' -- touch /w/phone.txt");
  const card = page.locator("#escalations li", { hasText: "phone.txt" });
  await card.waitFor();
  // Nothing but the session table (which scrolls in its own box) is wider
  // than the screen.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 390, `the page is ${overflow}px wide`);
  await shot(page, "console-phone.png");
  await card.getByRole("button", { name: /^Approve/ }).tap();
  assert.equal((await pending).body.exitCode, 0);
  await context.close();
});
