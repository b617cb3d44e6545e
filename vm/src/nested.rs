//! Nested execution: `runScript` and the shell's `goccia` builtin run
//! another entry, on the caller's VFS (shared mode) or in a child sandbox
//! seeded from the caller's VFS or inline files. A child inherits the
//! caller's engine configuration and can only narrow it; its failures come
//! back as results and never end the caller.

use std::sync::Arc;
use std::time::Duration;

use goccia_builtins::nest::{
    ChildSpec, Nest, NestError, ParentState, ScriptRequest, ScriptResult, SharedShell,
};
use goccia_core::{Capture, FailureKind, Output};
use goccia_vfs::seed::{seed_bytes, seed_snapshot};
use goccia_vfs::{Quota, SeedError, SeedSpec, SeedTarget, SharedVfs, Vfs, VfsPath};
use parking_lot::Mutex;

use crate::engine::Engine;
use crate::runner::{RunOutcome, RunRequest, run};

/// Runs nested scripts for a runtime at `depth` under `engine`.
pub struct Nester {
    pub engine: Engine,
    pub depth: u32,
}

impl Nester {
    fn check_depth(&self) -> Result<u32, NestError> {
        let depth = self.depth + 1;
        if depth > self.engine.limits.max_depth {
            return Err(NestError::Depth {
                max: self.engine.limits.max_depth,
            });
        }
        Ok(depth)
    }
}

impl Nest for Nester {
    fn run_script(
        &self,
        parent: &ParentState,
        request: ScriptRequest,
    ) -> Result<ScriptResult, NestError> {
        let depth = self.check_depth()?;
        let (stdout, stderr) = (Capture::new(), Capture::new());
        let output = Output::to_writers(stdout.clone(), stderr.clone(), parent.budget.clone());
        let nested = Nested {
            engine: &self.engine,
            depth,
            parent,
            timeout: request.timeout,
            output,
        };
        let mut result = match request.child {
            None => nested.shared(&request.entry, parent.shell.clone()),
            Some(spec) => nested.child(&request.entry, &spec),
        };
        result.stdout = stdout.take();
        result.stderr = stderr.take();
        Ok(result)
    }

    fn launcher(&self) -> Arc<dyn goccia_shell::ScriptLauncher> {
        Arc::new(crate::launcher::Launcher {
            engine: self.engine.clone(),
            depth: self.depth,
        })
    }
}

/// One nested run being set up.
pub(crate) struct Nested<'a> {
    pub engine: &'a Engine,
    pub depth: u32,
    pub parent: &'a ParentState,
    pub timeout: Option<Duration>,
    pub output: Output,
}

impl Nested<'_> {
    /// Shared mode: the caller's VFS and shell.
    pub fn shared(&self, entry: &str, shell: SharedShell) -> ScriptResult {
        self.audited(entry, "shared", || {
            let Ok(entry) = VfsPath::parse(entry) else {
                return bad_entry(entry);
            };
            let vfs = self.parent.vfs.clone();
            let outcome = self.run(entry, vfs, shell);
            from_outcome(outcome, None)
        })
    }

    /// A child sandbox: a fresh VFS holding only what the seeds name.
    pub fn child(&self, entry: &str, spec: &ChildSpec) -> ScriptResult {
        self.audited(entry, "sandbox", || self.child_run(entry, spec))
    }

    /// Records the spawn and how the nested run ended.
    fn audited(&self, entry: &str, mode: &str, run: impl FnOnce() -> ScriptResult) -> ScriptResult {
        let audit = &self.engine.audit;
        audit.record(
            "child",
            "spawn",
            entry,
            Some(format!("{mode}, depth {}", self.depth)),
        );
        let result = run();
        let how = match (&result.failure_kind, &result.error) {
            (Some(kind), Some(error)) => {
                format!("exit {} ({}): {error}", result.exit_code, kind.as_str())
            }
            _ => format!("exit {}", result.exit_code),
        };
        audit.record("child", "exit", entry, Some(how));
        result
    }

    fn child_run(&self, entry: &str, spec: &ChildSpec) -> ScriptResult {
        let Ok(entry) = VfsPath::parse(entry) else {
            return bad_entry(entry);
        };
        let vfs = match seed_child(&self.parent.vfs, &spec.seeds) {
            Ok(vfs) => vfs,
            Err(error) => {
                return ScriptResult::failed(FailureKind::ScriptError, error.to_string());
            }
        };
        let baseline = vfs.snapshot();
        let shared: SharedVfs = Arc::new(Mutex::new(vfs));
        let outcome = self.run(entry, shared.clone(), SharedShell::default());
        let changes = spec.diff.map(|format| {
            let changes = goccia_vfs::diff(&baseline, &shared.lock().snapshot());
            let text = format.render(&changes);
            let list = goccia_vfs::changes::to_document(&changes).changes;
            (text, serde_json::to_string(&list).expect("serialisable"))
        });
        from_outcome(outcome, changes)
    }

    fn run(&self, entry: VfsPath, vfs: SharedVfs, shell: SharedShell) -> RunOutcome {
        let watch = self.parent.watch.narrowed(self.timeout);
        let mut engine = self.engine.clone();
        engine.limits.timeout = watch.remaining();
        run(&RunRequest {
            entry,
            vfs,
            output: self.output.clone(),
            watch,
            engine,
            depth: self.depth,
            shell: Some(shell),
        })
    }
}

fn bad_entry(entry: &str) -> ScriptResult {
    ScriptResult::failed(
        FailureKind::ScriptError,
        format!("invalid entry path `{entry}`"),
    )
}

fn from_outcome(outcome: RunOutcome, changes: Option<(String, String)>) -> ScriptResult {
    let (diff, changes_json) = changes.unzip();
    ScriptResult {
        exit_code: outcome.exit_code(),
        failure_kind: outcome.failure.as_ref().map(|f| f.kind),
        error: outcome.failure.as_ref().map(|f| f.message.clone()),
        stdout: Vec::new(),
        stderr: Vec::new(),
        result_json: outcome
            .result
            .filter(|_| outcome.failure.is_none())
            .map(|value| value.to_string()),
        diff,
        changes_json,
    }
}

/// A child seed that could not be applied; nothing ran.
#[derive(Debug, thiserror::Error)]
#[error("seed entry {index}: {source}")]
pub struct ChildSeedError {
    /// Position of the seed in the list.
    pub index: usize,
    pub source: SeedError,
}

/// A child's VFS: seeded from the parent's snapshot (each folder shared,
/// O(1) whatever its size) and inline files. Its quota lets it hold what
/// it was seeded with plus what the parent may still write.
pub fn seed_child(parent: &SharedVfs, seeds: &[SeedSpec]) -> Result<Vfs, ChildSeedError> {
    let (snapshot, remaining) = {
        let parent = parent.lock();
        (parent.snapshot(), parent.remaining())
    };
    let mut vfs = Vfs::new(Quota::UNLIMITED);
    for (index, seed) in seeds.iter().enumerate() {
        let seeded = match seed {
            SeedSpec::Copy { from, to } => {
                let from_path = VfsPath::parse(from).map_err(|source| SeedError::BadTarget {
                    raw: from.clone(),
                    source,
                });
                from_path.and_then(|from_path| {
                    let target = SeedTarget::parse(to.as_deref().unwrap_or(from))?;
                    seed_snapshot(&mut vfs, &snapshot, &from_path, &target)
                })
            }
            SeedSpec::Inline { path, content } => VfsPath::parse(path)
                .map_err(|source| SeedError::BadTarget {
                    raw: path.clone(),
                    source,
                })
                .and_then(|path| seed_bytes(&mut vfs, &path, content.clone())),
        };
        seeded.map_err(|source| ChildSeedError { index, source })?;
    }
    let seeded = vfs.usage();
    vfs.set_quota(Quota {
        max_bytes: seeded.bytes.saturating_add(remaining.max_bytes),
        max_nodes: seeded.nodes.saturating_add(remaining.max_nodes),
    });
    Ok(vfs)
}
