//! [`SandboxSpec`]: everything a sandbox is built from, as one serializable
//! value (docs/spec.md). Every surface — the command line's flags, the
//! server's session body, the MCP server's options, Python's keyword
//! arguments, Node's options, a `--spec` file — fills this one type;
//! [`SandboxSpec::validate`] refuses a bad value with the same words on
//! every surface (naming the setting in that surface's spelling, see
//! [`Spelling`]), and [`SandboxSpec::build`] is the one place a sandbox is
//! built from options. [`SandboxBuilder`](crate::SandboxBuilder) is a thin
//! way to fill a spec from Rust.
//!
//! Defaults (each stated once, here and on its field):
//!
//! | field (JSON) | default |
//! |---|---|
//! | `seeds` | none: the VFS holds `/tmp` only |
//! | `exclude`, `gitignore`, `symlinks` | nothing left out, `.gitignore` not read, links `refuse` |
//! | `env` | no variables |
//! | `limits` | [`Limits::default`](crate::Limits) (30 s, 512 MiB, 1 GiB of files, ...) |
//! | `network` | nothing allowed (a private address only by a rule naming it), bodies up to 16 MiB, no secrets, the system's roots |
//! | `policy`, `writable`, `approve` | `full`, no extra roots, `never` |
//! | `isolation` | `none` (in this process) |
//! | `hostCommands`, `hostCommandMemory` | none, 1 GiB |
//! | `mode` | `interpreted` |
//! | `auditLog` | none |
//!
//! - [`limits`]: the limits as the spec spells them.
//! - `seeds`: where files come from.
//! - `build`: the spec made into a sandbox.
//! - `ceiling`: whether one spec stays within another (a server's
//!   sessions within the server's own).
//! - `settings`: each setting's name in each surface's spelling.

mod build;
mod ceiling;
mod error;
pub mod limits;
mod network;
mod seeds;
mod settings;
mod sizes;

use std::collections::BTreeMap;
use std::path::PathBuf;

use goccia_core::Named;
use goccia_vfs::{PolicyMode, SymlinkPolicy};
use goccia_vm::ExecMode;
use serde::{Deserialize, Serialize};

pub use build::Extras;
pub use ceiling::Widening;
pub use error::SpecError;
pub use limits::LimitsSpec;
pub use seeds::SeedSpec;
pub use settings::{Spelling, advice_for, all_settings, setting_name};

/// The address space of a host command's processes unless set (1 GiB).
pub const DEFAULT_HOST_COMMAND_MEMORY: u64 = 1 << 30;

/// Everything a sandbox is built from. Deserializing fills every absent
/// field with its default; unknown fields are refused.
///
/// ```
/// use goccia::SandboxSpec;
/// let spec: SandboxSpec = serde_json::from_str(r#"{
///     "seeds": [{"path": "/main.js", "text": "console.log(6 * 7)"}],
///     "limits": {"timeoutMs": 5000, "maxOutput": "1m"},
///     "policy": "workspace-write",
///     "writable": ["/out"]
/// }"#)?;
/// spec.validate()?;
/// let sandbox = spec.build()?;
/// assert_eq!(sandbox.run_script("/main.js")?.stdout_text(), "42\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SandboxSpec {
    /// Where files come from, applied in order (default: none).
    pub seeds: Vec<SeedSpec>,
    /// Gitignore-style patterns host seeds leave out (default: none).
    pub exclude: Vec<String>,
    /// Honour `.gitignore`, `.ignore`, `.git/info/exclude`; leave `.git/`
    /// out (default: false).
    pub gitignore: bool,
    /// Links inside seeded folders: `refuse`, `skip` or `keep` (default
    /// `refuse`).
    pub symlinks: SymlinkPolicy,
    /// Exported variables every shell starts with (default: none). In
    /// JSON an object, or a list of `{name, value}`.
    #[serde(deserialize_with = "seeds::env")]
    pub env: BTreeMap<String, String>,
    /// The limits (default: [`Limits::default`](crate::Limits)).
    pub limits: LimitsSpec,
    /// What `fetch`, `curl` and `wget` may reach.
    pub network: NetworkSpec,
    /// The write policy: `read-only`, `workspace-write` or `full` (default
    /// `full`).
    pub policy: PolicyMode,
    /// Writable roots for `workspace-write` besides the write-back targets
    /// and `/tmp` (default: none).
    pub writable: Vec<String>,
    /// Who answers escalation requests (default `never`).
    pub approve: Approve,
    /// Where guest code runs: `none` or `process` (default `none`).
    pub isolation: IsolationMode,
    /// Host programs the shell may run, confined (default: none).
    pub host_commands: Vec<HostCommandSpec>,
    /// Address space of every process a host command starts (default
    /// 1 GiB).
    #[serde(deserialize_with = "sizes::size")]
    pub host_command_memory: u64,
    /// How guest modules execute: `interpreted` or `bytecode` (default
    /// `interpreted`).
    pub mode: ExecMode,
    /// Append one JSON line per decision to this host file (default:
    /// none).
    pub audit_log: Option<PathBuf>,
}

impl Default for SandboxSpec {
    /// The documented defaults (the table above).
    fn default() -> Self {
        SandboxSpec {
            seeds: Vec::new(),
            exclude: Vec::new(),
            gitignore: false,
            symlinks: SymlinkPolicy::default(),
            env: BTreeMap::new(),
            limits: LimitsSpec::default(),
            network: NetworkSpec::default(),
            policy: PolicyMode::default(),
            writable: Vec::new(),
            approve: Approve::default(),
            isolation: IsolationMode::default(),
            host_commands: Vec::new(),
            host_command_memory: DEFAULT_HOST_COMMAND_MEMORY,
            mode: ExecMode::default(),
            audit_log: None,
        }
    }
}

/// What goes out through the gateway (docs/network.md): `fetch`, `curl`,
/// `wget` and host commands alike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct NetworkSpec {
    /// `HOST[:PORT][/PATH-PREFIX][@METHOD,...]` rules (default: none,
    /// every request refused).
    pub allow_host: Vec<String>,
    /// Refuse loopback, private and link-local addresses even when a rule
    /// names them literally (default: false; without a literal rule they
    /// are refused anyway).
    pub deny_private_ranges: bool,
    /// The largest response body (default 16 MiB).
    #[serde(deserialize_with = "sizes::size")]
    pub fetch_max_bytes: u64,
    /// Secrets by name: where each value is read from (default: none).
    pub secrets: BTreeMap<String, SecretSource>,
    /// `HOST:Header=template {NAME}` bindings of secrets to the headers
    /// of requests to some hosts (default: none).
    pub secret_headers: Vec<String>,
    /// PEM files of authorities trusted upstream besides the system's
    /// roots (default: none).
    pub ca_files: Vec<PathBuf>,
}

impl Default for NetworkSpec {
    fn default() -> Self {
        NetworkSpec {
            allow_host: Vec::new(),
            deny_private_ranges: false,
            fetch_max_bytes: goccia_core::net::DEFAULT_FETCH_MAX_BYTES,
            secrets: BTreeMap::new(),
            secret_headers: Vec::new(),
            ca_files: Vec::new(),
        }
    }
}

/// Where a secret's value is read from when the sandbox is made. In JSON
/// `"@/path/to/file"` (one trailing newline dropped), `"env:VAR"`, or —
/// from a program, never a command line — `{"value": "..."}`. A value
/// given as such is never written back out: it serializes as
/// `{"value": "[secret]"}`.
#[derive(Clone, PartialEq, Eq)]
pub enum SecretSource {
    /// A file on the host.
    File(PathBuf),
    /// A variable of goccia's own environment.
    Env(String),
    /// The value itself.
    Value(String),
}

impl std::fmt::Debug for SecretSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SecretSource::File(path) => write!(f, "File({})", path.display()),
            SecretSource::Env(name) => write!(f, "Env({name})"),
            SecretSource::Value(_) => f.write_str("Value([secret])"),
        }
    }
}

impl std::str::FromStr for SecretSource {
    type Err = String;

    /// `@file` or `env:VAR`; anything else would put the value on a
    /// command line (and in `/proc/<pid>/cmdline`), so it is refused.
    fn from_str(text: &str) -> Result<Self, String> {
        if let Some(path) = text.strip_prefix('@') {
            if path.is_empty() {
                return Err("`@` needs a file after it".into());
            }
            return Ok(SecretSource::File(PathBuf::from(path)));
        }
        if let Some(name) = text.strip_prefix("env:") {
            if name.is_empty() {
                return Err("`env:` needs a variable name after it".into());
            }
            return Ok(SecretSource::Env(name.to_string()));
        }
        Err("give the value as @FILE or env:VAR; a value written out here would be visible to every process on the host".into())
    }
}

impl SecretSource {
    /// The value, read now.
    pub fn read(&self) -> Result<String, String> {
        match self {
            SecretSource::File(path) => {
                let mut text = std::fs::read_to_string(path)
                    .map_err(|error| format!("cannot read {}: {error}", path.display()))?;
                if text.ends_with('\n') {
                    text.pop();
                    if text.ends_with('\r') {
                        text.pop();
                    }
                }
                Ok(text)
            }
            SecretSource::Env(name) => std::env::var(name)
                .map_err(|_| format!("the environment variable {name} is not set")),
            SecretSource::Value(value) => Ok(value.clone()),
        }
    }
}

impl Serialize for SecretSource {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            SecretSource::File(path) => serializer.serialize_str(&format!("@{}", path.display())),
            SecretSource::Env(name) => serializer.serialize_str(&format!("env:{name}")),
            SecretSource::Value(_) => {
                use serde::ser::SerializeMap;
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("value", "[secret]")?;
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for SecretSource {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Text(String),
            Value { value: String },
        }
        match Raw::deserialize(deserializer)? {
            Raw::Text(text) => text.parse().map_err(serde::de::Error::custom),
            Raw::Value { value } => Ok(SecretSource::Value(value)),
        }
    }
}

impl From<&goccia_core::NetPolicy> for NetworkSpec {
    fn from(policy: &goccia_core::NetPolicy) -> Self {
        NetworkSpec {
            allow_host: policy.allowed().iter().map(ToString::to_string).collect(),
            deny_private_ranges: policy.deny_private_ranges(),
            fetch_max_bytes: policy.max_body_bytes(),
            // A policy holds values, not where they came from: a spec
            // made from one carries none of them.
            secrets: BTreeMap::new(),
            secret_headers: Vec::new(),
            ca_files: policy.ca_files().to_vec(),
        }
    }
}

/// A host program the shell may run: its name, and its path (else found
/// in the system directories of the host's `PATH`). On a command line
/// `name[=path]`.
/// In JSON either that text or `{"name": ..., "path": ...}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HostCommandSpec {
    /// The name the shell runs it by.
    pub name: String,
    /// Where it is on the host.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<PathBuf>,
}

impl<'de> Deserialize<'de> for HostCommandSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// The object form, read strictly.
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Fields {
            name: String,
            #[serde(default)]
            path: Option<PathBuf>,
        }
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = HostCommandSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("\"name\", \"name=path\" or {\"name\", \"path\"}")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
                Ok(text.parse().unwrap_or_else(|never| match never {}))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                map: A,
            ) -> Result<Self::Value, A::Error> {
                let fields =
                    Fields::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(HostCommandSpec {
                    name: fields.name,
                    path: fields.path,
                })
            }
        }
        deserializer.deserialize_any(Either)
    }
}

impl std::str::FromStr for HostCommandSpec {
    type Err = std::convert::Infallible;
    /// `name` or `name=path`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text.split_once('=') {
            Some((name, path)) => HostCommandSpec {
                name: name.to_string(),
                path: Some(PathBuf::from(path)),
            },
            None => HostCommandSpec {
                name: text.to_string(),
                path: None,
            },
        })
    }
}

/// Who answers escalation requests (docs/spec.md, "Policy").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Approve {
    /// Nobody: every request is `unavailable` and denials carry no hint.
    #[default]
    Never,
    /// Every request that passed its checks is granted once.
    Always,
    /// The controlling terminal asks (the command line only).
    Prompt,
    /// The MCP client, through elicitation (the MCP server only).
    Client,
    /// A callback the embedding program passes when it builds the sandbox
    /// (Rust, Python, Node).
    Callback,
    /// A person on the web console of `goccia serve --console`
    /// (docs/console.md): a request waits up to its call's deadline.
    Console,
}

goccia_core::named!(Approve {
    "never" => Approve::Never,
    "always" => Approve::Always,
    "prompt" => Approve::Prompt,
    "client" => Approve::Client,
    "callback" => Approve::Callback,
    "console" => Approve::Console,
});

/// Where guest code runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum IsolationMode {
    /// In this process.
    #[default]
    None,
    /// In a confined worker process per sandbox.
    Process,
}

goccia_core::named!(IsolationMode {
    "none" => IsolationMode::None,
    "process" => IsolationMode::Process,
});

/// `T` read from `input`, an error naming the JSON path it arose at (an
/// unknown field is named by itself: `colour`, `limits.maxColours`).
pub(crate) fn read_at_path<'de, T: serde::Deserialize<'de>>(
    input: impl serde::Deserializer<'de, Error = impl std::fmt::Display + serde::de::Error>,
) -> Result<T, SpecError> {
    serde_path_to_error::deserialize(input).map_err(|error| {
        let mut setting = error.path().to_string();
        let inner = error.into_inner().to_string();
        // serde's own position (`at line 1 column 9`) means nothing in a value.
        let problem = match inner.rsplit_once(" at line ") {
            Some((head, _)) => head.to_string(),
            None => inner,
        };
        if let Some(rest) = problem.strip_prefix("unknown field `") {
            let field = rest.split('`').next().unwrap_or_default();
            // The path ends at the unknown key already.
            if setting == "." || setting.is_empty() {
                setting = field.to_string();
            }
            return SpecError::new(setting, "no such setting (docs/spec.md lists them)");
        }
        if setting == "." {
            setting = "spec".into();
        }
        SpecError::new(setting, problem)
    })
}

impl SandboxSpec {
    /// Reads a spec from JSON text (a `--spec` file); an error names the
    /// field that is wrong (`limits.maxMemory`).
    pub fn from_json(text: &str) -> Result<SandboxSpec, SpecError> {
        let mut reader = serde_json::Deserializer::from_str(text);
        let spec = read_at_path(&mut reader)?;
        reader
            .end()
            .map_err(|error| SpecError::new("spec", error.to_string()))?;
        Ok(spec)
    }

    /// Reads a spec from a JSON value (a request body merged over a
    /// ceiling, keywords gathered by a binding); an error names the field
    /// that is wrong, so each surface can spell it.
    pub fn from_value(value: serde_json::Value) -> Result<SandboxSpec, SpecError> {
        read_at_path(value)
    }

    /// Takes the relative host paths of the spec (seeds, seed configs,
    /// host commands, the audit log) from `folder`: a spec file's own
    /// folder, as a seed config's `from` is.
    pub fn resolve_host_paths(&mut self, folder: &std::path::Path) {
        let resolve = |path: &mut PathBuf| {
            if path.is_relative() {
                // `.` parts dropped (`./src` is `<folder>/src`); `..` kept,
                // as it may cross a link the host resolves.
                *path = folder
                    .join(&*path)
                    .components()
                    .filter(|part| *part != std::path::Component::CurDir)
                    .collect();
            }
        };
        for seed in &mut self.seeds {
            match seed {
                SeedSpec::Host { from, .. } => resolve(from),
                SeedSpec::Config { config } => resolve(config),
                SeedSpec::Inline { .. } => {}
            }
        }
        for command in &mut self.host_commands {
            if let Some(path) = &mut command.path {
                resolve(path);
            }
        }
        if let Some(path) = &mut self.audit_log {
            resolve(path);
        }
        for path in &mut self.network.ca_files {
            resolve(path);
        }
        for source in self.network.secrets.values_mut() {
            if let SecretSource::File(path) = source {
                resolve(path);
            }
        }
    }

    /// The spec as pretty JSON (what `goccia spec` prints).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a spec is plain data")
    }

    /// Refuses a value no sandbox could be built with, naming the setting:
    /// limits out of range, an environment name that is not a shell
    /// identifier, a writable root or seed target that is not an absolute
    /// sandbox path, an allow-list entry that is not `host[:port]`, a
    /// host command with an empty name.
    pub fn validate(&self) -> Result<(), SpecError> {
        self.limits.validate()?;
        for name in self.env.keys() {
            if !is_shell_name(name) {
                return Err(SpecError::new(
                    "env",
                    format!(
                        "`{name}` is not a variable name: a letter or _ first, then letters, digits or _"
                    ),
                ));
            }
        }
        for root in &self.writable {
            seeds::check_absolute("writable", root)?;
        }
        for (index, seed) in self.seeds.iter().enumerate() {
            seed.validate(index)?;
        }
        for entry in &self.network.allow_host {
            goccia_core::AllowedHost::parse(entry)
                .map_err(|error| SpecError::new("network.allowHost", error.to_string()))?;
        }
        self.network.check_secrets()?;
        for command in &self.host_commands {
            if command.name.is_empty() || command.name.contains('/') {
                return Err(SpecError::new(
                    "hostCommands",
                    format!("`{}` is not a command name", command.name),
                ));
            }
        }
        if self.host_command_memory == 0 {
            return Err(SpecError::new(
                "hostCommandMemory",
                "must be at least 1 byte",
            ));
        }
        Ok(())
    }
}

/// A shell identifier: a letter or `_`, then letters, digits or `_`.
pub(crate) fn is_shell_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The names of a named setting's values, for help texts.
pub fn names_of<T: Named>() -> &'static [&'static str] {
    T::NAMES
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_field_is_named_by_its_path() {
        let named = |text: &str| SandboxSpec::from_json(text).unwrap_err();
        let error = named(r#"{"limits": {"maxMemory": "lots"}}"#);
        assert_eq!(error.setting, "limits.maxMemory");
        assert!(error.problem.starts_with("`lots` is not a size"), "{error}");
        let error = named(r#"{"policy": "open"}"#);
        assert_eq!(
            (error.setting.as_str(), error.problem.as_str()),
            (
                "policy",
                "`open` is not one of read-only, workspace-write, full"
            )
        );
        assert_eq!(named(r#"{"colour": 1}"#).setting, "colour");
        assert_eq!(
            named(r#"{"network": {"allowHosts": []}}"#).setting,
            "network.allowHosts"
        );
        assert_eq!(
            named(r#"{"seeds": [{"form": "x"}]}"#).setting,
            "seeds[0].form"
        );
        assert_eq!(named("1").setting, "spec");
        assert_eq!(named("{} x").setting, "spec");
        let value = serde_json::json!({"hostCommands": ["python3", {"name": "git", "path": "/usr/bin/git"}]});
        let spec = SandboxSpec::from_value(value).unwrap();
        assert_eq!(spec.host_commands[0].name, "python3");
        assert_eq!(
            spec.host_commands[1].path.as_deref(),
            Some(std::path::Path::new("/usr/bin/git"))
        );
        let error = LimitsSpec::from_value(serde_json::json!({"timeoutMs": "soon"})).unwrap_err();
        assert_eq!(error.setting, "limits.timeoutMs");
    }
}
