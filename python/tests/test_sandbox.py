"""Every method of goccia.Sandbox, through the installed extension."""

import json
import subprocess

import pytest

import goccia


def test_run_shell_keeps_the_session_and_captures_streams():
    with goccia.Sandbox(files={"/work/a.txt": "one\ntwo\n"}) as sandbox:
        run = sandbox.run_shell("cd /work && wc -l a.txt && echo oops >&2")
        assert (run.exit_code, run.ok, run.failure_kind) == (0, True, None)
        assert run.stdout == "2 a.txt\n"
        assert run.stderr == "oops\n"
        assert run.stdout_bytes == b"2 a.txt\n"
        assert sandbox.run_shell("pwd").stdout == "/work\n"
        failed = sandbox.run_shell("exit 3")
        assert (failed.exit_code, failed.ok) == (3, False)
        assert sandbox.run_shell("tr a-z A-Z", stdin="hi\n").stdout == "HI\n"


def test_run_script_and_code_return_the_export():
    sandbox = goccia.Sandbox(files={"/main.js": "console.log('x'); export default {n: 1 + 1, list: [true, null]};"})
    run = sandbox.run_script("/main.js")
    assert run.ok and run.stdout == "x\n"
    assert run.result == {"n": 2, "list": [True, None]}
    code = sandbox.run_code("import fs from 'fs'; fs.writeFileSync('/made.txt', 'made');")
    assert code.ok and code.result is None
    assert sandbox.read("/made.txt") == b"made"


def test_a_failed_run_is_a_run_not_an_exception():
    sandbox = goccia.Sandbox()
    run = sandbox.run_code("throw new Error('boom')")
    assert (run.exit_code, run.failure_kind) == (1, "script-error")
    assert "boom" in run.failure_message
    missing = sandbox.run_script("/missing.js")
    assert not missing.ok and missing.failure_kind is not None
    slow = sandbox.run_shell("while :; do :; done", timeout=0.1)
    assert (slow.exit_code, slow.failure_kind) == (4, "timeout")


def test_files_read_write_list_remove():
    sandbox = goccia.Sandbox()
    sandbox.write("/d/a.txt", "text")
    sandbox.write("/d/b.bin", b"\x00\xff")
    assert sandbox.read("/d/b.bin") == b"\x00\xff"
    assert [(entry.name, entry.type) for entry in sandbox.list("/d")] == [("a.txt", "file"), ("b.bin", "file")]
    assert [entry.name for entry in sandbox.list()] == ["d", "tmp"]
    sandbox.remove("/d/a.txt")
    with pytest.raises(goccia.AccessError) as error:
        sandbox.read("/d/a.txt")
    assert error.value.path == "/d/a.txt" and error.value.not_found and not error.value.denied
    with pytest.raises(goccia.AccessError):
        sandbox.read("relative")


def test_changes_and_diffs():
    sandbox = goccia.Sandbox(files={"/a.txt": "1\n", "/b.txt": "gone\n"})
    sandbox.run_shell("echo 2 >> /a.txt; rm /b.txt; mkdir /c; echo new > /c/n.txt")
    changes = {change.path: change for change in sandbox.changes()}
    assert {path: change.kind for path, change in changes.items()} == {
        "/a.txt": "modify",
        "/b.txt": "delete",
        "/c": "mkdir",
        "/c/n.txt": "create",
    }
    a = changes["/a.txt"]
    assert (a.type, a.old_size, a.new_size) == ("file", 2, 4)
    assert (a.old_content, a.new_content) == (b"1\n", b"1\n2\n")
    assert a.old_hash.startswith("blake3:") and a.old_hash != a.new_hash
    assert changes["/c"].type == "directory" and changes["/c"].new_content is None
    document = json.loads(sandbox.diff("json"))
    assert len(document["changes"]) == 4
    patch = sandbox.diff("unified")
    assert "+2" in patch and "--- a/b.txt" in patch
    with pytest.raises(ValueError):
        sandbox.diff("xml")


def test_the_unified_diff_applies_with_git(tmp_path):
    (tmp_path / "app.txt").write_text("hello\n")
    sandbox = goccia.Sandbox(seeds=[(str(tmp_path), "/work")])
    sandbox.run_shell("echo world >> /work/app.txt")
    (tmp_path / "change.patch").write_text(sandbox.diff("unified", root="/work"))
    subprocess.run(["git", "apply", "change.patch"], cwd=tmp_path, check=True)
    assert (tmp_path / "app.txt").read_text() == "hello\nworld\n"


def test_snapshot_restore_reset_rebaseline():
    sandbox = goccia.Sandbox(files={"/a": "1"})
    before = sandbox.snapshot()
    sandbox.run_shell("echo 2 > /a; touch /b")
    sandbox.restore(before)
    assert sandbox.read("/a") == b"1" and sandbox.changes() == []
    with pytest.raises(goccia.UnknownSnapshot):
        sandbox.restore(99)
    sandbox.write("/x", "x")
    sandbox.reset()
    assert sandbox.changes() == []
    sandbox.write("/task.js", "export default 1")
    sandbox.rebaseline()
    assert sandbox.changes() == []


def test_child_apply_merge_and_patch():
    parent = goccia.Sandbox(files={"/src/a.txt": "a\n"})
    child = parent.child(["/src"])
    child.run_shell("echo b >> /src/a.txt; echo new > /src/n.txt")
    report = parent.apply(child.changes())
    assert sorted(report.applied) == ["/src/a.txt", "/src/n.txt"] and report.clean
    again = parent.apply(child.changes())
    assert sorted(again.already_present) == ["/src/a.txt", "/src/n.txt"]
    mapped = parent.child([("/src", "/w")])
    mapped.run_shell("echo c >> /w/a.txt")
    merged = parent.merge(mapped)
    assert merged.applied == ["/src/a.txt"]
    assert parent.read("/src/a.txt") == b"a\nb\nc\n"
    other = parent.child(["/src"])
    other.run_shell("echo x > /src/a.txt")
    parent.run_shell("echo y > /src/a.txt")
    conflict = parent.apply(other.changes())
    assert not conflict.clean and conflict.conflicts[0].path == "/src/a.txt"
    with pytest.raises(goccia.ChildSeedError):
        parent.child(["/missing"])
    with pytest.raises(TypeError):
        parent.apply(["not a change"])
    patched = goccia.Sandbox(files={"/f.txt": "1\n"})
    assert patched.apply_patch("--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-1\n+2\n") == ["/f.txt"]
    assert patched.read("/f.txt") == b"2\n"
    with pytest.raises(goccia.ApplyError):
        patched.apply_patch("--- a/f.txt\n+++ b/f.txt\n@@ -1 +1 @@\n-9\n+2\n")


def test_write_back(tmp_path):
    (tmp_path / "a.txt").write_text("a\n")
    sandbox = goccia.Sandbox(copy_rw=[f"{tmp_path}=/w"])
    sandbox.run_shell("echo b >> /w/a.txt; echo n > /w/n.txt")
    assert (tmp_path / "a.txt").read_text() == "a\n"
    report = sandbox.write_back()
    assert sorted(path for path, _ in report.written) == ["/w/a.txt", "/w/n.txt"]
    assert report.skipped == [] and "n.txt" in report.text
    assert (tmp_path / "a.txt").read_text() == "a\nb\n"


def test_limits_policy_env_and_their_errors(tmp_path):
    limits = goccia.Limits(timeout=2.5, max_memory="64m", max_output=1000, output_overflow="truncate")
    assert (limits.timeout, limits.max_memory, limits.output_overflow) == (2.5, 64 << 20, "truncate")
    sandbox = goccia.Sandbox(limits=limits, env={"GREETING": "hi"}, policy="workspace-write", writable=["/out"])
    assert sandbox.run_shell("echo $GREETING").stdout == "hi\n"
    flood = sandbox.run_shell("seq 1 5000")
    assert flood.ok and "bytes of output omitted]" in flood.stdout and flood.stdout.endswith("5000\n")
    denied = sandbox.run_shell("echo x > /etc.txt")
    assert denied.exit_code == 1 and "[sandbox: file access denied under workspace-write mode]" in denied.stderr
    assert sandbox.run_shell("mkdir -p /out && echo ok > /out/x").ok
    assert sandbox.policy == "workspace-write" and sandbox.limits.max_output == 1000
    with pytest.raises(ValueError):
        goccia.Limits(output_overflow="drop")
    with pytest.raises(ValueError):
        goccia.Limits(max_memory="lots")
    with pytest.raises(ValueError):
        goccia.Sandbox(policy="open")
    with pytest.raises(goccia.SetupError) as error:
        goccia.Sandbox(seeds=[str(tmp_path / "missing")])
    assert "missing" in str(error.value)
    with pytest.raises(goccia.SetupError) as error:
        goccia.Sandbox(limits=goccia.Limits(max_memory=1))
    assert error.value.limit == "memory"
    with pytest.raises(TypeError):
        goccia.Sandbox(seeds=[42])
    assert issubclass(goccia.SetupError, goccia.GocciaError)


def test_streaming_callbacks_get_chunks_as_produced():
    chunks = []
    sandbox = goccia.Sandbox()
    run = sandbox.run_shell("echo one; echo two >&2", on_output=lambda stream, data: chunks.append((stream, data)))
    assert run.ok and run.stdout == ""
    assert chunks == [("stdout", b"one\n"), ("stderr", b"two\n")]
    seen = []
    sandbox.run_code("console.log('js')", on_output=lambda stream, data: seen.append(data))
    assert seen == [b"js\n"]


def test_audit_log(tmp_path):
    log = tmp_path / "audit.jsonl"
    sandbox = goccia.Sandbox(audit_log=str(log), policy="read-only")
    sandbox.run_shell("touch /x")
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert any(event["kind"] == "policy" and event["decision"] == "deny" and event["subject"] == "/x" for event in events), events


def test_seed_config_exclude_and_gitignore(tmp_path):
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "keep.txt").write_text("keep\n")
    (tmp_path / "repo" / "debug.log").write_text("log\n")
    (tmp_path / "repo" / ".gitignore").write_text("build/\n")
    (tmp_path / "repo" / "build").mkdir()
    (tmp_path / "repo" / "build" / "out.o").write_text("obj\n")
    (tmp_path / "blob.bin").write_bytes(b"\x01\x02")
    config = tmp_path / "seeds.json"
    config.write_text(json.dumps({"files": [
        {"from": "blob.bin", "to": "/data/blob.bin"},
        {"path": "/data/note.txt", "text": "note"},
        {"path": "/data/raw", "base64": "AAE="},
    ]}))
    sandbox = goccia.Sandbox(seeds=[(str(tmp_path / "repo"), "/repo")], seed_config=[str(config)],
                             exclude=["*.log"], gitignore=True)
    assert sandbox.read("/data/blob.bin") == b"\x01\x02"
    assert sandbox.read("/data/note.txt") == b"note"
    assert sandbox.read("/data/raw") == b"\x00\x01"
    assert sorted(entry.name for entry in sandbox.list("/repo")) == [".gitignore", "keep.txt"]
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({"files": [{"path": "/x", "text": "a", "base64": "AA=="}]}))
    with pytest.raises(goccia.SetupError) as error:
        goccia.Sandbox(seed_config=[str(broken)])
    assert "0" in str(error.value)  # the entry's index is named


def test_fetch_obeys_the_allow_list():
    import http.server
    import threading

    class Hello(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            body = b"hello from the host"
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Hello)
    port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        code = f"const r = await fetch('http://127.0.0.1:{port}/'); export default await r.text();"
        allowed = goccia.Sandbox(allow_hosts=[f"127.0.0.1:{port}"]).run_code(code)
        assert allowed.ok and allowed.result == "hello from the host"
        refused = goccia.Sandbox().run_code(code)
        assert refused.failure_kind == "script-error" and "127.0.0.1" in refused.failure_message
        private = goccia.Sandbox(allow_hosts=[f"127.0.0.1:{port}"], deny_private_ranges=True).run_code(code)
        assert not private.ok and "127.0.0.1" in private.failure_message
        with pytest.raises(ValueError):
            goccia.Sandbox(allow_hosts=["http://example.com/"])
    finally:
        server.shutdown()


def test_a_refused_write_back_raises_and_writes_nothing(tmp_path):
    import os

    host = tmp_path / "host"
    host.mkdir()
    (host / "a.txt").write_text("a\n")
    sandbox = goccia.Sandbox(copy_rw=[(str(host), "/w")])
    sandbox.run_shell("echo b > /w/a.txt; mkdir -p /w/sub; echo n > /w/sub/n.txt")
    # The host plants a link where the sandbox will write: write-back refuses all of it.
    os.symlink(tmp_path, host / "sub")
    with pytest.raises(goccia.WriteBackError) as error:
        sandbox.write_back()
    assert "symlink" in str(error.value) or "link" in str(error.value)
    assert (host / "a.txt").read_text() == "a\n"
    assert not (tmp_path / "n.txt").exists()


def test_a_child_takes_narrower_limits_policy_and_variables():
    parent = goccia.Sandbox(files={"/w/a.txt": "a\n"}, env={"FROM": "parent"}, limits={"timeout": 10})
    parent.run_shell("export STAGE=review")
    child = parent.child(["/w"], limits={"timeout": 0.2}, policy="read-only", env={"TASK": "lint"})
    assert child.limits.timeout == 0.2
    assert child.limits.max_output == parent.limits.max_output
    assert child.run_shell("echo $FROM $STAGE $TASK").stdout == "parent review lint\n"
    assert "read-only" in child.run_shell("echo b > /w/a.txt").stderr
    assert "deadline of 200 ms" in child.run_shell("while :; do :; done").failure_message
    with pytest.raises(goccia.SpecError, match=r"limits.timeoutMs asks for 60000, more than the 10000 allowed"):
        parent.child([], limits={"timeout": 60})
    with pytest.raises(goccia.SpecError, match=r"policy=: `open` is not one of"):
        parent.child([], policy="open")
    with pytest.raises(goccia.ChildSeedError):
        parent.child(["/missing"], policy="read-only")
    started = parent.child(["/w"], cwd="/w")
    assert started.run_shell("pwd; cat a.txt").stdout == "/w\na\n"
    with pytest.raises(goccia.SpecError, match=r"cwd `/elsewhere`: not a folder the child was seeded with"):
        parent.child(["/w"], cwd="/elsewhere")


def test_a_shell_calls_own_cwd_and_env_last_for_that_call():
    sandbox = goccia.Sandbox(files={"/p/a.txt": "x"})
    sandbox.run_shell("cd /tmp")
    run = sandbox.run_shell("ls; echo $ONLY", cwd="/p", env={"ONLY": "call"})
    assert run.stdout == "a.txt\ncall\n"
    assert sandbox.run_shell('pwd; echo "[$ONLY]"').stdout == "/tmp\n[]\n"
    with pytest.raises(goccia.RunError, match=r"cwd `/nope`: No such file or directory"):
        sandbox.run_shell("true", cwd="/nope")


def test_arun_shell_takes_cwd_and_env():
    import asyncio

    sandbox = goccia.Sandbox(files={"/p/a.txt": "x"})
    run = asyncio.run(sandbox.arun_shell("pwd; echo $X", cwd="/p", env={"X": "1"}))
    assert run.stdout == "/p\n1\n"


def test_snapshots_hold_the_shells_state_list_their_parents_and_fork():
    sandbox = goccia.Sandbox(files={"/w/a.txt": "a\n"})
    sandbox.run_shell('cd /w; export STAGE=one; greet() { echo "hi $STAGE"; }')
    first = sandbox.snapshot(label="start")
    sandbox.run_shell("cd /; STAGE=two; unset -f greet")
    sandbox.restore(first)
    assert sandbox.run_shell("pwd; greet").stdout == "/w\nhi one\n"
    second = sandbox.snapshot()
    listed = sandbox.snapshots()
    assert [(s["id"], s["parent"], s["label"], s["has_shell_state"]) for s in listed] == [
        (first, None, "start", True),
        (second, first, None, True),
    ]
    forks = sandbox.fork(first, count=2)
    forks[0].run_shell("echo b >> a.txt")
    assert forks[1].run_shell("pwd; greet; cat a.txt").stdout == "/w\nhi one\na\n"
    assert forks[0].run_shell("cat a.txt").stdout == "a\nb\n"
    with pytest.raises(goccia.UnknownSnapshot):
        sandbox.fork(9)
