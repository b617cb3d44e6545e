//! How a surface tells its user to change a setting.
//!
//! Lower layers know *which* setting a refusal or a stop is about (the
//! output cap, the fetch allow-list); only the surface knows what its user
//! can act on: a CLI flag (`--max-output`), a builder method
//! (`Limits::max_output`), a field of a server request. A surface installs
//! an [`Advice`]; messages below it append [`Advice::suffix`] and never
//! name a surface's options themselves.

use std::fmt;
use std::sync::Arc;

use crate::outcome::LimitKind;

/// A setting a message can advise changing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// One of the [`Limits`](crate::Limits).
    Limit(LimitKind),
    /// The largest response body `fetch` returns.
    FetchMaxBytes,
    /// The hosts `fetch` may reach.
    AllowHost,
    /// Whether private addresses are refused after resolution.
    DenyPrivateRanges,
    /// A call's own deadline (a per-call timeout), when it was the call's
    /// and not the sandbox's limit that passed.
    CallTimeout,
}

impl Setting {
    /// Every setting, limits first in [`LimitKind::ALL`] order.
    pub const ALL: [Setting; LimitKind::ALL.len() + 4] = {
        let mut all = [Setting::AllowHost; LimitKind::ALL.len() + 4];
        let mut index = 0;
        while index < LimitKind::ALL.len() {
            all[index] = Setting::Limit(LimitKind::ALL[index]);
            index += 1;
        }
        all[index] = Setting::FetchMaxBytes;
        all[index + 1] = Setting::AllowHost;
        all[index + 2] = Setting::DenyPrivateRanges;
        all[index + 3] = Setting::CallTimeout;
        all
    };
}

type AdviceFn = dyn Fn(Setting) -> Option<String> + Send + Sync;

/// The surface's words for each [`Setting`]: `raise it with --timeout`.
/// The default advises nothing.
///
/// ```
/// use goccia_core::{Advice, LimitKind, Setting};
///
/// let advice = Advice::new(|setting| match setting {
///     Setting::Limit(LimitKind::Output) => Some("raise max_output".to_string()),
///     _ => None,
/// });
/// assert_eq!(advice.suffix(Setting::Limit(LimitKind::Output)), " (raise max_output)");
/// assert_eq!(advice.suffix(Setting::AllowHost), "");
/// assert_eq!(Advice::default().suffix(Setting::AllowHost), "");
/// ```
#[derive(Clone, Default)]
pub struct Advice(Option<Arc<AdviceFn>>);

impl Advice {
    /// Advice worded by `words` (`None` for a setting it has nothing to
    /// say about).
    pub fn new(words: impl Fn(Setting) -> Option<String> + Send + Sync + 'static) -> Self {
        Advice(Some(Arc::new(words)))
    }

    /// What to tell the user about `setting`, if anything.
    pub fn text(&self, setting: Setting) -> Option<String> {
        self.0.as_ref().and_then(|words| words(setting))
    }

    /// ` (<advice>)` to append to a message, or nothing.
    pub fn suffix(&self, setting: Setting) -> String {
        self.text(setting)
            .map(|text| format!(" ({text})"))
            .unwrap_or_default()
    }

    /// [`Advice::suffix`] for a limit.
    pub fn for_limit(&self, kind: LimitKind) -> String {
        self.suffix(Setting::Limit(kind))
    }
}

impl fmt::Debug for Advice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "Advice(..)"
        } else {
            "Advice(none)"
        })
    }
}

/// Two advices are equal when they are the same words (one `Arc`).
impl PartialEq for Advice {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}
