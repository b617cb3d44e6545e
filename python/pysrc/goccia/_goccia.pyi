"""Type stubs of the native module (see goccia/__init__.py)."""

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal

Seed = tuple[str, str] | str
Size = int | str
Seconds = float | str
OnOutput = Callable[[Literal["stdout", "stderr"], bytes], object]

class GocciaError(Exception): ...
class SetupError(GocciaError):
    limit: str | None
class SpecError(SetupError, ValueError): ...
class AccessError(GocciaError):
    path: str
    denied: bool
    not_found: bool
    code: str | None
class RunError(GocciaError): ...
class ApplyError(GocciaError): ...
class WriteBackError(GocciaError): ...
class ChildSeedError(GocciaError): ...
class UnknownSnapshot(GocciaError): ...
class SnapshotLimitError(GocciaError):
    limit: str

class StoreError(GocciaError):
    code: str

class SnapshotStore:
    def __init__(self, location: str) -> None: ...
    @property
    def location(self) -> str: ...
    def list(self) -> list[dict[str, Any]]: ...
    def drop(self, saved_id: str) -> bool: ...
    def gc(self) -> dict[str, int]: ...

class Limits:
    NAMES: list[str]
    def __init__(
        self,
        *,
        timeout: Seconds | None = None,
        max_memory: Size | None = None,
        stack_size: Size | None = None,
        fs_quota_bytes: Size | None = None,
        fs_node_limit: int | None = None,
        max_output: Size | None = None,
        output_overflow: Literal["fail", "truncate"] | None = None,
        max_depth: int | None = None,
        max_snapshots: int | None = None,
        max_commands: int | None = None,
        max_loop_iterations: int | None = None,
        max_function_depth: int | None = None,
        max_substitution_bytes: Size | None = None,
        max_buffered_input: Size | None = None,
        max_concurrent_stages: int | None = None,
        max_value_bytes: Size | None = None,
    ) -> None: ...
    @property
    def timeout(self) -> float: ...
    @property
    def max_memory(self) -> int: ...
    @property
    def stack_size(self) -> int: ...
    @property
    def fs_quota_bytes(self) -> int: ...
    @property
    def fs_node_limit(self) -> int: ...
    @property
    def max_output(self) -> int: ...
    @property
    def output_overflow(self) -> Literal["fail", "truncate"]: ...
    @property
    def max_depth(self) -> int: ...
    @property
    def max_snapshots(self) -> int: ...
    @property
    def max_commands(self) -> int: ...
    @property
    def max_loop_iterations(self) -> int: ...
    @property
    def max_function_depth(self) -> int: ...
    @property
    def max_substitution_bytes(self) -> int: ...
    @property
    def max_buffered_input(self) -> int: ...
    @property
    def max_concurrent_stages(self) -> int: ...
    @property
    def max_value_bytes(self) -> int: ...

class CancelToken:
    def __init__(self) -> None: ...
    def cancel(self) -> None: ...
    @property
    def cancelled(self) -> bool: ...

class Run:
    exit_code: int
    failure_kind: str | None
    failure_message: str | None
    failure_report: str | None
    stdout: str
    stderr: str
    stdout_bytes: bytes
    stderr_bytes: bytes
    result: Any
    duration: float
    output_truncated: bool
    @property
    def ok(self) -> bool: ...

class Change:
    @property
    def kind(self) -> Literal["create", "mkdir", "modify", "replace", "delete"]: ...
    @property
    def path(self) -> str: ...
    @property
    def type(self) -> Literal["file", "directory"]: ...
    @property
    def old_size(self) -> int | None: ...
    @property
    def new_size(self) -> int | None: ...
    @property
    def old_hash(self) -> str | None: ...
    @property
    def new_hash(self) -> str | None: ...
    @property
    def old_content(self) -> bytes | None: ...
    @property
    def new_content(self) -> bytes | None: ...

class Entry:
    name: str
    type: Literal["file", "directory"]

class Conflict:
    path: str
    reason: str
    ours: str
    theirs: str

class MergeReport:
    applied: list[str]
    merged: list[str]
    already_present: list[str]
    conflicts: list[Conflict]
    @property
    def clean(self) -> bool: ...

class WriteBackReport:
    written: list[tuple[str, str]]
    skipped: list[tuple[str, str]]
    text: str

class Sandbox:
    def __init__(
        self,
        *,
        spec: Mapping[str, Any] | str | None = None,
        seeds: Sequence[Seed] | None = None,
        copy_rw: Sequence[Seed] | None = None,
        files: Mapping[str, str | bytes] | None = None,
        seed_config: Sequence[str] | None = None,
        limits: Limits | Mapping[str, Any] | None = None,
        approver: Callable[[dict[str, str]], bool | str] | None = None,
        allow_hosts: Sequence[str] | None = None,
        deny_private_ranges: bool | None = None,
        fetch_max_bytes: Size | None = None,
        policy: Literal["read-only", "workspace-write", "full"] | None = None,
        writable: Sequence[str] | None = None,
        approve: Literal["never", "always", "callback"] | None = None,
        env: Mapping[str, str] | None = None,
        exclude: Sequence[str] | None = None,
        gitignore: bool | None = None,
        symlinks: Literal["refuse", "skip", "keep"] | None = None,
        isolation: Literal["none", "process"] | None = None,
        host_commands: Sequence[str | Mapping[str, str]] | None = None,
        host_command_memory: Size | None = None,
        mode: Literal["interpreted", "bytecode"] | None = None,
        audit_log: str | None = None,
    ) -> None: ...
    @staticmethod
    def resolve_spec(
        *,
        spec: Mapping[str, Any] | str | None = None,
        seeds: Sequence[Seed] | None = None,
        copy_rw: Sequence[Seed] | None = None,
        files: Mapping[str, str | bytes] | None = None,
        seed_config: Sequence[str] | None = None,
        limits: Limits | Mapping[str, Any] | None = None,
        allow_hosts: Sequence[str] | None = None,
        deny_private_ranges: bool | None = None,
        fetch_max_bytes: Size | None = None,
        **settings: Any,
    ) -> dict[str, Any]: ...
    @property
    def spec(self) -> dict[str, Any]: ...
    def __enter__(self) -> Sandbox: ...
    def __exit__(self, *args: object) -> bool: ...
    def run_shell(
        self,
        command: str,
        *,
        timeout: Seconds | None = None,
        cancel: CancelToken | None = None,
        stdin: str | bytes | None = None,
        on_output: OnOutput | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> Run: ...
    def run_script(
        self, entry: str, *, timeout: Seconds | None = None, cancel: CancelToken | None = None, on_output: OnOutput | None = None
    ) -> Run: ...
    def run_code(
        self, source: str, *, timeout: Seconds | None = None, cancel: CancelToken | None = None, on_output: OnOutput | None = None
    ) -> Run: ...
    def arun_shell(
        self,
        command: str,
        *,
        timeout: Seconds | None = None,
        cancel: CancelToken | None = None,
        stdin: str | bytes | None = None,
        on_output: OnOutput | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> Awaitable[Run]: ...
    def arun_script(
        self, entry: str, *, timeout: Seconds | None = None, cancel: CancelToken | None = None, on_output: OnOutput | None = None
    ) -> Awaitable[Run]: ...
    def arun_code(
        self, source: str, *, timeout: Seconds | None = None, cancel: CancelToken | None = None, on_output: OnOutput | None = None
    ) -> Awaitable[Run]: ...
    def read(self, path: str) -> bytes: ...
    def write(self, path: str, content: str | bytes) -> None: ...
    def remove(self, path: str) -> None: ...
    def list(self, path: str = "/") -> list[Entry]: ...
    def changes(self) -> list[Change]: ...
    def diff(self, format: Literal["json", "unified"] = "json", root: str | None = None) -> str: ...
    def child(
        self,
        seeds: Sequence[str | tuple[str, str]],
        *,
        limits: Limits | dict[str, Any] | None = None,
        policy: Literal["read-only", "workspace-write", "full"] | None = None,
        env: dict[str, str] | None = None,
    ) -> Sandbox: ...
    def apply(self, changes: list[Change]) -> MergeReport: ...
    def merge(self, child: Sandbox) -> MergeReport: ...
    def apply_patch(self, patch: str) -> list[str]: ...
    def snapshot(self, label: str | None = None) -> int: ...
    def restore(self, snapshot_id: int) -> None: ...
    def snapshots(self) -> list[dict[str, Any]]: ...
    def fork(self, snapshot_id: int | None = None, count: int = 1) -> list[Sandbox]: ...
    def save(self, store: SnapshotStore, snapshot_id: int) -> str: ...
    def load_saved(self, store: SnapshotStore, saved_id: str) -> None: ...
    @staticmethod
    def open(store: SnapshotStore, saved_id: str) -> Sandbox: ...
    def reset(self) -> None: ...
    def rebaseline(self) -> None: ...
    def write_back(self) -> WriteBackReport: ...
    @property
    def limits(self) -> Limits: ...
    @property
    def policy(self) -> str: ...

def start_tracing(url: str) -> None: ...
def stop_tracing() -> None: ...
