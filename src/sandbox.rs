//! A sandbox: a VFS seeded by the host, its baseline, and the host's
//! write-back mappings. Scripts run against it one after another.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use goccia_core::{Audit, Limits, NetPolicy, Output, Watch};
use goccia_vfs::seed::{seed_bytes, seed_host};
use goccia_vfs::seed_config::parse_seed_config;
use goccia_vfs::write_back::{CopyRwMapping, WriteBackError, WriteBackReport, write_back};
use goccia_vfs::{
    Change, Quota, SeedError, SeedSpec, SeedTarget, SharedVfs, Snapshot, Vfs, VfsPath,
};
use goccia_vm::{Engine, ExecMode, RunOutcome, RunRequest};
use parking_lot::Mutex;
use thiserror::Error;

/// Diff output formats (contract §6).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiffFormat {
    #[default]
    Json,
    Unified,
}

/// Where a seed comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Seed {
    Host {
        host: PathBuf,
        target: String,
        copy_rw: bool,
    },
    Config(PathBuf),
    Inline {
        path: String,
        content: Bytes,
    },
}

/// Why a sandbox could not be set up. Nothing ran.
#[derive(Debug, Error)]
pub enum SetupError {
    #[error("{0}")]
    Seed(#[from] SeedError),
    #[error("cannot read seed config {}: {source}", .path.display())]
    ConfigUnreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("seed config {}: {problem}", .path.display())]
    Config { path: PathBuf, problem: String },
    #[error("invalid sandbox path `{raw}`: {source}")]
    Path {
        raw: String,
        source: goccia_vfs::PathError,
    },
}

/// Builds a [`Sandbox`]: seeds are applied in the order they were added.
#[derive(Clone, Debug, Default)]
pub struct SandboxBuilder {
    engine: Engine,
    seeds: Vec<Seed>,
}

impl SandboxBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn limits(mut self, limits: Limits) -> Self {
        self.engine.limits = limits;
        self
    }

    /// How guest modules execute (default: interpreted from source).
    pub fn mode(mut self, mode: ExecMode) -> Self {
        self.engine.mode = mode;
        self
    }

    /// What `fetch` may reach (default: nothing).
    pub fn network(mut self, network: NetPolicy) -> Self {
        self.engine.network = network;
        self
    }

    /// Where security-relevant decisions are recorded (default: nowhere).
    pub fn audit(mut self, audit: Audit) -> Self {
        self.engine.audit = audit;
        self
    }

    /// `--seed host[=sandbox]`: copy a host file or folder in (default `/`).
    pub fn seed(mut self, host: impl Into<PathBuf>, target: Option<&str>) -> Self {
        self.seeds.push(Seed::Host {
            host: host.into(),
            target: target.unwrap_or("/").to_string(),
            copy_rw: false,
        });
        self
    }

    /// `--copy-rw host[=sandbox]`: seed, and write changes back after a
    /// successful run when [`Sandbox::write_back`] is called.
    pub fn copy_rw(mut self, host: impl Into<PathBuf>, target: Option<&str>) -> Self {
        self.seeds.push(Seed::Host {
            host: host.into(),
            target: target.unwrap_or("/").to_string(),
            copy_rw: true,
        });
        self
    }

    /// `--seed-config file.json`.
    pub fn seed_config(mut self, path: impl Into<PathBuf>) -> Self {
        self.seeds.push(Seed::Config(path.into()));
        self
    }

    /// An inline file at exactly `path`.
    pub fn file(mut self, path: &str, content: impl Into<Bytes>) -> Self {
        self.seeds.push(Seed::Inline {
            path: path.to_string(),
            content: content.into(),
        });
        self
    }

    /// Seeds the VFS and takes the baseline.
    pub fn build(self) -> Result<Sandbox, SetupError> {
        let quota = Quota {
            max_bytes: self.engine.limits.fs_quota_bytes,
            max_nodes: self.engine.limits.fs_node_limit,
        };
        let mut vfs = Vfs::new(quota);
        let mut copy_rw = Vec::new();
        for seed in &self.seeds {
            apply_seed(&mut vfs, seed, &mut copy_rw)?;
        }
        let baseline = vfs.snapshot();
        Ok(Sandbox {
            vfs: Arc::new(Mutex::new(vfs)),
            baseline,
            copy_rw,
            engine: self.engine,
        })
    }
}

fn target_of(raw: &str) -> Result<SeedTarget, SetupError> {
    Ok(SeedTarget::parse(raw)?)
}

fn apply_seed(
    vfs: &mut Vfs,
    seed: &Seed,
    copy_rw: &mut Vec<CopyRwMapping>,
) -> Result<(), SetupError> {
    match seed {
        Seed::Host {
            host,
            target,
            copy_rw: rw,
        } => {
            let seeded = seed_host(vfs, host, &target_of(target)?)?;
            if *rw {
                copy_rw.push(CopyRwMapping {
                    host_root: std::path::absolute(host).unwrap_or_else(|_| host.clone()),
                    sandbox_root: seeded.path,
                    node_type: seeded.node_type,
                });
            }
        }
        Seed::Inline { path, content } => {
            let path = VfsPath::parse(path).map_err(|source| SetupError::Path {
                raw: path.clone(),
                source,
            })?;
            seed_bytes(vfs, &path, content.clone())?;
        }
        Seed::Config(path) => apply_config(vfs, path)?,
    }
    Ok(())
}

fn apply_config(vfs: &mut Vfs, path: &Path) -> Result<(), SetupError> {
    let text = std::fs::read_to_string(path).map_err(|source| SetupError::ConfigUnreadable {
        path: path.to_path_buf(),
        source,
    })?;
    let problem = |problem: String| SetupError::Config {
        path: path.to_path_buf(),
        problem,
    };
    let specs = parse_seed_config(&text).map_err(|p| problem(p.to_string()))?;
    let folder = path.parent().unwrap_or(Path::new("."));
    for (index, spec) in specs.into_iter().enumerate() {
        let result = match spec {
            SeedSpec::Copy { from, to } => SeedTarget::parse(to.as_deref().unwrap_or("/"))
                .and_then(|target| seed_host(vfs, &folder.join(&from), &target)),
            SeedSpec::Inline {
                path: target,
                content,
            } => VfsPath::parse(&target)
                .map_err(|source| SeedError::BadTarget {
                    raw: target.clone(),
                    source,
                })
                .and_then(|target| seed_bytes(vfs, &target, content)),
        };
        result.map_err(|error| problem(format!("entry {index}: {error}")))?;
    }
    Ok(())
}

/// Why the host could not read or write a sandbox path.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum AccessError {
    #[error("invalid sandbox path `{raw}`: {source}")]
    Path {
        raw: String,
        source: goccia_vfs::PathError,
    },
    #[error("{path}: {reason}")]
    Fs { path: String, reason: &'static str },
}

/// A seeded sandbox.
pub struct Sandbox {
    vfs: SharedVfs,
    baseline: Snapshot,
    copy_rw: Vec<CopyRwMapping>,
    engine: Engine,
}

/// A finished [`Sandbox::run_script`].
#[derive(Clone, Debug)]
pub struct ScriptRun {
    pub outcome: RunOutcome,
    pub duration: std::time::Duration,
}

impl Sandbox {
    pub fn builder() -> SandboxBuilder {
        SandboxBuilder::new()
    }

    pub fn limits(&self) -> &Limits {
        &self.engine.limits
    }

    pub fn mode(&self) -> ExecMode {
        self.engine.mode
    }

    /// Limits, mode and network policy, as nested runs inherit them.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Runs a JS entry (a VFS path) with this sandbox's limits. Output goes
    /// to `output`; its budget bounds what the run may print.
    pub fn run_script(&self, entry: &str, output: &Output) -> Result<ScriptRun, SetupError> {
        let entry = VfsPath::parse(entry).map_err(|source| SetupError::Path {
            raw: entry.to_string(),
            source,
        })?;
        let started = Instant::now();
        let request = RunRequest::new(
            entry,
            self.vfs.clone(),
            output.clone(),
            Watch::new(self.engine.limits.timeout),
            self.engine.clone(),
        );
        let outcome = goccia_vm::run(&request);
        Ok(ScriptRun {
            outcome,
            duration: started.elapsed(),
        })
    }

    /// Changes since the baseline, in apply order.
    pub fn changes(&self) -> Vec<Change> {
        goccia_vfs::diff(&self.baseline, &self.vfs.lock().snapshot())
    }

    /// The diff since the baseline as text.
    pub fn diff(&self, format: DiffFormat) -> String {
        let changes = self.changes();
        match format {
            DiffFormat::Json => goccia_vfs::changes::to_json(&changes),
            DiffFormat::Unified => goccia_vfs::patch::to_unified(&changes),
        }
    }

    /// Writes the changes under `--copy-rw` mappings back to the host.
    /// Call it only after a successful run.
    pub fn write_back(&self) -> Result<WriteBackReport, WriteBackError> {
        write_back(&self.copy_rw, &self.changes())
    }

    /// True when some seed was marked for write-back.
    pub fn has_copy_rw(&self) -> bool {
        !self.copy_rw.is_empty()
    }

    /// A file's content, read from the host side.
    pub fn read(&self, path: &str) -> Result<Bytes, AccessError> {
        let vfs_path = VfsPath::parse(path).map_err(|source| AccessError::Path {
            raw: path.to_string(),
            source,
        })?;
        self.vfs
            .lock()
            .read_file(&vfs_path)
            .map_err(|error| AccessError::Fs {
                path: path.to_string(),
                reason: error.errno.strerror(),
            })
    }

    pub(crate) fn shared_vfs(&self) -> SharedVfs {
        self.vfs.clone()
    }

    /// Bytes and nodes the VFS holds.
    pub fn usage(&self) -> goccia_vfs::Usage {
        self.vfs.lock().usage()
    }
}
