"""Leftmost-longest matching's cost (issue 49): sed, awk and grep commands
that take match positions, run by two goccia builds side by side, round
after round; the median of 7 wall times per command (each includes the
setup, measured alone on the last row).

Usage: python3 bench/shell/longest_match.py BEFORE_GOCCIA AFTER_GOCCIA
"""
import subprocess, sys, time, statistics, os
binaries = {"before": sys.argv[1], "after": sys.argv[2]}
setup = "seq 200000 > n; for i in $(seq 2000); do echo 'foo foobar xyz abc abcd'; done > words"
cases = {
    "sed -E 's/1|12/x/g' (200,000 lines)": "sed -E 's/1|12/x/g' n | tail -1",
    "sed 's/\\(1\\)\\(2\\)/[\\2\\1]/g' (groups)": "sed 's/\\(1\\)\\(2\\)/[\\2\\1]/g' n | tail -1",
    "awk gsub(/1/, \"x\")": "awk '{gsub(/1/, \"x\")} END {print}' n",
    "grep -oE 'foo|foobar' (2,000 lines)": "grep -oE 'foo|foobar' words | wc -l",
    "grep -c 1 (no match positions)": "grep -c 1 n",
}
results = {}
for rnd in range(7):
    for name, cmd in cases.items():
        for tag, binary in binaries.items():
            t0 = time.perf_counter()
            out = subprocess.run([binary, "shell", "-c", f"{setup} 2>/dev/null; {cmd}"], capture_output=True)
            results.setdefault((name, tag), []).append(time.perf_counter() - t0)
# the setup alone
for tag, binary in binaries.items():
    ts=[]
    for _ in range(7):
        t0=time.perf_counter(); subprocess.run([binary,"shell","-c",setup],capture_output=True); ts.append(time.perf_counter()-t0)
    results[("setup", tag)] = ts
print(f"{'case':<44} {'before':>10} {'after':>10}")
for name in list(cases)+["setup"]:
    b = statistics.median(results[(name,'before')])*1e3
    a = statistics.median(results[(name,'after')])*1e3
    print(f"{name:<44} {b:>9.1f}ms {a:>9.1f}ms")
