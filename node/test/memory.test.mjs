// 10,000 create/run/close cycles: the heap and the resident set measured
// after a warm-up and at the end, printed; a leak of a sandbox per cycle
// (hundreds of kilobytes each) would show as gigabytes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Sandbox } from "../index.mjs";

async function cycles(count) {
  for (let i = 0; i < count; i++) {
    const sandbox = new Sandbox({ files: { "/a.txt": "x" } });
    const run = await sandbox.runShell("cat /a.txt");
    assert.equal(run.stdout, "x");
    await sandbox.close();
  }
}

function measure() {
  globalThis.gc?.();
  const { rss, heapUsed, external } = process.memoryUsage();
  return { rss, heapUsed, external };
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

test("memory does not grow over 10,000 create/run/close cycles", { timeout: 600_000 }, async () => {
  await cycles(1000);
  const warm = measure();
  await cycles(9000);
  const end = measure();
  console.log(
    `# after 1,000 cycles: rss ${mb(warm.rss)}, heap ${mb(warm.heapUsed)}, external ${mb(warm.external)}; ` +
      `after 10,000: rss ${mb(end.rss)}, heap ${mb(end.heapUsed)}, external ${mb(end.external)}`,
  );
  assert.ok(end.rss - warm.rss < 64 * 1048576, `rss grew by ${mb(end.rss - warm.rss)}`);
});
