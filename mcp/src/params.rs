//! The tools' arguments. Their doc comments become the JSON schemas'
//! descriptions, so they are written for the model that fills them in.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Arguments of `shell`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ShellArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// A bash command line, run by the sandbox's virtual shell in the
    /// session's current directory (cd, exported variables and functions
    /// persist between calls).
    pub command: String,
    /// Deadline of this call in milliseconds (default: the server's
    /// timeout). A call past it ends with exit code 4.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
    /// A folder to run this one command line in; the session's own
    /// current directory is unchanged afterwards.
    #[serde(default)]
    pub cwd: Option<String>,
    /// Environment variables set for this one command line only.
    #[serde(default)]
    pub env: Option<std::collections::BTreeMap<String, String>>,
}

/// Arguments of `run_script`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RunScriptArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// A JavaScript module (ES module) in the sandbox filesystem to run,
    /// such as /work/main.js: TypeScript is not transpiled. Give either
    /// path or code.
    #[serde(default)]
    pub path: Option<String>,
    /// JavaScript source to run as an ES module (it is not saved in the
    /// sandbox filesystem). Give either path or code.
    #[serde(default)]
    pub code: Option<String>,
    /// Deadline of this call in milliseconds (default: the server's
    /// timeout). A call past it ends with exit code 4.
    #[serde(default)]
    pub timeout_ms: Option<u64>,
}

/// Arguments of `read_file`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReadFileArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// A path in the sandbox filesystem, such as /work/src/app.py; a
    /// relative path is read from the shell session's current directory.
    pub path: String,
    /// First line to return, counting from 1 (default 1).
    #[serde(default)]
    pub offset: Option<u64>,
    /// Most lines to return (default: to the end of the file, within the
    /// output limit).
    #[serde(default)]
    pub limit: Option<u64>,
}

/// Arguments of `write_file`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WriteFileArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// A path in the sandbox filesystem (relative: from the shell session's
    /// current directory); missing parent folders are
    /// created.
    pub path: String,
    /// The whole new content of the file (UTF-8 text).
    pub content: String,
    /// Only after a denial that says escalation is available: the
    /// narrowest wider write policy that suffices (`workspace-write` or
    /// `full`); the user is asked to allow this one call.
    #[serde(default)]
    pub sandbox_permissions: Option<String>,
    /// Why the call needs the wider policy (required with
    /// sandboxPermissions; shown to the user).
    #[serde(default)]
    pub justification: Option<String>,
}

/// Arguments of `edit_file`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct EditFileArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// The path of an existing file in the sandbox filesystem (relative:
    /// from the shell session's current directory).
    pub path: String,
    /// Text that occurs exactly once in the file, with enough surrounding
    /// lines to be unique (whitespace and indentation must match).
    pub old_text: String,
    /// What replaces it.
    pub new_text: String,
    /// Only after a denial that says escalation is available: the
    /// narrowest wider write policy that suffices (`workspace-write` or
    /// `full`); the user is asked to allow this one call.
    #[serde(default)]
    pub sandbox_permissions: Option<String>,
    /// Why the call needs the wider policy (required with
    /// sandboxPermissions; shown to the user).
    #[serde(default)]
    pub justification: Option<String>,
}

/// Arguments of `list`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// A folder of the sandbox filesystem (default /; relative: from the
    /// shell session's current directory).
    #[serde(default)]
    pub path: Option<String>,
    /// List everything below it, one path per line (default false).
    #[serde(default)]
    pub recursive: Option<bool>,
}

/// Arguments of `diff`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DiffArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// `unified` (a patch `git apply` takes; the default) or `json` (one
    /// object per changed path).
    #[serde(default)]
    pub format: Option<String>,
}

/// Arguments of `restore`.
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RestoreArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// An id returned by `snapshot` in this session (a number; its text
    /// is taken too).
    pub snapshot_id: SnapshotIdArg,
}

/// A snapshot id as a client sends it: the number `snapshot` returned, or
/// that number as text (one shape per value: the server's API takes the
/// number too).
#[derive(Debug, Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SnapshotIdArg {
    /// `0`, `1`, ...
    Number(u64),
    /// `"0"`, `"1"`, ...
    Text(String),
}

impl SnapshotIdArg {
    /// The id, if it is one.
    pub fn index(&self) -> Option<usize> {
        match self {
            SnapshotIdArg::Number(number) => usize::try_from(*number).ok(),
            SnapshotIdArg::Text(text) => text.trim().parse().ok(),
        }
    }
}

impl std::fmt::Display for SnapshotIdArg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotIdArg::Number(number) => write!(f, "{number}"),
            SnapshotIdArg::Text(text) => f.write_str(text),
        }
    }
}

/// `snapshot`'s argument.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
    /// A label to know it by later (optional).
    #[serde(default)]
    pub label: Option<String>,
}

/// Tools whose only argument is the sandbox (`write_back`,
/// `close_sandbox`).
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SandboxArgs {
    /// The sandbox to act on: the handle `open_sandbox` returned.
    /// Required by clients of the 2026-07-28 revision; a client with a
    /// session may leave it out to use the session's own sandbox.
    #[serde(default)]
    pub sandbox: Option<String>,
}

/// `open_sandbox` takes nothing.
#[derive(Debug, Default, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoArgs {}

/// The arguments that may name a sandbox by handle.
pub trait HasSandbox {
    /// The handle, if given.
    fn sandbox(&self) -> Option<&str>;
}

/// Each argument struct names its sandbox in its `sandbox` field.
macro_rules! has_sandbox {
    ($($args:ty),* $(,)?) => {
        $(impl HasSandbox for $args {
            fn sandbox(&self) -> Option<&str> {
                self.sandbox.as_deref()
            }
        })*
    };
}

has_sandbox!(
    ShellArgs,
    RunScriptArgs,
    ReadFileArgs,
    WriteFileArgs,
    EditFileArgs,
    ListArgs,
    DiffArgs,
    RestoreArgs,
    SnapshotArgs,
    SandboxArgs,
);
