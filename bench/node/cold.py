#!/usr/bin/env python3
"""Cold `goccia run` of a script that requires Node's `path`, `util`,
`events` and `crypto` (and uses each once), against hello world, alternated
in one run in a shuffled order so all see the same machine state; the machine's `node` runs
the same two scripts for reference.

    cargo build --release
    python3 bench/node/cold.py [--runs 300]

Prints the median and 90th percentile of each, and what the four modules
add to a cold run (the difference of the medians).
"""

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

HELLO = "console.log('hello');\n"
MODULES = """const path = require('path');
const util = require('util');
const EventEmitter = require('events');
const crypto = require('crypto');
const e = new EventEmitter();
e.on('x', () => {});
e.emit('x');
if (path.join('a', 'b') !== 'a/b' || util.format('%s', 'x') !== 'x'
    || crypto.createHash('sha256').update('x').digest('hex').length !== 64) throw new Error('wrong');
console.log('hello');
"""


def measure(argv):
    started = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.PIPE)
    elapsed = time.perf_counter() - started
    if done.returncode != 0 or done.stdout != b"hello\n":
        sys.exit(f"{argv}: exit {done.returncode}, stdout {done.stdout!r}")
    return elapsed


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--without-node", action="store_true", help="leave the machine's node out")
    parser.add_argument("--binary", default=os.path.join(ROOT, "target", "release", "goccia"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for name, source in (("hello.js", HELLO), ("modules.js", MODULES)):
            with open(os.path.join(folder, name), "w") as out:
                out.write(source)
        commands = {
            "goccia hello": [args.binary, "run", "/hello.js", "--seed", folder],
            "goccia modules": [args.binary, "run", "/modules.js", "--seed", folder],
        }
        node = None if args.without_node else shutil.which("node")
        if node:
            commands["node hello"] = [node, os.path.join(folder, "hello.js")]
            commands["node modules"] = [node, os.path.join(folder, "modules.js")]
        times = {name: [] for name in commands}
        for _ in range(10):
            for argv in commands.values():
                measure(argv)
        # A fresh order each round: whatever ran before a command (node's
        # large process evicting caches) falls on every command alike.
        names = list(commands)
        for _ in range(args.runs):
            random.shuffle(names)
            for name in names:
                times[name].append(measure(commands[name]))
    for name, samples in times.items():
        samples.sort()
        p90 = samples[int(len(samples) * 0.9)]
        print(f"{name:15} p50 {statistics.median(samples) * 1000:.2f} ms  p90 {p90 * 1000:.2f} ms")
    added = statistics.median(times["goccia modules"]) - statistics.median(times["goccia hello"])
    print(f"added by path+util+events+crypto (medians): {added * 1000:.2f} ms")


if __name__ == "__main__":
    main()
