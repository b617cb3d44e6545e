"""The server side of an MCP round trip without an SDK: a plain JSON-RPC
loop over the server's stdin/stdout (one `initialize`, then 1,200
`tools/call` of `echo hi`; p50/p99 of the last 1,000; the server's CPU
time and context switches per call, its start included). With
`GOCCIA_RAW_ERA=2026-07-28` it speaks that revision instead: no handshake,
the version in every request's `_meta`, and (when the server lists
`open_sandbox`) a sandbox handle in every call.

Usage: python3 bench/mcp/raw_loop.py NAME TOOL COMMAND... [-- NAME TOOL COMMAND...]
e.g.   python3 bench/mcp/raw_loop.py goccia shell target/release/goccia mcp \
           -- rust-bash bash /tmp/peers/bin/rust-bash --mcp
"""

import json
import os
import subprocess
import sys
import time


def bench(argv, tool):
    server = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0)

    def rpc(message, answer=True):
        server.stdin.write((json.dumps(message) + "\n").encode())
        return server.stdout.readline() if answer else None

    era = os.environ.get("GOCCIA_RAW_ERA")
    arguments = {"command": "echo hi"}
    meta = {}
    if era:
        meta = {"_meta": {"io.modelcontextprotocol/protocolVersion": era,
                          "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
                          "io.modelcontextprotocol/clientCapabilities": {}}}
        opened = json.loads(rpc({"jsonrpc": "2.0", "id": 0, "method": "tools/call",
                                 "params": {"name": "open_sandbox", "arguments": {}, **meta}}))
        arguments["sandbox"] = json.loads(opened["result"]["content"][0]["text"])["sandbox"]
    else:
        rpc({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "0"}}})
        rpc({"jsonrpc": "2.0", "method": "notifications/initialized"}, answer=False)
    times = []
    for id in range(1, 1201):
        begun = time.perf_counter()
        line = rpc({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {"name": tool, "arguments": arguments, **meta}})
        times.append(time.perf_counter() - begun)
        assert b"hi" in line, line
    server.stdin.close()
    # The server's own resource use over its life (start included), per
    # call: CPU time, and context switches of all its threads.
    _, status, usage = os.wait4(server.pid, 0)
    server.returncode = os.waitstatus_to_exitcode(status)
    calls = len(times)
    cpu = (usage.ru_utime + usage.ru_stime) / calls * 1e6
    switches = (usage.ru_nvcsw + usage.ru_nivcsw) / calls
    times = sorted(times[200:])
    return times[len(times) // 2] * 1e6, times[int(len(times) * 0.99)] * 1e6, cpu, switches


def main():
    words = sys.argv[1:]
    while words:
        spec = words[: words.index("--")] if "--" in words else words
        words = words[len(spec) + 1:]
        name, tool, argv = spec[0], spec[1], spec[2:]
        p50, p99, cpu, switches = bench(argv, tool)
        print(f"{name:<12} p50 {p50:.0f} µs  p99 {p99:.0f} µs  "
              f"server CPU {cpu:.0f} µs/call  {switches:.1f} context switches/call")


main()
