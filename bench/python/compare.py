"""goccia's Python bindings side by side with bashkit's Python package, in
one run (see bench/README.md):

- warm `echo hi`: one sandbox, 20,000 calls after 2,000 warm-up calls;
- new sandbox + `echo hi`: 2,000 times;
- an asyncio call (`await arun_shell("echo hi")` / bashkit's `execute`);
- two CPU-bound runs on two threads vs one (the GIL released).

Usage: target/py-venv/bin/python bench/python/compare.py
(needs `pip install ./python bashkit==0.20.1` in that environment).
"""

import asyncio
import statistics
import threading
import time

import bashkit
import goccia


def per_call(call, count, warmup=0):
    for _ in range(warmup):
        call()
    times = []
    for _ in range(count):
        begun = time.perf_counter()
        call()
        times.append(time.perf_counter() - begun)
    return statistics.median(times) * 1e6


def warm():
    sandbox = goccia.Sandbox()
    bash = bashkit.Bash()
    assert sandbox.run_shell("echo hi").stdout == "hi\n"
    assert bash.execute_sync("echo hi").stdout == "hi\n"
    return (
        per_call(lambda: sandbox.run_shell("echo hi"), 20_000, 2_000),
        per_call(lambda: bash.execute_sync("echo hi"), 20_000, 2_000),
    )


def fresh():
    return (
        per_call(lambda: goccia.Sandbox().run_shell("echo hi"), 2_000, 200),
        per_call(lambda: bashkit.Bash().execute_sync("echo hi"), 2_000, 200),
    )


def asynchronous():
    async def measure(call, count=5_000):
        for _ in range(500):
            await call()
        times = []
        for _ in range(count):
            begun = time.perf_counter()
            await call()
            times.append(time.perf_counter() - begun)
        return statistics.median(times) * 1e6

    async def main():
        sandbox = goccia.Sandbox()
        bash = bashkit.Bash()
        return (
            await measure(lambda: sandbox.arun_shell("echo hi")),
            await measure(lambda: bash.execute("echo hi")),
        )

    return asyncio.run(main())


CPU = "let x = 0; for (let i = 0; i < 30_000_000; i++) { x = (x + i) % 1000003; } export default x;"


def threads():
    begun = time.perf_counter()
    goccia.Sandbox().run_code(CPU)
    alone = time.perf_counter() - begun
    workers = [threading.Thread(target=lambda: goccia.Sandbox().run_code(CPU)) for _ in range(2)]
    begun = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return alone, time.perf_counter() - begun


def main():
    for name, (ours, theirs) in [
        ("warm echo hi", warm()),
        ("new sandbox + echo", fresh()),
        ("asyncio echo hi", asynchronous()),
    ]:
        print(f"{name:<22} goccia {ours:8.1f} µs   bashkit {theirs:8.1f} µs")
    alone, both = threads()
    print(f"CPU-bound JS: one run {alone:.3f} s, two on two threads {both:.3f} s ({both / alone:.2f}x)")


main()
