//! What a utility may do with the shell that runs it: [`ShellView`], and
//! [`ChildShell`] for the commands it starts (`xargs`, `env`, `timeout`,
//! `find -exec`, awk's `system`).
//!
//! Builtins are interpreter state (`cd`, `set`, `read`) and take the whole
//! [`Shell`]. A utility needs about two dozen of its operations — its
//! descriptors, working directory and exported variables, the sandbox's
//! context, the clock and deadline, how to word a failure — and gets only
//! those: the view's one field is private to this crate, so a utility
//! that reached for anything else would not compile. The view is the
//! shell under another type (`#[repr(transparent)]`), so handing it out
//! costs nothing; each operation is `#[inline]` because the utilities are
//! another crate, where a wrapper that is not inlined is one call more.

use std::io;
use std::sync::Arc;
use std::time::Instant;

use goccia_core::{Stop, Watch};
use goccia_vfs::{FsError, VfsPath};
use ref_cast::RefCast;

use super::{Context, ExecResult, Flow, OutHandle, Shell, ShellView};
use crate::io::FdTable;

impl ShellView {
    /// The view of `shell` a utility is handed.
    #[inline]
    pub fn of(shell: &mut Shell) -> &mut ShellView {
        ShellView::ref_cast_mut(shell)
    }

    // ----- the sandbox, the clock and the deadline -----

    /// What every shell of the sandbox shares: the VFS, limits, the
    /// network, host commands, the command table.
    #[inline]
    pub fn context(&self) -> &Arc<Context> {
        self.0.context()
    }

    /// The deadline this shell runs under (`timeout` narrows a child's).
    #[inline]
    pub fn watch(&self) -> &Watch {
        self.0.watch()
    }

    /// Fails with the stop when the deadline passed or the run was
    /// cancelled; utilities call it in their loops.
    #[inline]
    pub fn check_watch(&self) -> Result<(), Flow> {
        self.0.check_watch()
    }

    /// [`ShellView::check_watch`] for code that returns a [`Stop`].
    #[inline]
    pub fn check_stop(&self) -> Result<(), Stop> {
        self.0.check_stop()
    }

    /// Counts one command against the sandbox's command limit.
    #[inline]
    pub fn tick_command(&self) -> Result<(), Flow> {
        self.0.tick_command()
    }

    /// Counts one loop iteration against the sandbox's iteration limit.
    #[inline]
    pub fn tick_loop(&self) -> Result<(), Flow> {
        self.0.tick_loop()
    }

    /// When this shell started (`ps`'s start time).
    #[inline]
    pub fn started(&self) -> Instant {
        self.0.started()
    }

    /// A pseudo-random number (`mktemp`, `shuf`, `sort -R`).
    #[inline]
    pub fn random_u32(&mut self) -> u32 {
        self.0.random_u32()
    }

    /// The top shell's process id and this one's (`$$`, `$BASHPID`).
    #[inline]
    pub fn process_ids(&self) -> (u64, u64) {
        self.0.process_ids()
    }

    // ----- the environment -----

    /// The working directory.
    #[inline]
    pub fn cwd(&self) -> &VfsPath {
        self.0.cwd()
    }

    /// A variable's value (what a utility reads from its environment:
    /// `TZ`, `COLUMNS`, `POSIXLY_CORRECT`).
    #[inline]
    pub fn get_var(&mut self, name: &str) -> Option<String> {
        self.0.get_var(name)
    }

    /// The exported variables, as a child process's environment.
    #[inline]
    pub fn exported(&self) -> Vec<(String, String)> {
        self.0.exported()
    }

    /// The time zone `TZ` names.
    #[inline]
    pub fn time_zone(&self) -> crate::time::Zone {
        self.0.time_zone()
    }

    /// Whether the locale compares and counts bytes (`C`, `POSIX`) rather
    /// than characters.
    #[inline]
    pub fn bytewise_locale(&self) -> bool {
        self.0.bytewise_locale()
    }

    /// The user the sandbox presents (`whoami`, `ls -l`'s owner).
    #[inline]
    pub fn user_name(&mut self) -> String {
        self.0.user_name()
    }

    /// The mode a new file (or folder) gets under the umask, when it is
    /// not the default.
    #[inline]
    pub fn mode_for_new(&self, folder: bool) -> Option<u32> {
        self.0.mode_for_new(folder)
    }

    /// Where `PATH` finds a script called `name`.
    #[inline]
    pub fn find_in_path(&mut self, name: &str) -> Option<VfsPath> {
        self.0.find_in_path(name)
    }

    // ----- descriptors and messages -----

    /// The descriptor table.
    #[inline]
    pub fn fds(&self) -> &FdTable {
        self.0.fds()
    }

    /// A `Write` handle on stdout.
    #[inline]
    pub fn out(&self) -> OutHandle {
        self.0.out()
    }

    /// Writes to descriptor 1.
    #[inline]
    pub fn write_stdout(&self, bytes: &[u8]) -> io::Result<()> {
        self.0.write_stdout(bytes)
    }

    /// Writes to stderr; failures there are ignored.
    #[inline]
    pub fn write_stderr(&self, bytes: &[u8]) {
        self.0.write_stderr(bytes)
    }

    /// Prints `name: message` and returns `status`.
    #[inline]
    pub fn fail_command(&mut self, name: &str, message: &str, status: i32) -> i32 {
        self.0.fail_command(name, message, status)
    }

    /// Maps an I/O error to the command's status (141 for a closed pipe)
    /// or to a stop.
    #[inline]
    pub fn io_status(&mut self, name: &str, error: io::Error) -> ExecResult {
        self.0.io_status(name, error)
    }

    /// Reports a filesystem error about `operand` (a policy denial in its
    /// documented form, recorded in the audit trail; anything else as
    /// `command: usual(strerror)`) and returns the status.
    #[inline]
    pub fn fail_fs(
        &mut self,
        command: &str,
        operand: &str,
        error: &FsError,
        usual: impl FnOnce(&str) -> String,
        status: i32,
    ) -> i32 {
        self.0.fail_fs(command, operand, error, usual, status)
    }

    /// What `command` says went wrong with `error` (a denial is audited).
    #[inline]
    pub fn fs_reason(&self, command: &str, error: &FsError) -> String {
        self.0.fs_reason(command, error)
    }

    // ----- other commands -----

    /// A new shell as a child process would see it: the same VFS,
    /// descriptors and working directory, the exported variables.
    #[inline]
    pub fn child_process(&self) -> ChildShell {
        ChildShell(self.0.child_process())
    }

    /// Runs the `goccia` builtin (a nested script) with `args`.
    #[inline]
    pub fn run_nested(&mut self, args: &[String]) -> ExecResult {
        self.0.run_nested(args)
    }
}

/// A child process's shell, which a utility prepares (environment,
/// descriptors, deadline) and runs one command or script in.
pub struct ChildShell(Shell);

impl ChildShell {
    /// Sets `name` to `value` in the child's environment.
    #[inline]
    pub fn export(&mut self, name: &str, value: impl Into<String>) -> Result<(), String> {
        self.0.set_var(name, value)?;
        if let Some(var) = self.0.vars.get_mut(name) {
            var.attrs.exported = true;
        }
        Ok(())
    }

    /// Runs the child in `dir` (`find -execdir`); `$PWD` is not changed.
    #[inline]
    pub fn set_cwd(&mut self, dir: VfsPath) {
        self.0.set_cwd(dir);
    }

    /// Removes `name` from the child's environment.
    #[inline]
    pub fn unset(&mut self, name: &str) {
        self.0.vars.unset(name);
    }

    /// The child's environment.
    #[inline]
    pub fn exported(&self) -> Vec<(String, String)> {
        self.0.exported()
    }

    /// The child's descriptors (a utility feeds or captures them).
    #[inline]
    pub fn fds_mut(&mut self) -> &mut FdTable {
        self.0.fds_mut()
    }

    /// Runs the child under `watch` (`timeout`'s narrower deadline).
    #[inline]
    pub fn set_watch(&mut self, watch: Watch) {
        self.0.watch = watch;
    }

    /// Runs one command (a builtin, utility, host command or script; not
    /// a function, as a new process finds none).
    #[inline]
    pub fn dispatch_command(&mut self, words: &[String]) -> ExecResult {
        self.0.dispatch_command(words)
    }

    /// Runs `source` as a script (awk's `system`, its pipes).
    #[inline]
    pub fn run_script(&mut self, source: &str) -> Result<i32, Stop> {
        self.0.run_script(source)
    }

    /// The child as a utility sees it (`yq` hands its input to `jq`).
    #[inline]
    pub fn view(&mut self) -> &mut ShellView {
        ShellView::of(&mut self.0)
    }
}
