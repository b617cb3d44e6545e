"""Before and after a reshaping, side by side in one run: two `goccia`
binaries, measured alternately on the same machine.

1. cold `goccia run /hello.js --seed examples/guest` (a process per run);
2. the server's warm `shell {"command": "echo hi"}` on one session, p50
   and p99 over real HTTP (urllib, a connection per call, as a plain client
   makes them).

Usage: python3 bench/spec/compare.py BEFORE_BINARY AFTER_BINARY [ROUNDS]
(run from the repository root; each binary a release build).
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def cold(binary, runs):
    times = []
    for _ in range(runs):
        begun = time.perf_counter()
        done = subprocess.run(
            [binary, "run", "/hello.js", "--seed", "examples/guest"],
            cwd=ROOT,
            capture_output=True,
        )
        times.append(time.perf_counter() - begun)
        assert done.returncode == 0, done.stderr
    return statistics.median(times)


def call(url, token, body):
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def server_p50(binary, calls):
    with tempfile.TemporaryDirectory() as folder:
        os.mkdir(os.path.join(folder, "ws"))
        with open(os.path.join(folder, "ws", "a.txt"), "w") as file:
            file.write("a\n")
        server = subprocess.Popen(
            [binary, "serve", "--listen", "127.0.0.1:0", "--workspace", "w=ws",
             "--admin-token-file", "admin.token"],
            cwd=folder,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            for line in server.stderr:
                if line.startswith("goccia: listening on "):
                    address = line.split("listening on ", 1)[1].strip()
                    break
            base = address if address.startswith("http") else f"http://{address}"
            admin = open(os.path.join(folder, "admin.token")).read().strip()
            opened = call(f"{base}/v1/sandboxes", admin, {
                "workspace": "w", "seeds": [{"from": ".", "to": "/w"}], "capabilities": ["shell"],
            })
            shell = f"{base}/v1/sandboxes/{opened['sandboxId']}/shell"
            times = []
            for round_ in range(calls + 100):
                begun = time.perf_counter()
                answer = call(shell, opened["token"], {"command": "echo hi"})
                took = time.perf_counter() - begun
                assert answer["stdout"] == "hi\n", answer
                if round_ >= 100:
                    times.append(took)
            times.sort()
            return times[len(times) // 2], times[len(times) * 99 // 100]
        finally:
            server.terminate()
            server.wait()


def main():
    before, after = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    results = {"before": {"cold": [], "p50": [], "p99": []}, "after": {"cold": [], "p50": [], "p99": []}}
    for _ in range(rounds):
        for name, binary in (("before", before), ("after", after)):
            results[name]["cold"].append(cold(binary, 100))
            p50, p99 = server_p50(binary, 1000)
            results[name]["p50"].append(p50)
            results[name]["p99"].append(p99)
    for name in ("before", "after"):
        row = results[name]
        span = lambda values, unit: f"{min(values) * unit:.2f}–{max(values) * unit:.2f}"
        print(f"{name}: cold run hello median {span(row['cold'], 1e3)} ms; "
              f"server warm shell p50 {span(row['p50'], 1e3)} ms, p99 {span(row['p99'], 1e3)} ms")


if __name__ == "__main__":
    main()
