//! A regular expression for `grep`/`sed`/`awk`: the `regex` crate when it
//! can, `fancy-regex` (backtracking) when the pattern has backreferences.

use goccia_interp::regex_compat;

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
            // One backtracking match may take its whole step budget: the
            // deadline is looked at before each (a match given up at the
            // deadline is discarded with the run).
            Matcher::Backtracking(_) if goccia_interp::interrupt::stopped_now() => false,
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
            Matcher::Backtracking(_) if goccia_interp::interrupt::stopped_now() => None,
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
        self.matches(text).collect()
    }

    /// Non-overlapping matches, left to right, found as they are taken (a
    /// substitution of the first match looks no further). As in GNU sed
    /// and awk, an empty match right where the previous match ended does
    /// not count (`s/x*/-/g` on `xa` is `-a-`), and after an empty match
    /// the search resumes one character on.
    pub fn matches<'a>(&'a self, text: &'a str) -> Matches<'a> {
        Matches {
            matcher: self,
            text,
            from: 0,
            previous_end: None,
        }
    }
}

/// The iterator of [`Matcher::matches`].
pub(crate) struct Matches<'a> {
    matcher: &'a Matcher,
    text: &'a str,
    from: usize,
    /// Where the last non-empty match ended.
    previous_end: Option<usize>,
}

impl Matches<'_> {
    /// The position one character after `at` (past the end: the end + 1).
    fn step(&self, at: usize) -> usize {
        at + self.text[at..].chars().next().map_or(1, char::len_utf8)
    }
}

impl Iterator for Matches<'_> {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        loop {
            if self.from > self.text.len() {
                return None;
            }
            let found = self.matcher.find_at(self.text, self.from)?;
            if found.end > found.start {
                self.from = found.end;
                self.previous_end = Some(found.end);
                return Some(found);
            }
            self.from = self.step(found.end);
            if self.previous_end != Some(found.start) {
                return Some(found);
            }
        }
    }
}
