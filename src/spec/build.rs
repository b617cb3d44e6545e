//! A [`SandboxSpec`] made into a [`Sandbox`]: the one place a sandbox is
//! built from options. What a spec cannot hold as data (a callback, an
//! audit trail shared with a server, the words advice is given in) comes
//! in [`Extras`].

use std::path::Path;
use std::sync::Arc;

use goccia_core::{Advice, AllowedHost, Audit, NetPolicy};
use goccia_vfs::policy::{Approver, Decision, EscalationRequest};
use goccia_vfs::seed::{SeedSource, seed_all, seed_bytes, seed_host_filtered};
use goccia_vfs::seed_config::parse_seed_config;
use goccia_vfs::write_back::CopyRwMapping;
use goccia_vfs::{HostFilter, Quota, SeedTarget, Vfs, VfsPath, WritePolicy};
use goccia_vm::Engine;

use super::{Approve, IsolationMode, SandboxSpec, SeedSpec, SpecError};
use crate::isolation::{Isolation, WorkerProgram};
use crate::{Sandbox, SetupError};

/// What a surface hands the build besides the spec.
#[derive(Clone, Default)]
pub struct Extras {
    /// Answers escalation requests when the spec's `approve` is
    /// `prompt` (a terminal), `client` (an MCP client) or `callback`.
    pub approver: Option<Arc<dyn Approver>>,
    /// The trail to record into, instead of opening the spec's
    /// `auditLog` (a server's session forwards to the server's).
    pub audit: Option<Audit>,
    /// Keep events in memory even without an audit log (for a `--json`
    /// envelope).
    pub keep_events: bool,
    /// The surface's words for raising a limit (default: the library's).
    pub advice: Option<Advice>,
    /// The worker program under `isolation: process` (default: this very
    /// program).
    pub worker: Option<WorkerProgram>,
}

impl std::fmt::Debug for Extras {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Extras")
            .field("approver", &self.approver.is_some())
            .field("audit", &self.audit)
            .field("keep_events", &self.keep_events)
            .field("worker", &self.worker)
            .finish_non_exhaustive()
    }
}

impl SandboxSpec {
    /// Validates the spec and builds its sandbox, with the library's
    /// defaults for everything a spec does not hold.
    pub fn build(&self) -> Result<Sandbox, SetupError> {
        self.build_with(Extras::default())
    }

    /// Validates the spec and builds its sandbox: seeds in order, the
    /// baseline taken after them.
    pub fn build_with(&self, extras: Extras) -> Result<Sandbox, SetupError> {
        let _span = tracing::info_span!("goccia.seed", goccia.seeds = self.seeds.len()).entered();
        // A limit out of range stays a `SetupError::Limits`, which a
        // surface can advise on; then the rest of the spec.
        self.limits.to_limits().check()?;
        self.validate().map_err(SetupError::Spec)?;
        let approver = self.approver(extras.approver)?;
        let audit = match (extras.audit, &self.audit_log) {
            (Some(audit), _) => audit,
            (None, Some(path)) => open_audit_log(path)?,
            (None, None) if extras.keep_events => Audit::new(None),
            (None, None) => Audit::default(),
        };
        let mut engine = Engine {
            limits: self.limits.to_limits(),
            mode: self.mode,
            network: self.network_policy()?,
            audit,
            advice: extras
                .advice
                .unwrap_or_else(|| super::advice_for(super::Spelling::Rust)),
            env: self
                .env
                .iter()
                .map(|(name, value)| (name.clone(), value.clone()))
                .collect(),
            ..Engine::default()
        };
        // Each secret's variable holds its placeholder (docs/network.md).
        let placeholders = engine.network.secret_set().guest_env();
        engine.env.extend(placeholders);
        let host = self.host_runner(&engine)?;
        if let Some(runner) = &host {
            engine.programs = goccia_vm::HostPrograms(Some(runner.clone()));
        }
        let isolation = match self.isolation {
            IsolationMode::None => Isolation::None,
            IsolationMode::Process => Isolation::Process(match extras.worker {
                Some(worker) => worker,
                None => WorkerProgram::current_exe().map_err(|error| {
                    SetupError::Spec(SpecError::new(
                        "isolation",
                        format!("cannot find this program to start as the worker: {error}"),
                    ))
                })?,
            }),
        };
        // An isolated sandbox's worker starts now and confines itself
        // while the seeds are read (docs/isolation.md, "When the worker
        // starts").
        let backend = crate::isolation::Backend::new(isolation, false);
        backend.start(&engine.limits, host.is_some());
        let quota = Quota {
            max_bytes: engine.limits.fs_quota_bytes,
            max_nodes: engine.limits.fs_node_limit,
        };
        let filter = HostFilter::default()
            .gitignore(self.gitignore)
            .symlinks(self.symlinks);
        let filter = self
            .exclude
            .iter()
            .fold(filter, |filter, pattern| filter.exclude(pattern.clone()));
        let mut vfs = Vfs::new(quota);
        let mut copy_rw = Vec::new();
        for seed in &self.seeds {
            apply_seed(&mut vfs, seed, &mut copy_rw, &filter)?;
        }
        let writable = self
            .writable
            .iter()
            .map(|raw| VfsPath::parse(raw).expect("validated"))
            .collect::<Vec<_>>();
        let mut policy = WritePolicy::new(
            self.policy,
            copy_rw.iter().map(|mapping| mapping.sandbox_root.clone()),
            writable,
        );
        if let Some(approver) = approver {
            policy = policy.with_approver(approver);
        }
        vfs.set_policy(Some(policy));
        let mut sandbox = Sandbox::new(vfs, copy_rw, engine);
        sandbox.backend = backend;
        sandbox.host = host;
        sandbox.seed_skipped = filter.skipped();
        // What it was built from, with the host paths as they were read
        // (relative ones from the current folder).
        let mut built_from = self.clone();
        if let Ok(here) = std::env::current_dir() {
            built_from.resolve_host_paths(&here);
        }
        sandbox.spec = Arc::new(built_from);
        Ok(sandbox)
    }

    /// The approver `approve` names.
    fn approver(
        &self,
        given: Option<Arc<dyn Approver>>,
    ) -> Result<Option<Arc<dyn Approver>>, SetupError> {
        let needs = |what: &str| {
            SetupError::Spec(SpecError::new(
                "approve",
                format!("`{}` needs {what}", self.approve),
            ))
        };
        match (self.approve, given) {
            (Approve::Never, _) => Ok(None),
            (Approve::Always, _) => Ok(Some(Arc::new(|_: &EscalationRequest| {
                Decision::AllowedOnce
            }))),
            (_, Some(approver)) => Ok(Some(approver)),
            (Approve::Prompt, None) => Err(needs("a terminal (goccia run or goccia shell)")),
            (Approve::Client, None) => Err(needs("an MCP client (goccia mcp)")),
            (Approve::Callback, None) => Err(needs("an approver function given with the spec")),
            (Approve::Console, None) => {
                Err(needs("the sandbox server's web console (goccia serve)"))
            }
        }
    }

    /// The network policy: the rules (validated), private ranges, the
    /// body cap, the secrets (read now) and the upstream roots.
    fn network_policy(&self) -> Result<NetPolicy, SetupError> {
        let secrets = self.network.secrets().map_err(SetupError::Spec)?;
        // A CA file that cannot be read fails now, not at the first request.
        for path in &self.network.ca_files {
            goccia_gateway::trust::read_pem(path)
                .map_err(|why| SetupError::Spec(SpecError::new("network.caFiles", why)))?;
        }
        let builder = NetPolicy::builder()
            .allow_all(
                self.network
                    .allow_host
                    .iter()
                    .map(|entry| AllowedHost::parse(entry).expect("validated")),
            )
            .private_ranges_refused(self.network.deny_private_ranges)
            .max_body_bytes(self.network.fetch_max_bytes)
            .secrets(secrets);
        let builder = self
            .network
            .ca_files
            .iter()
            .fold(builder, |builder, path| builder.ca_file(path.clone()));
        Ok(builder.build())
    }

    /// The host commands' runner, if any were asked for, with the
    /// sandbox's gateway as their only way out.
    fn host_runner(
        &self,
        engine: &Engine,
    ) -> Result<Option<Arc<goccia_host_commands::HostRunner>>, SetupError> {
        if self.host_commands.is_empty() {
            return Ok(None);
        }
        // The host's PATH says where to look (host-side configuration,
        // never given to the guest).
        let search = std::env::var("PATH").ok();
        let mut programs = Vec::new();
        for command in &self.host_commands {
            let program = goccia_host_commands::Program::resolve(
                &command.name,
                command.path.as_deref(),
                search.as_deref(),
            )?;
            programs.retain(|known: &goccia_host_commands::Program| known.name != program.name);
            programs.push(program);
        }
        let mut settings = goccia_host_commands::HostSettings::new(programs);
        settings.memory = self.host_command_memory;
        settings.gateway = Some(goccia_gateway::proxy::Gateway::new(
            engine.network.clone(),
            engine.audit.clone(),
            engine.advice.clone(),
        ));
        #[cfg(feature = "test-hooks")]
        if let Ok(bwrap) = std::env::var("GOCCIA_TEST_BWRAP") {
            settings.bwrap = std::path::PathBuf::from(bwrap);
        }
        Ok(Some(goccia_host_commands::HostRunner::new(settings)))
    }
}

/// The `auditLog` file, opened for appending.
fn open_audit_log(path: &Path) -> Result<Audit, SetupError> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|error| {
            SetupError::Spec(SpecError::new(
                "auditLog",
                format!("{}: {error}", path.display()),
            ))
        })?;
    Ok(Audit::new(Some(Box::new(file))))
}

fn apply_seed(
    vfs: &mut Vfs,
    seed: &SeedSpec,
    copy_rw: &mut Vec<CopyRwMapping>,
    filter: &HostFilter,
) -> Result<(), SetupError> {
    match seed {
        SeedSpec::Host {
            from,
            to,
            copy_rw: rw,
        } => {
            if *rw {
                goccia_vfs::seed::refuse_links_on_write_path(from)?;
            }
            let target = SeedTarget::parse(to.as_deref().unwrap_or("/"))?;
            let seeded = seed_host_filtered(vfs, from, &target, filter)?;
            // Host paths left out, as sandbox paths under the seed.
            let left_out = filter
                .take_left_out()
                .iter()
                .filter_map(|path| path.strip_prefix(from).ok())
                .filter_map(|relative| relative.to_str())
                .filter_map(|relative| seeded.path.resolve(relative).ok())
                .collect();
            if *rw {
                copy_rw.push(CopyRwMapping {
                    host_root: std::path::absolute(from).unwrap_or_else(|_| from.clone()),
                    sandbox_root: seeded.path,
                    node_type: seeded.node_type,
                    left_out,
                });
            }
        }
        SeedSpec::Inline { path, content } => {
            let path = VfsPath::parse(path).map_err(|error| {
                SetupError::Spec(SpecError::new("seeds", format!("`{path}`: {error}")))
            })?;
            seed_bytes(vfs, &path, content.clone())?;
        }
        SeedSpec::Config { config } => apply_config(vfs, config, filter)?,
    }
    Ok(())
}

/// The largest seed config read (a config lists files; it does not hold
/// a repository).
const MAX_SEED_CONFIG_BYTES: u64 = 64 << 20;

/// A seed config's text: a regular file of at most
/// [`MAX_SEED_CONFIG_BYTES`], checked from its metadata and read with that
/// cap (a device such as `/dev/zero` is never read).
fn read_config(path: &Path) -> Result<Result<String, String>, SetupError> {
    use std::io::Read;
    let unreadable = |source| SetupError::ConfigUnreadable {
        path: path.to_path_buf(),
        source,
    };
    let metadata = std::fs::metadata(path).map_err(unreadable)?;
    if !metadata.is_file() {
        return Ok(Err("not a regular file".to_string()));
    }
    if metadata.len() > MAX_SEED_CONFIG_BYTES {
        return Ok(Err(format!(
            "larger than {MAX_SEED_CONFIG_BYTES} bytes ({} bytes)",
            metadata.len()
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(unreadable)?
        .take(MAX_SEED_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() as u64 > MAX_SEED_CONFIG_BYTES {
        return Ok(Err(format!("larger than {MAX_SEED_CONFIG_BYTES} bytes")));
    }
    Ok(String::from_utf8(bytes).map_err(|_| "not valid UTF-8".to_string()))
}

fn apply_config(vfs: &mut Vfs, path: &Path, filter: &HostFilter) -> Result<(), SetupError> {
    let problem = |problem: String| SetupError::Config {
        path: path.to_path_buf(),
        problem,
    };
    let text = read_config(path)?.map_err(problem)?;
    let specs = parse_seed_config(&text).map_err(|p| problem(p.to_string()))?;
    let folder = path.parent().unwrap_or(Path::new("."));
    seed_all(vfs, &specs, SeedSource::Host { folder, filter })
        .map_err(|error| problem(format!("entry {}: {}", error.index, error.source)))?;
    Ok(())
}
