"""`goccia mcp` side by side with other MCP shell servers, in one run, through
the official MCP Python SDK (the client agents' harnesses use).

For each server and each protocol era (`--modes`: the SDK's "legacy"
initialize handshake, and "auto", which picks the 2026-07-28 revision where a
server offers it): cold start (process spawn to the first `echo hi` result,
handshake or discovery included, and for a server whose shell needs a
sandbox handle in that era, `open_sandbox`; median of --starts runs), warm latency of `echo hi`
(--calls calls after --warmup; p50 and p99 of the client-side round trip),
and the resident memory of the server process (and its children) right after
its first answer and after the warm calls.

Usage (see bench/README.md):
    target/mcp-venv/bin/python bench/mcp/compare.py \
        --server goccia='target/release/goccia mcp' \
        --server rust-bash='/path/rust-bash --mcp' \
        --server just-bash-mcp='/path/node_modules/.bin/just-bash-mcp'
Each server's shell tool is the one named `shell` or `bash`.
"""

import argparse
import asyncio
import json
import os
import shlex
import statistics
import time

from mcp import Client
from mcp.client.stdio import StdioServerParameters


def children(pid):
    """Pids of every descendant of `pid` (from /proc)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
                parents.setdefault(ppid, []).append(int(entry))
            except (OSError, IndexError, ValueError):
                pass
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def rss_kib(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as status:
                for line in status:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def shell_tool(tools):
    names = [tool.name for tool in tools]
    for name in ("shell", "bash"):
        if name in names:
            return name
    raise SystemExit(f"no shell or bash tool among {names}")


def text(result):
    return "".join(block.text for block in result.content if block.type == "text")


async def arguments(client, tools):
    """The shell call's arguments: with a sandbox handle when the server
    names sandboxes by handle and the era has no session to hold one."""
    names = [tool.name for tool in tools]
    if "open_sandbox" in names and client.protocol_version >= "2026-07-28":
        opened = await client.call_tool("open_sandbox", {})
        return {"command": "echo hi", "sandbox": json.loads(text(opened))["sandbox"]}
    return {"command": "echo hi"}


async def session(argv, calls, warmup, mode):
    params = StdioServerParameters(command=argv[0], args=argv[1:])
    started = time.perf_counter()
    async with Client(params, mode=mode) as client:
        tools = (await client.list_tools()).tools
        tool = shell_tool(tools)
        echo = await arguments(client, tools)
        first = await client.call_tool(tool, echo)
        cold = time.perf_counter() - started
        assert "hi" in text(first), text(first)
        server = children(os.getpid())
        rss_first = rss_kib(server)
        for _ in range(warmup):
            await client.call_tool(tool, echo)
        times = []
        for _ in range(calls):
            begun = time.perf_counter()
            result = await client.call_tool(tool, echo)
            times.append(time.perf_counter() - begun)
            assert "hi" in text(result)
        rss_warm = rss_kib(server)
        return cold, times, rss_first, rss_warm, client.protocol_version


async def cold_start(argv, mode):
    params = StdioServerParameters(command=argv[0], args=argv[1:])
    started = time.perf_counter()
    async with Client(params, mode=mode) as client:
        tools = (await client.list_tools()).tools
        await client.call_tool(shell_tool(tools), await arguments(client, tools))
        return time.perf_counter() - started


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--server", action="append", required=True, metavar="NAME=COMMAND")
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--starts", type=int, default=10)
    parser.add_argument("--modes", default="legacy,auto", help="SDK connect modes, comma-separated")
    args = parser.parse_args()
    print(f"{'server':<16}{'protocol':<12}{'cold start':>12}{'p50':>10}{'p99':>10}{'RSS first':>12}{'RSS warm':>12}")
    for spec in args.server:
        name, command = spec.split("=", 1)
        argv = shlex.split(command)
        for mode in args.modes.split(","):
            await one_server(name, argv, args, mode)


async def one_server(name, argv, args, mode):
    _, times, rss_first, rss_warm, version = await session(argv, args.calls, args.warmup, mode)
    starts = [await cold_start(argv, mode) for _ in range(args.starts)]
    print(
        f"{name:<16}{version:<12}{statistics.median(starts) * 1e3:>10.1f}ms"
        f"{percentile(times, 0.5) * 1e3:>8.3f}ms{percentile(times, 0.99) * 1e3:>8.3f}ms"
        f"{rss_first / 1024:>10.1f}MB{rss_warm / 1024:>10.1f}MB"
    )


asyncio.run(main())
