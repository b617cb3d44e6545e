//! The worker program for `isolation: process` (every command that runs
//! guests: `run`, `shell`, `mcp`, `serve`): this very binary, with a test
//! build's overrides.

/// This program as the worker (with a test build's overrides, see
/// `WorkerProgram::test_overrides`).
pub fn worker_program() -> Result<goccia::isolation::WorkerProgram, String> {
    let program = goccia::isolation::WorkerProgram::current_exe()
        .map_err(|error| format!("--isolate process: cannot find this program: {error}"))?;
    program.test_overrides()
}
