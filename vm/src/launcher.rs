//! The shell's `goccia` builtin:
//! `goccia [--sandbox] [--seed <from>[=<to>]]… [--diff] [--diff-format json|unified] [--timeout ms] <path>`.
//! Shared mode runs the entry on the shell's VFS (its `$` in a copy of the
//! calling shell); a child sandbox is seeded from the shell's VFS. The
//! child's stdout, then its diff, go to the builtin's stdout; its status is
//! the builtin's.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Duration;

use goccia_builtins::nest::{ChildSpec, DiffFormat, ParentState, ScriptResult, SharedShell};
use goccia_core::{Output, OutputBudget, OutputLimitExceeded};
use goccia_shell::io::{SharedWriter, StopReason, stop_reason};
use goccia_shell::{ExecResult, Flow, ScriptLauncher, Shell, Stopped};
use goccia_vfs::SeedSpec;
use parking_lot::Mutex;

use crate::engine::Engine;
use crate::nested::Nested;

/// `goccia` for shells at `depth` under `engine`.
pub struct Launcher {
    pub engine: Engine,
    pub depth: u32,
}

/// The builtin's arguments.
#[derive(Debug, Default)]
struct Invocation {
    child: Option<ChildSpec>,
    timeout: Option<Duration>,
    entry: String,
}

impl ScriptLauncher for Launcher {
    fn launch(&self, shell: &mut Shell, args: &[String]) -> ExecResult {
        let invocation = match parse(args) {
            Ok(invocation) => invocation,
            Err(message) => {
                let text = format!(
                    "goccia: {message}\nusage: goccia [--sandbox] [--seed <from>[=<to>]]... [--diff] [--diff-format json|unified] [--timeout ms] <path>\n"
                );
                shell.write_stderr(text.as_bytes());
                return Ok(2);
            }
        };
        if self.depth + 1 > self.engine.limits.max_depth {
            let text = format!(
                "goccia: nesting depth limit of {} exceeded (raise it with --max-depth)\n",
                self.engine.limits.max_depth
            );
            shell.write_stderr(text.as_bytes());
            return Ok(3);
        }
        let result = self.run(shell, &invocation);
        if let Some(error) = &result.error {
            shell.write_stderr(format!("goccia: {error}\n").as_bytes());
        }
        if let Some(diff) = &result.diff
            && let Err(error) = shell.write_stdout(diff.as_bytes())
        {
            return shell.io_status("goccia", error);
        }
        // The caller's own deadline may have passed while the child ran.
        if let Err(stop) = shell.watch().check() {
            let reason = match stop {
                goccia_core::Stop::Deadline => StopReason::Deadline,
                goccia_core::Stop::Cancelled => StopReason::Cancelled,
            };
            return Err(Flow::Stop(Stopped::Io(reason)));
        }
        Ok(result.exit_code)
    }
}

impl Launcher {
    fn run(&self, shell: &mut Shell, invocation: &Invocation) -> ScriptResult {
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
        };
        let nested = Nested {
            engine: &self.engine,
            depth: self.depth + 1,
            parent: &parent,
            timeout: invocation.timeout,
            output,
        };
        match &invocation.child {
            // The entry's `$` runs in a copy of the calling shell.
            None => {
                let deeper = Arc::new(Launcher {
                    engine: self.engine.clone(),
                    depth: self.depth + 1,
                });
                let copy = shell.subshell_with_launcher(deeper);
                nested.shared(&invocation.entry, Arc::new(Mutex::new(Some(copy))))
            }
            Some(spec) => nested.child(&invocation.entry, spec),
        }
    }
}

/// A shell descriptor as an output sink: a full output budget behind it
/// surfaces as the runner's own output limit.
struct FdWriter(Option<SharedWriter>);

impl Write for FdWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let Some(fd) = &self.0 else {
            return Ok(bytes.len());
        };
        fd.lock().write_all(bytes).map_err(|error| {
            if stop_reason(&error) == Some(StopReason::OutputLimit) {
                OutputLimitExceeded { limit: 0 }.into_io()
            } else {
                error
            }
        })?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn parse(args: &[String]) -> Result<Invocation, String> {
    let mut invocation = Invocation::default();
    let mut sandbox = false;
    let mut seeds = Vec::new();
    let mut diff = None;
    let mut index = 1;
    let value = |index: &mut usize, name: &str| -> Result<String, String> {
        *index += 1;
        args.get(*index)
            .cloned()
            .ok_or_else(|| format!("{name} needs a value"))
    };
    while index < args.len() {
        let arg = args[index].as_str();
        let (name, attached) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
            _ => (arg, None),
        };
        let take = |index: &mut usize| match &attached {
            Some(value) => Ok(value.clone()),
            None => value(index, name),
        };
        match name {
            "--sandbox" => sandbox = true,
            "--diff" => diff = Some(diff.unwrap_or_default()),
            "--diff-format" => {
                let name = take(&mut index)?;
                diff = Some(DiffFormat::parse(&name).ok_or_else(|| {
                    format!("--diff-format must be json or unified, not `{name}`")
                })?);
            }
            "--seed" => {
                let text = take(&mut index)?;
                let seed = match text.split_once('=') {
                    Some((from, to)) => SeedSpec::Copy {
                        from: from.to_string(),
                        to: Some(to.to_string()),
                    },
                    None => SeedSpec::Copy {
                        from: text,
                        to: None,
                    },
                };
                seeds.push(seed);
            }
            "--timeout" => {
                let text = take(&mut index)?;
                let ms: u64 = text
                    .parse()
                    .ok()
                    .filter(|ms| *ms > 0)
                    .ok_or_else(|| format!("--timeout takes milliseconds, not `{text}`"))?;
                invocation.timeout = Some(Duration::from_millis(ms));
            }
            "--" => {
                index += 1;
                break;
            }
            other if other.starts_with('-') && other.len() > 1 => {
                return Err(format!("unknown option `{other}`"));
            }
            _ => break,
        }
        index += 1;
    }
    match &args[index.min(args.len())..] {
        [entry] => invocation.entry = entry.clone(),
        [] => return Err("missing the script path".to_string()),
        [_, extra, ..] => {
            return Err(format!(
                "unexpected argument `{extra}` after the script path"
            ));
        }
    }
    if sandbox || !seeds.is_empty() || diff.is_some() {
        invocation.child = Some(ChildSpec { seeds, diff });
    }
    Ok(invocation)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        std::iter::once("goccia")
            .chain(text.split_whitespace())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn shared_and_child_invocations() {
        let shared = parse(&args("/a.js")).unwrap();
        assert_eq!(shared.entry, "/a.js");
        assert!(shared.child.is_none());
        let child = parse(&args(
            "--seed /src=/in --seed=/x --diff-format unified --timeout 50 /a.js",
        ))
        .unwrap();
        let spec = child.child.unwrap();
        assert_eq!(spec.diff, Some(DiffFormat::Unified));
        assert_eq!(spec.seeds.len(), 2);
        assert_eq!(child.timeout, Some(Duration::from_millis(50)));
        assert!(parse(&args("--sandbox /a.js")).unwrap().child.is_some());
    }

    #[test]
    fn usage_errors_name_the_problem() {
        assert!(
            parse(&args(""))
                .unwrap_err()
                .contains("missing the script path")
        );
        assert!(
            parse(&args("--seed"))
                .unwrap_err()
                .contains("--seed needs a value")
        );
        assert!(
            parse(&args("--diff-format xml /a.js"))
                .unwrap_err()
                .contains("xml")
        );
        assert!(
            parse(&args("--bogus /a.js"))
                .unwrap_err()
                .contains("--bogus")
        );
        assert!(
            parse(&args("--timeout 0 /a.js"))
                .unwrap_err()
                .contains("milliseconds")
        );
        assert!(parse(&args("/a.js /b.js")).unwrap_err().contains("/b.js"));
    }
}
