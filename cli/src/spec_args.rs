//! The flags of the sandbox spec (docs/spec.md): every setting of
//! `goccia::SandboxSpec` has one here, in kebab-case, and `--spec FILE`
//! reads a spec file the flags given override. The limits' flags come from
//! the spec's own table, so a new limit needs no line here. `run`,
//! `shell`, `mcp`, `serve` (the ceiling of its sessions) and `goccia spec`
//! share them.

use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches};
use goccia::spec::limits::LIMIT_NAMES;
use goccia::{
    Approve, ExecMode, HostCommandSpec, IsolationMode, Named, PolicyMode, SandboxSpec, SpecError,
    Spelling, SymlinkPolicy,
};

/// A flag whose values are the names of a [`Named`] type: listed for
/// `--help` from the type's own table, and a wrong one refused in the
/// words every surface uses (`--policy: `open` is not one of ...`).
pub fn named<T: Named + Send + Sync + Clone>() -> NamedParser<T> {
    NamedParser(std::marker::PhantomData)
}

/// See [`named`].
#[derive(Clone)]
pub struct NamedParser<T>(std::marker::PhantomData<T>);

impl<T: Named + Send + Sync + Clone> clap::builder::TypedValueParser for NamedParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let text = value.to_string_lossy();
        T::from_name(&text).map_err(|error| {
            let flag = arg
                .and_then(Arg::get_long)
                .map(|long| format!("--{long}: "))
                .unwrap_or_default();
            clap::Error::raw(
                clap::error::ErrorKind::InvalidValue,
                format!("{flag}{error}\n"),
            )
            .with_cmd(command)
        })
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(
            T::NAMES
                .iter()
                .map(|name| clap::builder::PossibleValue::new(*name)),
        ))
    }
}

/// `--env NAME=VALUE`.
fn env_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) => Ok((name.to_string(), value.to_string())),
        None => Err(format!("`{text}` is not NAME=VALUE")),
    }
}

/// The spec's settings as flags.
#[derive(Debug, Args)]
pub struct SpecArgs {
    /// Start from this spec file (JSON, docs/spec.md); flags given on the
    /// command line override its settings. Relative host paths in it are
    /// taken from its folder.
    #[arg(long = "spec", value_name = "FILE", help_heading = "Sandbox")]
    pub spec: Option<PathBuf>,
    /// Set an exported variable for every shell of the sandbox (repeatable);
    /// the host's environment is never read.
    #[arg(long, value_name = "NAME=VALUE", value_parser = env_pair, help_heading = "Sandbox")]
    pub env: Vec<(String, String)>,
    /// Leave out of host seeds what this gitignore-style pattern matches,
    /// relative to each seed's root (repeatable); never written back either.
    #[arg(long, value_name = "GLOB", help_heading = "Seeding")]
    pub exclude: Vec<String>,
    /// Honour .gitignore, .ignore and .git/info/exclude in seeded folders
    /// (as ripgrep does) and leave out .git/.
    #[arg(long, help_heading = "Seeding")]
    pub gitignore: bool,
    /// Symbolic links inside seeded folders: refuse (the seed fails), skip
    /// (left out and listed on stderr), keep (copied as VFS links, resolved
    /// inside the sandbox only).
    #[arg(long, value_name = "POLICY", default_value = "refuse", value_parser = named::<SymlinkPolicy>(), help_heading = "Seeding")]
    pub symlinks: SymlinkPolicy,
    /// Write policy for guest code: read-only (nothing in the sandbox may
    /// change), workspace-write (only the writable roots: --copy-rw
    /// targets, --writable paths and /tmp; never a .git or .goccia inside
    /// them) or full.
    #[arg(long, value_name = "MODE", default_value = "full", value_parser = named::<PolicyMode>(), help_heading = "Policy")]
    pub policy: PolicyMode,
    /// A sandbox path workspace-write may change (repeatable).
    #[arg(long, value_name = "SANDBOX_PATH", help_heading = "Policy")]
    pub writable: Vec<String>,
    /// Who approves escalation requests: never (no approver: requests are
    /// unavailable), always (every checked request is granted once), prompt
    /// (asked on the controlling terminal: y, n, or Ctrl-C), console (goccia
    /// serve --console: a person answers on the web console).
    #[arg(long, value_name = "WHO", default_value = "never", value_parser = named::<Approve>(), help_heading = "Policy")]
    pub approve: Approve,
    /// Append one JSON line per security-relevant decision (fetch, refused
    /// paths, limits, children, write-back) to this host file.
    #[arg(long = "audit-log", value_name = "FILE", help_heading = "Output")]
    pub audit_log: Option<PathBuf>,
    /// How guest modules execute: compiled from source each time, or
    /// compiled once to QuickJS bytecode by the host and loaded from it.
    #[arg(long, value_name = "MODE", default_value = "interpreted", value_parser = named::<ExecMode>(), help_heading = "Engine")]
    pub mode: ExecMode,
    /// Where guest code runs: none (in this process) or process (in a
    /// child process confined by namespaces, rlimits, no_new_privs,
    /// Landlock and a seccomp allow-list; refused, exit 2, when that
    /// confinement cannot be had).
    #[arg(long, value_name = "MODE", env = "GOCCIA_ISOLATE", default_value = "none", value_parser = named::<IsolationMode>(), help_heading = "Engine")]
    pub isolate: IsolationMode,
    /// Let the shell run this host program, confined by bubblewrap over a
    /// copy of the sandbox (repeatable); without =PATH it is found in the
    /// system directories of PATH. What it changes comes back into the
    /// sandbox.
    #[arg(
        long = "host-command",
        value_name = "NAME[=PATH]",
        help_heading = "Host commands"
    )]
    pub host_command: Vec<HostCommandSpec>,
    /// Address-space limit of every process a host command starts.
    #[arg(
        long = "host-command-memory",
        value_name = "BYTES",
        default_value = "1g",
        help_heading = "Host commands"
    )]
    pub host_command_memory: String,
    /// Let fetch, curl, wget and host commands reach this host (exact or
    /// `*.suffix`; any port or only the one given; optionally only under a
    /// path prefix and with these methods); repeatable. Without it every
    /// request is refused. A private address is reached only by a rule
    /// naming it (or `localhost`).
    #[arg(
        long = "allow-host",
        visible_alias = "allowed-host",
        value_name = "HOST[:PORT][/PATH][@METHOD,...]",
        help_heading = "Network"
    )]
    pub allow_host: Vec<String>,
    /// Refuse loopback, private, link-local and other non-public addresses
    /// even when a rule names them.
    #[arg(long = "deny-private-ranges", help_heading = "Network")]
    pub deny_private_ranges: bool,
    /// A secret the guest never sees: its value read from a file (`@FILE`)
    /// or goccia's environment (`env:VAR`), never written here. The guest's
    /// variable NAME holds a placeholder; repeatable.
    #[arg(
        long = "secret",
        value_name = "NAME=@FILE|env:VAR",
        help_heading = "Network"
    )]
    pub secret: Vec<String>,
    /// Sets a header with secrets on requests to a host (overwriting the
    /// guest's): `api.example.com:Authorization=Bearer {NAME}`; repeatable.
    #[arg(
        long = "secret-header",
        value_name = "HOST:HEADER=TEMPLATE",
        help_heading = "Network"
    )]
    pub secret_header: Vec<String>,
    /// Trust this PEM file's authorities upstream besides the system's
    /// roots; repeatable.
    #[arg(long = "ca-file", value_name = "PEM", help_heading = "Network")]
    pub ca_file: Vec<std::path::PathBuf>,
    /// Largest response body fetch returns.
    #[arg(
        long = "fetch-max-bytes",
        value_name = "BYTES",
        default_value = "16m",
        help_heading = "Network"
    )]
    pub fetch_max_bytes: String,
    #[command(flatten)]
    pub limits: LimitFlags,
}

/// One flag per limit of the spec's table (`--timeout`, `--max-memory`,
/// ...), with the table's help and the defaults of `Limits`.
#[derive(Debug, Default)]
pub struct LimitFlags {
    /// The limits given on the command line (or in the environment), as
    /// (JSON name, text).
    pub given: Vec<(&'static str, String)>,
    /// The limits whose value is not the spec's default: those given, and
    /// those a command gives another default (`mcp`'s output limit).
    pub changed: Vec<(&'static str, String)>,
}

/// The clap id of a limit's flag: its Rust name (`max_output`), which
/// `mcp` uses to change defaults.
fn limit_id(rust: &'static str) -> &'static str {
    rust
}

/// Each limit's default as its flag's text (`512m`), in the table's order;
/// made once per process.
fn default_texts() -> &'static [String] {
    static TEXTS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    TEXTS.get_or_init(|| {
        LIMIT_NAMES
            .iter()
            .zip(goccia::LimitsSpec::default().entries())
            .map(|(limit, (_, default))| match default {
                serde_json::Value::String(text) => text,
                serde_json::Value::Number(number) if limit.is_size => {
                    goccia::spec::limits::size_text(number.as_u64().unwrap_or(0))
                }
                other => other.to_string(),
            })
            .collect()
    })
}

impl FromArgMatches for LimitFlags {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        let mut flags = LimitFlags::default();
        for (limit, default) in LIMIT_NAMES.iter().zip(default_texts()) {
            let id = limit_id(limit.rust);
            if let Some(text) = matches.get_one::<String>(id) {
                if text != default {
                    flags.changed.push((limit.json, text.clone()));
                }
                if matches!(
                    matches.value_source(id),
                    Some(ValueSource::CommandLine | ValueSource::EnvVariable)
                ) {
                    flags.given.push((limit.json, text.clone()));
                }
            }
        }
        Ok(flags)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl Args for LimitFlags {
    fn augment_args(command: clap::Command) -> clap::Command {
        LIMIT_NAMES
            .iter()
            .zip(default_texts())
            .fold(command, |command, (limit, default)| {
                command.arg(
                    Arg::new(limit_id(limit.rust))
                        .long(limit.flag.trim_start_matches("--"))
                        .value_name("VALUE")
                        // clap shows the default itself.
                        .help(match limit.help.find(" (default") {
                            Some(end) => &limit.help[..end],
                            None => limit.help,
                        })
                        .default_value(default.as_str())
                        .action(ArgAction::Set)
                        .help_heading("Limits"),
                )
            })
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        Self::augment_args(command)
    }
}

/// Whether the flag `id` was given (on the command line or, for
/// `--isolate`, in the environment) rather than left at its default.
fn given(matches: &ArgMatches, id: &str) -> bool {
    matches!(
        matches.value_source(id),
        Some(ValueSource::CommandLine | ValueSource::EnvVariable)
    )
}

impl SpecArgs {
    /// The effective spec: `--spec`'s file (else the defaults), with every
    /// flag given on the command line applied over it. `matches` are the
    /// subcommand's. An error names the setting as a flag.
    pub fn to_spec(&self, matches: &ArgMatches) -> Result<SandboxSpec, String> {
        let mut spec = match &self.spec {
            Some(path) => read_spec_file(path)?,
            None => SandboxSpec::default(),
        };
        let from_file = self.spec.is_some();
        // Without a file, every flag is the spec (its defaults are the
        // spec's); with one, only the flags given override it.
        let set = |id: &str| !from_file || given(matches, id);
        if set("env") {
            for (name, value) in &self.env {
                spec.env.insert(name.clone(), value.clone());
            }
        }
        if set("exclude") {
            spec.exclude.extend(self.exclude.iter().cloned());
        }
        if set("gitignore") {
            spec.gitignore = spec.gitignore || self.gitignore;
        }
        if set("symlinks") {
            spec.symlinks = self.symlinks;
        }
        if set("policy") {
            spec.policy = self.policy;
        }
        if set("writable") {
            spec.writable.extend(self.writable.iter().cloned());
        }
        if set("approve") {
            spec.approve = self.approve;
        }
        if set("audit_log") && self.audit_log.is_some() {
            spec.audit_log = self.audit_log.clone();
        }
        if set("mode") {
            spec.mode = self.mode;
        }
        if set("isolate") {
            spec.isolation = self.isolate;
        }
        if set("host_command") {
            spec.host_commands.extend(self.host_command.iter().cloned());
        }
        if set("host_command_memory") {
            spec.host_command_memory = size("hostCommandMemory", &self.host_command_memory)?;
        }
        if set("allow_host") {
            spec.network
                .allow_host
                .extend(self.allow_host.iter().cloned());
        }
        if set("deny_private_ranges") {
            spec.network.deny_private_ranges =
                spec.network.deny_private_ranges || self.deny_private_ranges;
        }
        for given in &self.secret {
            let (name, source) = given.split_once('=').ok_or_else(|| {
                SpecError::new(
                    "network.secrets",
                    format!("`{given}`: give NAME=@FILE or NAME=env:VAR"),
                )
                .spelled(Spelling::Flag)
            })?;
            // Never echo what was given: it may be the value itself.
            let source = source.parse().map_err(|why| {
                SpecError::new("network.secrets", format!("secret `{name}`: {why}"))
                    .spelled(Spelling::Flag)
            })?;
            spec.network.secrets.insert(name.to_string(), source);
        }
        spec.network
            .secret_headers
            .extend(self.secret_header.iter().cloned());
        spec.network.ca_files.extend(self.ca_file.iter().cloned());
        if set("fetch_max_bytes") {
            spec.network.fetch_max_bytes = size("network.fetchMaxBytes", &self.fetch_max_bytes)?;
        }
        // Without a file the spec's defaults are the flags' defaults: only
        // what differs from them changes anything.
        let limits = if from_file {
            &self.limits.given
        } else {
            &self.limits.changed
        };
        spec.limits = with_limits(&spec.limits, limits)?;
        spec.validate()
            .map_err(|error| error.spelled(Spelling::Flag))?;
        Ok(spec)
    }
}

/// `limits` with the flags' values set, read as the spec reads them (an
/// error names the limit's flag).
fn with_limits(
    limits: &goccia::LimitsSpec,
    flags: &[(&'static str, String)],
) -> Result<goccia::LimitsSpec, String> {
    if flags.is_empty() {
        return Ok(limits.clone());
    }
    let mut value = serde_json::to_value(limits).expect("limits are plain data");
    for (json, text) in flags {
        // A number is a number; anything else (`64m`, `truncate`) a string.
        value[*json] = match text.parse::<u64>() {
            Ok(number) => serde_json::Value::from(number),
            Err(_) => serde_json::Value::from(text.clone()),
        };
    }
    goccia::LimitsSpec::from_value(value).map_err(|error| error.spelled(Spelling::Flag))
}

fn size(setting: &str, text: &str) -> Result<u64, String> {
    goccia::parse_size(text)
        .map_err(|error| SpecError::new(setting, error.to_string()).spelled(Spelling::Flag))
}

/// A spec file, its relative host paths taken from its folder.
pub fn read_spec_file(path: &std::path::Path) -> Result<SandboxSpec, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|error| format!("--spec {}: {error}", path.display()))?;
    // The file's own spelling: `limits.maxMemory` names its field.
    let mut spec = SandboxSpec::from_json(&text)
        .map_err(|error| format!("--spec {}: {error}", path.display()))?;
    let folder = path.parent().unwrap_or(std::path::Path::new("."));
    spec.resolve_host_paths(folder);
    Ok(spec)
}
