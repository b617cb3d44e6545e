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

import atexit as _atexit

from goccia import _goccia
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

def start_tracing(url: str) -> None:
    """Sends this process's spans (calls, shell commands, host commands,
    fetches) to an OpenTelemetry collector over OTLP/HTTP, such as
    http://127.0.0.1:4318 (docs/telemetry.md); what is left is sent at exit
    or by `stop_tracing()`."""
    _goccia.start_tracing(url)
    _atexit.register(_goccia.stop_tracing)


def stop_tracing() -> None:
    """Sends the spans not sent yet and stops tracing."""
    _goccia.stop_tracing()


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
    "start_tracing",
    "stop_tracing",
    "WriteBackError",
    "WriteBackReport",
]
