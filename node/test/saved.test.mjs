// Durable snapshots from Node (docs/snapshots.md): saved to an SQLite file
// (and PostgreSQL when GOCCIA_TEST_POSTGRES names a server), opened in
// another Node process with files and shell state, listed, dropped and
// collected; errors carry their codes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

import { Sandbox, SnapshotStore, SnapshotError, SpecError } from "../index.mjs";

const entry = fileURLToPath(new URL("../index.cjs", import.meta.url));

async function saveOne(location) {
  const store = new SnapshotStore(location);
  const sandbox = new Sandbox({ files: { "/work/notes.txt": "draft\n" } });
  await sandbox.runShell("cd /work; export STAGE=saved; greet() { echo hi; }; echo more >> notes.txt");
  return { store, savedId: await sandbox.save(store, await sandbox.snapshot("checkpoint")) };
}

function openedElsewhere(location, savedId) {
  const script = `
    const { Sandbox, SnapshotStore } = require(${JSON.stringify(entry)});
    (async () => {
      const sandbox = await Sandbox.open(new SnapshotStore(process.argv[1]), process.argv[2]);
      const run = await sandbox.runShell("pwd; echo $STAGE; greet; cat notes.txt");
      process.stdout.write(run.stdout);
    })();`;
  return execFileSync(process.execPath, ["-e", script, location, savedId], { encoding: "utf8" });
}

test("a snapshot saved to SQLite opens in another process", async () => {
  const location = join(mkdtempSync(join(tmpdir(), "goccia-saved-")), "snapshots.db");
  const { store, savedId } = await saveOne(location);
  assert.match(savedId, /^[0-9a-f]{64}$/);
  assert.equal(openedElsewhere(location, savedId), "/work\nsaved\nhi\ndraft\nmore\n");
  const [listed] = await store.list();
  assert.equal(listed.id, savedId);
  assert.equal(listed.label, "checkpoint");
  assert.equal(listed.hasShellState, true);
  assert.ok(listed.takenAt instanceof Date);
});

test("a snapshot saved to PostgreSQL opens in another process", { skip: !process.env.GOCCIA_TEST_POSTGRES }, async () => {
  const url = process.env.GOCCIA_TEST_POSTGRES;
  const { savedId } = await saveOne(url);
  assert.equal(openedElsewhere(url, savedId), "/work\nsaved\nhi\ndraft\nmore\n");
});

test("drop, gc and the errors of a store", async () => {
  const location = join(mkdtempSync(join(tmpdir(), "goccia-saved-")), "snapshots.db");
  const { store, savedId } = await saveOne(location);
  assert.equal(await store.drop(savedId), true);
  assert.equal(await store.drop(savedId), false);
  const freed = await store.gc();
  assert.ok(freed.blobs > 0 && freed.bytes > 0);
  await assert.rejects(Sandbox.open(store, savedId), (error) => error instanceof SnapshotError && error.code === "ERR_GOCCIA_UNKNOWN_SNAPSHOT");
  await assert.rejects(Sandbox.open(store, "nope"), (error) => error instanceof SpecError);
  assert.throws(() => new SnapshotStore(42), SpecError);
  const again = await saveOne(location);
  const small = new Sandbox({ files: { "/mine": "kept" }, limits: { fsQuotaBytes: 10 } });
  await assert.rejects(small.loadSaved(store, again.savedId), (error) => error.code === "ERR_GOCCIA_SNAPSHOT_LOAD");
  assert.equal(await small.readFile("/mine"), "kept");
});
