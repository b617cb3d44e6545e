//! Limits of a sandbox run (docs/limits.md) and their defaults.
//!
//! Every limit is bounded by default: there is no "unlimited" setting, so a
//! guest can never make the host grow without bound. The defaults are large
//! enough for a real repository (100k files, hundreds of MiB).

use std::time::Duration;

use thiserror::Error;

use crate::outcome::LimitKind;

/// Limits for one sandbox run. Children inherit them and may only narrow.
/// A builder: start from [`Limits::default`] (every default stated on its
/// field and as a constant) and change what you need; [`Limits::check`]
/// refuses values no run could work with (the sandbox builder calls it).
///
/// ```
/// use std::time::Duration;
/// use goccia_core::Limits;
///
/// let limits = Limits::default()
///     .timeout(Duration::from_secs(5))
///     .max_memory(64 << 20)
///     .max_output(1 << 20);
/// assert_eq!(limits.max_memory, 64 << 20);
/// assert_eq!(limits.fs_quota_bytes, Limits::DEFAULT_FS_QUOTA_BYTES);
/// assert!(limits.check().is_ok());
/// assert!(Limits::default().max_memory(1).check().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Limits {
    /// Wall-clock deadline of the whole run (default 30 s).
    pub timeout: Duration,
    /// QuickJS heap limit in bytes, including every buffer the host hands
    /// to JS; also the host memory the shell's work may take beyond what
    /// the VFS may still hold (default 512 MiB, at least 1 MiB).
    pub max_memory: u64,
    /// Maximum JS stack in bytes; deeper recursion is a catchable
    /// `RangeError` (default 1 MiB; 64 KiB to 256 MiB).
    pub stack_size: u64,
    /// Total bytes of file content the VFS may hold (default 1 GiB).
    pub fs_quota_bytes: u64,
    /// Total files and directories the VFS may hold, `/` excluded
    /// (default 1,000,000).
    pub fs_node_limit: u64,
    /// Bytes of stdout + stderr the guest may produce, `$` captures and
    /// children included (default 64 MiB).
    pub max_output: u64,
    /// What happens past `max_output` (default [`Overflow::Fail`]: the run
    /// ends, exit 3; [`Overflow::Truncate`] keeps both ends and goes on).
    pub output_overflow: Overflow,
    /// Nesting depth of `runScript` / `goccia` (default 32).
    pub max_depth: u32,
    /// Simple commands (builtins included) per shell run (default
    /// 10,000,000).
    pub max_commands: u64,
    /// Iterations of all shell loops per run (default 10,000,000).
    pub max_loop_iterations: u64,
    /// Nested shell function calls and `source`/`eval` levels (default
    /// 1,000).
    pub max_function_depth: usize,
    /// Bytes one command substitution may capture (default 64 MiB).
    pub max_substitution_bytes: usize,
    /// Bytes a command that holds its whole input (`sort`, `tac`, `jq -s`,
    /// a decompressed archive) may read from a stream (default 256 MiB).
    pub max_buffered_input: usize,
    /// Shell pipeline stages running at once; each runs on a thread of its
    /// own, like a process, so `f() { f | f; }` must stop (default 256).
    pub max_concurrent_stages: usize,
    /// Bytes one shell variable, array element or brace expansion may
    /// hold: a doubling loop (`x=$x$x`) stops here (default 64 MiB).
    pub max_value_bytes: usize,
    /// Snapshots a sandbox may hold at once (default 64); what they hold
    /// that the live tree does not counts against `fs_quota_bytes` too.
    #[serde(default = "default_max_snapshots")]
    pub max_snapshots: u64,
}

fn default_max_snapshots() -> u64 {
    Limits::DEFAULT_MAX_SNAPSHOTS
}

/// What happens to output past the budget (`fail` or `truncate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Overflow {
    /// The rest is dropped and the run ends (exit 3): the default.
    #[default]
    Fail,
    /// The run goes on: the first half of the budget is written as
    /// produced, the last half is held back, and when the run ends the
    /// bytes between them are replaced by one line,
    /// `[goccia: N bytes of output omitted]`.
    Truncate,
}

crate::named!(Overflow { "fail" => Overflow::Fail, "truncate" => Overflow::Truncate });

impl Limits {
    /// 30 s.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);
    /// 512 MiB.
    pub const DEFAULT_MAX_MEMORY: u64 = 512 << 20;
    /// 1 MiB.
    pub const DEFAULT_STACK_SIZE: u64 = 1 << 20;
    /// 1 GiB.
    pub const DEFAULT_FS_QUOTA_BYTES: u64 = 1 << 30;
    /// 1,000,000 files and directories.
    pub const DEFAULT_FS_NODE_LIMIT: u64 = 1_000_000;
    /// 64 MiB.
    pub const DEFAULT_MAX_OUTPUT: u64 = 64 << 20;
    /// 32 levels.
    pub const DEFAULT_MAX_DEPTH: u32 = 32;
    /// 10,000,000 commands.
    pub const DEFAULT_MAX_COMMANDS: u64 = 10_000_000;
    /// 10,000,000 iterations.
    pub const DEFAULT_MAX_LOOP_ITERATIONS: u64 = 10_000_000;
    /// 1,000 levels.
    pub const DEFAULT_MAX_FUNCTION_DEPTH: usize = 1_000;
    /// 64 MiB.
    pub const DEFAULT_MAX_SUBSTITUTION_BYTES: usize = 64 << 20;
    /// 256 MiB.
    pub const DEFAULT_MAX_BUFFERED_INPUT: usize = 256 << 20;
    /// 256 stages.
    pub const DEFAULT_MAX_CONCURRENT_STAGES: usize = 256;
    /// 64 MiB.
    pub const DEFAULT_MAX_VALUE_BYTES: usize = 64 << 20;
    /// 64 snapshots.
    pub const DEFAULT_MAX_SNAPSHOTS: u64 = 64;

    /// The smallest heap a JS runtime starts in with its globals.
    pub const MIN_MAX_MEMORY: u64 = 1 << 20;
    /// The smallest JS stack the globals install with.
    pub const MIN_STACK_SIZE: u64 = 64 << 10;
    /// The largest JS stack (each nested run reserves one on its thread).
    pub const MAX_STACK_SIZE: u64 = 256 << 20;

    /// Sets [`Limits::timeout`].
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
    /// Sets [`Limits::max_memory`] (bytes).
    pub fn max_memory(mut self, bytes: u64) -> Self {
        self.max_memory = bytes;
        self
    }
    /// Sets [`Limits::stack_size`] (bytes).
    pub fn stack_size(mut self, bytes: u64) -> Self {
        self.stack_size = bytes;
        self
    }
    /// Sets [`Limits::fs_quota_bytes`].
    pub fn fs_quota_bytes(mut self, bytes: u64) -> Self {
        self.fs_quota_bytes = bytes;
        self
    }
    /// Sets [`Limits::fs_node_limit`].
    pub fn fs_node_limit(mut self, nodes: u64) -> Self {
        self.fs_node_limit = nodes;
        self
    }
    /// Sets [`Limits::max_output`] (bytes).
    pub fn max_output(mut self, bytes: u64) -> Self {
        self.max_output = bytes;
        self
    }
    /// Sets [`Limits::max_depth`].
    pub fn max_depth(mut self, depth: u32) -> Self {
        self.max_depth = depth;
        self
    }
    /// Sets [`Limits::max_commands`].
    pub fn max_commands(mut self, commands: u64) -> Self {
        self.max_commands = commands;
        self
    }
    /// Sets [`Limits::max_loop_iterations`].
    pub fn max_loop_iterations(mut self, iterations: u64) -> Self {
        self.max_loop_iterations = iterations;
        self
    }
    /// Sets [`Limits::max_function_depth`].
    pub fn max_function_depth(mut self, depth: usize) -> Self {
        self.max_function_depth = depth;
        self
    }
    /// Sets [`Limits::max_substitution_bytes`].
    pub fn max_substitution_bytes(mut self, bytes: usize) -> Self {
        self.max_substitution_bytes = bytes;
        self
    }
    /// Sets [`Limits::max_buffered_input`].
    pub fn max_buffered_input(mut self, bytes: usize) -> Self {
        self.max_buffered_input = bytes;
        self
    }
    /// Sets [`Limits::max_concurrent_stages`].
    pub fn max_concurrent_stages(mut self, stages: usize) -> Self {
        self.max_concurrent_stages = stages;
        self
    }
    /// Sets [`Limits::max_value_bytes`].
    pub fn max_value_bytes(mut self, bytes: usize) -> Self {
        self.max_value_bytes = bytes;
        self
    }

    /// Sets [`Limits::max_snapshots`].
    pub fn max_snapshots(mut self, count: u64) -> Self {
        self.max_snapshots = count;
        self
    }

    /// Sets [`Limits::output_overflow`].
    pub fn output_overflow(mut self, overflow: Overflow) -> Self {
        self.output_overflow = overflow;
        self
    }

    /// The configured value of one limit (the deadline in milliseconds,
    /// sizes in bytes, counts as counts).
    pub fn value_of(&self, kind: LimitKind) -> u64 {
        let size = |value: usize| u64::try_from(value).unwrap_or(u64::MAX);
        match kind {
            LimitKind::Deadline => u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX),
            LimitKind::Memory | LimitKind::HostMemory => self.max_memory,
            LimitKind::Stack => self.stack_size,
            LimitKind::FsBytes => self.fs_quota_bytes,
            LimitKind::FsNodes => self.fs_node_limit,
            LimitKind::Output => self.max_output,
            LimitKind::Depth => u64::from(self.max_depth),
            LimitKind::ShellCommands => self.max_commands,
            LimitKind::LoopIterations => self.max_loop_iterations,
            LimitKind::FunctionDepth => size(self.max_function_depth),
            LimitKind::ShellStages => size(self.max_concurrent_stages),
            LimitKind::ShellValue => size(self.max_value_bytes),
            LimitKind::Snapshots => self.max_snapshots,
        }
    }

    /// Refuses values no run could work with: a heap too small for the
    /// JS globals, a stack too small for them or too large to reserve.
    pub fn check(&self) -> Result<(), LimitsError> {
        let out_of_range = |kind, value, min, max| LimitsError::OutOfRange {
            kind,
            value,
            min,
            max,
        };
        if self.max_memory < Self::MIN_MAX_MEMORY {
            return Err(out_of_range(
                LimitKind::Memory,
                self.max_memory,
                Self::MIN_MAX_MEMORY,
                u64::MAX,
            ));
        }
        if !(Self::MIN_STACK_SIZE..=Self::MAX_STACK_SIZE).contains(&self.stack_size) {
            return Err(out_of_range(
                LimitKind::Stack,
                self.stack_size,
                Self::MIN_STACK_SIZE,
                Self::MAX_STACK_SIZE,
            ));
        }
        Ok(())
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout: Self::DEFAULT_TIMEOUT,
            max_memory: Self::DEFAULT_MAX_MEMORY,
            stack_size: Self::DEFAULT_STACK_SIZE,
            fs_quota_bytes: Self::DEFAULT_FS_QUOTA_BYTES,
            fs_node_limit: Self::DEFAULT_FS_NODE_LIMIT,
            max_output: Self::DEFAULT_MAX_OUTPUT,
            max_depth: Self::DEFAULT_MAX_DEPTH,
            max_commands: Self::DEFAULT_MAX_COMMANDS,
            max_loop_iterations: Self::DEFAULT_MAX_LOOP_ITERATIONS,
            max_function_depth: Self::DEFAULT_MAX_FUNCTION_DEPTH,
            max_substitution_bytes: Self::DEFAULT_MAX_SUBSTITUTION_BYTES,
            max_buffered_input: Self::DEFAULT_MAX_BUFFERED_INPUT,
            max_concurrent_stages: Self::DEFAULT_MAX_CONCURRENT_STAGES,
            max_value_bytes: Self::DEFAULT_MAX_VALUE_BYTES,
            max_snapshots: Self::DEFAULT_MAX_SNAPSHOTS,
            output_overflow: Overflow::Fail,
        }
    }
}

/// A limit no run could work with.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum LimitsError {
    /// The value is outside what the engine can run with.
    #[error("the {} limit of {value} is out of range: it must be at least {min}{}", .kind.name(), upper(*.max))]
    OutOfRange {
        /// Which limit.
        kind: LimitKind,
        /// The value given.
        value: u64,
        /// The smallest accepted value.
        min: u64,
        /// The largest accepted value (`u64::MAX`: no upper bound).
        max: u64,
    },
}

fn upper(max: u64) -> String {
    if max == u64::MAX {
        String::new()
    } else {
        format!(" and at most {max}")
    }
}

/// Why a size (`64m`) could not be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseSizeError {
    /// Nothing was given.
    #[error("empty size")]
    Empty,
    /// Not digits with an optional suffix.
    #[error("`{0}` is not a size: use digits with an optional k, m or g suffix (e.g. 64m)")]
    Invalid(String),
    /// More than 2^64 - 1 bytes.
    #[error("`{0}` is too large")]
    Overflow(String),
}

/// Parses `1234`, `64k`, `512m`, `2g` (binary multiples, case-insensitive,
/// an optional trailing `b`/`ib` is accepted: `64kb`, `64KiB`).
pub fn parse_size(text: &str) -> Result<u64, ParseSizeError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(ParseSizeError::Empty);
    }
    let lower = trimmed.to_ascii_lowercase();
    let without_b = lower
        .strip_suffix("ib")
        .or_else(|| lower.strip_suffix('b'))
        .unwrap_or(&lower);
    let (digits, shift) = match without_b.chars().last() {
        Some('k') => (&without_b[..without_b.len() - 1], 10),
        Some('m') => (&without_b[..without_b.len() - 1], 20),
        Some('g') => (&without_b[..without_b.len() - 1], 30),
        _ => (without_b, 0),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ParseSizeError::Invalid(text.to_string()));
    }
    let value: u64 = digits
        .parse()
        .map_err(|_| ParseSizeError::Overflow(text.to_string()))?;
    value
        .checked_mul(1u64 << shift)
        .ok_or_else(|| ParseSizeError::Overflow(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_accept_binary_suffixes() {
        assert_eq!(parse_size("1234"), Ok(1234));
        assert_eq!(parse_size("64k"), Ok(64 << 10));
        assert_eq!(parse_size("64K"), Ok(64 << 10));
        assert_eq!(parse_size("512m"), Ok(512 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size("10kb"), Ok(10 << 10));
    }

    #[test]
    fn sizes_reject_garbage_and_overflow() {
        assert_eq!(parse_size(""), Err(ParseSizeError::Empty));
        assert!(matches!(parse_size("m"), Err(ParseSizeError::Invalid(_))));
        assert!(matches!(parse_size("-1"), Err(ParseSizeError::Invalid(_))));
        assert!(matches!(
            parse_size("1.5m"),
            Err(ParseSizeError::Invalid(_))
        ));
        assert!(matches!(parse_size("12x"), Err(ParseSizeError::Invalid(_))));
        assert!(matches!(
            parse_size("99999999999999999999"),
            Err(ParseSizeError::Overflow(_))
        ));
        assert!(matches!(
            parse_size("17179869184g"),
            Err(ParseSizeError::Overflow(_))
        ));
    }

    #[test]
    fn defaults_are_bounded() {
        let limits = Limits::default();
        assert!(limits.timeout > Duration::ZERO && limits.timeout <= Duration::from_secs(600));
        assert!(limits.fs_node_limit >= 100_000);
        assert!(limits.fs_quota_bytes >= 100 << 20);
        assert_eq!(limits.max_depth, 32);
        assert!(limits.max_commands > 0 && limits.max_value_bytes > 0);
    }

    #[test]
    fn nonsense_is_refused_naming_the_limit() {
        assert_eq!(Limits::default().check(), Ok(()));
        let error = Limits::default().max_memory(1).check().unwrap_err();
        assert_eq!(
            error.to_string(),
            "the memory limit of 1 is out of range: it must be at least 1048576"
        );
        let error = Limits::default().stack_size(100 << 30).check().unwrap_err();
        assert!(error.to_string().contains("at most 268435456"), "{error}");
        assert!(Limits::default().stack_size(1).check().is_err());
        for kind in LimitKind::ALL {
            assert!(Limits::default().value_of(kind) > 0, "{kind:?}");
        }
    }
}
