//! Command-line flags, parsed in two stages: clap checks the syntax, then
//! [`SeedOrder`] recovers the command-line order of the seeding flags,
//! which clap keeps in separate lists.

use std::path::PathBuf;

use clap::{ArgMatches, Args, Parser, Subcommand};
use goccia::DiffFormat;

use crate::spec_args::{SpecArgs, named};

const AFTER_HELP: &str = "\
Exit codes: 0 success, 1 script error (also a refused write-back), 2 usage error (nothing ran),
3 resource limit (memory, fs quota, output cap, nesting depth), 4 timeout, 70 internal error.

Every option accepts both `--name value` and `--name=value`. Sizes accept k, m and g suffixes.";

const ABOUT: &str = "A sandboxed JavaScript runtime and virtual shell for AI agents";

#[derive(Debug, Parser)]
#[command(name = "goccia", version, about = ABOUT, after_help = AFTER_HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub globals: Globals,
}

// Flags every command takes. (No doc comment: a derived `Args` makes its
// doc comment the about text of the command it augments.)
#[derive(Debug, Args)]
pub struct Globals {
    /// Send traces to this OpenTelemetry collector over OTLP/HTTP (its
    /// base URL, such as http://127.0.0.1:4318): a span per call, shell
    /// command, host command, fetch, request, submit and store call
    /// (docs/telemetry.md). Off by default.
    #[arg(long, global = true, value_name = "URL", env = "GOCCIA_OTLP")]
    pub otlp: Option<String>,
}

const RUN_ABOUT: &str = "Run a sandbox entry (a VFS path such as /main.js).";
const SHELL_ABOUT: &str = "The virtual shell: -c runs a command line, a path runs a VFS script, \
otherwise stdin is the script (an interactive session on a terminal).";
const MCP_ABOUT: &str = "A Model Context Protocol server: one sandbox per MCP session with shell, \
run_script, read/write/edit, list, diff and snapshot tools (stdio, or streamable HTTP with --http \
and --token-file).";
const SERVE_ABOUT: &str = "The sandbox server: persistent sandboxes over HTTP, token grants, \
fenced submits to workspaces, a change log.";
const LOG_ABOUT: &str = "Print a workspace's change log (.goccia/changes.jsonl).";
const SPEC_ABOUT: &str = "Print the effective sandbox spec (JSON) that these flags and --spec \
describe; `--spec` reads it back.";

#[derive(Debug, Subcommand)]
pub enum Command {
    #[command(about = RUN_ABOUT)]
    Run(RunArgs),
    #[command(about = SHELL_ABOUT)]
    Shell(ShellArgs),
    #[command(about = MCP_ABOUT)]
    Mcp(McpArgs),
    #[command(about = SERVE_ABOUT)]
    Serve(crate::serve::ServeArgs),
    #[command(about = LOG_ABOUT)]
    Log(crate::serve::LogArgs),
    #[command(about = SPEC_ABOUT)]
    Spec(SandboxArgs),
}

/// What `Cli::command()` defines, with each subcommand's flags built only
/// when that subcommand is the one used (`Command::defer`): building all
/// five commands' flags, then dropping them, was a tenth of a cold hello
/// world's instructions. A test holds it to the derived definition.
pub fn command() -> clap::Command {
    // A derived `Args` sets its own doc comment as the about text: each
    // subcommand's is set again after its flags, as the derive does.
    let root = clap::Command::new("goccia")
        .version(env!("CARGO_PKG_VERSION"))
        .after_help(AFTER_HELP)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .subcommands([
            clap::Command::new("run")
                .about(RUN_ABOUT)
                .defer(|run| RunArgs::augment_args(run).about(RUN_ABOUT)),
            clap::Command::new("shell")
                .about(SHELL_ABOUT)
                .defer(|shell| ShellArgs::augment_args(shell).about(SHELL_ABOUT)),
            clap::Command::new("mcp")
                .about(MCP_ABOUT)
                .defer(|mcp| McpArgs::augment_args(mcp).about(MCP_ABOUT)),
            clap::Command::new("serve")
                .about(SERVE_ABOUT)
                .defer(|serve| crate::serve::ServeArgs::augment_args(serve).about(SERVE_ABOUT)),
            clap::Command::new("log")
                .about(LOG_ABOUT)
                .defer(|log| crate::serve::LogArgs::augment_args(log).about(LOG_ABOUT)),
            clap::Command::new("spec")
                .about(SPEC_ABOUT)
                .defer(|spec| SandboxArgs::augment_args(spec).about(SPEC_ABOUT)),
        ]);
    Globals::augment_args(root).about(ABOUT)
}

const APPROVE_HELP: &str = "Who approves escalation requests: client (the MCP client is asked \
through elicitation; a client without it answers unavailable), never (no approver: requests are \
unavailable), always (every checked request is granted once)";

/// `goccia mcp`: the sandbox flags with MCP's defaults (output truncated
/// to 32 KiB a result — what a model's context can take, docs/mcp.md —
/// the client as approver), and the server's own.
#[derive(Debug, Args)]
#[command(
    mut_arg("max_output", |arg| arg.default_value("32k")),
    mut_arg("output_overflow", |arg| arg.default_value("truncate")),
    mut_arg("approve", |arg| arg
        .default_value("client")
        .help(APPROVE_HELP)),
)]
pub struct McpArgs {
    /// Serve streamable HTTP at http://<ADDRESS>/mcp instead of stdio (a
    /// loopback address such as 127.0.0.1:8765; port 0 picks one and the
    /// address is printed on stderr). Requires --token-file.
    #[arg(long, value_name = "ADDRESS", help_heading = "MCP")]
    pub http: Option<String>,
    /// The bearer tokens HTTP clients may send, one per line: each is a
    /// caller of its own, whose sandbox handles no other token can use.
    #[arg(long = "token-file", value_name = "FILE", help_heading = "MCP")]
    pub token_file: Option<PathBuf>,
    /// Close a sandbox opened by handle (the 2026-07-28 revision's
    /// open_sandbox) after this many seconds without a call naming it.
    #[arg(
        long = "handle-idle-ttl",
        value_name = "SECONDS",
        default_value_t = 1800,
        value_parser = clap::value_parser!(u64).range(1..),
        help_heading = "MCP"
    )]
    pub handle_idle_ttl: u64,
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

/// The options `run` and `shell` share: seeding, the diff, the report,
/// and the spec's settings (`SpecArgs`).
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
    /// Seed from a JSON file: {"files":[{"from","to"}|{"path","text"}|{"path","base64"}]}.
    #[arg(long = "seed-config", value_name = "FILE", help_heading = "Seeding")]
    pub seed_config: Vec<PathBuf>,

    /// Print the changes made to the sandbox after the run.
    #[arg(long, help_heading = "Diff")]
    pub diff: bool,
    /// Format of the diff.
    #[arg(
        long = "diff-format",
        value_parser = named::<DiffFormat>(),
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

    #[command(flatten)]
    pub spec: SpecArgs,
}

impl SandboxArgs {
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
        let matches = command().try_get_matches_from(args).unwrap();
        (Cli::from_arg_matches(&matches).unwrap(), matches)
    }

    /// The deferred definition is the derived one: the same help, root
    /// and subcommands, word for word, and the same flags.
    #[test]
    fn the_deferred_command_line_is_the_derived_one() {
        let mut derived = Cli::command();
        let mut deferred = command();
        derived.build();
        deferred.build();
        assert_eq!(
            deferred.render_long_help().to_string(),
            derived.render_long_help().to_string()
        );
        assert_eq!(deferred.render_version(), derived.render_version());
        let names: Vec<String> = derived
            .get_subcommands()
            .map(|sub| sub.get_name().to_string())
            .collect();
        assert_eq!(names.len(), 7, "six commands and help: {names:?}");
        for name in names {
            let help = |root: &mut clap::Command| {
                let sub = root.find_subcommand_mut(&name).unwrap();
                let mut ids: Vec<String> = sub
                    .get_arguments()
                    .map(|arg| arg.get_id().to_string())
                    .collect();
                // The global flag comes first or last: order is not meaning.
                ids.sort();
                (sub.render_long_help().to_string(), ids)
            };
            assert_eq!(help(&mut deferred), help(&mut derived), "{name}");
        }
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
        let spec_of = |args: &[&str]| {
            let (cli, matches) = parse(args);
            let Command::Run(run) = cli.command else {
                panic!("run");
            };
            let (_, sub) = matches.subcommand().unwrap();
            run.sandbox.spec.to_spec(sub)
        };
        let spec = spec_of(&[
            "goccia",
            "run",
            "/m.js",
            "--max-memory=64m",
            "--fs-quota-bytes",
            "2k",
        ])
        .unwrap();
        assert_eq!(spec.limits.max_memory, 64 << 20);
        assert_eq!(spec.limits.fs_quota_bytes, 2048);
        let defaults = spec_of(&["goccia", "run", "/m.js"]).unwrap();
        assert_eq!(defaults, goccia::SandboxSpec::default());
        // A bad size names the flag.
        let error = spec_of(&["goccia", "run", "/m.js", "--max-memory", "lots"]).unwrap_err();
        assert!(error.starts_with("--max-memory: `lots`"), "{error}");
    }
}
