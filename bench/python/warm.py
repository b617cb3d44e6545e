"""Warm `run_shell("echo hi")` from Python: goccia's bindings (one or two
builds) and bashkit's, each in a process of its own, alternated round by
round, so that neither runtime's threads run beside the other's (in one
process, bashkit's and goccia's idle threads share the machine's cores
and move each other's figures by a microsecond or more).

Usage:
    python3 bench/python/warm.py --rounds 6 PYTHON_WITH_GOCCIA [OTHER ...]

Each PYTHON is an interpreter whose environment has `goccia` (and, for
the bashkit row, `bashkit==0.20.1`); bashkit runs under the first one.
Prints, per row, the min, median and max over the rounds of each
process's median of 20,000 calls (after 2,000 warm-up calls).
"""

import argparse
import statistics
import subprocess

MEASURE = r"""
import statistics, sys, time
if sys.argv[1] == "bashkit":
    import bashkit
    bash = bashkit.Bash()
    call = lambda: bash.execute_sync("echo hi")
    assert call().stdout == "hi\n"
else:
    import goccia
    sandbox = goccia.Sandbox()
    call = lambda: sandbox.run_shell("echo hi")
    assert call().stdout == "hi\n"
for _ in range(2_000):
    call()
times = []
for _ in range(20_000):
    begun = time.perf_counter()
    call()
    times.append(time.perf_counter() - begun)
print(statistics.median(times) * 1e6)
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("pythons", nargs="+")
    args = parser.parse_args()
    rows = [(f"goccia [{index + 1}]", python, "goccia") for index, python in enumerate(args.pythons)]
    rows.append(("bashkit 0.20.1", args.pythons[0], "bashkit"))
    medians = {name: [] for name, _, _ in rows}
    for _ in range(args.rounds):
        for name, python, which in rows:
            out = subprocess.run([python, "-c", MEASURE, which], check=True, capture_output=True, text=True)
            medians[name].append(float(out.stdout))
    print(f"{'warm echo hi':<16} {'min':>7} {'median':>7} {'max':>7}  (µs, {args.rounds} processes each)")
    for name, values in medians.items():
        print(f"{name:<16} {min(values):7.2f} {statistics.median(values):7.2f} {max(values):7.2f}")


main()
