//! A regular expression for `grep`/`sed`/`awk`: the `regex` crate when it
//! can, `fancy-regex` (backtracking) when the pattern has backreferences.

use crate::regex_compat;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Syntax {
    Basic,
    Extended,
    Fixed,
    /// Rust/PCRE-like syntax (`grep -P`, `rg`).
    Perl,
}

impl Syntax {
    /// `pattern` in this syntax, rewritten as a Rust regex.
    pub fn to_rust(self, pattern: &str) -> String {
        match self {
            Syntax::Basic => regex_compat::bre_to_rust(pattern),
            Syntax::Extended => regex_compat::ere_to_rust(pattern),
            Syntax::Fixed => regex::escape(pattern),
            Syntax::Perl => pattern.to_string(),
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Matcher {
    Fast(regex::Regex),
    Backtracking(fancy_regex::Regex),
}

/// A match and its capture groups (byte offsets).
pub(crate) struct Found {
    pub start: usize,
    pub end: usize,
    pub groups: Vec<Option<(usize, usize)>>,
}

impl Matcher {
    /// A pattern already in Rust syntax.
    pub fn from_rust(translated: &str, ignore_case: bool) -> Result<Matcher, String> {
        if regex_compat::has_backreference(translated) {
            let pattern = if ignore_case {
                format!("(?i){translated}")
            } else {
                translated.to_string()
            };
            return fancy_regex::Regex::new(&pattern)
                .map(Matcher::Backtracking)
                .map_err(|e| e.to_string());
        }
        regex::RegexBuilder::new(translated)
            .case_insensitive(ignore_case)
            .size_limit(1 << 24)
            .build()
            .map(Matcher::Fast)
            .map_err(|e| e.to_string())
    }

    pub fn is_match(&self, text: &str) -> bool {
        match self {
            Matcher::Fast(regex) => regex.is_match(text),
            Matcher::Backtracking(regex) => regex.is_match(text).unwrap_or(false),
        }
    }

    /// The first match at or after `from`.
    pub fn find_at(&self, text: &str, from: usize) -> Option<Found> {
        match self {
            Matcher::Fast(regex) => {
                let captures = regex.captures_at(text, from)?;
                let whole = captures.get(0)?;
                Some(Found {
                    start: whole.start(),
                    end: whole.end(),
                    groups: captures
                        .iter()
                        .map(|m| m.map(|m| (m.start(), m.end())))
                        .collect(),
                })
            }
            Matcher::Backtracking(regex) => {
                let captures = regex.captures_from_pos(text, from).ok()??;
                let whole = captures.get(0)?;
                Some(Found {
                    start: whole.start(),
                    end: whole.end(),
                    groups: (0..captures.len())
                        .map(|i| captures.get(i).map(|m| (m.start(), m.end())))
                        .collect(),
                })
            }
        }
    }

    /// Every non-overlapping match.
    pub fn find_all(&self, text: &str) -> Vec<Found> {
        let mut out = Vec::new();
        let mut from = 0;
        while from <= text.len() {
            let Some(found) = self.find_at(text, from) else {
                break;
            };
            from = if found.end == found.start {
                let next = text[found.end..].chars().next().map_or(1, char::len_utf8);
                found.end + next
            } else {
                found.end
            };
            out.push(found);
        }
        out
    }
}
