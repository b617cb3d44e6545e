//! `--isolate <mode>` for every command that runs guests (`run`, `shell`,
//! `mcp`, `serve`): the isolation it names.

/// The isolation `--isolate <name>` names (`none` or `process`).
pub fn isolation_named(name: &str) -> Result<goccia::isolation::Isolation, String> {
    use goccia::isolation::{Isolation, WorkerProgram};
    if name != "process" {
        return Ok(Isolation::None);
    }
    let program = WorkerProgram::current_exe()
        .map_err(|error| format!("--isolate process: cannot find this program: {error}"))?;
    let program = program.test_overrides()?;
    Ok(Isolation::Process(program))
}
