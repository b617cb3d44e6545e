"""The gateway from Python (docs/network.md): rules and secrets as
keywords, against a loopback server this test starts. The guest sees a
placeholder, the server sees the value, the value comes back redacted, and
the sandbox's spec never holds it."""

import http.server
import threading

import pytest

import goccia

VALUE = "py-secret-27d4"


@pytest.fixture
def upstream():
    seen = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            seen.append((self.path, self.headers.get("Authorization")))
            body = f"you sent {self.headers.get('Authorization')}".encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1], seen
    server.shutdown()


def test_a_secret_is_set_on_the_wire_and_never_seen(upstream):
    port, seen = upstream
    sandbox = goccia.Sandbox(
        allow_hosts=[f"127.0.0.1:{port}/v1@GET"],
        secrets={"TOKEN": {"value": VALUE}},
        secret_headers=["127.0.0.1:Authorization=Bearer {TOKEN}"],
    )
    run = sandbox.run_shell(
        f'echo "$TOKEN"; curl -s http://127.0.0.1:{port}/v1/me; echo; '
        f"curl -s http://127.0.0.1:{port}/v2 || echo refused"
    )
    assert run.stdout == "goccia-secret:TOKEN\nyou sent Bearer [secret TOKEN]\nrefused\n"
    assert seen == [("/v1/me", f"Bearer {VALUE}")]
    assert VALUE not in repr(sandbox.spec)
    assert sandbox.spec["network"]["secrets"] == {"TOKEN": {"value": "[secret]"}}


def test_a_secret_written_out_is_refused_naming_the_keyword():
    with pytest.raises(goccia.SpecError, match=r"secrets= \(`TOKEN`\): give the value as @FILE or env:VAR"):
        goccia.Sandbox(secrets={"TOKEN": VALUE})
