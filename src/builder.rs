//! [`SandboxBuilder`]: a [`SandboxSpec`] filled from Rust, one method per
//! setting, plus what a spec cannot hold as data (an approver function,
//! an audit trail, the words of advice). `build` is the spec's.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use goccia_core::{Advice, Audit, Limits, NetPolicy};
use goccia_vfs::policy::Approver;
use goccia_vfs::{PolicyMode, SymlinkPolicy};
use goccia_vm::ExecMode;

use crate::spec::{
    Approve, Extras, HostCommandSpec, IsolationMode, LimitsSpec, SandboxSpec, SeedSpec,
};
use crate::{Sandbox, SetupError};

impl Sandbox {
    /// A builder; see [`SandboxBuilder`].
    ///
    /// ```
    /// let sandbox = goccia::Sandbox::builder().build()?;
    /// let names: Vec<_> = sandbox.list("/")?.into_iter().map(|e| e.name).collect();
    /// assert_eq!(names, ["tmp"]); // every sandbox starts with an empty /tmp
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn builder() -> SandboxBuilder {
        SandboxBuilder::new()
    }
}

/// Builds a [`Sandbox`]. Every setting has a bounded default (see
/// [`Limits`]); the network is off and nothing is audited unless asked.
///
/// ```
/// use std::time::Duration;
/// use goccia::{Limits, Sandbox};
///
/// let sandbox = Sandbox::builder()
///     .limits(Limits::default().timeout(Duration::from_secs(5)))
///     .file("/main.js", "console.log('hi')")
///     .build()?;
/// assert_eq!(sandbox.run_script("/main.js")?.stdout_text(), "hi\n");
/// # Ok::<(), goccia::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct SandboxBuilder {
    spec: SandboxSpec,
    extras: Extras,
}

impl SandboxBuilder {
    /// A builder with the defaults: no files, default [`Limits`],
    /// interpreted mode, no network, no audit trail, advice that names
    /// the builder methods raising each limit.
    pub fn new() -> Self {
        Self::default()
    }

    /// The words messages use to tell the user how to raise a limit or
    /// change a setting (default: the library's builder methods, such as
    /// `raise it with Limits::timeout`; [`Advice::default`] says nothing).
    /// A surface with options of its own (a CLI's flags, a server's
    /// fields) installs its own words.
    ///
    /// ```
    /// # use std::time::Duration;
    /// # use goccia::{Advice, LimitKind, Limits, Sandbox, Setting};
    /// let sandbox = Sandbox::builder()
    ///     .limits(Limits::default().timeout(Duration::from_millis(50)))
    ///     .advice(Advice::new(|setting| match setting {
    ///         Setting::Limit(LimitKind::Deadline) => Some("ask for more time".into()),
    ///         _ => None,
    ///     }))
    ///     .build()?;
    /// let run = sandbox.run_shell("while :; do :; done")?;
    /// assert!(run.failure.unwrap().message.ends_with("passed (ask for more time)"));
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn advice(mut self, advice: Advice) -> Self {
        self.extras.advice = Some(advice);
        self
    }

    /// The limits every run in the sandbox (and its children) gets.
    ///
    /// ```
    /// # use goccia::{Limits, Sandbox, FailureKind};
    /// let sandbox = Sandbox::builder()
    ///     .limits(Limits::default().max_output(4))
    ///     .file("/loud.js", "console.log('far too much')")
    ///     .build()?;
    /// let run = sandbox.run_script("/loud.js")?;
    /// assert_eq!(run.failure_kind(), Some(FailureKind::ResourceLimit));
    /// assert_eq!(run.stdout_text(), "far ");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn limits(mut self, limits: Limits) -> Self {
        self.spec.limits = LimitsSpec::from(&limits);
        self
    }

    /// How guest modules execute (default: interpreted from source).
    ///
    /// ```
    /// # use goccia::{ExecMode, Sandbox};
    /// let sandbox = Sandbox::builder()
    ///     .mode(ExecMode::Bytecode)
    ///     .file("/main.js", "console.log(6 * 7)")
    ///     .build()?;
    /// assert_eq!(sandbox.run_script("/main.js")?.stdout_text(), "42\n");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn mode(mut self, mode: ExecMode) -> Self {
        self.spec.mode = mode;
        self
    }

    /// What `fetch` may reach (default: nothing; every `fetch` is a
    /// `TypeError` naming the host).
    ///
    /// ```
    /// # use goccia::{AllowedHost, NetPolicy, Sandbox};
    /// let sandbox = Sandbox::builder()
    ///     .network(
    ///         NetPolicy::builder()
    ///             .allow(AllowedHost::parse("api.example.com")?)
    ///             .refuse_private_ranges()
    ///             .max_body_bytes(1 << 20)
    ///             .build(),
    ///     )
    ///     .build()?;
    /// # let _ = sandbox;
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn network(mut self, network: NetPolicy) -> Self {
        self.spec.network = crate::spec::NetworkSpec::from(&network);
        self
    }

    /// Where security-relevant decisions are recorded (default: nowhere).
    ///
    /// ```
    /// # use goccia::{Audit, Sandbox};
    /// let audit = Audit::new(None); // in memory; `Some(writer)` for JSON lines
    /// let sandbox = Sandbox::builder()
    ///     .audit(audit.clone())
    ///     .file("/main.js", "await fetch('https://example.com').catch(() => {})")
    ///     .build()?;
    /// sandbox.run_script("/main.js")?;
    /// let event = &audit.events()[0];
    /// assert_eq!((event.kind, event.decision), ("fetch", "deny"));
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn audit(mut self, audit: Audit) -> Self {
        self.extras.audit = Some(audit);
        self
    }

    /// `--seed host[=sandbox]`: copy a host file or folder in, at `target`
    /// (default `/`). A copy, never a live mount; host symlinks are
    /// refused when the sandbox is built.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let host = tempfile::tempdir()?;
    /// std::fs::write(host.path().join("notes.txt"), "hello")?;
    /// let sandbox = Sandbox::builder().seed(host.path(), Some("/work")).build()?;
    /// assert_eq!(&sandbox.read("/work/notes.txt")?[..], b"hello");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn seed(self, host: impl Into<PathBuf>, target: Option<&str>) -> Self {
        self.host_seed(host.into(), target, false)
    }

    /// `--copy-rw host[=sandbox]`: seed, and let [`Sandbox::write_back`]
    /// write the changes under `target` back to `host`.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let host = tempfile::tempdir()?;
    /// let sandbox = Sandbox::builder().copy_rw(host.path(), Some("/out")).build()?;
    /// sandbox.run_shell("echo done > /out/status")?;
    /// let report = sandbox.write_back()?;
    /// assert_eq!(report.written.len(), 1);
    /// assert_eq!(std::fs::read_to_string(host.path().join("status"))?, "done\n");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn copy_rw(self, host: impl Into<PathBuf>, target: Option<&str>) -> Self {
        self.host_seed(host.into(), target, true)
    }

    fn host_seed(mut self, host: PathBuf, target: Option<&str>, copy_rw: bool) -> Self {
        self.spec.seeds.push(SeedSpec::Host {
            from: host,
            to: target.map(str::to_string),
            copy_rw,
        });
        self
    }

    /// `--seed-config file.json`: `{"files":[{"from","to"?} | {"path","text"}
    /// | {"path","base64"}]}`, `from` relative to the file's folder.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let host = tempfile::tempdir()?;
    /// let config = host.path().join("seeds.json");
    /// std::fs::write(&config, r#"{"files":[{"path":"/a.txt","text":"A"}]}"#)?;
    /// let sandbox = Sandbox::builder().seed_config(&config).build()?;
    /// assert_eq!(&sandbox.read("/a.txt")?[..], b"A");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn seed_config(mut self, path: impl Into<PathBuf>) -> Self {
        self.spec.seeds.push(SeedSpec::Config {
            config: path.into(),
        });
        self
    }

    /// An inline file at exactly `path` (parent folders are created).
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().file("/data/n.bin", vec![0u8, 1, 2]).build()?;
    /// assert_eq!(sandbox.read("/data/n.bin")?.len(), 3);
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn file(mut self, path: &str, content: impl Into<Bytes>) -> Self {
        self.spec.seeds.push(SeedSpec::Inline {
            path: path.to_string(),
            content: content.into(),
        });
        self
    }

    /// Checks the limits, seeds the VFS and takes the baseline the diff
    /// is measured from.
    ///
    /// ```
    /// # use goccia::{Limits, Sandbox, SetupError};
    /// let error = Sandbox::builder().seed("/no/such/folder", None).build().unwrap_err();
    /// assert!(matches!(error, SetupError::Seed(_)));
    /// assert!(error.to_string().contains("/no/such/folder"));
    /// let error = Sandbox::builder().limits(Limits::default().stack_size(1)).build();
    /// assert!(matches!(error, Err(SetupError::Limits(_))));
    /// ```
    pub fn build(self) -> Result<Sandbox, SetupError> {
        self.spec.build_with(self.extras)
    }

    /// The spec filled so far (what [`SandboxBuilder::build`] builds).
    pub fn spec(&self) -> &SandboxSpec {
        &self.spec
    }

    /// A builder that starts from `spec` (a file's, a request's) and adds
    /// what only a program can give.
    pub fn from_spec(spec: SandboxSpec) -> Self {
        SandboxBuilder {
            spec,
            extras: Extras::default(),
        }
    }

    /// What the build gets besides the spec (an approver function, an
    /// audit trail, advice, the worker program).
    pub fn extras(mut self, extras: Extras) -> Self {
        self.extras = extras;
        self
    }

    /// Lets the shell (and `$`) run the host program `name` (docs/host-commands.md):
    /// at `path`, or found once in the system directories of the host's
    /// `PATH`. It runs confined by bubblewrap over a copy of the VFS, and
    /// what it changes comes back into the VFS. It takes precedence over a
    /// virtual command of the same name; nothing else of the host starts.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let error = Sandbox::builder().host_command("no-such-tool", None).build().unwrap_err();
    /// assert!(error.to_string().contains("no executable `no-such-tool`"));
    /// ```
    pub fn host_command(mut self, name: &str, path: Option<&Path>) -> Self {
        self.spec.host_commands.push(HostCommandSpec {
            name: name.to_string(),
            path: path.map(Path::to_path_buf),
        });
        self
    }

    /// The address-space limit of every process a host command starts
    /// (default [`DEFAULT_HOST_COMMAND_MEMORY`](crate::spec::DEFAULT_HOST_COMMAND_MEMORY)).
    pub fn host_command_memory(mut self, bytes: u64) -> Self {
        self.spec.host_command_memory = bytes;
        self
    }

    /// Where guest code runs (docs/isolation.md; default
    /// [`Isolation::None`](crate::isolation::Isolation::None), this
    /// process). With [`Isolation::Process`](crate::isolation::Isolation::Process)
    /// every script and shell call runs in a confined worker process; if
    /// confinement cannot be had, calls fail with
    /// [`RunError::SandboxUnavailable`](crate::RunError::SandboxUnavailable)
    /// and nothing runs unconfined.
    pub fn isolation(mut self, isolation: crate::isolation::Isolation) -> Self {
        match isolation {
            crate::isolation::Isolation::None => {
                self.spec.isolation = IsolationMode::None;
                self.extras.worker = None;
            }
            crate::isolation::Isolation::Process(worker) => {
                self.spec.isolation = IsolationMode::Process;
                self.extras.worker = Some(worker);
            }
        }
        self
    }

    /// The write policy's mode (docs/policy.md; default
    /// [`PolicyMode::Full`]). Under [`PolicyMode::WorkspaceWrite`] guest
    /// code may change only the writable roots: every `copy_rw` target,
    /// every [`SandboxBuilder::writable`] path and `/tmp`, and never a
    /// `.git` or `.goccia` inside them. The host's own calls
    /// ([`Sandbox::write`], [`Sandbox::apply`], ...) are not fenced.
    ///
    /// ```
    /// # use goccia::{PolicyMode, Sandbox};
    /// let sandbox = Sandbox::builder()
    ///     .policy(PolicyMode::WorkspaceWrite)
    ///     .writable("/out")
    ///     .build()?;
    /// assert_eq!(sandbox.run_shell("mkdir -p /out && echo ok > /out/a")?.exit_code, 0);
    /// let denied = sandbox.run_shell("echo no > /etc.txt")?;
    /// assert_eq!(denied.exit_code, 1);
    /// assert!(denied.stderr_text().contains("[sandbox: file access denied under workspace-write mode]"));
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn policy(mut self, mode: PolicyMode) -> Self {
        self.spec.policy = mode;
        self
    }

    /// Adds a writable root (a sandbox path) for
    /// [`PolicyMode::WorkspaceWrite`]. An invalid path is refused by
    /// [`SandboxBuilder::build`].
    pub fn writable(mut self, path: impl Into<String>) -> Self {
        self.spec.writable.push(path.into());
        self
    }

    /// The host's approver of escalation requests (docs/policy.md): called
    /// with each request that passed its checks, on the thread of the
    /// call asking; a grant covers that one call. Without one, every
    /// request is `unavailable` and denials carry no hint.
    ///
    /// ```
    /// # use goccia::{Decision, EscalationRequest, PolicyMode, Sandbox};
    /// let sandbox = Sandbox::builder()
    ///     .policy(PolicyMode::ReadOnly)
    ///     .approver(|request: &EscalationRequest| {
    ///         if request.justification.contains("report") { Decision::AllowedOnce } else { Decision::Rejected }
    ///     })
    ///     .build()?;
    /// let run = sandbox.run_shell(
    ///     "escalate --mode workspace-write --justification 'write the report' -- touch /tmp/report",
    /// )?;
    /// assert_eq!(run.exit_code, 0);
    /// assert!(sandbox.read("/tmp/report").is_ok());
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn approver(mut self, approver: impl Approver + 'static) -> Self {
        self.spec.approve = Approve::Callback;
        self.extras.approver = Some(Arc::new(approver));
        self
    }

    /// Sets an exported variable every shell of the sandbox (`run_shell`,
    /// `$`, nested runs) starts with. The host's own environment is never
    /// read; this is the only way in. A name that is not a shell
    /// identifier is refused by [`SandboxBuilder::build`].
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().env("GREETING", "hi").build()?;
    /// assert_eq!(sandbox.run_shell("echo $GREETING; env | grep GREETING")?.stdout_text(), "hi\nGREETING=hi\n");
    /// assert!(Sandbox::builder().env("1BAD", "x").build().is_err());
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn env(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.spec.env.insert(name.into(), value.into());
        self
    }

    /// Leaves out of host seeds what `pattern` matches: gitignore syntax,
    /// relative to each seed's root (`node_modules/`, `*.log`, `/build`).
    /// What is left out is never written back either.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let host = tempfile::tempdir()?;
    /// std::fs::create_dir(host.path().join("node_modules"))?;
    /// std::fs::write(host.path().join("node_modules/x.js"), "")?;
    /// std::fs::write(host.path().join("app.js"), "")?;
    /// let sandbox = Sandbox::builder().seed(host.path(), Some("/w")).exclude("node_modules/").build()?;
    /// assert!(sandbox.read("/w/app.js").is_ok());
    /// assert!(sandbox.read("/w/node_modules/x.js").is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn exclude(mut self, pattern: impl Into<String>) -> Self {
        self.spec.exclude.push(pattern.into());
        self
    }

    /// Honours each seeded tree's `.gitignore`, `.ignore` and
    /// `.git/info/exclude` as ripgrep does, and leaves out `.git/`
    /// (default: off, everything is seeded).
    pub fn gitignore(mut self, on: bool) -> Self {
        self.spec.gitignore = on;
        self
    }

    /// What to do with symbolic links inside seeded folders (default
    /// [`SymlinkPolicy::Refuse`]: the seed fails naming the link;
    /// [`SymlinkPolicy::Skip`] leaves them out, listed by
    /// [`Sandbox::seed_skipped`]; [`SymlinkPolicy::Keep`] is refused until
    /// the VFS has links).
    pub fn symlinks(mut self, policy: SymlinkPolicy) -> Self {
        self.spec.symlinks = policy;
        self
    }
}
