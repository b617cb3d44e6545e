#!/usr/bin/env python3
"""The shell against the real tools, side by side in one run (issue 19).

1. The arithmetic loop, whole process: `bash -c LOOP` against
   `goccia shell -c LOOP`, alternated in a shuffled order so both see the
   same machine state. LOOP is
   `x=0; for ((i = 0; i < 100000; i++)); do x=$((x + i % 7)); done; echo $x`.
2. `rg` over 10,000 files against `grep -r` inside goccia: one goccia
   session seeded with the files runs each search many times, alternated,
   timed by the shell's own `time` (TIMEFORMAT=%R); the host's real
   ripgrep and GNU grep run the same searches for reference.

    cargo build --release
    python3 bench/shell/compare.py [--runs 15]

(`GOCCIA_BIN=path` measures another build.)

Prints the median and 90th percentile of each, and the ratios.
"""

import argparse
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOCCIA = os.environ.get("GOCCIA_BIN", os.path.join(ROOT, "target", "release", "goccia"))
LOOP = "x=0; for ((i = 0; i < 100000; i++)); do x=$((x + i % 7)); done; echo $x"


def wall(argv, stdin=None):
    started = time.perf_counter()
    done = subprocess.run(argv, stdin=stdin, capture_output=True, check=True)
    return time.perf_counter() - started, done.stdout


def summary(times):
    times = sorted(times)
    p90 = times[max(0, int(len(times) * 0.9) - 1)]
    return statistics.median(times), p90


def loop(runs):
    programs = {"bash": ["bash", "-c", LOOP], "goccia": [GOCCIA, "shell", "-c", LOOP]}
    outputs = {name: wall(argv)[1] for name, argv in programs.items()}
    assert outputs["bash"] == outputs["goccia"], outputs
    times = {name: [] for name in programs}
    order = [name for name in programs for _ in range(runs)]
    random.shuffle(order)
    for name in order:
        times[name].append(wall(programs[name])[0])
    print("arithmetic loop, 100,000 iterations, whole process")
    for name in programs:
        median, p90 = summary(times[name])
        print(f"  {name:7} median {median * 1000:8.1f} ms   p90 {p90 * 1000:8.1f} ms")
    ratio = statistics.median(times["goccia"]) / statistics.median(times["bash"])
    print(f"  goccia / bash = {ratio:.2f}")


def tree(root, files):
    """10,000 files of about 2 KiB in 100 folders; one in ten holds the
    needle, and there is a .gitignore rg honours (ignoring nothing)."""
    rng = random.Random(7)
    words = ["alpha", "beta", "gamma", "delta", "value", "return", "struct", "impl"]
    for n in range(files):
        folder = os.path.join(root, f"d{n % 100:03}")
        os.makedirs(folder, exist_ok=True)
        lines = [" ".join(rng.choice(words) for _ in range(8)) for _ in range(40)]
        if n % 10 == 0:
            lines[rng.randrange(40)] += " needle_here"
        with open(os.path.join(folder, f"f{n}.txt"), "w") as out:
            out.write("\n".join(lines) + "\n")
    with open(os.path.join(root, ".gitignore"), "w") as out:
        out.write("*.tmp\n")


def search(runs, files):
    root = tempfile.mkdtemp(prefix="goccia-rg-")
    try:
        tree(root, files)
        commands = {
            "rg -l": "rg -l needle_here /w",
            "grep -rl": "grep -rl needle_here /w",
        }
        order = [name for name in commands for _ in range(runs)]
        random.shuffle(order)
        script = ["TIMEFORMAT=%R"]
        for index, name in enumerate(order):
            script.append(
                f"{{ time {commands[name]} | wc -l > /tmp/count.{index}; }} 2>&1; "
                f"echo \"count $(cat /tmp/count.{index})\""
            )
        done = subprocess.run(
            [GOCCIA, "shell", "--seed", f"{root}=/w", "--timeout", "600000", "-c", "\n".join(script)],
            capture_output=True,
            check=True,
            text=True,
        )
        lines = done.stdout.split()
        times = {name: [] for name in commands}
        counts = set()
        for index, name in enumerate(order):
            times[name].append(float(lines[index * 3]))
            counts.add(lines[index * 3 + 2])
        assert counts == {str(files // 10)}, counts
        host = {}
        for name, argv in {"rg -l": ["rg", "-l", "needle_here", root], "grep -rl": ["grep", "-rl", "needle_here", root]}.items():
            if shutil.which(argv[0]):
                host[name] = summary([wall(argv)[0] for _ in range(runs)])[0]
        print(f"search over {files:,} files (inside one goccia session; host tools for reference)")
        for name in commands:
            median, p90 = summary(times[name])
            reference = f"   host {host[name] * 1000:6.1f} ms" if name in host else ""
            print(f"  {name:9} median {median * 1000:8.1f} ms   p90 {p90 * 1000:8.1f} ms{reference}")
        ratio = statistics.median(times["rg -l"]) / statistics.median(times["grep -rl"])
        print(f"  rg / grep -r = {ratio:.2f}")
    finally:
        shutil.rmtree(root)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--files", type=int, default=10_000)
    args = parser.parse_args()
    if not os.access(GOCCIA, os.X_OK):
        raise SystemExit(f"build it first: cargo build --release ({GOCCIA} is missing)")
    loop(args.runs)
    search(args.runs, args.files)


if __name__ == "__main__":
    main()
