#!/usr/bin/env python3
"""`diff` inside goccia against GNU diff, side by side in one run (issue 49):
whole-process wall time of `goccia shell -c 'diff A B'` over a seeded folder
for one or more goccia binaries, and GNU diff's over the same files, on pairs
generated from a fixed seed:

- `edits`: 30,000 numbered lines, every seventh changed and 200 shuffled;
- `random`: two draws of 6,000 lines from 200 values (an expensive
  alignment: GNU's cut-off for costly splits is reached);
- `small`: a 40-line file and an edit of it (the common case).

Also says whether each binary's output is byte for byte GNU's.

    python3 bench/shell/diff_compare.py [--runs 11] GOCCIA [GOCCIA ...]
"""

import argparse
import hashlib
import os
import random
import statistics
import subprocess
import tempfile
import time


def pairs(folder):
    rng = random.Random(49)
    numbered = [str(i) for i in range(30_000)]
    edited = list(numbered)
    for k in range(0, len(edited), 7):
        edited[k] = "x" + edited[k]
    middle = edited[1000:1200]
    rng.shuffle(middle)
    edited[1000:1200] = middle
    drawn = [[str(rng.randrange(200)) for _ in range(6_000)] for _ in range(2)]
    small = [rng.choice("abcdefgh") for _ in range(40)]
    small_edit = list(small)
    for _ in range(5):
        small_edit.insert(rng.randrange(len(small_edit)), rng.choice("abcdefgh"))
        del small_edit[rng.randrange(len(small_edit))]
    made = {
        "edits": (numbered, edited),
        "random": (drawn[0], drawn[1]),
        "small": (small, small_edit),
    }
    for name, (a, b) in made.items():
        for side, lines in (("a", a), ("b", b)):
            with open(os.path.join(folder, f"{name}.{side}"), "w") as out:
                out.write("\n".join(lines) + "\n")
    return list(made)


def timed(argv):
    started = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, stdin=subprocess.DEVNULL)
    return time.perf_counter() - started, done.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("goccia", nargs="+")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        names = pairs(folder)
        print(f"{'pair':8} {'tool':28} {'median':>10} {'p90':>10}  same as GNU")
        for name in names:
            a, b = (os.path.join(folder, f"{name}.{side}") for side in "ab")
            rows = [("GNU diff", ["diff", a, b])]
            for binary in args.goccia:
                script = f"diff /w/{name}.a /w/{name}.b"
                rows.append((binary, [binary, "shell", "--seed", f"{folder}=/w", "-c", script]))
            times = {label: [] for label, _ in rows}
            outputs = {}
            for _ in range(args.runs):
                for label, argv in random.sample(rows, len(rows)):
                    took, out = timed(argv)
                    times[label].append(took)
                    outputs[label] = hashlib.md5(out).hexdigest()
            for label, _ in rows:
                ordered = sorted(times[label])
                median = statistics.median(ordered) * 1e3
                p90 = ordered[int(len(ordered) * 0.9) - 1] * 1e3
                same = "" if label == "GNU diff" else ("yes" if outputs[label] == outputs["GNU diff"] else "no")
                print(f"{name:8} {label[-28:]:28} {median:8.1f}ms {p90:8.1f}ms  {same}")


if __name__ == "__main__":
    main()
