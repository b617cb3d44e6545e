"""Durable snapshots from Python (docs/snapshots.md): saved to an SQLite
file (and PostgreSQL when GOCCIA_TEST_POSTGRES names a server), opened in
another Python process with files and shell state, listed, dropped,
collected; the errors name what was wrong."""

import os
import sqlite3
import subprocess
import sys

import pytest

import goccia

OPEN_ELSEWHERE = """
import sys, goccia
store = goccia.SnapshotStore(sys.argv[1])
sandbox = goccia.Sandbox.open(store, sys.argv[2])
print(sandbox.run_shell("pwd; echo $STAGE; greet; cat notes.txt").stdout, end="")
"""


def save_one(location):
    store = goccia.SnapshotStore(location)
    sandbox = goccia.Sandbox(files={"/work/notes.txt": "draft\n"})
    sandbox.run_shell("cd /work; export STAGE=saved; greet() { echo hi; }; echo more >> notes.txt")
    return store, sandbox.save(store, sandbox.snapshot(label="checkpoint"))


def opened_elsewhere(location, saved_id):
    done = subprocess.run(
        [sys.executable, "-c", OPEN_ELSEWHERE, location, saved_id],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_snapshot_saved_to_sqlite_opens_in_another_process(tmp_path):
    location = str(tmp_path / "snapshots.db")
    store, saved_id = save_one(location)
    assert len(saved_id) == 64
    assert opened_elsewhere(location, saved_id) == "/work\nsaved\nhi\ndraft\nmore\n"
    (listed,) = store.list()
    assert listed["id"] == saved_id
    assert listed["label"] == "checkpoint"
    assert listed["has_shell_state"] is True


def test_a_snapshot_saved_to_postgres_opens_in_another_process():
    url = os.environ.get("GOCCIA_TEST_POSTGRES")
    if not url:
        pytest.skip("GOCCIA_TEST_POSTGRES is not set")
    _, saved_id = save_one(url)
    assert opened_elsewhere(url, saved_id) == "/work\nsaved\nhi\ndraft\nmore\n"


def test_drop_gc_and_the_errors_of_a_store(tmp_path):
    location = str(tmp_path / "snapshots.db")
    store, saved_id = save_one(location)
    assert store.drop(saved_id) is True
    assert store.drop(saved_id) is False
    freed = store.gc()
    assert freed["blobs"] > 0 and freed["bytes"] > 0
    with pytest.raises(goccia.UnknownSnapshot, match="holds no snapshot"):
        goccia.Sandbox.open(store, saved_id)
    with pytest.raises(goccia.SpecError, match="not a saved snapshot's id"):
        goccia.Sandbox.open(store, "nope")
    # A quota too small refuses the load and leaves the sandbox as it was.
    _, saved_id = save_one(location)
    small = goccia.Sandbox(files={"/mine": "kept"}, limits={"fs_quota_bytes": 10})
    with pytest.raises(goccia.StoreError) as refused:
        small.load_saved(store, saved_id)
    assert refused.value.code == "ERR_GOCCIA_SNAPSHOT_LOAD"
    assert small.read("/mine") == b"kept"
    # A store a later build wrote is refused, naming both versions.
    connection = sqlite3.connect(location)
    connection.execute("UPDATE goccia_store_format SET version = 5")
    connection.commit()
    connection.close()
    with pytest.raises(goccia.StoreError, match="format version 5; this build reads up to version 1") as later:
        goccia.SnapshotStore(location)
    assert later.value.code == "ERR_GOCCIA_STORE_FORMAT"


def test_one_call_makes_at_most_as_many_forks_as_the_snapshot_limit():
    sandbox = goccia.Sandbox(limits={"max_snapshots": 3})
    assert len(sandbox.fork(count=3)) == 3
    with pytest.raises(goccia.SnapshotLimitError, match="fork limit of 3 reached") as refused:
        sandbox.fork(count=4)
    assert refused.value.limit == "snapshots"
