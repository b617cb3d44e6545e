//! Nested execution: `runScript` and the shell's `goccia` builtin run
//! another entry, on the caller's VFS (shared mode) or in a child sandbox
//! seeded from the caller's VFS or inline files. One [`Nester`] serves
//! both (it is the guest's [`Nest`] and the shell's launcher), with one
//! depth check. A child inherits the caller's engine configuration and can
//! only narrow it; its failures come back as results and never end the
//! caller.

use std::sync::Arc;
use std::time::Duration;

use goccia_core::{Capture, FailureKind, Output};
use goccia_js_api::nest::{
    ChildChanges, ChildSpec, Nest, NestError, ParentState, ScriptRequest, ScriptResult, SharedShell,
};
use goccia_vfs::policy::{Scope, WritePolicy};
use goccia_vfs::{SharedVfs, VfsPath};
use parking_lot::Mutex;

use crate::engine::Engine;
use crate::heap::HeapBudget;
use crate::runner::{RunOutcome, RunRequest, run};

/// Runs nested scripts (and the shell's `goccia` builtin) for a runtime or
/// shell at `depth` under `engine`.
#[derive(Clone, Debug)]
pub struct Nester {
    /// What every nested run inherits.
    pub engine: Engine,
    /// 0 for a sandbox's own entry and shell; each level adds one.
    pub depth: u32,
    /// The JS heap budget of the tree this level belongs to.
    pub memory: HeapBudget,
}

impl Nester {
    /// The nester of a tree's root (a sandbox's shell): depth 0 and a heap
    /// budget of `engine.limits.max_memory` for the whole tree.
    pub fn root(engine: Engine) -> Nester {
        let memory = HeapBudget::new(engine.limits.max_memory);
        Nester {
            engine,
            depth: 0,
            memory,
        }
    }

    /// The depth a nested run starts at, or the refusal (the one check).
    pub(crate) fn deeper(&self) -> Result<Nester, NestError> {
        let depth = self.depth + 1;
        if depth > self.engine.limits.max_depth {
            return Err(NestError::Depth {
                max: self.engine.limits.max_depth,
            });
        }
        Ok(Nester {
            engine: self.engine.clone(),
            depth,
            memory: self.memory.clone(),
        })
    }
}

impl Nest for Nester {
    fn run_script(
        &self,
        parent: &ParentState,
        request: ScriptRequest,
    ) -> Result<ScriptResult, NestError> {
        let nested = self.deeper()?;
        let policy = child_policy(parent, &request)?;
        let (stdout, stderr) = (Capture::new(), Capture::new());
        let output = Output::to_writers(stdout.clone(), stderr.clone(), parent.budget.clone());
        let _policy = Scope::enter_if(policy);
        let mut result = nested.run_request(&request, parent, output, parent.shell.clone());
        result.stdout = stdout.take();
        result.stderr = stderr.take();
        Ok(result)
    }

    fn launcher(&self) -> Arc<dyn goccia_shell::ScriptLauncher> {
        Arc::new(self.clone())
    }
}

/// The write policy a child asking for `request.policy` runs under: the
/// caller's, narrowed (`None`: the caller's as it is), or the refusal of a
/// wider one. Children keep the caller's roots and approver.
pub(crate) fn child_policy(
    parent: &ParentState,
    request: &ScriptRequest,
) -> Result<Option<WritePolicy>, NestError> {
    let Some(mode) = request.policy else {
        return Ok(None);
    };
    let current = parent.vfs.lock().policy().unwrap_or_default();
    current
        .narrowed_to(mode)
        .map(Some)
        .map_err(NestError::NotWider)
}

impl Nester {
    /// Runs `request` at this (already deeper) level: shared mode on the
    /// caller's VFS with `shell` for its `$`, or a child sandbox.
    pub(crate) fn run_request(
        &self,
        request: &ScriptRequest,
        parent: &ParentState,
        output: Output,
        shell: SharedShell,
    ) -> ScriptResult {
        let mode = if request.child.is_some() {
            "sandbox"
        } else {
            "shared"
        };
        let audit = &self.engine.audit;
        let entry = request.entry.as_str();
        audit.record(
            "child",
            "spawn",
            entry,
            Some(format!("{mode}, depth {}", self.depth)),
        );
        let run = NestedRun {
            nester: self,
            parent,
            timeout: request.timeout,
            output,
            inline: request.inline_source.as_deref().map(std::sync::Arc::from),
        };
        let result = match &request.child {
            None => run.shared(entry, shell),
            Some(spec) => run.child(entry, spec),
        };
        let how = match (&result.failure_kind, &result.error) {
            (Some(kind), Some(error)) => {
                format!("exit {} ({}): {error}", result.exit_code, kind.as_str())
            }
            _ => format!("exit {}", result.exit_code),
        };
        audit.record("child", "exit", entry, Some(how));
        result
    }
}

/// One nested run being set up.
struct NestedRun<'a> {
    nester: &'a Nester,
    parent: &'a ParentState,
    timeout: Option<Duration>,
    output: Output,
    /// The entry's source, when given inline.
    inline: Option<std::sync::Arc<str>>,
}

impl NestedRun<'_> {
    /// Shared mode: the caller's VFS and shell.
    fn shared(&self, entry: &str, shell: SharedShell) -> ScriptResult {
        let Ok(entry) = VfsPath::parse(entry) else {
            return bad_entry(entry);
        };
        let outcome = self.run(entry, self.parent.vfs.clone(), shell);
        from_outcome(outcome, None)
    }

    /// A child sandbox: a fresh VFS holding only what the seeds name.
    fn child(&self, entry: &str, spec: &ChildSpec) -> ScriptResult {
        let Ok(entry) = VfsPath::parse(entry) else {
            return bad_entry(entry);
        };
        let seeded = goccia_vfs::seed::seed_child(&self.parent.vfs.lock(), &spec.seeds);
        let vfs = match seeded {
            Ok(vfs) => vfs,
            Err(error) => {
                return ScriptResult::failed(FailureKind::ScriptError, error.to_string());
            }
        };
        let baseline = vfs.snapshot();
        let shared: SharedVfs = Arc::new(Mutex::new(vfs));
        let outcome = self.run(entry, shared.clone(), SharedShell::default());
        let changes = spec.diff.map(|format| ChildChanges {
            changes: goccia_vfs::diff(&baseline, &shared.lock().snapshot()),
            format,
        });
        from_outcome(outcome, changes)
    }

    fn run(&self, entry: VfsPath, vfs: SharedVfs, shell: SharedShell) -> RunOutcome {
        let watch = self.parent.watch.narrowed(self.timeout);
        let mut engine = self.nester.engine.clone();
        engine.limits.timeout = watch.remaining();
        run(&RunRequest {
            entry,
            vfs,
            output: self.output.clone(),
            watch,
            engine,
            depth: self.nester.depth,
            shell: Some(shell),
            memory: self.nester.memory.clone(),
            inline_source: self.inline.clone(),
            // A nested run ends inside its caller's: its heap is freed.
            leave_heap_to_exit: false,
            stdin: self.parent.stdin.clone(),
        })
    }
}

fn bad_entry(entry: &str) -> ScriptResult {
    ScriptResult::failed(
        FailureKind::ScriptError,
        format!("invalid entry path `{entry}`"),
    )
}

fn from_outcome(outcome: RunOutcome, changes: Option<ChildChanges>) -> ScriptResult {
    ScriptResult {
        exit_code: outcome.exit_code(),
        failure_kind: outcome.failure.as_ref().map(|f| f.kind),
        error: outcome.failure.as_ref().map(|f| f.message.clone()),
        stdout: Vec::new(),
        stderr: Vec::new(),
        result: outcome.result.filter(|_| outcome.failure.is_none()),
        changes,
    }
}
