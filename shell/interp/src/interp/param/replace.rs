//! `${value/pattern/replacement}` and its anchored and global forms: where
//! a match starts, how long bash takes it to be, and `&` in the
//! replacement.

use crate::ast::ReplaceMode;
use crate::pattern::Pattern;

/// What `${value/pattern/...}` looks for.
#[derive(Clone, Copy)]
pub(super) struct Search<'a> {
    pub(super) matcher: &'a Pattern,
    /// The one length a match may have, as bash counts it
    /// ([`crate::pattern::substitution_length`]).
    pub(super) length: Option<usize>,
    /// The pattern is empty.
    pub(super) empty: bool,
    pub(super) mode: ReplaceMode,
}

/// `${value/pattern/replacement}`; in the replacement (escaped like a
/// pattern) an unquoted `&` is the matched text (bash 5.2's
/// `patsub_replacement`).
pub(super) fn replace(value: &str, search: &Search, replacement: &str) -> String {
    let Search {
        matcher,
        length,
        empty: empty_pattern,
        mode,
    } = *search;
    let substitute = |matched: &str| -> String {
        let mut out = String::new();
        let mut chars = replacement.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    if let Some(next) = chars.next() {
                        out.push(next);
                    }
                }
                '&' => out.push_str(matched),
                c => out.push(c),
            }
        }
        out
    };
    let chars: Vec<char> = value.chars().collect();
    match mode {
        ReplaceMode::Prefix => {
            if empty_pattern {
                return format!("{}{value}", substitute(""));
            }
            let prefix = match length {
                Some(n) => (n <= chars.len() && matcher.matches_range(&chars, 0, n)).then_some(n),
                None => matcher.match_prefix(value, true),
            };
            match prefix {
                Some(n) => {
                    let matched: String = chars[..n].iter().collect();
                    format!(
                        "{}{}",
                        substitute(&matched),
                        chars[n..].iter().collect::<String>()
                    )
                }
                None => value.to_string(),
            }
        }
        ReplaceMode::Suffix => {
            if empty_pattern {
                return format!("{value}{}", substitute(""));
            }
            let suffix = match length {
                Some(n) => chars
                    .len()
                    .checked_sub(n)
                    .filter(|&start| matcher.matches_range(&chars, start, chars.len())),
                None => matcher.match_suffix(value, true),
            };
            match suffix {
                Some(n) => {
                    let matched: String = chars[n..].iter().collect();
                    format!(
                        "{}{}",
                        chars[..n].iter().collect::<String>(),
                        substitute(&matched)
                    )
                }
                None => value.to_string(),
            }
        }
        ReplaceMode::First | ReplaceMode::All => {
            if empty_pattern {
                return value.to_string();
            }
            let mut out = String::new();
            let mut pos = 0;
            // Matching stops at the end of the value: a pattern that can
            // match nothing matches there only in an empty value (bash's
            // `${v//*/-}` is one `-`).
            while pos < chars.len() || chars.is_empty() && pos == 0 {
                match matcher.find(&chars, pos, length) {
                    Some((start, end)) => {
                        out.extend(&chars[pos..start]);
                        let matched: String = chars[start..end].iter().collect();
                        out.push_str(&substitute(&matched));
                        if end == start {
                            if start < chars.len() {
                                out.push(chars[start]);
                            }
                            pos = start + 1;
                        } else {
                            pos = end;
                        }
                        if mode == ReplaceMode::First {
                            if pos <= chars.len() {
                                out.extend(&chars[pos.min(chars.len())..]);
                            }
                            return out;
                        }
                    }
                    None => {
                        out.extend(&chars[pos.min(chars.len())..]);
                        return out;
                    }
                }
            }
            out
        }
    }
}
