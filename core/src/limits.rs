//! Limits of a sandbox run (contract §7) and their defaults.
//!
//! Every limit is bounded by default: there is no "unlimited" setting, so a
//! guest can never make the host grow without bound. The defaults are large
//! enough for a real repository (100k files, hundreds of MiB).

use std::time::Duration;

use thiserror::Error;

/// Limits for one sandbox run. Children inherit them and may only narrow.
/// A builder: start from [`Limits::default`] (every default stated on its
/// field and as a constant) and change what you need.
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
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock deadline of the whole run (default 30 s).
    pub timeout: Duration,
    /// QuickJS heap limit in bytes, including every buffer the host hands
    /// to JS (default 512 MiB).
    pub max_memory: u64,
    /// Maximum JS stack in bytes; deeper recursion is a catchable
    /// `RangeError` (default 1 MiB).
    pub stack_size: u64,
    /// Total bytes of file content the VFS may hold (default 1 GiB).
    pub fs_quota_bytes: u64,
    /// Total files and directories the VFS may hold, `/` excluded
    /// (default 1,000,000).
    pub fs_node_limit: u64,
    /// Bytes of stdout + stderr the guest may produce, `$` captures and
    /// children included (default 64 MiB).
    pub max_output: u64,
    /// Nesting depth of `runScript` / `goccia` (default 32).
    pub max_depth: u32,
}

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
        }
    }
}

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseSizeError {
    #[error("empty size")]
    Empty,
    #[error("`{0}` is not a size: use digits with an optional k, m or g suffix (e.g. 64m)")]
    Invalid(String),
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
    }
}
