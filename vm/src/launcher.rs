//! The shell's `goccia` builtin, served by the same [`Nester`] as
//! `runScript`: its argv becomes a [`ScriptRequest`], shared mode runs the
//! entry on the shell's VFS (its `$` in a copy of the calling shell), a
//! child sandbox is seeded from the shell's VFS. The child's stdout, then
//! its diff, go to the builtin's stdout; its status is the builtin's.

use std::io::{self, Write};
use std::sync::Arc;

use goccia_core::{LimitKind, Output, OutputBudget};
use goccia_js_api::nest::{LAUNCHER_USAGE, ParentState, ScriptRequest, SharedShell};
use goccia_shell::io::SharedWriter;
use goccia_shell::{ExecResult, Flow, ScriptLauncher, Shell};
use parking_lot::Mutex;

use crate::nested::Nester;

impl ScriptLauncher for Nester {
    fn launch(&self, shell: &mut Shell, args: &[String]) -> ExecResult {
        let request = match ScriptRequest::from_args(args) {
            // A relative entry is the shell's, as any path it is given.
            Ok(mut request) => match shell.cwd().resolve(&request.entry) {
                Ok(entry) => {
                    request.entry = entry.to_string();
                    request
                }
                Err(error) => {
                    shell.write_stderr(format!("goccia: {}: {error}\n", request.entry).as_bytes());
                    return Ok(2);
                }
            },
            Err(message) => {
                shell.write_stderr(format!("goccia: {message}\n{LAUNCHER_USAGE}\n").as_bytes());
                return Ok(2);
            }
        };
        let nested = match self.deeper() {
            Ok(nested) => nested,
            Err(error) => {
                let advice = self.engine.advice.for_limit(LimitKind::Depth);
                shell.write_stderr(format!("goccia: {error}{advice}\n").as_bytes());
                return Ok(3);
            }
        };
        // Output is charged where the shell's descriptors charge it.
        let unmetered = OutputBudget::new(u64::MAX);
        let output = Output::to_writers(
            FdWriter(shell.fds().output(1)),
            FdWriter(shell.fds().output(2)),
            unmetered.clone(),
        );
        let parent = ParentState {
            vfs: shell.context().vfs.clone(),
            watch: shell.watch().clone(),
            budget: unmetered,
            shell: SharedShell::default(),
            stdin: shell.fds().input(0),
        };
        // In shared mode the entry's `$` runs in a copy of the calling
        // shell, whose own `goccia` nests one level deeper.
        let policy = match crate::nested::child_policy(&parent, &request) {
            Ok(policy) => policy,
            Err(refusal) => {
                shell.write_stderr(format!("goccia: {refusal}\n").as_bytes());
                return Ok(1);
            }
        };
        let copy = shell.subshell_with_launcher(Arc::new(nested.clone()));
        let _policy = goccia_vfs::policy::Scope::enter_if(policy);
        let result =
            nested.run_request(&request, &parent, output, Arc::new(Mutex::new(Some(copy))));
        // A deliberate `process.exit(n)` is the status, not an error.
        let exited = format!("process.exit({})", result.exit_code);
        if let Some(error) = result.error.as_ref().filter(|error| **error != exited) {
            shell.write_stderr(format!("goccia: {error}\n").as_bytes());
        }
        if let Some(changes) = &result.changes
            && let Err(error) = shell.write_stdout(changes.render().as_bytes())
        {
            return shell.io_status("goccia", error);
        }
        // The caller's own deadline may have passed while the child ran.
        shell.watch().check().map_err(Flow::Stop)?;
        Ok(result.exit_code)
    }
}

/// A shell descriptor as an output sink: a stop behind it (the output
/// budget, a cancellation) surfaces as the runner's own stop.
struct FdWriter(Option<SharedWriter>);

impl Write for FdWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let Some(fd) = &self.0 else {
            return Ok(bytes.len());
        };
        fd.lock().write_all(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}
