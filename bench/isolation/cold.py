#!/usr/bin/env python3
"""Cold `goccia run` of hello world, in-process against `--isolate
process`, alternated in one run so both see the same machine state.

    cargo build --release
    python3 bench/isolation/cold.py [--runs 300]

Prints the median and 90th percentile of each mode and the difference
of the medians (the cost of starting and confining a worker).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "goccia"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        with open(os.path.join(folder, "hello.js"), "w") as hello:
            hello.write("console.log('hello');\n")
        command = [args.binary, "run", "/hello.js", "--seed", folder]
        modes = {"none": command + ["--isolate", "none"], "process": command + ["--isolate", "process"]}
        times = {mode: [] for mode in modes}
        for _ in range(10):
            for argv in modes.values():
                subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        for _ in range(args.runs):
            for mode, argv in modes.items():
                started = time.perf_counter()
                done = subprocess.run(argv, stdout=subprocess.PIPE)
                times[mode].append(time.perf_counter() - started)
                if done.returncode != 0 or done.stdout != b"hello\n":
                    sys.exit(f"{mode}: exit {done.returncode}, stdout {done.stdout!r}")
    for mode, samples in times.items():
        samples.sort()
        p90 = samples[int(len(samples) * 0.9)]
        print(f"{mode:8} p50 {statistics.median(samples) * 1000:.2f} ms  p90 {p90 * 1000:.2f} ms")
    added = statistics.median(times["process"]) - statistics.median(times["none"])
    print(f"added by --isolate process (medians): {added * 1000:.2f} ms")


if __name__ == "__main__":
    main()
