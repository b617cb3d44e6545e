"""goccia: a sandboxed JavaScript runtime and virtual shell for AI agents.

    import goccia
    with goccia.Sandbox(seeds=[("./project", "/work")]) as sandbox:
        run = sandbox.run_shell("cd /work && grep -rn TODO .")
        print(run.exit_code, run.stdout)
        print(sandbox.diff("unified"))

Everything runs on a virtual filesystem seeded from the host; nothing reaches
the host until `write_back()`. Runs release the GIL; `arun_*` are the asyncio
variants. A run that fails is a `Run` with `ok == False`; errors that keep a
call from running at all are exceptions deriving from `GocciaError`.
"""

from goccia._goccia import (
    AccessError,
    ApplyError,
    CancelToken,
    Change,
    ChildSeedError,
    Conflict,
    Entry,
    GocciaError,
    Limits,
    MergeReport,
    Run,
    RunError,
    Sandbox,
    SetupError,
    SpecError,
    UnknownSnapshot,
    SnapshotLimitError,
    SnapshotStore,
    StoreError,
    WriteBackError,
    WriteBackReport,
)

__all__ = [
    "AccessError",
    "ApplyError",
    "CancelToken",
    "Change",
    "ChildSeedError",
    "Conflict",
    "Entry",
    "GocciaError",
    "Limits",
    "MergeReport",
    "Run",
    "RunError",
    "Sandbox",
    "SetupError",
    "SpecError",
    "UnknownSnapshot",
    "SnapshotLimitError",
    "SnapshotStore",
    "StoreError",
    "WriteBackError",
    "WriteBackReport",
]
