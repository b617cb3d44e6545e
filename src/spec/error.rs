//! [`SpecError`]: a setting of a spec no sandbox could be built with.

/// Why a spec cannot be built as it stands: the setting (by its JSON path;
/// [`SpecError::spelled`] names it as a surface does) and what is wrong
/// with its value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{setting}: {problem}")]
pub struct SpecError {
    /// The setting, by its JSON path (`limits.timeoutMs`).
    pub setting: String,
    /// What is wrong with it.
    pub problem: String,
}

impl SpecError {
    /// An error about `setting` (its JSON path).
    pub fn new(setting: impl Into<String>, problem: impl Into<String>) -> Self {
        SpecError {
            setting: setting.into(),
            problem: problem.into(),
        }
    }
}
