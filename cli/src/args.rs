//! Command-line flags, parsed in two stages: clap checks the syntax, then
//! [`SeedOrder`] recovers the command-line order of the seeding flags,
//! which clap keeps in separate lists.

use std::path::PathBuf;
use std::time::Duration;

use clap::{ArgMatches, Args, Parser, Subcommand, ValueEnum};
use goccia::{AllowedHost, DiffFormat, ExecMode, Limits, NetPolicy, Overflow, parse_size};

const AFTER_HELP: &str = "\
Exit codes: 0 success, 1 script error (also a refused write-back), 2 usage error (nothing ran),
3 resource limit (memory, fs quota, output cap, nesting depth), 4 timeout, 70 internal error.

Every option accepts both `--name value` and `--name=value`. Sizes accept k, m and g suffixes.";

#[derive(Debug, Parser)]
#[command(
    name = "goccia",
    version,
    about = "A sandboxed JavaScript runtime and virtual shell for AI agents",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run a sandbox entry (a VFS path such as /main.js).
    Run(RunArgs),
    /// The virtual shell: -c runs a command line, a path runs a VFS script,
    /// otherwise stdin is the script (an interactive session on a terminal).
    Shell(ShellArgs),
    /// A Model Context Protocol server: one sandbox per MCP session with
    /// shell, run_script, read/write/edit, list, diff and snapshot tools
    /// (stdio, or streamable HTTP with --http and --token-file).
    Mcp(McpArgs),
    /// The sandbox server: persistent sandboxes over HTTP, token grants,
    /// fenced submits to workspaces, a change log.
    Serve(crate::serve::ServeArgs),
    /// Print a workspace's change log (.goccia/changes.jsonl).
    Log(crate::serve::LogArgs),
}

const APPROVE_HELP: &str = "Who approves escalation requests: client (the MCP client is asked \
through elicitation; a client without it answers unavailable), never (no approver: requests are \
unavailable), always (every checked request is granted once)";

/// `goccia mcp`: the sandbox flags with MCP's defaults (truncated output,
/// the client as approver), and the server's own.
#[derive(Debug, Args)]
#[command(
    mut_arg("max_output", |arg| arg.default_value("256k")),
    mut_arg("output_overflow", |arg| arg.default_value("truncate")),
    mut_arg("approve", |arg| arg
        .default_value("client")
        .value_parser(["client", "never", "always"])
        .help(APPROVE_HELP)),
)]
pub struct McpArgs {
    /// Serve streamable HTTP at http://<ADDRESS>/mcp instead of stdio (a
    /// loopback address such as 127.0.0.1:8765; port 0 picks one and the
    /// address is printed on stderr). Requires --token-file.
    #[arg(long, value_name = "ADDRESS", help_heading = "MCP")]
    pub http: Option<String>,
    /// The bearer token HTTP clients must send (the file's content, trimmed).
    #[arg(long = "token-file", value_name = "FILE", help_heading = "MCP")]
    pub token_file: Option<PathBuf>,
    /// Offer the write_back tool (needs --copy-rw): the model may then
    /// write the sandbox's changes to the --copy-rw folders.
    #[arg(long = "allow-write-back", help_heading = "MCP")]
    pub allow_write_back: bool,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

#[derive(Debug, Args)]
pub struct ShellArgs {
    /// Run this command line (the words after it become $0, $1, ...).
    #[arg(short = 'c', value_name = "CMDLINE")]
    pub command: Option<String>,
    /// A script in the sandbox filesystem and its arguments (or, with -c,
    /// $0 and the positional parameters).
    #[arg(value_name = "SCRIPT_AND_ARGS", trailing_var_arg = true)]
    pub args: Vec<String>,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

#[derive(Debug, Args)]
pub struct RunArgs {
    /// The entry module: a path in the sandbox filesystem, or `-` to read
    /// the entry's source from stdin (it never appears in the VFS).
    #[arg(
        value_name = "ENTRY",
        required_unless_present = "eval",
        conflicts_with = "eval"
    )]
    pub entry: Option<String>,
    /// Run this JS source as the entry (it never appears in the VFS or the
    /// diff).
    #[arg(short = 'e', long = "eval", value_name = "JS")]
    pub eval: Option<String>,
    #[command(flatten)]
    pub sandbox: SandboxArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ModeArg {
    Interpreted,
    Bytecode,
}

impl From<ModeArg> for ExecMode {
    fn from(value: ModeArg) -> Self {
        match value {
            ModeArg::Interpreted => ExecMode::Interpreted,
            ModeArg::Bytecode => ExecMode::Bytecode,
        }
    }
}

/// `--diff-format`: the names `DiffFormat::parse` takes, listed for `--help`.
fn diff_format() -> impl clap::builder::TypedValueParser<Value = DiffFormat> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(["json", "unified"])
        .map(|name| DiffFormat::parse(&name).expect("a listed name"))
}

fn size(text: &str) -> Result<u64, String> {
    parse_size(text).map_err(|e| e.to_string())
}

/// `--env NAME=VALUE`.
fn env_pair(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((name, value)) => Ok((name.to_string(), value.to_string())),
        None => Err(format!("`{text}` is not NAME=VALUE")),
    }
}

/// A flag whose values are the names of a [`goccia::Named`] type, listed
/// for `--help` from the type's own table.
fn named<T: goccia::Named + Send + Sync + Clone>() -> impl clap::builder::TypedValueParser<Value = T>
{
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(T::NAMES)
        .map(|name| T::from_name(&name).expect("one of the listed names"))
}

/// The options `run` and `shell` share: seeding, limits, diff, write-back.
#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Copy a host file or folder into the sandbox (repeatable; default target /).
    #[arg(long, value_name = "HOST[=SANDBOX]", help_heading = "Seeding")]
    pub seed: Vec<String>,
    /// Like --seed, and write the run's changes back to it after a successful run.
    #[arg(
        long = "copy-rw",
        value_name = "HOST[=SANDBOX]",
        help_heading = "Seeding"
    )]
    pub copy_rw: Vec<String>,
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
    #[arg(long, value_name = "POLICY", default_value = "refuse", value_parser = named::<goccia::SymlinkPolicy>(), help_heading = "Seeding")]
    pub symlinks: goccia::SymlinkPolicy,
    /// Write policy for guest code: read-only (nothing in the sandbox may
    /// change), workspace-write (only the writable roots: --copy-rw
    /// targets, --writable paths and /tmp; never a .git or .goccia inside
    /// them) or full.
    #[arg(long, value_name = "MODE", default_value = "full", value_parser = named::<goccia::PolicyMode>(), help_heading = "Policy")]
    pub policy: goccia::PolicyMode,
    /// A sandbox path workspace-write may change (repeatable).
    #[arg(long, value_name = "SANDBOX_PATH", help_heading = "Policy")]
    pub writable: Vec<String>,
    /// Who approves escalation requests: never (no approver: requests are
    /// unavailable), always (every checked request is granted once), prompt
    /// (asked on the controlling terminal: y, n, or Ctrl-C).
    #[arg(long, value_name = "WHO", default_value = "never", value_parser = ["never", "always", "prompt"], help_heading = "Policy")]
    pub approve: String,
    /// Seed from a JSON file: {"files":[{"from","to"}|{"path","text"}|{"path","base64"}]}.
    #[arg(long = "seed-config", value_name = "FILE", help_heading = "Seeding")]
    pub seed_config: Vec<PathBuf>,

    /// Print the changes made to the sandbox after the run.
    #[arg(long, help_heading = "Diff")]
    pub diff: bool,
    /// Format of the diff.
    #[arg(
        long = "diff-format",
        value_parser = diff_format(),
        default_value = "json",
        value_name = "FORMAT",
        help_heading = "Diff"
    )]
    pub diff_format: DiffFormat,
    /// Write the diff to this host file instead of stdout (implies --diff).
    #[arg(long = "diff-output", value_name = "FILE", help_heading = "Diff")]
    pub diff_output: Option<PathBuf>,
    /// Make unified patch paths relative to this sandbox folder, so the
    /// patch applies with plain `git apply` in the host folder seeded there
    /// (changes outside it are left out of the patch).
    #[arg(long = "diff-root", value_name = "DIR", help_heading = "Diff")]
    pub diff_root: Option<String>,
    /// Replace stdout with one JSON object describing the run.
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Append one JSON line per security-relevant decision (fetch, refused
    /// paths, limits, children, write-back) to this host file.
    #[arg(long = "audit-log", value_name = "FILE", help_heading = "Output")]
    pub audit_log: Option<PathBuf>,

    /// How guest modules execute: compiled from source each time, or
    /// compiled once to QuickJS bytecode by the host and loaded from it.
    #[arg(
        long,
        value_enum,
        default_value = "interpreted",
        value_name = "MODE",
        help_heading = "Engine"
    )]
    pub mode: ModeArg,

    /// Let the shell run this host program, confined by bubblewrap over a
    /// copy of the sandbox (repeatable); without =PATH it is found in the
    /// system directories of PATH. What it changes comes back into the
    /// sandbox.
    #[arg(
        long = "host-command",
        value_name = "NAME[=PATH]",
        help_heading = "Host commands"
    )]
    pub host_command: Vec<String>,
    /// Address-space limit of every process a host command starts.
    #[arg(long = "host-command-memory", value_name = "BYTES", value_parser = size, default_value = "1g", help_heading = "Host commands")]
    pub host_command_memory: u64,

    /// Where guest code runs: none (in this process) or process (in a
    /// child process confined by namespaces, rlimits, no_new_privs,
    /// Landlock and a seccomp allow-list; refused, exit 2, when that
    /// confinement cannot be had).
    #[arg(long, value_name = "MODE", env = "GOCCIA_ISOLATE", default_value = "none", value_parser = ["none", "process"], help_heading = "Engine")]
    pub isolate: String,

    /// Wall-clock deadline of the run, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = Limits::DEFAULT_TIMEOUT.as_millis() as u64, help_heading = "Limits")]
    pub timeout: u64,
    /// QuickJS heap limit, buffers handed to JS included; also the host memory
    /// the shell's work may take beyond what the file system may still hold.
    #[arg(long = "max-memory", value_name = "BYTES", value_parser = size, default_value = "512m", help_heading = "Limits")]
    pub max_memory: u64,
    /// Maximum JS stack; deeper recursion is a catchable RangeError.
    #[arg(long = "stack-size", value_name = "BYTES", value_parser = size, default_value = "1m", help_heading = "Limits")]
    pub stack_size: u64,
    /// Total bytes of file content the sandbox filesystem may hold.
    #[arg(long = "fs-quota-bytes", value_name = "BYTES", value_parser = size, default_value = "1g", help_heading = "Limits")]
    pub fs_quota_bytes: u64,
    /// Total files and directories the sandbox filesystem may hold.
    #[arg(long = "fs-node-limit", value_name = "N", value_parser = size, default_value = "1000000", help_heading = "Limits")]
    pub fs_node_limit: u64,
    /// Bytes of stdout + stderr the guest may write; past it the run ends with exit 3.
    #[arg(long = "max-output", value_name = "BYTES", value_parser = size, default_value = "64m", help_heading = "Limits")]
    pub max_output: u64,
    /// Past --max-output: fail (the run ends, exit 3) or truncate (the run
    /// goes on; the first and last halves are kept, the middle becomes one
    /// line "[goccia: N bytes of output omitted]").
    #[arg(long = "output-overflow", value_name = "MODE", default_value = "fail", value_parser = named::<Overflow>(), help_heading = "Limits")]
    pub output_overflow: Overflow,
    /// Nesting depth of runScript and the shell's goccia builtin.
    #[arg(long = "max-depth", value_name = "N", default_value_t = Limits::DEFAULT_MAX_DEPTH, help_heading = "Limits")]
    pub max_depth: u32,
    /// Snapshots a sandbox may hold (MCP's and a server session's
    /// `snapshot`); what they keep that the live tree no longer holds also
    /// counts against --fs-quota-bytes.
    #[arg(long = "max-snapshots", value_name = "N", default_value_t = Limits::DEFAULT_MAX_SNAPSHOTS, help_heading = "Limits")]
    pub max_snapshots: u64,

    /// Let fetch reach this host (any port, or only the one given); repeatable.
    /// Without it every fetch is refused.
    #[arg(long = "allow-host", visible_alias = "allowed-host", value_name = "HOST[:PORT]", value_parser = allowed_host, help_heading = "Network")]
    pub allow_host: Vec<AllowedHost>,
    /// Refuse loopback, private, link-local and other non-public addresses
    /// after resolving an allowed host.
    #[arg(long = "deny-private-ranges", help_heading = "Network")]
    pub deny_private_ranges: bool,
    /// Largest response body fetch returns.
    #[arg(long = "fetch-max-bytes", value_name = "BYTES", value_parser = size, default_value = "16m", help_heading = "Network")]
    pub fetch_max_bytes: u64,
}

fn allowed_host(text: &str) -> Result<AllowedHost, String> {
    AllowedHost::parse(text).map_err(|e| e.to_string())
}

impl SandboxArgs {
    pub fn limits(&self) -> Limits {
        Limits::default()
            .timeout(Duration::from_millis(self.timeout))
            .max_memory(self.max_memory)
            .stack_size(self.stack_size)
            .fs_quota_bytes(self.fs_quota_bytes)
            .fs_node_limit(self.fs_node_limit)
            .max_output(self.max_output)
            .output_overflow(self.output_overflow)
            .max_depth(self.max_depth)
            .max_snapshots(self.max_snapshots)
    }

    pub fn network(&self) -> NetPolicy {
        NetPolicy::builder()
            .allow_all(self.allow_host.iter().cloned())
            .private_ranges_refused(self.deny_private_ranges)
            .max_body_bytes(self.fetch_max_bytes)
            .build()
    }

    pub fn wants_diff(&self) -> bool {
        self.diff || self.diff_output.is_some()
    }
}

/// One seeding flag, in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeedFlag {
    Seed {
        host: String,
        target: Option<String>,
    },
    CopyRw {
        host: String,
        target: Option<String>,
    },
    Config(PathBuf),
}

/// Splits `host[=sandbox]` at the first `=`.
fn split_mapping(text: &str) -> (String, Option<String>) {
    match text.split_once('=') {
        Some((host, target)) => (host.to_string(), Some(target.to_string())),
        None => (text.to_string(), None),
    }
}

/// The seeding flags of `matches` (a subcommand's matches) in the order
/// they were given.
pub fn seed_order(matches: &ArgMatches, args: &SandboxArgs) -> Vec<SeedFlag> {
    let mut flags: Vec<(usize, SeedFlag)> = Vec::new();
    let indices = |id: &str| -> Vec<usize> {
        matches
            .indices_of(id)
            .map(|i| i.collect())
            .unwrap_or_default()
    };
    for (index, text) in indices("seed").into_iter().zip(&args.seed) {
        let (host, target) = split_mapping(text);
        flags.push((index, SeedFlag::Seed { host, target }));
    }
    for (index, text) in indices("copy_rw").into_iter().zip(&args.copy_rw) {
        let (host, target) = split_mapping(text);
        flags.push((index, SeedFlag::CopyRw { host, target }));
    }
    for (index, path) in indices("seed_config").into_iter().zip(&args.seed_config) {
        flags.push((index, SeedFlag::Config(path.clone())));
    }
    flags.sort_by_key(|(index, _)| *index);
    flags.into_iter().map(|(_, flag)| flag).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::{CommandFactory, FromArgMatches};

    fn parse(args: &[&str]) -> (Cli, ArgMatches) {
        let matches = Cli::command().try_get_matches_from(args).unwrap();
        (Cli::from_arg_matches(&matches).unwrap(), matches)
    }

    #[test]
    fn seeds_keep_command_line_order() {
        let (cli, matches) = parse(&[
            "goccia",
            "run",
            "/m.js",
            "--copy-rw",
            "b=/x",
            "--seed=a",
            "--seed-config",
            "c.json",
            "--seed",
            "d=/y=z",
        ]);
        let Command::Run(args) = cli.command else {
            panic!("run");
        };
        let (_, sub) = matches.subcommand().unwrap();
        assert_eq!(
            seed_order(sub, &args.sandbox),
            vec![
                SeedFlag::CopyRw {
                    host: "b".into(),
                    target: Some("/x".into())
                },
                SeedFlag::Seed {
                    host: "a".into(),
                    target: None
                },
                SeedFlag::Config("c.json".into()),
                SeedFlag::Seed {
                    host: "d".into(),
                    target: Some("/y=z".into())
                },
            ]
        );
    }

    #[test]
    fn sizes_take_suffixes_and_defaults_match_the_limits() {
        let (cli, _) = parse(&[
            "goccia",
            "run",
            "/m.js",
            "--max-memory=64m",
            "--fs-quota-bytes",
            "2k",
        ]);
        let Command::Run(args) = cli.command else {
            panic!("run");
        };
        let limits = args.sandbox.limits();
        assert_eq!(limits.max_memory, 64 << 20);
        assert_eq!(limits.fs_quota_bytes, 2048);
        let (cli, _) = parse(&["goccia", "run", "/m.js"]);
        let Command::Run(args) = cli.command else {
            panic!("run");
        };
        assert_eq!(args.sandbox.limits(), Limits::default());
    }

    #[test]
    fn bad_sizes_are_usage_errors() {
        let error = Cli::command()
            .try_get_matches_from(["goccia", "run", "/m.js", "--max-memory", "lots"])
            .unwrap_err();
        assert_eq!(error.exit_code(), 2);
        assert!(error.to_string().contains("lots"));
    }
}
