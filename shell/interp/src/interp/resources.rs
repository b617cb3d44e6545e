//! The resource limits `ulimit` shows and sets: a table of its own per
//! shell, inherited by subshells and child shells as a process's limits
//! are, never the host's (a sandbox's answers must not depend on the
//! machine).
//!
//! Of these, open files (`-n`) is enforced: a redirect naming a
//! descriptor at or above the soft limit fails, and so does one that
//! opens a file when no descriptor below it is free. The others are
//! recorded only; what bounds a run is the sandbox's own limits
//! (deadline, memory, file quota), which no `ulimit` can raise.

/// A limit: `None` is unlimited. Values are in the resource's unit
/// (`ulimit`'s blocks, kbytes, ...), checked to fit in bytes.
pub(crate) type LimitValue = Option<u64>;

/// One resource `ulimit` knows.
pub(crate) struct Resource {
    /// Its option letter.
    pub letter: char,
    /// What `ulimit -a` calls it.
    pub description: &'static str,
    /// Its unit as `ulimit -a` shows it, if any.
    pub unit: Option<&'static str>,
    /// Bytes (or units) per unit of value.
    pub factor: u64,
    /// The sandbox's soft and hard limits at start.
    pub soft: LimitValue,
    pub hard: LimitValue,
    /// Whether it can be changed at all (the pipe size cannot).
    pub changeable: bool,
}

const fn resource(
    letter: char,
    description: &'static str,
    unit: Option<&'static str>,
    factor: u64,
    soft: LimitValue,
    hard: LimitValue,
) -> Resource {
    Resource {
        letter,
        description,
        unit,
        factor,
        soft,
        hard,
        changeable: true,
    }
}

/// Linux's resources, in the order `ulimit -a` lists them, with the
/// sandbox's fixed starting values.
pub(crate) const RESOURCES: &[Resource] = &[
    resource(
        'R',
        "real-time non-blocking time",
        Some("microseconds"),
        1,
        None,
        None,
    ),
    resource('c', "core file size", Some("blocks"), 1024, Some(0), None),
    resource('d', "data seg size", Some("kbytes"), 1024, None, None),
    resource('e', "scheduling priority", None, 1, Some(0), Some(0)),
    resource('f', "file size", Some("blocks"), 1024, None, None),
    resource('i', "pending signals", None, 1, Some(4096), Some(4096)),
    resource(
        'l',
        "max locked memory",
        Some("kbytes"),
        1024,
        Some(8192),
        Some(8192),
    ),
    resource('m', "max memory size", Some("kbytes"), 1024, None, None),
    resource(
        'n',
        "open files",
        None,
        1,
        Some(OPEN_FILES),
        Some(OPEN_FILES),
    ),
    Resource {
        changeable: false,
        ..resource('p', "pipe size", Some("512 bytes"), 512, Some(8), Some(8))
    },
    resource(
        'q',
        "POSIX message queues",
        Some("bytes"),
        1,
        Some(819_200),
        Some(819_200),
    ),
    resource('r', "real-time priority", None, 1, Some(0), Some(0)),
    resource('s', "stack size", Some("kbytes"), 1024, Some(8192), None),
    resource('t', "cpu time", Some("seconds"), 1, None, None),
    resource('u', "max user processes", None, 1, Some(4096), Some(4096)),
    resource('v', "virtual memory", Some("kbytes"), 1024, None, None),
    resource('x', "file locks", None, 1, None, None),
];

/// Descriptors a shell may have open: 0 to 1023, as the descriptor
/// table's own bound ([`crate::io::FdTable::MAX_FD`]).
const OPEN_FILES: u64 = 1024;

/// Why a limit could not be set (the words of the system's error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LimitRefused {
    /// The soft limit would pass the hard one, or the resource is fixed.
    InvalidArgument,
    /// Raising a hard limit takes privileges the sandbox user lacks.
    NotPermitted,
}

impl LimitRefused {
    pub(crate) fn message(self) -> &'static str {
        match self {
            LimitRefused::InvalidArgument => "Invalid argument",
            LimitRefused::NotPermitted => "Operation not permitted",
        }
    }
}

/// A shell's limits, soft and hard, one pair per [`RESOURCES`] entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ResourceLimits {
    pairs: [(LimitValue, LimitValue); RESOURCES.len()],
}

impl Default for ResourceLimits {
    fn default() -> Self {
        let mut pairs = [(None, None); RESOURCES.len()];
        for (pair, resource) in pairs.iter_mut().zip(RESOURCES) {
            *pair = (resource.soft, resource.hard);
        }
        ResourceLimits { pairs }
    }
}

/// The index in [`RESOURCES`] of the resource with option `letter`.
pub(crate) fn resource_index(letter: char) -> Option<usize> {
    RESOURCES.iter().position(|r| r.letter == letter)
}

/// `value` under `limit`: unlimited is above everything.
fn within(value: LimitValue, limit: LimitValue) -> bool {
    match (value, limit) {
        (_, None) => true,
        (None, Some(_)) => false,
        (Some(value), Some(limit)) => value <= limit,
    }
}

impl ResourceLimits {
    /// The soft and hard limits of resource `index`.
    pub(crate) fn get(&self, index: usize) -> (LimitValue, LimitValue) {
        self.pairs[index]
    }

    /// Sets the soft limit, the hard one or both (as `setrlimit` for an
    /// unprivileged user would allow).
    pub(crate) fn set(
        &mut self,
        index: usize,
        value: LimitValue,
        soft: bool,
        hard: bool,
    ) -> Result<(), LimitRefused> {
        if !RESOURCES[index].changeable {
            return Err(LimitRefused::InvalidArgument);
        }
        let (old_soft, old_hard) = self.pairs[index];
        let new_soft = if soft { value } else { old_soft };
        let new_hard = if hard { value } else { old_hard };
        if !within(new_soft, new_hard) {
            return Err(LimitRefused::InvalidArgument);
        }
        if !within(new_hard, old_hard) {
            return Err(LimitRefused::NotPermitted);
        }
        self.pairs[index] = (new_soft, new_hard);
        Ok(())
    }

    /// The soft limit on open descriptors (descriptors go up to one less).
    pub(crate) fn open_files(&self) -> u64 {
        let index = resource_index('n').unwrap_or(0);
        self.pairs[index].0.unwrap_or(OPEN_FILES).min(OPEN_FILES)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_soft_limit_moves_below_the_hard_one_and_a_hard_one_only_down() {
        let mut limits = ResourceLimits::default();
        let t = resource_index('t').unwrap();
        limits.set(t, Some(100), true, true).unwrap();
        assert_eq!(limits.set(t, Some(90), true, false), Ok(()));
        assert_eq!(
            limits.set(t, Some(105), true, false),
            Err(LimitRefused::InvalidArgument)
        );
        assert_eq!(
            limits.set(t, Some(200), false, true),
            Err(LimitRefused::NotPermitted)
        );
        assert_eq!(limits.get(t), (Some(90), Some(100)));
        let p = resource_index('p').unwrap();
        assert_eq!(
            limits.set(p, Some(4), true, true),
            Err(LimitRefused::InvalidArgument)
        );
    }

    #[test]
    fn open_files_starts_at_the_descriptor_tables_bound() {
        let limits = ResourceLimits::default();
        assert_eq!(limits.open_files(), crate::io::FdTable::MAX_FD as u64 + 1);
    }
}
