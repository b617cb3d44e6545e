"""Python's spelling of the sandbox spec (docs/spec.md): every setting is a
keyword, refused with the words every surface uses, and reaches the
sandbox."""

import asyncio
import os
import pathlib
import shutil

import pytest

import goccia

# A value other than the default for each spec field, as a keyword.
NON_DEFAULT = {
    "seeds": ("seeds", ["."]),
    "exclude": ("exclude", ["*.log"]),
    "gitignore": ("gitignore", True),
    "symlinks": ("symlinks", "keep"),
    "env": ("env", {"A": "1"}),
    "limits": ("limits", goccia.Limits(max_depth=3)),
    "network": ("allow_hosts", ["example.com"]),
    "policy": ("policy", "read-only"),
    "writable": ("writable", ["/out"]),
    "approve": ("approve", "always"),
    "isolation": ("isolation", "process"),
    "hostCommands": ("host_commands", ["python3=/usr/bin/python3"]),
    "hostCommandMemory": ("host_command_memory", "256m"),
    "mode": ("mode", "bytecode"),
    "auditLog": ("audit_log", "audit.jsonl"),
}

LIMIT_VALUES = {"timeout": "1.5s", "output_overflow": "truncate"}


def test_every_spec_field_is_a_keyword():
    defaults = goccia.Sandbox.resolve_spec()
    # A field added to the spec without a keyword here fails this test.
    assert set(defaults) == set(NON_DEFAULT)
    for field, (keyword, value) in NON_DEFAULT.items():
        resolved = goccia.Sandbox.resolve_spec(**{keyword: value})
        assert resolved[field] != defaults[field], field
        changed = [name for name in resolved if resolved[name] != defaults[name]]
        assert changed == [field], (keyword, changed)


def test_the_sandbox_keeps_the_spec_it_was_built_from(tmp_path, monkeypatch):
    # Every setting at once, each away from its default, built for real.
    monkeypatch.chdir(tmp_path)
    (tmp_path / "ws").mkdir()
    keywords = {keyword: value for keyword, value in NON_DEFAULT.values() if keyword not in ("seeds", "isolation", "host_commands")}
    keywords["seeds"] = ["ws=/w"]
    sandbox = goccia.Sandbox(**keywords)
    assert sandbox.spec == goccia.Sandbox.resolve_spec(**keywords)
    assert sandbox.spec["seeds"] == [{"from": str(tmp_path / "ws"), "to": "/w"}]
    assert sandbox.spec["auditLog"] == str(tmp_path / "audit.jsonl")
    assert sandbox.child(["/w"]).spec == {**sandbox.spec, "seeds": []}


def test_every_limit_is_a_keyword_of_limits():
    defaults = goccia.Sandbox.resolve_spec()["limits"]
    assert len(goccia.Limits.NAMES) == len(defaults)
    for name in goccia.Limits.NAMES:
        value = LIMIT_VALUES.get(name, 7 << 20)
        limits = goccia.Sandbox.resolve_spec(limits=goccia.Limits(**{name: value}))["limits"]
        changed = [field for field in limits if limits[field] != defaults[field]]
        assert len(changed) == 1, (name, changed)
    assert goccia.Limits(timeout="10s").timeout == 10.0
    assert goccia.Limits(timeout="250ms").timeout == 0.25
    assert goccia.Limits(timeout=2).timeout == 2.0
    # A dict of the same keywords is read as Limits(**dict).
    assert goccia.Sandbox.resolve_spec(limits={"timeout": "3s"})["limits"]["timeoutMs"] == 3000


def test_spec_json_round_trips_and_keywords_override_it(tmp_path):
    spec = goccia.Sandbox.resolve_spec(policy="workspace-write", writable=["/out"], limits={"max_output": "1k"})
    again = goccia.Sandbox.resolve_spec(spec=spec)
    assert again == spec
    narrowed = goccia.Sandbox.resolve_spec(spec=spec, policy="read-only")
    assert narrowed["policy"] == "read-only" and narrowed["writable"] == ["/out"]
    # Relative host paths are taken from the current folder.
    assert goccia.Sandbox.resolve_spec(seeds=["."])["seeds"][0]["from"] == os.getcwd()


@pytest.mark.parametrize(
    "keywords, words",
    [
        ({"policy": "open"}, "`open` is not one of read-only, workspace-write, full"),
        ({"symlinks": "follow"}, "`follow` is not one of refuse, skip, keep"),
        ({"mode": "jit"}, "`jit` is not one of interpreted, bytecode"),
        ({"isolation": "vm"}, "`vm` is not one of none, process"),
        ({"approve": "maybe"}, "`maybe` is not one of never, always, prompt, client, callback"),
        ({"writable": ["out"]}, "writable=: `out` is not an absolute sandbox path"),
        ({"limits": {"max_memory": 1}}, "Limits(max_memory=): the memory limit of 1 is out of range: it must be at least 1048576"),
        ({"allow_hosts": ["http://x/"]}, "allow_hosts=: `http://x/`: give HOST[:PORT][/PATH-PREFIX][@METHOD,...], not a URL"),
        ({"limits": {"max_memory": "lots"}}, "Limits(max_memory=): `lots` is not a size"),
        ({"spec": {"limits": {"maxMemory": "lots"}}}, "Limits(max_memory=): `lots` is not a size"),
        ({"spec": {"network": {"allowHosts": []}}}, "network.allowHosts: no such setting"),
    ],
)
def test_a_bad_value_is_refused_naming_the_keyword(keywords, words):
    with pytest.raises(goccia.SpecError) as error:
        goccia.Sandbox.resolve_spec(**keywords)
    assert words in str(error.value)
    # The same from the constructor; a SpecError is a SetupError and a
    # ValueError.
    with pytest.raises(goccia.SpecError) as built:
        goccia.Sandbox(**keywords)
    assert str(built.value) == str(error.value)
    assert isinstance(built.value, goccia.SetupError) and isinstance(built.value, ValueError)


def test_an_unknown_keyword_is_a_type_error():
    with pytest.raises(TypeError) as error:
        goccia.Sandbox(colour="red")
    assert "unexpected keyword `colour`" in str(error.value)
    with pytest.raises(TypeError):
        goccia.Limits(max_colours=3)


def test_a_limit_out_of_range_names_its_keyword():
    with pytest.raises(goccia.SpecError) as error:
        goccia.Sandbox(limits=goccia.Limits(timeout=0))
    assert str(error.value) == "Limits(timeout=): must be at least 1 ms"
    assert error.value.limit == "deadline"


def test_symlinks_and_mode_reach_the_sandbox(tmp_path):
    (tmp_path / "target.txt").write_text("hello\n")
    (tmp_path / "link").symlink_to("target.txt")
    kept = goccia.Sandbox(seeds=[(str(tmp_path), "/w")], symlinks="keep")
    assert kept.run_shell("readlink /w/link").stdout == "target.txt\n"
    skipped = goccia.Sandbox(seeds=[(str(tmp_path), "/w")], symlinks="skip")
    assert skipped.run_shell("ls /w").stdout == "target.txt\n"
    with pytest.raises(goccia.SetupError) as error:
        goccia.Sandbox(seeds=[(str(tmp_path), "/w")])
    assert "link" in str(error.value)
    bytecode = goccia.Sandbox(mode="bytecode", files={"/m.js": "export default 6 * 7;"})
    assert bytecode.run_script("/m.js").result == 42


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="host commands run under bubblewrap (.ci/run installs it)")
def test_host_commands_reach_the_sandbox():
    sandbox = goccia.Sandbox(host_commands=["python3"], files={"/w/x.txt": "data\n"})
    run = sandbox.run_shell("cd /w && python3 -c 'print(open(\"x.txt\").read().upper(), end=\"\")'")
    assert (run.exit_code, run.stdout) == (0, "DATA\n"), run.stderr


def _goccia_binary():
    root = pathlib.Path(__file__).resolve().parents[2]
    for candidate in [os.environ.get("GOCCIA_WORKER"), root / "target/debug/goccia", shutil.which("goccia")]:
        if candidate and pathlib.Path(candidate).is_file():
            return str(candidate)
    return None


@pytest.mark.skipif(_goccia_binary() is None, reason="the worker is the goccia binary (cargo build -p goccia-cli)")
def test_process_isolation_reaches_the_sandbox(monkeypatch):
    monkeypatch.setenv("GOCCIA_WORKER", _goccia_binary())
    sandbox = goccia.Sandbox(isolation="process", files={"/a.txt": "a"})
    run = sandbox.run_code("import fs from 'node:fs'; export default fs.readFileSync('/a.txt', 'utf8') + process.pid;")
    assert run.ok and run.result.startswith("a"), run.failure_message
    assert int(run.result[1:]) != os.getpid()


def test_process_isolation_without_a_worker_is_refused(monkeypatch):
    monkeypatch.delenv("GOCCIA_WORKER", raising=False)
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(ValueError) as error:
        goccia.Sandbox(isolation="process")
    assert "GOCCIA_WORKER" in str(error.value)


def test_an_approver_callback_answers_escalations():
    asked = []

    def approve(request):
        asked.append(request)
        return request["justification"] == "clean up"

    sandbox = goccia.Sandbox(policy="read-only", approver=approve, files={"/w/a": "x"})
    granted = sandbox.run_shell("escalate --mode full --justification 'clean up' -- rm /w/a")
    assert granted.exit_code == 0, granted.stderr
    refused = sandbox.run_shell("escalate --mode full --justification 'just because' -- touch /w/b")
    assert refused.exit_code == 1 and "escalate:" in refused.stderr
    assert [request["justification"] for request in asked] == ["clean up", "just because"]
    assert asked[0]["requested_mode"] == "full" and asked[0]["current_mode"] == "read-only"
    assert [change.path for change in sandbox.changes()] == ["/w/a"]
    # Without a callback nobody answers: the request is unavailable.
    alone = goccia.Sandbox(policy="read-only", files={"/w/a": "x"})
    assert alone.run_shell("escalate --mode full --justification 'x' -- rm /w/a").exit_code == 1


def test_per_call_timeout_takes_text_and_async_runs_stream():
    sandbox = goccia.Sandbox()
    run = sandbox.run_shell("while :; do :; done", timeout="100ms")
    assert run.failure_kind == "timeout"
    # The deadline that applied, and the keyword that set it.
    assert run.failure_message == "timeout: the run's deadline of 100 ms passed (pass the call a larger timeout=)"
    limited = goccia.Sandbox(limits=goccia.Limits(timeout=0.1)).run_code("while (true) {}")
    assert limited.failure_message == "timeout: the run's deadline of 100 ms passed (raise it with Limits(timeout=))"
    with pytest.raises(ValueError):
        sandbox.run_shell("true", timeout="soon")
    chunks = []

    async def main():
        return await sandbox.arun_shell("echo one; echo two >&2", on_output=lambda stream, data: chunks.append((stream, data)))

    run = asyncio.run(main())
    assert run.ok and run.stdout == ""
    assert sorted(chunks) == [("stderr", b"two\n"), ("stdout", b"one\n")]
