"""Cold start beside its anchor, in one run: `node -e 0`, `/bin/true` (the
floor of any process on this machine), `goccia --version` and a cold
`goccia run /hi.js`, each spawned in turn, round after round, so drift in
the machine's load falls on every row alike.

Each process is started with posix_spawn and reaped with wait4: the wall
time is spawn to reap, the CPU time is the child's user + system time.

Usage (from the repository root, release builds):
    python3 bench/cold/anchor.py [--runs N] GOCCIA [OTHER_GOCCIA]
A second binary (say, the build before a change) gets rows of its own.
"""

import argparse
import os
import statistics
import tempfile
import time


def spawn(argv):
    """Wall and CPU milliseconds of one run of `argv` (stdin and stdout on
    /dev/null)."""
    devnull = os.open(os.devnull, os.O_RDWR)
    begun = time.perf_counter()
    pid = os.posix_spawn(
        argv[0],
        argv,
        os.environ,
        file_actions=[
            (os.POSIX_SPAWN_DUP2, devnull, 0),
            (os.POSIX_SPAWN_DUP2, devnull, 1),
        ],
    )
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - begun
    os.close(devnull)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv} exited {os.waitstatus_to_exitcode(status)}")
    return wall * 1e3, (usage.ru_utime + usage.ru_stime) * 1e3


def which(name):
    for folder in os.environ.get("PATH", "").split(":"):
        path = os.path.join(folder, name)
        if os.access(path, os.X_OK):
            return path
    raise SystemExit(f"{name} not found")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("goccia", nargs="+")
    args = parser.parse_args()
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "hi.js"), "w") as script:
        script.write('console.log("hi")\n')
    os.chdir(work)
    rows = {"node -e 0": [which("node"), "-e", "0"], "/bin/true": ["/bin/true"]}
    for index, binary in enumerate(args.goccia):
        binary = os.path.abspath(binary) if os.path.sep in binary else which(binary)
        tag = "" if len(args.goccia) == 1 else f" [{index + 1}]"
        rows[f"goccia --version{tag}"] = [binary, "--version"]
        rows[f"goccia run /hi.js{tag}"] = [binary, "run", "/hi.js", "--seed", "hi.js"]
    walls = {name: [] for name in rows}
    cpus = {name: [] for name in rows}
    for round_ in range(args.runs):
        for name, argv in rows.items():
            # node is 20x slower than the rest: a tenth as many samples.
            if name.startswith("node") and round_ % 10:
                continue
            wall, cpu = spawn(argv)
            walls[name].append(wall)
            cpus[name].append(cpu)
    node = statistics.median(walls["node -e 0"])
    print(f"{'process':<26} {'wall min':>9} {'median':>8} {'max':>8} {'cpu med':>8} {'÷ node -e':>9}")
    for name in rows:
        w = walls[name]
        print(
            f"{name:<26} {min(w):8.2f}ms {statistics.median(w):7.2f}ms {max(w):7.2f}ms "
            f"{statistics.median(cpus[name]):7.2f}ms {statistics.median(w) / node:9.3f}"
        )
    print(f"({args.runs} rounds; node -e sampled every tenth round)")


if __name__ == "__main__":
    main()
