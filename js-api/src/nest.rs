//! The seam between the guest and the runner that can start another
//! runtime: `runScript` and the shell's `goccia` builtin both become one
//! [`ScriptRequest`] (from JSON options or from argv), a [`Nest`]
//! (implemented by the VM crate, which sits above this one) runs it, and a
//! [`ScriptResult`] comes back with the child's changes as typed values;
//! they are rendered only at the JS boundary or on the builtin's stdout.

use std::sync::Arc;
use std::time::Duration;

use goccia_core::FailureKind;
use goccia_shell::Shell;
pub use goccia_vfs::DiffFormat;
use goccia_vfs::policy::{EscalationError, PolicyMode};
use goccia_vfs::seed_config::{SeedShapes, parse_seed_entry};
use goccia_vfs::{Change, SeedSpec};
use parking_lot::Mutex;
use serde_json::Value as Json;
use thiserror::Error;

/// The one shell all `$` of a sandbox share (created on first use).
pub type SharedShell = Arc<Mutex<Option<Shell>>>;

/// A child sandbox: its seeds (parent VFS paths or inline files) and
/// whether its changes come back, in which format.
#[derive(Clone, Debug, Default)]
pub struct ChildSpec {
    /// What the child is seeded with.
    pub seeds: Vec<SeedSpec>,
    /// With a diff asked for: its format.
    pub diff: Option<DiffFormat>,
}

/// What `runScript` (or the shell's `goccia`) asks for.
#[derive(Clone, Debug, Default)]
pub struct ScriptRequest {
    /// The entry, a VFS path.
    pub entry: String,
    /// `None`: shared mode, on the caller's VFS and shell.
    pub child: Option<ChildSpec>,
    /// A deadline of its own, capped by the caller's remaining time.
    pub timeout: Option<Duration>,
    /// A narrower write policy mode for the run (never a wider one).
    pub policy: Option<PolicyMode>,
    /// The entry's source given inline (`goccia --eval`): `entry` then
    /// only names it (its folder is where relative imports start), and it
    /// is never written to the VFS.
    pub inline_source: Option<String>,
}

fn policy_named(name: &str, what: &str) -> Result<PolicyMode, String> {
    name.parse::<PolicyMode>()
        .map_err(|error| format!("{what}: {error}"))
}

/// The shell builtin's usage line.
pub const LAUNCHER_USAGE: &str = "usage: goccia [--sandbox] [--seed <from>[=<to>]]... [--diff] [--diff-format json|unified] [--timeout ms] [--policy mode] (<path> | --eval <code> [<name>])";

impl ScriptRequest {
    /// Reads `runScript(entry, options)`'s options (JSON text from the JS
    /// side): `sandbox`, `seed`, `diff`, `diffFormat`, `timeout` (ms).
    pub fn from_options(entry: String, options: &str) -> Result<Self, String> {
        let options: Json =
            serde_json::from_str(options).map_err(|e| format!("bad options: {e}"))?;
        let flag = |name: &str| -> Result<bool, String> {
            match options.get(name) {
                None | Some(Json::Null) => Ok(false),
                Some(Json::Bool(value)) => Ok(*value),
                Some(other) => Err(format!("option `{name}` must be a boolean, not {other}")),
            }
        };
        let diff_format = match options.get("diffFormat") {
            None | Some(Json::Null) => None,
            Some(format) => Some(format.as_str().and_then(DiffFormat::parse).ok_or_else(|| {
                format!("option `diffFormat` must be \"json\" or \"unified\", not {format}")
            })?),
        };
        let seeds = match options.get("seed") {
            None | Some(Json::Null) => None,
            Some(Json::Array(entries)) => Some(
                entries
                    .iter()
                    .enumerate()
                    .map(|(index, entry)| {
                        parse_seed_entry(entry, SeedShapes::Child)
                            .map_err(|problem| format!("seed entry {index}: {problem}"))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
            Some(other) => return Err(format!("option `seed` must be an array, not {other}")),
        };
        let timeout = match options.get("timeout") {
            None | Some(Json::Null) => None,
            Some(Json::Number(ms)) if ms.as_f64().is_some_and(|ms| ms > 0.0 && ms.is_finite()) => {
                Some(Duration::from_secs_f64(ms.as_f64().unwrap_or(0.0) / 1000.0))
            }
            Some(other) => {
                return Err(format!(
                    "option `timeout` must be a positive number of milliseconds, not {other}"
                ));
            }
        };
        let policy = match options.get("policy") {
            None | Some(Json::Null) => None,
            Some(Json::String(name)) => Some(policy_named(name, "option `policy`")?),
            Some(other) => return Err(format!("option `policy` must be a string, not {other}")),
        };
        let diff = flag("diff")? || diff_format.is_some();
        let sandbox = flag("sandbox")?;
        let mut request = ScriptRequest::assemble(
            entry,
            sandbox,
            seeds.unwrap_or_default(),
            diff.then(|| diff_format.unwrap_or_default()),
            timeout,
        );
        request.policy = policy;
        Ok(request)
    }

    /// Reads the shell builtin's arguments (`args[0]` is `goccia`):
    /// `[--sandbox] [--seed <from>[=<to>]]... [--diff] [--diff-format F]
    /// [--timeout ms] <path>`, each option also as `--name=value`.
    pub fn from_args(args: &[String]) -> Result<Self, String> {
        let mut sandbox = false;
        let mut seeds = Vec::new();
        let mut diff = None;
        let mut timeout = None;
        let mut policy = None;
        let mut inline_source = None;
        let mut index = 1;
        while index < args.len() {
            let arg = args[index].as_str();
            let (name, attached) = match arg.split_once('=') {
                Some((name, value)) if name.starts_with("--") => (name, Some(value.to_string())),
                _ => (arg, None),
            };
            let mut take = || match &attached {
                Some(value) => Ok(value.clone()),
                None => {
                    index += 1;
                    args.get(index)
                        .cloned()
                        .ok_or_else(|| format!("{name} needs a value"))
                }
            };
            match name {
                "--sandbox" => sandbox = true,
                "--diff" => diff = Some(diff.unwrap_or_default()),
                "--diff-format" => {
                    let format = take()?;
                    diff = Some(DiffFormat::parse(&format).ok_or_else(|| {
                        format!("--diff-format must be json or unified, not `{format}`")
                    })?);
                }
                "--seed" => {
                    let text = take()?;
                    let entry = parse_seed_entry(&Json::String(text.clone()), SeedShapes::Child)
                        .map_err(|problem| format!("--seed `{text}`: {problem}"))?;
                    seeds.push(entry);
                }
                "--timeout" => {
                    let text = take()?;
                    let ms: u64 = text
                        .parse()
                        .ok()
                        .filter(|ms| *ms > 0)
                        .ok_or_else(|| format!("--timeout takes milliseconds, not `{text}`"))?;
                    timeout = Some(Duration::from_millis(ms));
                }
                "--policy" => policy = Some(policy_named(&take()?, "--policy")?),
                "--eval" => inline_source = Some(take()?),
                "--" => {
                    index += 1;
                    break;
                }
                other if other.starts_with('-') && other.len() > 1 => {
                    return Err(format!("unknown option `{other}`"));
                }
                _ => break,
            }
            index += 1;
        }
        let entry = match &args[index.min(args.len())..] {
            // Named as node names it, in the caller's folder; a name
            // given with the code says where it is and which kind of
            // module (`[eval].mjs`, `[eval].cjs`).
            [] if inline_source.is_some() => "[eval].js".to_string(),
            [entry] => entry.clone(),
            [] => return Err("missing the script path".to_string()),
            [_, extra, ..] => {
                return Err(format!(
                    "unexpected argument `{extra}` after the script path"
                ));
            }
        };
        let mut request = ScriptRequest::assemble(entry, sandbox, seeds, diff, timeout);
        request.policy = policy;
        request.inline_source = inline_source;
        Ok(request)
    }

    /// `seed`/`diff` imply a child sandbox (docs/vfs.md).
    fn assemble(
        entry: String,
        sandbox: bool,
        seeds: Vec<SeedSpec>,
        diff: Option<DiffFormat>,
        timeout: Option<Duration>,
    ) -> Self {
        let child =
            (sandbox || !seeds.is_empty() || diff.is_some()).then_some(ChildSpec { seeds, diff });
        ScriptRequest {
            entry,
            child,
            timeout,
            policy: None,
            inline_source: None,
        }
    }
}

/// A child's changes and the format its caller asked for.
#[derive(Clone, Debug)]
pub struct ChildChanges {
    /// The changes since the child's seeded baseline.
    pub changes: Vec<Change>,
    /// How the caller wants them rendered.
    pub format: DiffFormat,
}

impl ChildChanges {
    /// The diff as text in the asked format.
    pub fn render(&self) -> String {
        self.format.render(&self.changes)
    }
}

/// How a nested run ended, as `runScript` returns it.
#[derive(Clone, Debug, Default)]
pub struct ScriptResult {
    /// 0, or the failure kind's code.
    pub exit_code: i32,
    /// How it failed, if it did.
    pub failure_kind: Option<FailureKind>,
    /// The failure's message, `None` on success.
    pub error: Option<String>,
    /// What it printed (captured for `runScript`).
    pub stdout: Vec<u8>,
    /// What it printed on stderr.
    pub stderr: Vec<u8>,
    /// The entry's default export, when it has a JSON-like one.
    pub result: Option<Json>,
    /// With a diff asked for: the child's changes.
    pub changes: Option<ChildChanges>,
}

impl ScriptResult {
    /// Exit 0.
    pub fn ok(&self) -> bool {
        self.exit_code == 0
    }

    /// A child that failed before it could run (a seed naming a missing
    /// parent path, a bad entry path).
    pub fn failed(kind: FailureKind, message: String) -> Self {
        ScriptResult {
            exit_code: kind.exit_code(),
            failure_kind: Some(kind),
            error: Some(message),
            ..ScriptResult::default()
        }
    }
}

/// Why a nested run was refused outright (the caller's error, catchable).
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum NestError {
    /// Nesting deeper than the limit.
    #[error("nesting depth limit of {max} exceeded")]
    Depth {
        /// The limit.
        max: u32,
    },
    /// A `policy` wider than the caller's (a child may only narrow).
    #[error("{}", .0.message)]
    NotWider(EscalationError),
}

/// Runs nested scripts for the runtime at a given depth.
pub trait Nest: Send + Sync {
    /// Runs `request` below a caller whose own state is `parent`.
    fn run_script(
        &self,
        parent: &ParentState,
        request: ScriptRequest,
    ) -> Result<ScriptResult, NestError>;

    /// The shell's `goccia` builtin at this depth.
    fn launcher(&self) -> Arc<dyn goccia_shell::ScriptLauncher>;
}

/// What a nested run inherits from its caller.
#[derive(Clone)]
pub struct ParentState {
    /// The caller's VFS (shared mode runs on it; children seed from it).
    pub vfs: goccia_vfs::SharedVfs,
    /// The caller's deadline.
    pub watch: goccia_core::Watch,
    /// The output budget every level draws from.
    pub budget: Arc<goccia_core::OutputBudget>,
    /// The caller's `$` shell (shared mode).
    pub shell: SharedShell,
    /// What the run reads as `process.stdin`: the calling shell's
    /// standard input for its `node` and `goccia` commands, else nothing.
    pub stdin: Option<goccia_shell::io::SharedReader>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        std::iter::once("goccia")
            .chain(text.split_whitespace())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn argv_and_options_make_the_same_request() {
        let shared = ScriptRequest::from_args(&args("/a.js")).unwrap();
        assert_eq!(shared.entry, "/a.js");
        assert!(shared.child.is_none());
        let child = ScriptRequest::from_args(&args(
            "--seed /src=/in --seed=/x --diff-format unified --timeout 50 /a.js",
        ))
        .unwrap();
        let from_options = ScriptRequest::from_options(
            "/a.js".into(),
            r#"{"seed": ["/src=/in", "/x"], "diffFormat": "unified", "timeout": 50}"#,
        )
        .unwrap();
        for request in [&child, &from_options] {
            let spec = request.child.as_ref().unwrap();
            assert_eq!(spec.diff, Some(DiffFormat::Unified));
            assert_eq!(
                spec.seeds,
                [
                    SeedSpec::Parent {
                        from: "/src".into(),
                        to: Some("/in".into())
                    },
                    SeedSpec::Parent {
                        from: "/x".into(),
                        to: None
                    }
                ]
            );
            assert_eq!(request.timeout, Some(Duration::from_millis(50)));
        }
        assert!(
            ScriptRequest::from_args(&args("--sandbox /a.js"))
                .unwrap()
                .child
                .is_some()
        );
    }

    #[test]
    fn usage_errors_name_the_problem() {
        let error = |text: &str| ScriptRequest::from_args(&args(text)).unwrap_err();
        assert!(error("").contains("missing the script path"));
        assert!(error("--seed").contains("--seed needs a value"));
        assert!(error("--seed =/b /a.js").contains("from is empty"));
        assert!(error("--diff-format xml /a.js").contains("xml"));
        assert!(error("--bogus /a.js").contains("--bogus"));
        assert!(error("--timeout 0 /a.js").contains("milliseconds"));
        assert!(error("/a.js /b.js").contains("/b.js"));
        let bad = |options: &str| ScriptRequest::from_options("/a.js".into(), options).unwrap_err();
        assert!(bad(r#"{"diff": 1}"#).contains("`diff` must be a boolean"));
        assert!(bad(r#"{"seed": "x"}"#).contains("must be an array"));
        assert!(bad(r#"{"timeout": -1}"#).contains("positive number"));
    }
}
