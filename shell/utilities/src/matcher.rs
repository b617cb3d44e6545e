//! A regular expression for `grep`/`sed`/`awk`: the `regex` crate when it
//! can, `fancy-regex` (backtracking) when the pattern has backreferences.
//!
//! POSIX tools match leftmost-longest: of the matches that start leftmost,
//! the longest (`s/x|xy/Q/` on `xyz` is `Qz`), where the `regex` crate
//! takes the first alternative that matches (`Qyz`). So the leftmost start
//! is found as the `regex` crate finds it, and the end by a second search
//! anchored there that reports the longest match (`regex-automata`'s
//! `MatchKind::All`). `grep -P` keeps Perl's leftmost-first.

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
    /// Perl's semantics: the first alternative that matches.
    Fast(regex::Regex),
    /// POSIX semantics: where the first finds the leftmost start, the
    /// second (all matches, searched anchored there) the longest end.
    Longest(regex::Regex, Box<regex_automata::meta::Regex>),
    Backtracking(fancy_regex::Regex),
}

/// Whether a Rust pattern can have a leftmost-first match shorter than
/// the longest one at the same start: it has alternatives (`|`), or a
/// repeat of anything but one character or class (`(ab)?`), or a lazy
/// repeat. A sequence of characters and classes each repeated greedily
/// matches as far as the longest match goes. Read from the pattern's
/// syntax tree as written; a pattern that does not parse is taken as able
/// to differ.
fn may_differ_from_longest(pattern: &str) -> bool {
    use regex_syntax::ast::Ast;
    fn differs(ast: &Ast) -> bool {
        match ast {
            Ast::Alternation(_) => true,
            Ast::Repetition(repeat) => {
                let one_character = matches!(
                    *repeat.ast,
                    Ast::Literal(_)
                        | Ast::Dot(_)
                        | Ast::ClassBracketed(_)
                        | Ast::ClassPerl(_)
                        | Ast::ClassUnicode(_)
                );
                !repeat.greedy || !one_character
            }
            Ast::Group(group) => differs(&group.ast),
            Ast::Concat(concat) => concat.asts.iter().any(differs),
            _ => false,
        }
    }
    regex_syntax::ast::parse::Parser::new()
        .parse(pattern)
        .map_or(true, |ast| differs(&ast))
}

/// A match and its capture groups (byte offsets).
pub(crate) struct Found {
    pub start: usize,
    pub end: usize,
    pub groups: Vec<Option<(usize, usize)>>,
}

impl Matcher {
    /// A pattern already in Rust syntax, matched as POSIX tools match
    /// (leftmost-longest).
    pub fn from_rust(translated: &str, ignore_case: bool) -> Result<Matcher, String> {
        let first = match Self::perl(translated, ignore_case)? {
            Matcher::Fast(first) => first,
            backtracking => return Ok(backtracking),
        };
        // Without alternatives or a repeated group, the first match that
        // starts leftmost is also the longest (each repeat is of one
        // character, and the first takes each as far as it can).
        if !may_differ_from_longest(translated) {
            return Ok(Matcher::Fast(first));
        }
        let longest = regex_automata::meta::Regex::builder()
            .configure(
                regex_automata::meta::Regex::config()
                    .match_kind(regex_automata::MatchKind::All)
                    .nfa_size_limit(Some(1 << 24)),
            )
            .syntax(regex_automata::util::syntax::Config::new().case_insensitive(ignore_case))
            .build(translated)
            .map_err(|e| e.to_string())?;
        Ok(Matcher::Longest(first, Box::new(longest)))
    }

    /// A pattern in Rust syntax matched with Perl's semantics (`grep -P`).
    pub fn perl(translated: &str, ignore_case: bool) -> Result<Matcher, String> {
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
            Matcher::Fast(regex) | Matcher::Longest(regex, _) => regex.is_match(text),
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
            Matcher::Longest(first, longest) => {
                let leftmost = first.find_at(text, from)?;
                let input = regex_automata::Input::new(text)
                    .range(leftmost.start()..)
                    .anchored(regex_automata::Anchored::Yes);
                let end = longest
                    .search_half(&input)
                    .map_or(leftmost.end(), |m| m.offset());
                let whole = (leftmost.start(), end);
                if longest
                    .group_info()
                    .group_len(regex_automata::PatternID::ZERO)
                    == 1
                {
                    return Some(Found {
                        start: whole.0,
                        end: whole.1,
                        groups: vec![Some(whole)],
                    });
                }
                // Groups: the first alternative's, when it is the longest
                // match too (the common case, and the faster engine); else
                // those of the longest, searched within its own span.
                if end == leftmost.end()
                    && let Some(captures) = first.captures_at(text, leftmost.start())
                    && captures
                        .get(0)
                        .is_some_and(|m| m.range() == (whole.0..whole.1))
                {
                    return Some(Found {
                        start: whole.0,
                        end: whole.1,
                        groups: captures
                            .iter()
                            .map(|m| m.map(|m| (m.start(), m.end())))
                            .collect(),
                    });
                }
                let mut captures = longest.create_captures();
                longest.search_captures(&input.range(whole.0..whole.1), &mut captures);
                Some(Found {
                    start: whole.0,
                    end: whole.1,
                    groups: (0..captures.group_len())
                        .map(|i| captures.get_group(i).map(|span| (span.start, span.end)))
                        .collect(),
                })
            }
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

#[cfg(test)]
mod longest_tests {
    use super::*;

    #[test]
    fn only_patterns_that_can_differ_take_the_second_search() {
        for plain in [
            "abc", "a*b+c?", "[a|b]*x", r"\|", "(ab)c", r"\(a\)?", "x{2,3}y",
        ] {
            assert!(!may_differ_from_longest(plain), "{plain}");
        }
        for ambiguous in ["a|ab", "(a|b)", "(ab)?b", "(a*)*", "a*?", "x{1,2}?"] {
            assert!(may_differ_from_longest(ambiguous), "{ambiguous}");
        }
    }

    #[test]
    fn the_longest_of_the_leftmost_matches_with_its_groups() {
        let matcher = Matcher::from_rust("(x|xy)(z)?", false).unwrap();
        let found = matcher.find_at("axyz", 0).unwrap();
        assert_eq!((found.start, found.end), (1, 4));
        assert_eq!(found.groups, [Some((1, 4)), Some((1, 3)), Some((3, 4))]);
        let perl = Matcher::perl("x|xy", false).unwrap();
        assert_eq!(perl.find_at("xyz", 0).map(|f| f.end), Some(1));
    }
}
