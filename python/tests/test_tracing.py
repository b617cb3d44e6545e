"""Traces from Python (docs/telemetry.md): `start_tracing` sends the
process's spans to an OTLP/HTTP collector; here a receiver in a thread,
in a child process of its own (tracing is once per process)."""

import json
import subprocess
import sys
import textwrap


SCRIPT = textwrap.dedent(
    """
    import http.server, json, sys, threading
    import goccia

    bodies = []

    class Receiver(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self):
            bodies.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    goccia.start_tracing(f"http://127.0.0.1:{server.server_address[1]}")
    sandbox = goccia.Sandbox()
    sandbox.run_shell("echo private-words > /f; cat /f; false")
    goccia.stop_tracing()
    spans = [
        span
        for body in bodies
        for resource in body["resourceSpans"]
        for scope in resource["scopeSpans"]
        for span in scope["spans"]
    ]
    print(json.dumps({"spans": spans, "raw": json.dumps(bodies)}))
    """
)


def test_start_tracing_sends_the_calls_and_commands_spans():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    names = [span["name"] for span in report["spans"]]
    assert names.count("goccia.shell.command") == 3, names
    assert "goccia.call" in names
    commands = [
        {a["key"]: a["value"] for a in span["attributes"]}
        for span in report["spans"]
        if span["name"] == "goccia.shell.command"
    ]
    assert [c["process.command"]["stringValue"] for c in commands] == ["echo", "cat", "false"]
    assert "private-words" not in report["raw"]


def test_a_url_that_is_not_http_is_refused():
    import goccia
    import pytest

    with pytest.raises(goccia.SpecError, match="is not an OTLP/HTTP URL"):
        goccia.start_tracing("localhost:4318")
