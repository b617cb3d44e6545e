"""The README's fan-out example, and memory over many create/run/drop cycles."""

import gc
import resource
import tracemalloc

import goccia


def fan_out():
    # The README's fan-out: children work on O(1) copies, the host merges
    # what they did.
    parent = goccia.Sandbox(files={f"/src/m{n}.txt": f"module {n}\n" for n in range(4)})
    children = [parent.child(["/src"]) for _ in range(4)]
    for n, child in enumerate(children):
        child.run_shell(f"echo 'reviewed by {n}' >> /src/m{n}.txt")
    reports = [parent.merge(child) for child in children]
    return parent, reports


def test_fan_out_merges_every_child():
    parent, reports = fan_out()
    assert all(report.clean for report in reports)
    for n in range(4):
        assert parent.read(f"/src/m{n}.txt") == f"module {n}\nreviewed by {n}\n".encode()
    assert len(parent.changes()) == 4


def rss_kib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def test_memory_does_not_grow_over_10000_cycles(record_property):
    def cycles(count):
        for n in range(count):
            sandbox = goccia.Sandbox(files={"/a.txt": "a"})
            run = sandbox.run_shell(f"echo {n} >> /a.txt")
            assert run.ok
            del sandbox, run

    cycles(500)  # warm-up: allocator arenas, the module's caches
    gc.collect()
    tracemalloc.start()
    rss_before = rss_kib()
    snapshot_before = tracemalloc.take_snapshot()
    cycles(10_000)
    gc.collect()
    python_growth = sum(
        stat.size_diff for stat in tracemalloc.take_snapshot().compare_to(snapshot_before, "filename")
    )
    rss_growth = rss_kib() - rss_before
    tracemalloc.stop()
    record_property("python_heap_growth_bytes", python_growth)
    record_property("rss_growth_kib", rss_growth)
    print(f"10,000 cycles: Python heap {python_growth / 1024:.1f} KiB, RSS {rss_growth} KiB")
    # A leak of one sandbox per cycle would be far above these (a sandbox
    # with a shell session holds well over 10 KiB).
    assert python_growth < 256 * 1024
    assert rss_growth < 20 * 1024
