//! [`LimitsSpec`]: the limits as a spec spells them, generated from one
//! table (below), which also says how each surface names each limit. A
//! new limit is one row here (and its field in
//! [`Limits`](goccia_core::Limits)); the command line's flags, the server's
//! body, Python's `Limits(...)` and Node's options read the table.

use std::time::Duration;

use goccia_core::{LimitKind, Limits, Overflow};
use serde::{Deserialize, Serialize};

use super::error::SpecError;

/// How each surface names one limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitName {
    /// In JSON (a spec file, the server's body, Node): `timeoutMs`.
    pub json: &'static str,
    /// On the command line: `--timeout`.
    pub flag: &'static str,
    /// In Python's `Limits(...)`: `timeout` (seconds there).
    pub python: &'static str,
    /// The [`Limits`] builder method: `timeout`.
    pub rust: &'static str,
    /// The limit a stop or a refusal names, if it has one of its own.
    pub kind: Option<LimitKind>,
    /// A line for `--help`.
    pub help: &'static str,
    /// Whether it is a size (read with `k`/`m`/`g` suffixes).
    pub is_size: bool,
}

macro_rules! limits_spec {
    ($($field:ident: $ty:ty, $json:literal, $flag:literal, $python:literal, $kind:expr, $read:literal, $help:literal;)*) => {
        /// The limits (docs/spec.md, "Limits"); each absent field is
        /// [`Limits::default`]'s. Sizes take `k`/`m`/`g` suffixes in text.
        #[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields, default)]
        pub struct LimitsSpec {
            $(
                #[doc = $help]
                #[serde(rename = $json, deserialize_with = $read)]
                pub $field: $ty,
            )*
        }

        /// Every limit's names, in the table's order.
        pub const LIMIT_NAMES: &[LimitName] = &[$(LimitName {
            json: $json,
            flag: $flag,
            python: $python,
            // The `Limits` builder's methods are named as Python's
            // keywords (`timeout`, not the field's `timeout_ms`).
            rust: $python,
            kind: $kind,
            help: $help,
            is_size: !matches!($read.as_bytes(), b"plain"),
        }),*];
    };
}

// field: type, JSON name, flag, Python name, limit kind, how it reads, help.
limits_spec! {
    timeout_ms: u64, "timeoutMs", "--timeout", "timeout", Some(LimitKind::Deadline), "plain", "Wall-clock deadline of each call, in ms (default 30000).";
    max_memory: u64, "maxMemory", "--max-memory", "max_memory", Some(LimitKind::Memory), "size", "QuickJS heap, and the host memory the shell's work may take besides the files it writes (default 512m).";
    stack_size: u64, "stackSize", "--stack-size", "stack_size", Some(LimitKind::Stack), "size", "JS stack; deeper recursion is a catchable RangeError (default 1m).";
    fs_quota_bytes: u64, "fsQuotaBytes", "--fs-quota-bytes", "fs_quota_bytes", Some(LimitKind::FsBytes), "size", "Bytes of file content in the VFS, snapshots' own included (default 1g).";
    fs_node_limit: u64, "fsNodeLimit", "--fs-node-limit", "fs_node_limit", Some(LimitKind::FsNodes), "plain", "Files and folders in the VFS (default 1000000).";
    max_output: u64, "maxOutput", "--max-output", "max_output", Some(LimitKind::Output), "size", "stdout + stderr of a call (default 64m).";
    output_overflow: Overflow, "outputOverflow", "--output-overflow", "output_overflow", None, "plain", "Past maxOutput: fail (the call ends, exit 3) or truncate (first and last halves kept).";
    max_depth: u32, "maxDepth", "--max-depth", "max_depth", Some(LimitKind::Depth), "plain", "Nesting of runScript and the shell's goccia (default 32).";
    max_snapshots: u64, "maxSnapshots", "--max-snapshots", "max_snapshots", Some(LimitKind::Snapshots), "plain", "Snapshots a sandbox may hold (default 64).";
    max_commands: u64, "maxCommands", "--max-commands", "max_commands", Some(LimitKind::ShellCommands), "plain", "Simple commands per shell call (default 10000000).";
    max_loop_iterations: u64, "maxLoopIterations", "--max-loop-iterations", "max_loop_iterations", Some(LimitKind::LoopIterations), "plain", "Iterations of all shell loops per call (default 10000000).";
    max_function_depth: usize, "maxFunctionDepth", "--max-function-depth", "max_function_depth", Some(LimitKind::FunctionDepth), "plain", "Nested shell function calls and source/eval levels (default 1000).";
    max_substitution_bytes: usize, "maxSubstitutionBytes", "--max-substitution-bytes", "max_substitution_bytes", None, "size_usize", "Bytes one command substitution may capture (default 64m).";
    max_buffered_input: usize, "maxBufferedInput", "--max-buffered-input", "max_buffered_input", None, "size_usize", "Bytes a command that holds its whole input may read (default 256m).";
    max_concurrent_stages: usize, "maxConcurrentStages", "--max-concurrent-stages", "max_concurrent_stages", Some(LimitKind::ShellStages), "plain", "Shell pipeline stages running at once (default 256).";
    max_value_bytes: usize, "maxValueBytes", "--max-value-bytes", "max_value_bytes", Some(LimitKind::ShellValue), "size_usize", "Bytes one shell variable or brace expansion may hold (default 64m).";
}

fn plain<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<T, D::Error> {
    T::deserialize(deserializer)
}

fn size<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    super::sizes::size(deserializer)
}

fn size_usize<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
    super::sizes::size_usize(deserializer)
}

impl Default for LimitsSpec {
    fn default() -> Self {
        LimitsSpec::from(&Limits::default())
    }
}

impl From<&Limits> for LimitsSpec {
    fn from(limits: &Limits) -> Self {
        LimitsSpec {
            timeout_ms: u64::try_from(limits.timeout.as_millis()).unwrap_or(u64::MAX),
            max_memory: limits.max_memory,
            stack_size: limits.stack_size,
            fs_quota_bytes: limits.fs_quota_bytes,
            fs_node_limit: limits.fs_node_limit,
            max_output: limits.max_output,
            output_overflow: limits.output_overflow,
            max_depth: limits.max_depth,
            max_snapshots: limits.max_snapshots,
            max_commands: limits.max_commands,
            max_loop_iterations: limits.max_loop_iterations,
            max_function_depth: limits.max_function_depth,
            max_substitution_bytes: limits.max_substitution_bytes,
            max_buffered_input: limits.max_buffered_input,
            max_concurrent_stages: limits.max_concurrent_stages,
            max_value_bytes: limits.max_value_bytes,
        }
    }
}

impl LimitsSpec {
    /// Reads limits from a JSON value (a binding's keywords); an error
    /// names the limit (`limits.maxMemory`).
    pub fn from_value(value: serde_json::Value) -> Result<LimitsSpec, SpecError> {
        super::read_at_path(value).map_err(|error| SpecError {
            setting: match error.setting.as_str() {
                "spec" => "limits".to_string(),
                field => format!("limits.{field}"),
            },
            ..error
        })
    }

    /// The limits a sandbox runs with.
    pub fn to_limits(&self) -> Limits {
        Limits {
            timeout: Duration::from_millis(self.timeout_ms),
            max_memory: self.max_memory,
            stack_size: self.stack_size,
            fs_quota_bytes: self.fs_quota_bytes,
            fs_node_limit: self.fs_node_limit,
            max_output: self.max_output,
            output_overflow: self.output_overflow,
            max_depth: self.max_depth,
            max_snapshots: self.max_snapshots,
            max_commands: self.max_commands,
            max_loop_iterations: self.max_loop_iterations,
            max_function_depth: self.max_function_depth,
            max_substitution_bytes: self.max_substitution_bytes,
            max_buffered_input: self.max_buffered_input,
            max_concurrent_stages: self.max_concurrent_stages,
            max_value_bytes: self.max_value_bytes,
        }
    }

    /// Refuses a value no run could work with (a heap too small for the
    /// JS globals, a stack out of its range, a zero deadline), naming the
    /// limit.
    pub fn validate(&self) -> Result<(), SpecError> {
        if self.timeout_ms == 0 {
            return Err(SpecError::new("limits.timeoutMs", "must be at least 1 ms"));
        }
        self.to_limits().check().map_err(|error| {
            let goccia_core::LimitsError::OutOfRange { kind, .. } = &error;
            SpecError::new(format!("limits.{}", json_name_of(*kind)), error.to_string())
        })
    }

    /// Each limit as `(JSON name, value as JSON)`, in the table's order.
    pub fn entries(&self) -> Vec<(&'static str, serde_json::Value)> {
        let value = serde_json::to_value(self).expect("limits are plain data");
        LIMIT_NAMES
            .iter()
            .map(|name| (name.json, value[name.json].clone()))
            .collect()
    }
}

/// A size as text: `512m` when it is a whole number of KiB, MiB or GiB,
/// else the number (for help texts and printed specs).
pub fn size_text(bytes: u64) -> String {
    for (shift, suffix) in [(30, 'g'), (20, 'm'), (10, 'k')] {
        if bytes != 0 && bytes.is_multiple_of(1 << shift) {
            return format!("{}{suffix}", bytes >> shift);
        }
    }
    bytes.to_string()
}

/// The JSON name of the limit a [`LimitKind`] is about.
pub fn json_name_of(kind: LimitKind) -> &'static str {
    let kind = match kind {
        LimitKind::HostMemory => LimitKind::Memory,
        other => other,
    };
    LIMIT_NAMES
        .iter()
        .find(|name| name.kind == Some(kind))
        .map(|name| name.json)
        .expect("every limit kind has a row")
}

/// The names of the limit called `json` in JSON.
pub fn limit_named(json: &str) -> Option<&'static LimitName> {
    LIMIT_NAMES.iter().find(|name| name.json == json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_and_kind_has_one_row_and_round_trips() {
        for kind in LimitKind::ALL {
            let json = json_name_of(kind);
            assert!(limit_named(json).is_some(), "{kind:?}");
        }
        let limits = Limits::default()
            .max_output(7)
            .timeout(Duration::from_millis(9));
        assert_eq!(LimitsSpec::from(&limits).to_limits(), limits);
        let spec: LimitsSpec = serde_json::from_str(
            r#"{"maxMemory": "64m", "timeoutMs": 50, "outputOverflow": "truncate"}"#,
        )
        .unwrap();
        assert_eq!(spec.max_memory, 64 << 20);
        assert_eq!(spec.output_overflow, Overflow::Truncate);
        assert_eq!(spec.max_output, Limits::DEFAULT_MAX_OUTPUT);
        let refused = serde_json::from_str::<LimitsSpec>(r#"{"maxMemry": 1}"#).unwrap_err();
        assert!(
            refused.to_string().contains("unknown field `maxMemry`"),
            "{refused}"
        );
        let error = LimitsSpec {
            stack_size: 1,
            ..Default::default()
        }
        .validate()
        .unwrap_err();
        assert_eq!(error.setting, "limits.stackSize");
    }
}
