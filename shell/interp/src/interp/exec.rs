//! Running lists, and-or lists, pipelines, simple commands and functions.

use std::io::{self, Write};
use std::sync::Arc;
use std::time::Instant;

use goccia_core::{LimitKind, Stop};

use super::{ExecResult, Flow, Shell};
use crate::ast::*;
use crate::io::{Fd, SharedReader, SharedWriter, pipe};
use crate::vars::{Value, Var};
use goccia_vfs::VfsPath;

/// Native stack of a pipeline stage's thread.
const STAGE_STACK: usize = 64 << 20;

/// What a nested script run returns to its caller.
pub type CommandOutcome = ExecResult;

/// Where a function call's variables live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FunctionFrame {
    /// A frame of its own.
    New,
    /// The temporary frame on top, holding the call's bindings.
    Adopt,
}

impl Shell {
    pub(crate) fn run_list(&mut self, list: &List) -> ExecResult {
        let mut status = 0;
        for item in &list.items {
            status = if item.background {
                self.run_background(&item.and_or)?
            } else {
                self.run_and_or(&item.and_or)?
            };
            self.status = status;
        }
        Ok(status)
    }

    /// `cmd &`: runs `cmd` to its end in a subshell whose standard input
    /// is empty (bash's rule without job control) and records it as a
    /// job (see [`super::jobs`]).
    fn run_background(&mut self, and_or: &AndOr) -> ExecResult {
        let started = Instant::now();
        let mut sub = self.subshell();
        sub.fds.set(0, Fd::null_input());
        sub.async_pipeline = true;
        let status = match sub.run_and_or(and_or) {
            Ok(status)
            | Err(Flow::Exit(status))
            | Err(Flow::Return(status))
            | Err(Flow::Abandon(status))
            | Err(Flow::Discard(status)) => status,
            Err(Flow::Stop(stopped)) => return Err(Flow::Stop(stopped)),
            Err(_) => sub.status,
        };
        sub.status = status;
        sub.run_exit_trap_public().map_err(Flow::Stop)?;
        let (pid, status) = (sub.bashpid, sub.status);
        drop(sub);
        let command = super::print::and_or_text(and_or);
        self.jobs.record(pid, command, status, started);
        self.last_bg = Some(pid);
        self.pipestatus = vec![0];
        Ok(0)
    }

    fn run_and_or(&mut self, and_or: &AndOr) -> ExecResult {
        let guarded = !and_or.rest.is_empty();
        let mut status = if guarded {
            self.errexit_off += 1;
            let result = self.run_pipeline(&and_or.first);
            self.errexit_off -= 1;
            result?
        } else {
            self.run_pipeline(&and_or.first)?
        };
        let last = and_or.rest.len().saturating_sub(1);
        for (i, (op, pipeline)) in and_or.rest.iter().enumerate() {
            let skip = match op {
                AndOrOp::And => status != 0,
                AndOrOp::Or => status == 0,
            };
            if skip {
                continue;
            }
            status = if i == last {
                self.run_pipeline(pipeline)?
            } else {
                self.errexit_off += 1;
                let result = self.run_pipeline(pipeline);
                self.errexit_off -= 1;
                result?
            };
        }
        Ok(status)
    }

    pub(crate) fn run_pipeline(&mut self, pipeline: &Pipeline) -> ExecResult {
        let asynchronous = std::mem::take(&mut self.async_pipeline);
        let started = pipeline.timed.then(Instant::now);
        if pipeline.negated {
            self.negations.push(self.opts.errexit);
        }
        let result = if pipeline.commands.len() == 1 {
            let command = &pipeline.commands[0];
            let result = self.run_command(command);
            // Other compound commands leave `PIPESTATUS` to the commands
            // inside them (a `case` that runs none, or a function
            // definition, keeps it), as bash does.
            if has_own_status(command)
                && let Ok(status) = &result
            {
                // In place: a status per command, and no allocation.
                self.pipestatus.clear();
                self.pipestatus.push(*status);
            }
            result
        } else {
            let result = self.run_stages(pipeline);
            // `$LINENO` after a pipeline is its last simple command's.
            if let Some(Command::Simple(last)) = pipeline.commands.last() {
                self.line = last.line;
            }
            // bash waits for a `( )` ending a pipeline as for any subshell
            // of its own, and its failure sets off the ERR trap and `set
            // -e` there, before the pipeline's own: `true | (false)` runs
            // the trap twice, even under a `!`. The failure waited for is
            // the pipeline's (`pipefail` counted), or with `lastpipe` the
            // subshell's own.
            let waited = match result {
                Ok(_) if self.opts.lastpipe => self.pipestatus.last().copied(),
                Ok(status) => Some(status),
                Err(_) => None,
            };
            if let Some(status) = waited
                && status != 0
                && !asynchronous
                && ends_in_subshell(pipeline)
                && !self.errexit_held_off()
            {
                self.status = status;
                self.run_err_trap()?;
                if self.errexit_applies() {
                    if pipeline.negated {
                        self.negations.pop();
                    }
                    return Err(Flow::Exit(status));
                }
            }
            result
        };
        if pipeline.negated {
            self.negations.pop();
        }
        let mut status = result?;
        if pipeline.negated {
            status = i32::from(status == 0);
        }
        self.status = status;
        if let Some(started) = started {
            let elapsed = started.elapsed().as_secs_f64();
            let format = self.get_var("TIMEFORMAT");
            if let Some(text) = super::timing::report(format.as_deref(), elapsed) {
                self.write_stderr(text.as_bytes());
            }
        }
        // A negation holds off the ERR trap only when `set -e` was on as
        // it began (bash: `! { false; }` sets the trap off without -e).
        if status != 0 && !pipeline.negated && !self.errexit_held_off() && !asynchronous {
            // A compound command's failure came from a command inside it,
            // which set off the trap and `set -e` already (or was exempt
            // from them, as `false && x` is); `( )`, `(( ))`, `[[ ]]`, a
            // pipeline of several commands and a compound whose
            // redirections failed are atoms of their own (bash's rule).
            let atom = match pipeline.commands.last() {
                _ if pipeline.commands.len() > 1 => true,
                _ if std::mem::take(&mut self.compound_redirect_failed) => true,
                Some(command @ Command::Compound(..)) => has_own_status(command),
                _ => true,
            };
            if atom {
                self.run_err_trap()?;
            }
            if self.errexit_applies() && atom {
                return Err(Flow::Exit(status));
            }
        }
        Ok(status)
    }

    /// A multi-command pipeline: each stage in a subshell on its own
    /// thread, connected by bounded pipes.
    fn run_stages(&mut self, pipeline: &Pipeline) -> ExecResult {
        let count = pipeline.commands.len();
        let ctx = self.ctx.clone();
        let _running = ctx.reserve_stages(count)?;
        let lastpipe = self.opts.lastpipe;
        // bash runs the DEBUG trap for a simple command in this shell
        // before starting it; a compound stage is a subshell, which does
        // not inherit the trap.
        let in_this_shell = if lastpipe { count - 1 } else { count };
        for command in &pipeline.commands[..in_this_shell] {
            if let Command::Simple(simple) = command {
                self.line = simple.line;
                self.run_debug_trap()?;
            }
        }
        let mut stages = Vec::with_capacity(count);
        let mut next_input: Option<Fd> = None;
        for (i, command) in pipeline.commands.iter().enumerate() {
            let mut stage = self.subshell();
            if matches!(command, Command::Simple(_)) {
                // Its DEBUG trap ran above (`set -T` would carry it in).
                stage.traps.remove("DEBUG");
            }
            if let Some(input) = next_input.take() {
                stage.fds.set(0, input);
            }
            if i + 1 < count {
                let (writer, reader) = pipe(&self.watch);
                let writer = Fd::pipe_writer(writer);
                if pipeline.pipe_stderr[i] {
                    stage.fds.set(2, writer.clone());
                }
                stage.fds.set(1, writer);
                next_input = Some(Fd::pipe_reader(reader));
            }
            stages.push(stage);
        }
        let mut last_stage = if lastpipe { stages.pop() } else { None };
        // Every stage works under the write policy this command runs
        // under (an escalated command's grant covers its pipeline).
        let policy_scope = goccia_vfs::policy::current_scope();
        let results: Vec<ExecResult> = std::thread::scope(|scope| {
            let mut handles = Vec::with_capacity(count);
            for (stage, command) in stages.into_iter().zip(&pipeline.commands) {
                let policy_scope = policy_scope.clone();
                let handle = std::thread::Builder::new()
                    .name("goccia-shell-stage".to_string())
                    .stack_size(STAGE_STACK)
                    .spawn_scoped(scope, move || {
                        let mut stage = stage;
                        let _metered = stage.context().metered();
                        let _policy = goccia_vfs::policy::Scope::enter_if(policy_scope);
                        let result = stage.run_command(command);
                        let result = match result {
                            Err(Flow::Exit(status))
                            | Err(Flow::Return(status))
                            | Err(Flow::Abandon(status))
                            | Err(Flow::Discard(status)) => Ok(status),
                            Err(Flow::Break { .. }) | Err(Flow::Continue { .. }) => {
                                Ok(stage.status)
                            }
                            other => other,
                        };
                        // Close this stage's ends before reporting.
                        drop(stage);
                        result
                    });
                handles.push(handle);
            }
            let mut results = Vec::with_capacity(count);
            if let Some(stage) = last_stage.take() {
                // `lastpipe`: the last command runs in this shell.
                let stage = stage;
                let input = stage.fds.get(0).cloned();
                drop(stage);
                let saved = self.fds.get(0).cloned();
                if let Some(input) = input {
                    self.fds.set(0, input);
                }
                let result = self.run_command(pipeline.commands.last().expect("non-empty"));
                match saved {
                    Some(fd) => self.fds.set(0, fd),
                    None => self.fds.close(0),
                }
                let joined: Vec<ExecResult> = handles
                    .into_iter()
                    .map(|h| h.map(|h| h.join().unwrap_or(Ok(1))).unwrap_or(Ok(1)))
                    .collect();
                results.extend(joined);
                results.push(result);
                return results;
            }
            for handle in handles {
                results.push(match handle {
                    Ok(handle) => handle.join().unwrap_or(Ok(1)),
                    Err(_) => Ok(1),
                });
            }
            results
        });
        let mut statuses = Vec::with_capacity(count);
        for result in results {
            match result {
                Ok(status) => statuses.push(status),
                Err(Flow::Stop(stopped)) => return Err(Flow::Stop(stopped)),
                Err(Flow::Exit(status))
                | Err(Flow::Return(status))
                | Err(Flow::Abandon(status))
                | Err(Flow::Discard(status)) => statuses.push(status),
                Err(_) => statuses.push(self.status),
            }
        }
        let status = if self.opts.pipefail {
            statuses
                .iter()
                .rev()
                .copied()
                .find(|s| *s != 0)
                .unwrap_or(0)
        } else {
            *statuses.last().unwrap_or(&0)
        };
        self.pipestatus = statuses;
        Ok(status)
    }

    pub(crate) fn call_function(
        &mut self,
        function: &Arc<FunctionDef>,
        words: &[String],
    ) -> ExecResult {
        self.call_function_in(function, words, FunctionFrame::New)
    }

    /// Calls `function` in a new frame, or in the temporary frame of the
    /// bindings written before the call (`v=x f`), which becomes its own.
    pub(crate) fn call_function_in(
        &mut self,
        function: &Arc<FunctionDef>,
        words: &[String],
        frame: FunctionFrame,
    ) -> ExecResult {
        if self.func_stack.len() >= self.ctx.limits.max_function_depth {
            let message = format!(
                "{}: {}: maximum function nesting level exceeded ({})\n",
                self.arg0, function.name, self.ctx.limits.max_function_depth
            );
            self.write_stderr(message.as_bytes());
            return Err(Flow::Stop(Stop::Limit(LimitKind::FunctionDepth)));
        }
        let saved_positional =
            std::mem::replace(&mut self.positional, Arc::new(words[1..].to_vec()));
        match frame {
            FunctionFrame::New => self.vars.push_frame(),
            FunctionFrame::Adopt => self.vars.adopt_as_function_frame(),
        }
        self.func_stack.push(super::shell::Call {
            name: function.name.clone(),
            line: self.line,
        });
        let hidden = self.hide_traced_traps(true);
        let mut result =
            self.run_entry_trap(function)
                .and_then(|()| match self.run_command(&function.body) {
                    Err(Flow::Return(status)) => Ok(status),
                    other => other,
                });
        if result.is_ok()
            && let Err(flow) = self.run_return_trap()
        {
            result = Err(flow);
        }
        self.restore_traced_traps(hidden);
        self.func_stack.pop();
        self.vars.pop_frame();
        self.positional = saved_positional;
        result
    }

    /// `./script.sh`: a new shell over the same VFS, with only exported
    /// variables, reading the file.
    pub(super) fn run_script_file(&mut self, words: &[String]) -> ExecResult {
        let path = match self.cwd.resolve(&words[0]) {
            Ok(path) => path,
            Err(goccia_vfs::PathError::NameTooLong) => {
                return Ok(self.fail(&words[0], "File name too long", 126));
            }
            Err(_) => return Ok(self.fail(&words[0], "No such file or directory", 127)),
        };
        let vfs = self.ctx.vfs.clone();
        let (source, mode) = {
            let vfs = vfs.lock();
            match vfs.lookup(&path) {
                Ok(goccia_vfs::Node::File(file)) => (file.data().clone(), file.meta().mode),
                Ok(goccia_vfs::Node::Dir(_)) => {
                    return Ok(self.fail(&words[0], "Is a directory", 126));
                }
                Ok(goccia_vfs::Node::Link(_)) => unreachable!("lookup follows links"),
                Err(_) => return Ok(self.fail(&words[0], "No such file or directory", 127)),
            }
        };
        if mode & 0o111 == 0 {
            return Ok(self.fail(&words[0], "Permission denied", 126));
        }
        if looks_binary(&source) {
            let message = "cannot execute binary file: Exec format error";
            return Ok(self.fail(&words[0], message, 126));
        }
        let text = crate::raw::decode(&source).into_owned();
        let first_line = text.lines().next().unwrap_or("");
        if let Some(interpreter) = first_line.strip_prefix("#!") {
            let interpreter = interpreter.trim();
            let program = interpreter
                .rsplit('/')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                .unwrap_or("");
            let program = if program == "env" {
                interpreter.split_whitespace().nth(1).unwrap_or("")
            } else {
                program
            };
            match program {
                "bash" | "sh" | "dash" | "zsh" | "ksh" | "" => {}
                "node" | "goccia" | "deno" | "bun" => {
                    let mut args = vec!["goccia".to_string(), path.to_string()];
                    args.extend_from_slice(&words[1..]);
                    return self.dispatch_command(&args);
                }
                other => {
                    let message = format!(
                        "{}: {}: {other}: bad interpreter: No such file or directory\n",
                        self.arg0, words[0]
                    );
                    self.write_stderr(message.as_bytes());
                    return Ok(126);
                }
            }
        }
        self.run_child_shell(&words[0], &text, words[1..].to_vec())
    }

    /// A child shell (a new process in bash): exported variables only.
    pub(crate) fn run_child_shell(
        &mut self,
        arg0: &str,
        source: &str,
        args: Vec<String>,
    ) -> ExecResult {
        let mut child = self.child_process();
        child.set_positional(arg0, args);
        child.set_script_source(arg0);
        match child.run_script(source) {
            Ok(status) => Ok(status),
            Err(stopped) => Err(Flow::Stop(stopped)),
        }
    }

    /// A new shell as a child process would see it: same VFS, descriptors
    /// and working directory; exported variables; nothing else.
    pub(crate) fn child_process(&self) -> Shell {
        let stdin = self.fds.get(0).cloned().unwrap_or_else(Fd::null_input);
        let stdout = self.fds.get(1).cloned().unwrap_or_else(Fd::null_output);
        let stderr = self.fds.get(2).cloned().unwrap_or_else(Fd::null_output);
        let mut child = Shell::new(self.ctx.clone(), stdin, stdout, stderr);
        child.waiting_shells = self.waiting_shells.clone();
        child.waiting_shells.push(self.bashpid);
        // A new process: its environment is what this shell exports.
        child.clear_environment();
        child.fds = self.fds.clone();
        child.cwd = self.cwd.clone();
        child.watch = self.watch.clone();
        child.resource_limits = self.resource_limits;
        child.umask = self.umask;
        for (name, var) in self.vars.visible() {
            // The ones bash sets itself at start are never taken over.
            let own = matches!(
                name.as_str(),
                "UID" | "EUID" | "PPID" | "SHELLOPTS" | "BASHOPTS"
            );
            if var.attrs.exported && !own {
                let target = child.vars.entry(&name);
                *target = var;
            }
        }
        // bash gives itself a PATH and a SHELL (its login shell's) when
        // the environment has none.
        if child.vars.get_raw("PATH").is_none() {
            *child.vars.entry("PATH") = Var::scalar(super::shell::DEFAULT_PATH);
        }
        if child.vars.get_raw("SHELL").is_none() {
            *child.vars.entry("SHELL") = Var::scalar("/bin/bash");
        }
        // Exported option lists carry the options into the new shell.
        for (name, shopt) in [("SHELLOPTS", false), ("BASHOPTS", true)] {
            if self
                .vars
                .get_raw(name)
                .is_some_and(|var| var.attrs.exported)
            {
                let table = if shopt {
                    super::options::SHOPT_OPTIONS
                } else {
                    super::options::SET_OPTIONS
                };
                for option in table.iter().filter(|option| self.opts.get(option)) {
                    child.opts.set(option, true);
                }
                if let Some(var) = child.vars.get_mut(name) {
                    var.attrs.exported = true;
                }
            }
        }
        // bash starts with `$PWD` from the environment when it names the
        // working folder, else with the folder's physical path.
        let inherited = self
            .vars
            .get_raw("PWD")
            .filter(|var| var.attrs.exported)
            .and_then(|var| var.value.as_ref()?.scalar());
        let names_cwd = inherited.is_some_and(|text| {
            // The usual case, `$PWD` as `cd` left it, needs no lookup.
            text == self.cwd.as_str()
                || text.starts_with('/')
                    && VfsPath::parse(text)
                        .is_ok_and(|path| self.physical(&path) == self.physical(&self.cwd))
        });
        if !names_cwd {
            child.cwd = self.physical(&self.cwd);
            let var = child.vars.entry("PWD");
            *var = Var::scalar(child.cwd.to_string());
            var.attrs.exported = true;
        }
        let shlvl = self
            .get_var_const("SHLVL")
            .and_then(|v| v.parse::<i64>().ok())
            .unwrap_or(1)
            + 1;
        if let Some(var) = child.vars.get_mut("SHLVL") {
            var.value = Some(Value::Scalar(shlvl.to_string()));
        }
        child
    }

    fn get_var_const(&self, name: &str) -> Option<String> {
        self.vars
            .get_raw(name)?
            .value
            .as_ref()?
            .scalar()
            .map(str::to_string)
    }

    /// Prints `bash: what: message` and returns `status`.
    /// Runs the `goccia` builtin (a nested script) with `args`, through the
    /// sandbox's launcher; 126 where the sandbox cannot nest.
    pub(crate) fn run_nested(&mut self, args: &[String]) -> ExecResult {
        match self.ctx.launcher.clone() {
            Some(launcher) => launcher.launch(self, args),
            None => Ok(self.fail(
                "goccia",
                "nested execution is not available in this shell",
                126,
            )),
        }
    }

    pub(crate) fn fail(&mut self, what: &str, message: &str, status: i32) -> i32 {
        // bash names the line whenever it is not interactive: for a
        // script file, `-c` text and standard input alike.
        let text = if !self.interactive {
            format!("{}: line {}: {what}: {message}\n", self.arg0, self.line)
        } else {
            format!("{}: {what}: {message}\n", self.arg0)
        };
        self.write_stderr(text.as_bytes());
        status
    }

    // ----- output helpers for commands -----

    /// The writer behind descriptor 1, if it is open.
    pub fn stdout_writer(&self) -> Option<SharedWriter> {
        self.fds.output(1)
    }

    /// The reader behind descriptor 0, if it is open.
    pub fn stdin_reader(&self) -> Option<SharedReader> {
        self.fds.input(0)
    }

    /// A `Write` handle on stdout (locks per call).
    pub fn out(&self) -> OutHandle {
        OutHandle(self.fds.output(1))
    }

    /// Descriptor 2 as a writer (a closed one swallows output).
    pub fn err_handle(&self) -> OutHandle {
        OutHandle(self.fds.output(2))
    }

    /// Writes to descriptor 1.
    pub fn write_stdout(&self, bytes: &[u8]) -> io::Result<()> {
        self.out().write_all(bytes)
    }

    /// Writes to stderr; failures there are ignored.
    pub fn write_stderr(&self, bytes: &[u8]) {
        let _ = self.err_handle().write_all(bytes);
    }

    /// Maps a command's I/O error to its status (141 for a closed pipe) or
    /// to a stop.
    pub fn io_status(&mut self, name: &str, error: io::Error) -> ExecResult {
        if let Some(stop) = Stop::in_io(&error) {
            return Err(Flow::Stop(stop));
        }
        if error.kind() == io::ErrorKind::BrokenPipe {
            return Ok(141);
        }
        let message = match error.kind() {
            io::ErrorKind::StorageFull => "write error: No space left on device".to_string(),
            io::ErrorKind::OutOfMemory => error.to_string(),
            // Only standard input opened on a folder (`cmd < dir`) reads
            // this; a file named on the command line is reported by name.
            io::ErrorKind::IsADirectory => "-: Is a directory".to_string(),
            _ => format!("write error: {error}"),
        };
        // A builtin's error comes from the shell (`bash: line 3: echo:
        // ...`); a utility's from the program (`cat: ...`).
        if self.ctx.table.kind(name) == Some(super::CommandKind::Builtin) {
            return Ok(self.fail(name, &message, 1));
        }
        Ok(self.fail_command(name, &message, 1))
    }

    /// Prints `name: message` (a utility's own error) and returns `status`.
    pub fn fail_command(&mut self, name: &str, message: &str, status: i32) -> i32 {
        let text = format!("{name}: {message}\n");
        self.write_stderr(text.as_bytes());
        status
    }

    /// Reports `command`'s filesystem error about `operand`: a policy
    /// denial in the documented form (docs/policy.md) (`<command>: <operand>: <marker>`,
    /// status 1, recorded in the audit trail), anything else as
    /// `name: usual(strerror)` with `status`.
    pub fn fail_fs(
        &mut self,
        command: &str,
        operand: &str,
        error: &goccia_vfs::FsError,
        usual: impl FnOnce(&str) -> String,
        status: i32,
    ) -> i32 {
        match error.denied {
            Some(denied) => {
                self.audit_denial(command, error);
                let line = format!("{}\n", denied.shell_message(command, operand));
                self.write_stderr(line.as_bytes());
                1
            }
            None => self.fail_command(command, &usual(error.errno.strerror()), status),
        }
    }

    /// What `command` says went wrong with `error` (the denial's marker
    /// and hint, or the errno's text); a denial goes to the audit trail.
    pub fn fs_reason(&self, command: &str, error: &goccia_vfs::FsError) -> String {
        if error.denied.is_some() {
            self.audit_denial(command, error);
        }
        error.reason()
    }

    fn audit_denial(&self, command: &str, error: &goccia_vfs::FsError) {
        if let Some(denied) = error.denied {
            self.ctx.audit.record(
                "policy",
                "deny",
                error.path.as_str(),
                Some(format!("{command} under {} mode", denied.mode)),
            );
        }
    }
}

/// Locks the writer per call.
pub struct OutHandle(Option<SharedWriter>);

impl Write for OutHandle {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match &self.0 {
            Some(writer) => writer.lock().write(buf),
            None => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "Bad file descriptor",
            )),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match &self.0 {
            Some(writer) => writer.lock().write_all(buf),
            None => Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "Bad file descriptor",
            )),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match &self.0 {
            Some(writer) => writer.lock().flush(),
            None => Ok(()),
        }
    }
}

/// Whether `command`'s status is its own rather than that of the last
/// command inside it: a simple command, `( )`, `(( ))` and `[[ ]]` (they
/// set `PIPESTATUS`, and their failure sets off `set -e` and the ERR trap).
/// Whether `pipeline` has several commands and its last one is a `( )`.
fn ends_in_subshell(pipeline: &Pipeline) -> bool {
    pipeline.commands.len() > 1
        && matches!(
            pipeline.commands.last(),
            Some(Command::Compound(compound, _)) if matches!(**compound, CompoundCommand::Subshell(_))
        )
}

fn has_own_status(command: &Command) -> bool {
    match command {
        Command::Simple(_) => true,
        Command::Compound(compound, _) => matches!(
            **compound,
            CompoundCommand::Subshell(_) | CompoundCommand::Arith(..) | CompoundCommand::Cond(..)
        ),
        Command::FunctionDef(_) => false,
    }
}

/// bash's test before it runs a file as a script: a NUL in its first 80
/// bytes before any newline makes it a binary file, which no shell runs.
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .take(80)
        .take_while(|&&b| b != b'\n')
        .any(|&b| b == 0)
}
