//! The state of one shell ([`Shell`]): variables, functions, options,
//! descriptors, working directory; and running source text in it.

use std::sync::Arc;
use std::time::Instant;

use goccia_core::{LimitKind, Stop, Watch};
use goccia_vfs::VfsPath;

use super::{Context, ExecResult, Flow, LineStatus, Options, ScriptLauncher};
use crate::ast::FunctionDef;
use crate::io::{Fd, FdTable};
use crate::parse::{ParseError, Parser};
use crate::vars::{Scopes, Var};

/// `umask` at start: new files get 644 and folders 755, the VFS's own
/// defaults.
pub(crate) const DEFAULT_UMASK: u32 = 0o022;

/// The name `$HOSTNAME`, `\h` and `hostname` give: the sandbox's, never
/// the host's.
pub const HOST_NAME: &str = "goccia";

/// `PATH` when nothing gives one.
pub(crate) const DEFAULT_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The stack a thread that runs a [`Shell`] should have. The parser and
/// the interpreter recurse (nested constructs, function calls up to
/// `Limits::max_function_depth`, arithmetic up to bash's 1,024 levels), and
/// under the default limits an unoptimised build needs far more than a
/// thread's usual 2 MiB. Only touched pages are committed, so the size is
/// address space, not memory.
pub const THREAD_STACK: usize = 256 << 20;

/// A function (or `source`) running: its name, and the line it was called
/// from (`$FUNCNAME`, `$BASH_LINENO`).
#[derive(Clone, Debug)]
pub(crate) struct Call {
    pub(crate) name: String,
    pub(crate) line: usize,
}

/// The state of one shell. (`Clone` is in `shell_clone.rs`.)
pub struct Shell {
    pub(crate) ctx: Arc<Context>,
    pub(crate) vars: Scopes,
    pub(crate) functions: imbl::HashMap<String, Arc<FunctionDef>>,
    pub(crate) aliases: imbl::HashMap<String, String>,
    pub(crate) opts: Options,
    pub(crate) positional: Arc<Vec<String>>,
    pub(crate) arg0: String,
    pub(crate) cwd: VfsPath,
    pub(crate) status: i32,
    pub(crate) fds: FdTable,
    pub(crate) func_stack: Vec<Call>,
    pub(crate) loop_depth: usize,
    pub(crate) subshell: usize,
    /// Inside a condition (`if`, `while`, `&&`): `set -e` is off (`!` is
    /// kept in `negations`).
    pub(crate) errexit_off: usize,
    /// A compound command's redirections just failed: its status is an
    /// atom's for `set -e` and the ERR trap.
    pub(crate) compound_redirect_failed: bool,
    /// For each `!` pipeline running, whether `set -e` was on as it began:
    /// a negation holds off `set -e` that was already on, not one a
    /// command inside it turns on (`! f` where `f` runs `set -e`).
    pub(crate) negations: Vec<bool>,
    /// Set for the pipeline a background job (`cmd &`) runs: its own
    /// failure sets off neither the ERR trap nor `set -e` (the commands
    /// inside it still do), as in bash.
    pub(crate) async_pipeline: bool,
    pub(crate) traps: imbl::HashMap<String, String>,
    /// Where the commands run so far were found (`hash`).
    pub(crate) hashed: super::hash_table::HashTable,
    /// The parent's traps in a subshell: not run, but `trap -p` shows them
    /// as bash's does.
    pub(crate) parent_traps: imbl::HashMap<String, String>,
    /// Which of the DEBUG, ERR and RETURN traps are running, a bit each
    /// (a trap's own commands do not set it off again).
    pub(crate) running_traps: u8,
    /// `$_`: the last argument of the previous simple command.
    pub(crate) last_arg: String,
    /// The status of the last command substitution of the current command.
    pub(crate) subst_status: Option<i32>,
    /// Script files being run (`bash file`, `source file`), innermost
    /// last: `BASH_SOURCE` and the `main` of `FUNCNAME`.
    pub(crate) sources: Vec<String>,
    pub(crate) dir_stack: Vec<VfsPath>,
    pub(crate) pipestatus: Vec<i32>,
    /// `$$`: the top shell's id, also in subshells.
    pub(crate) pid: u64,
    /// `$BASHPID`: this (sub)shell's id.
    pub(crate) bashpid: u64,
    /// Whether `PS1` is being shown before a line is read (`\!` is then
    /// the number the line will get).
    pub(crate) at_prompt: bool,
    /// The `$BASHPID`s of the shells this one runs inside, outermost
    /// first (a subshell's parent, the shell that ran `sh -c`): the ones
    /// a `kill` here can signal.
    pub(crate) waiting_shells: Vec<u64>,
    pub(crate) last_bg: Option<u64>,
    /// Background jobs not yet collected by `wait`.
    pub(crate) jobs: super::jobs::Jobs,
    /// The command history (`history`, `fc`).
    pub(crate) history: super::history::History,
    /// The specs `complete` recorded.
    pub(crate) completions: crate::completion::Completions,
    pub(crate) line: usize,
    /// Top-level commands read so far (a prompt's `\#`).
    pub(crate) commands_read: usize,
    /// Command substitutions this shell runs inside (`PS4`'s first
    /// character is repeated once more for each).
    pub(crate) substitution_depth: usize,
    /// What `ulimit` shows and sets.
    pub(crate) resource_limits: super::resources::ResourceLimits,
    /// The permission bits new files and folders leave out (`umask`).
    pub(crate) umask: u32,
    /// The assignments of the command being run, as `set -x` shows them.
    pub(crate) traced_assignments: Vec<String>,
    /// Running a script file (not a `-c` command string).
    pub(crate) runs_script_file: bool,
    /// Running `bash -c` text: a [`Flow::Discard`] ends the shell, where
    /// a script (or standard input) goes on with its next command.
    pub(crate) runs_command_text: bool,
    /// `$LINENO` while an ERR or DEBUG trap runs: the line of the
    /// command that set it off.
    pub(crate) trap_line: Option<usize>,
    pub(crate) random: u64,
    pub(crate) started: Instant,
    /// Position inside the current `getopts` argument.
    pub(crate) getopts_offset: usize,
    pub(crate) interactive: bool,
    /// `exit` ran (as opposed to a syntax error ending a script).
    pub(crate) exit_requested: bool,
    /// This shell's deadline: the sandbox's, or narrower under `timeout`.
    pub(crate) watch: Watch,
    /// Process substitutions started and not waited for yet.
    pub(crate) procsubs: super::substitutions::Pending,
}

impl Shell {
    /// A new shell at `/`, reading from `stdin`, writing to `stdout` and
    /// `stderr`.
    pub fn new(ctx: Arc<Context>, stdin: Fd, stdout: Fd, stderr: Fd) -> Shell {
        let pid = ctx.new_pid();
        let watch = ctx.watch.clone();
        let mut shell = Shell {
            ctx,
            vars: Scopes::default(),
            functions: imbl::HashMap::new(),
            aliases: imbl::HashMap::new(),
            opts: Options::default(),
            positional: Arc::new(Vec::new()),
            arg0: "bash".to_string(),
            cwd: VfsPath::root(),
            status: 0,
            fds: FdTable::new(stdin, stdout, stderr),
            func_stack: Vec::new(),
            loop_depth: 0,
            subshell: 0,
            errexit_off: 0,
            compound_redirect_failed: false,
            negations: Vec::new(),
            async_pipeline: false,
            traps: imbl::HashMap::new(),
            hashed: Default::default(),
            parent_traps: imbl::HashMap::new(),
            running_traps: 0,
            last_arg: String::new(),
            subst_status: None,
            sources: Vec::new(),
            dir_stack: Vec::new(),
            pipestatus: Vec::new(),
            pid,
            bashpid: pid,
            waiting_shells: Vec::new(),
            at_prompt: false,
            last_bg: None,
            jobs: Default::default(),
            history: Default::default(),
            completions: Default::default(),
            line: 0,
            commands_read: 0,
            substitution_depth: 0,
            resource_limits: Default::default(),
            umask: DEFAULT_UMASK,
            traced_assignments: Vec::new(),
            runs_script_file: false,
            runs_command_text: false,
            trap_line: None,
            random: pid.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x2545_F491_4F6C_DD1D,
            started: Instant::now(),
            getopts_offset: 0,
            interactive: false,
            exit_requested: false,
            watch,
            procsubs: Default::default(),
        };
        shell.init_variables();
        shell
    }

    fn init_variables(&mut self) {
        let defaults = [
            ("HOME", "/"),
            ("PATH", DEFAULT_PATH),
            ("PWD", "/"),
            ("SHELL", "/bin/bash"),
            ("USER", "user"),
            ("LOGNAME", "user"),
            ("TERM", "dumb"),
            ("LANG", "C.UTF-8"),
            ("SHLVL", "1"),
            ("TMPDIR", "/tmp"),
        ];
        for (name, value) in defaults {
            let var = self.vars.entry(name);
            *var = Var::scalar(value);
            var.attrs.exported = true;
        }
        for (name, value) in [
            ("IFS", " \t\n"),
            ("OPTIND", "1"),
            ("PS1", "$ "),
            ("PS2", "> "),
            ("PS4", "+ "),
            ("BASH", "/bin/bash"),
            ("BASH_VERSION", "5.2.15(1)-release"),
            ("HOSTTYPE", "x86_64"),
            ("OSTYPE", "linux-gnu"),
            ("MACHTYPE", "x86_64-pc-linux-gnu"),
            ("HOSTNAME", HOST_NAME),
        ] {
            *self.vars.entry(name) = Var::scalar(value);
        }
        // Read-only as in bash; the options' two are computed when read.
        for (name, value) in [
            ("UID", "1000"),
            ("EUID", "1000"),
            ("PPID", "1"),
            ("SHELLOPTS", ""),
            ("BASHOPTS", ""),
        ] {
            let var = self.vars.entry(name);
            *var = Var::scalar(value);
            var.attrs.readonly = true;
        }
    }

    /// Drops the environment a new shell starts with, keeping `PWD` and
    /// `SHLVL` (which bash sets itself).
    pub(super) fn clear_environment(&mut self) {
        for (name, var) in self.vars.visible() {
            if var.attrs.exported && name != "PWD" && name != "SHLVL" {
                self.vars.unset(&name);
            }
        }
    }

    /// What this shell shares with the other shells of its sandbox.
    pub fn context(&self) -> &Arc<Context> {
        &self.ctx
    }

    /// `$$` (the top shell) and `$BASHPID` (this subshell).
    pub fn process_ids(&self) -> (u64, u64) {
        (self.pid, self.bashpid)
    }

    /// When this shell started.
    pub fn started(&self) -> Instant {
        self.started
    }

    /// The working directory.
    pub fn cwd(&self) -> &VfsPath {
        &self.cwd
    }

    /// Changes the working directory (`$PWD` is not updated: `cd` does that).
    pub fn set_cwd(&mut self, path: VfsPath) {
        self.cwd = path;
    }

    /// `$?`.
    pub fn last_status(&self) -> i32 {
        self.status
    }

    /// Sets `$?` (a session reporting how a stopped line ended).
    pub fn set_last_status(&mut self, status: i32) {
        self.status = status;
    }

    /// Marks the shell interactive (errors do not end it).
    pub fn set_interactive(&mut self, interactive: bool) {
        self.interactive = interactive;
    }

    /// `$SHELLOPTS` / `$BASHOPTS`: the `set -o` / `shopt` options that
    /// are on, joined by colons.
    pub(crate) fn options_on(&self, shopt: bool) -> String {
        let table = if shopt {
            super::options::SHOPT_OPTIONS
        } else {
            super::options::SET_OPTIONS
        };
        table
            .iter()
            .filter(|option| self.opts.get(option))
            .map(|option| option.name)
            .collect::<Vec<_>>()
            .join(":")
    }

    /// Gives the shell exactly `environment` as its exported variables, as
    /// a process started with that environment sees it: every other
    /// exported variable goes (`HOME`, `USER`, ... when not given), except
    /// `PWD` and `SHLVL`, which bash sets and exports itself.
    pub fn set_environment(&mut self, environment: &[(&str, &str)]) {
        for (name, var) in self.vars.visible() {
            if var.attrs.exported && name != "PWD" && name != "SHLVL" {
                self.vars.unset(&name);
            }
        }
        for (name, value) in environment {
            self.export(name, value);
        }
    }

    /// Marks this shell as running the script file `path` (`BASH_SOURCE`).
    pub fn set_script_source(&mut self, path: &str) {
        self.runs_script_file = true;
        self.sources = vec![path.to_string()];
    }

    /// Sets `$0` and the positional parameters.
    pub fn set_positional(&mut self, arg0: &str, args: Vec<String>) {
        self.arg0 = arg0.to_string();
        self.positional = Arc::new(args);
    }

    /// This shell's deadline and cancellation.
    pub fn watch(&self) -> &Watch {
        &self.watch
    }

    /// The descriptor table.
    pub fn fds(&self) -> &FdTable {
        &self.fds
    }

    /// The descriptor table, to change.
    pub fn fds_mut(&mut self) -> &mut FdTable {
        &mut self.fds
    }

    /// Command names, functions and aliases (for completion).
    pub fn known_commands(&self) -> Vec<String> {
        let mut names: Vec<String> = self.ctx.table.names().map(str::to_string).collect();
        if let Some(host) = &self.ctx.host {
            names.extend(host.names());
        }
        names.extend(self.functions.keys().cloned());
        names.extend(self.aliases.keys().cloned());
        names.sort();
        names.dedup();
        names
    }

    /// Starts a new run in this shell (an interactive command line): its
    /// own deadline (and cancellation) and a fresh command budget.
    pub fn begin_run(&mut self, watch: Watch) {
        self.watch = watch;
        self.ctx.reset_budgets();
    }

    /// Runs one interactive command line. Unlike [`Shell::run_script`],
    /// errors do not end the session and `exit` is reported, not hidden.
    pub fn run_line(&mut self, source: &str) -> Result<LineStatus, Stop> {
        let outcome = self.run_input(source);
        let (status, exited) = match outcome {
            Ok(status) => (status, false),
            Err(Flow::Exit(status)) => (status, self.exit_requested),
            Err(Flow::Return(status)) | Err(Flow::Abandon(status)) | Err(Flow::Discard(status)) => {
                (status, false)
            }
            Err(Flow::Break { .. }) | Err(Flow::Continue { .. }) => (self.status, false),
            Err(Flow::Stop(stopped)) => return Err(stopped),
        };
        self.exit_requested = false;
        self.status = status;
        if exited {
            self.run_exit_trap()?;
        }
        self.check_stop()?;
        Ok(LineStatus {
            status: self.status,
            exited,
        })
    }

    /// Ends an interactive session: runs the EXIT trap.
    pub fn finish_session(&mut self) -> Result<i32, Stop> {
        self.run_exit_trap()?;
        self.check_stop()?;
        Ok(self.status)
    }

    /// Runs a whole script (or `-c` command line), command line by command
    /// line as bash does: a syntax error stops the script (status 2) after
    /// the lines before it ran. Returns the exit status.
    pub fn run_script(&mut self, source: &str) -> Result<i32, Stop> {
        let outcome = self.run_input(source);
        let status = match outcome {
            Ok(status) => status,
            Err(Flow::Exit(status)) => status,
            Err(Flow::Return(status)) | Err(Flow::Abandon(status)) | Err(Flow::Discard(status)) => {
                status
            }
            Err(Flow::Break { .. }) | Err(Flow::Continue { .. }) => self.status,
            Err(Flow::Stop(stopped)) => return Err(stopped),
        };
        self.status = status;
        self.run_exit_trap()?;
        // The outcome is decided by what happened: a last command that ran
        // past the deadline (or whose loops gave up at it) is a timeout,
        // not its own status.
        self.check_stop()?;
        Ok(self.status)
    }

    /// Runs source text in this shell; `Flow::Exit` propagates.
    pub(crate) fn run_source(&mut self, source: &str) -> ExecResult {
        self.read_and_run(source, false)
    }

    /// Runs what the shell's own reader reads (a script, a line): with
    /// `set -o history` each command is recorded before it runs, as bash
    /// records what its reader reads (never what `eval` or a trap runs).
    fn run_input(&mut self, source: &str) -> ExecResult {
        self.read_and_run(source, true)
    }

    /// Gives `parser` the aliases it may expand: built only when
    /// `expand_aliases` is on and there are some (bash expands none in a
    /// script by default).
    pub(crate) fn give_aliases(&self, parser: &mut Parser) {
        let expand = self.opts.expand_aliases && !self.aliases.is_empty();
        let table = match expand {
            true => self
                .aliases
                .iter()
                .map(|(name, text)| (name.clone(), text.clone()))
                .collect(),
            false => Default::default(),
        };
        parser.set_aliases(table, expand);
    }

    fn read_and_run(&mut self, source: &str, remember: bool) -> ExecResult {
        // What this thread allocates from here on is this sandbox's.
        let _metered = self.ctx.metered();
        let mut parser = Parser::new(source);
        parser.set_watch(self.watch.clone());
        let mut echoed = EchoedInput::default();
        // Byte offsets of the source's characters, built the first time a
        // command is recorded.
        let mut byte_at: Option<Vec<usize>> = None;
        loop {
            let start = parser.offset();
            self.give_aliases(&mut parser);
            parser.set_extglob(self.opts.extglob);
            let next = parser.next_command();
            echoed.reach(self, source, parser.offset());
            let command = match next {
                Ok(Some(command)) => command,
                Ok(None) => return Ok(self.status),
                Err(error) => {
                    if let Some(stop) = error.stop {
                        return Err(Flow::Stop(stop));
                    }
                    self.report_syntax_error(&error);
                    if error.discard {
                        parser.skip_line();
                        self.status = 1;
                        continue;
                    }
                    self.status = 2;
                    return Err(Flow::Exit(2));
                }
            };
            self.commands_read += 1;
            if remember && !self.interactive && self.opts.is_set("history") {
                let offsets = byte_at.get_or_insert_with(|| {
                    source
                        .char_indices()
                        .map(|(at, _)| at)
                        .chain([source.len()])
                        .collect()
                });
                let end = parser.offset().min(offsets.len() - 1);
                let text = &source[offsets[start.min(end)]..offsets[end]];
                self.record_command_text(text);
            }
            if self.opts.noexec {
                continue;
            }
            self.status = match self.run_list(&command) {
                Ok(status) | Err(Flow::Abandon(status)) => status,
                Err(Flow::Discard(status)) if !self.runs_command_text => status,
                Err(other) => return Err(other),
            };
        }
    }

    /// An error message as bash words it: a non-interactive shell names
    /// the line (`bash: line 3: x: ...`).
    pub(crate) fn report_at_line(&mut self, message: &str) {
        let text = if self.interactive {
            format!("{}: {message}\n", self.arg0)
        } else {
            format!("{}: line {}: {message}\n", self.arg0, self.line)
        };
        self.write_stderr(text.as_bytes());
    }

    /// An error bash reports as fatal to a command line (a read-only
    /// assignment, a `failglob` miss): under `set -e` it ends the shell
    /// (bash's `report_error`), else the line is abandoned with status 1.
    /// Arithmetic errors abandon the line whatever `set -e` says.
    pub(crate) fn fail_line(&mut self) -> Flow {
        self.status = 1;
        if self.errexit_applies() {
            Flow::Exit(1)
        } else {
            Flow::Abandon(1)
        }
    }

    /// Whether a failure here ends the shell under `set -e`: it is on,
    /// and nothing holds it off.
    pub(crate) fn errexit_applies(&self) -> bool {
        self.opts.errexit && !self.errexit_held_off()
    }

    /// A condition (`if`, `while`, `&&`) is running, or a `!` that began
    /// while `set -e` was on: failures set off neither `set -e` nor the
    /// ERR trap.
    pub(crate) fn errexit_held_off(&self) -> bool {
        self.errexit_off > 0 || self.negations.contains(&true)
    }

    pub(crate) fn report_syntax_error(&mut self, error: &ParseError) {
        let message = format!("{}: line {}: {}\n", self.arg0, error.line, error.message);
        self.write_stderr(message.as_bytes());
    }

    /// Runs the EXIT trap once.
    pub(crate) fn run_exit_trap(&mut self) -> Result<(), Stop> {
        if let Some(action) = self.traps.remove("EXIT") {
            let saved = self.status;
            // A trap that does not parse is reported and leaves the
            // status as it was (bash's rule).
            if let Err(error) = Parser::parse_all(&action) {
                self.report_syntax_error(&error);
                return Ok(());
            }
            match self.run_source(&action) {
                Ok(_) => self.status = saved,
                Err(Flow::Exit(status)) => self.status = status,
                Err(Flow::Stop(stopped)) => return Err(stopped),
                Err(_) => self.status = saved,
            }
        }
        Ok(())
    }

    /// A syntax check without running (`bash -n`).
    pub fn check_syntax(source: &str) -> Result<(), ParseError> {
        Parser::parse_all(source).map(|_| ())
    }

    /// Counts a command against the limit and checks the deadline; the
    /// command's own loops can see the deadline too ([`crate::interrupt`]).
    pub(crate) fn tick_command(&self) -> Result<(), Flow> {
        self.check_watch()?;
        crate::interrupt::install(&self.watch);
        self.ctx.count_command().map_err(Flow::Stop)
    }

    pub(crate) fn tick_loop(&self) -> Result<(), Flow> {
        self.check_watch()?;
        self.ctx.count_iteration().map_err(Flow::Stop)
    }

    /// The deadline, a cancellation, or the host-memory ceiling.
    pub(crate) fn check_stop(&self) -> Result<(), Stop> {
        self.watch.check()?;
        if self.ctx.memory_exceeded() {
            return Err(Stop::Limit(LimitKind::HostMemory));
        }
        Ok(())
    }

    /// [`Shell::check_stop`] as control flow.
    pub(crate) fn check_watch(&self) -> Result<(), Flow> {
        self.check_stop().map_err(Flow::Stop)
    }

    /// A fresh pseudo-random 15-bit number (`$RANDOM`).
    pub(crate) fn next_random(&mut self) -> u32 {
        // xorshift64*
        let mut x = self.random;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.random = x;
        ((x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) & 0x7fff) as u32
    }

    /// `set -o name` / `set +o name`; false for an unknown name.
    pub fn set_option_by_name(&mut self, name: &str, on: bool) -> bool {
        self.opts.set_named(name, on)
    }

    /// `shopt -s name` / `shopt -u name`; false for an unknown name.
    pub fn set_shopt_by_name(&mut self, name: &str, on: bool) -> bool {
        match super::options::find(super::options::SHOPT_OPTIONS, name) {
            Some(option) => {
                self.opts.set(option, on);
                true
            }
            None => false,
        }
    }

    /// A pseudo-random number for commands (`mktemp`, `shuf`).
    pub(crate) fn random_u32(&mut self) -> u32 {
        self.next_random() << 15 | self.next_random()
    }

    /// Sets and exports `name` (`export name=value`); false when `name` is
    /// not a valid identifier or is read-only.
    pub fn export(&mut self, name: &str, value: &str) -> bool {
        if !crate::parse::is_name(name) || self.set_var(name, value).is_err() {
            return false;
        }
        if let Some(var) = self.vars.get_mut(name) {
            var.attrs.exported = true;
        }
        true
    }

    /// Takes on what a user sees of `other`'s state: its working directory,
    /// variables, functions, aliases, options, positional parameters,
    /// directory stack, traps and last status. The two are one session
    /// seen from two threads (a sandbox's `run_shell` and the `$` of its
    /// scripts); descriptors, the deadline and the context stay this
    /// shell's.
    pub fn adopt(&mut self, other: &Shell) {
        // `clone_from` keeps this shell's own buffers where they fit: a
        // session adopts before every call, usually what it published.
        self.vars.clone_from(&other.vars);
        self.functions.clone_from(&other.functions);
        self.aliases.clone_from(&other.aliases);
        self.opts = other.opts;
        self.positional.clone_from(&other.positional);
        self.arg0.clone_from(&other.arg0);
        self.cwd.clone_from(&other.cwd);
        self.dir_stack.clone_from(&other.dir_stack);
        self.traps.clone_from(&other.traps);
        self.status = other.status;
    }

    /// Runs what follows under `watch` (a new run's deadline) without
    /// resetting the command budgets ([`Shell::begin_run`] does both).
    pub fn set_watch(&mut self, watch: Watch) {
        self.watch = watch;
    }

    /// A subshell copy whose `goccia` builtin goes through `launcher` (a
    /// shell handed to a nested run, which nests one level deeper).
    pub fn subshell_with_launcher(&self, launcher: Arc<dyn ScriptLauncher>) -> Shell {
        let mut child = self.subshell();
        let hooks = super::context::Hooks {
            launcher: Some(launcher),
            ..self.ctx.hooks()
        };
        child.ctx = Context::build(
            self.ctx.vfs.clone(),
            self.ctx.watch.clone(),
            self.ctx.limits.clone(),
            self.ctx.table,
            self.ctx.audit.clone(),
            hooks,
        );
        child
    }

    /// The mode of a file (or folder) this shell creates, when its
    /// `umask` makes it differ from the VFS's default.
    pub(crate) fn mode_for_new(&self, folder: bool) -> Option<u32> {
        let base = if folder { 0o777 } else { 0o666 };
        (self.umask != DEFAULT_UMASK).then_some(base & !self.umask)
    }

    /// A copy for a subshell (`( ... )`): changes to it stay in it.
    pub fn subshell(&self) -> Shell {
        let mut child = self.clone();
        child.subshell += 1;
        child.waiting_shells.push(self.bashpid);
        child.bashpid = self.ctx.new_pid();
        child.parent_traps = std::mem::take(&mut child.traps);
        // `set -T`: the DEBUG and RETURN traps carry into subshells.
        if self.opts.functrace {
            for name in ["DEBUG", "RETURN"] {
                if let Some(action) = self.traps.get(name) {
                    child.traps.insert(name.to_string(), action.clone());
                }
            }
        }
        // `set -E`: the ERR trap carries into subshells.
        if self.opts.errtrace
            && let Some(action) = self.traps.get("ERR")
        {
            child.traps.insert("ERR".to_string(), action.clone());
        }
        if !self.opts.inherit_errexit && self.errexit_off > 0 {
            child.errexit_off = self.errexit_off;
        }
        child
    }
}

/// `set -v`: source text is echoed to standard error as it is read, a
/// complete command (with the comments and blank lines before it) at a
/// time. The mark moves with the reader whether or not the option is on,
/// so turning it on later does not echo what was read before.
#[derive(Default)]
pub(crate) struct EchoedInput {
    chars: usize,
    bytes: usize,
}

impl EchoedInput {
    /// Echoes `source` up to the reader's offset `to_char`, if verbose.
    pub(crate) fn reach(&mut self, shell: &Shell, source: &str, to_char: usize) {
        let start = self.bytes;
        let rest = &source[start..];
        let len: usize = rest
            .chars()
            .take(to_char.saturating_sub(self.chars))
            .map(char::len_utf8)
            .sum();
        self.chars = to_char.max(self.chars);
        self.bytes += len;
        if shell.opts.verbose && len > 0 {
            let text = &source[start..start + len];
            // A last line without its newline is echoed as a line.
            let newline = if text.ends_with('\n') { "" } else { "\n" };
            shell.write_stderr(format!("{text}{newline}").as_bytes());
        }
    }
}
