//! Bash pattern matching: `*`, `?`, bracket expressions with character
//! classes, and the extended patterns `?() *() +() @() !()`. Used by
//! `case`, `[[ == ]]`, `${var#pattern}` and friends, and pathname
//! expansion. A backslash makes the next character literal (expansion
//! escapes quoted characters that way).

use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Char(char),
    Any,
    Star,
    Class {
        negated: bool,
        items: Vec<ClassItem>,
    },
    Ext {
        kind: char,
        alternatives: Vec<Vec<Token>>,
    },
}

#[derive(Clone, Debug, PartialEq)]
enum ClassItem {
    Char(char),
    Range(char, char),
    Named(String),
}

/// Decided (tokens, start, end) triples of one match.
type Memo = HashMap<(usize, usize, usize, usize), bool>;

/// Whether `tokens` hold an extended group.
fn has_ext(tokens: &[Token]) -> bool {
    tokens
        .iter()
        .any(|token| matches!(token, Token::Ext { .. }))
}

/// A glob pattern (`*.txt`, `[a-z]?`, with extglob `@(a|b)`), parsed once
/// and matched against many strings.
#[derive(Clone, Debug)]
pub struct Pattern {
    tokens: Vec<Token>,
    nocase: bool,
}

/// True when `text` (with backslash escapes) has unescaped pattern
/// characters.
pub fn has_magic(text: &str, extglob: bool) -> bool {
    // Every character that matters is ASCII, and no byte of a multi-byte
    // character is: bytes can be read one by one (a backslash before a
    // multi-byte character skips its first byte, the rest match nothing).
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'*' | b'?' => return true,
            b'[' if bytes[i + 1..].contains(&b']') => return true,
            b'+' | b'@' | b'!' if extglob && bytes.get(i + 1) == Some(&b'(') => return true,
            _ => {}
        }
        i += 1;
    }
    false
}

/// How many characters every match of the pattern `text` is long, as
/// bash counts it for `${x/pattern/...}` (its `MATCHLEN`); `None` when a
/// match may have any length (a `*` or an extended group). Bash tries only
/// matches of that length, and its count ends a bracket expression at the
/// first `]` after `[`, `[!` or `[^` unless that `]` comes first: so
/// `[^]]` counts two characters and `${s//[^]]/z}` replaces nothing,
/// while `${s#[^]]}` (which does not count) removes one. Reproduced.
pub fn substitution_length(text: &str) -> Option<usize> {
    let chars: Vec<char> = text.chars().collect();
    let group_follows = |i: usize| chars.get(i) == Some(&'(');
    let mut length = 0;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        match c {
            '\\' => {
                length += 1;
                i += 1;
            }
            '*' => return None,
            '?' | '+' | '!' | '@' if group_follows(i) => return None,
            '[' => {
                // The characters a bracket that never closes holds count
                // one each, the `[` included.
                let mut scanned = 1;
                let mut first = true;
                let (mut in_class, mut in_collating, mut in_equivalence) = (false, false, false);
                loop {
                    let Some(&c) = chars.get(i) else {
                        return Some(length + scanned);
                    };
                    i += 1;
                    if c == ']' && !first {
                        length += 1;
                        break;
                    }
                    first = false;
                    scanned += 1;
                    let next = chars.get(i).copied();
                    match (c, next) {
                        ('\\', _) => {
                            // The escaped character, and bash gives up
                            // when the text ends right after it.
                            i += 1;
                            if i >= chars.len() {
                                return Some(length + scanned);
                            }
                        }
                        // `[:`, `:]`, `[.`, `.]`, `[=` and `=]` count
                        // as one; a `]` right after `[.` or `[=` one more.
                        ('[', Some(':')) => {
                            i += 1;
                            in_class = true;
                        }
                        (':', Some(']')) if in_class => {
                            i += 1;
                            in_class = false;
                        }
                        ('[', Some('.' | '=')) => {
                            i += 1;
                            if chars.get(i) == Some(&']') {
                                i += 1;
                                scanned += 1;
                            }
                            if next == Some('.') {
                                in_collating = true;
                            } else {
                                in_equivalence = true;
                            }
                        }
                        ('.', Some(']')) if in_collating => {
                            i += 1;
                            in_collating = false;
                        }
                        ('=', Some(']')) if in_equivalence => {
                            i += 1;
                            in_equivalence = false;
                        }
                        _ => {}
                    }
                }
            }
            _ => length += 1,
        }
    }
    Some(length)
}

/// Removes backslash escapes.
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Escapes every pattern character of `text` (a literal in a pattern).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    escape_into(text, &mut out);
    out
}

/// [`escape`], appended to `out`.
pub fn escape_into(text: &str, out: &mut String) {
    for c in text.chars() {
        if is_special(c) {
            out.push('\\');
        }
        out.push(c);
    }
}

/// Whether [`escape`] would change `text`.
pub fn needs_escape(text: &str) -> bool {
    text.chars().any(is_special)
}

/// What a pattern reads as more than itself, and [`escape`] escapes.
fn is_special(c: char) -> bool {
    matches!(
        c,
        '\\' | '-' | '^' | '*' | '?' | '[' | ']' | '(' | ')' | '|' | '@' | '!' | '+'
    )
}

impl Pattern {
    /// `text` parsed as a pattern (extglob's operators when `extglob`).
    pub fn new(text: &str, extglob: bool) -> Pattern {
        let chars: Vec<char> = text.chars().collect();
        let mut pos = 0;
        let closes = group_closes(&chars);
        let tokens = parse(&chars, &closes, &mut pos, extglob, false, 0);
        Pattern {
            tokens,
            nocase: false,
        }
    }

    /// The pattern matching without regard to case when `nocase`.
    pub fn nocase(mut self, nocase: bool) -> Pattern {
        self.nocase = nocase;
        self
    }

    /// The whole of `text` matches.
    pub fn matches(&self, text: &str) -> bool {
        let chars: Vec<char> = text.chars().collect();
        self.match_here(&self.tokens, &chars, 0, chars.len())
    }

    /// Length (in chars) of the shortest or longest matching prefix.
    pub fn match_prefix(&self, text: &str, longest: bool) -> Option<usize> {
        let chars: Vec<char> = text.chars().collect();
        let mut lengths: Box<dyn Iterator<Item = usize>> = if longest {
            Box::new((0..=chars.len()).rev())
        } else {
            Box::new(0..=chars.len())
        };
        lengths.find(|&end| self.match_here(&self.tokens, &chars, 0, end))
    }

    /// Start (in chars) of the shortest or longest matching suffix.
    pub fn match_suffix(&self, text: &str, longest: bool) -> Option<usize> {
        let chars: Vec<char> = text.chars().collect();
        let mut starts: Box<dyn Iterator<Item = usize>> = if longest {
            Box::new(0..=chars.len())
        } else {
            Box::new((0..=chars.len()).rev())
        };
        starts.find(|&start| self.match_here(&self.tokens, &chars, start, chars.len()))
    }

    /// The first (leftmost, then longest) match at or after `from`, as char
    /// offsets; with a `length` (see [`substitution_length`]) only matches
    /// of that many characters count.
    pub fn find(
        &self,
        chars: &[char],
        from: usize,
        length: Option<usize>,
    ) -> Option<(usize, usize)> {
        for start in from..=chars.len() {
            match length {
                Some(length) => {
                    let end = start + length;
                    if end > chars.len() {
                        return None;
                    }
                    if self.match_here(&self.tokens, chars, start, end) {
                        return Some((start, end));
                    }
                }
                None => {
                    for end in (start..=chars.len()).rev() {
                        if self.match_here(&self.tokens, chars, start, end) {
                            return Some((start, end));
                        }
                    }
                }
            }
        }
        None
    }

    /// Whether exactly `chars[start..end]` matches.
    pub fn matches_range(&self, chars: &[char], start: usize, end: usize) -> bool {
        self.match_here(&self.tokens, chars, start, end)
    }

    fn eq(&self, a: char, b: char) -> bool {
        a == b || (self.nocase && a.to_lowercase().eq(b.to_lowercase()))
    }

    /// Do `tokens` match exactly `text[start..end]`? Patterns without
    /// extended groups take an iterative matcher (no recursion, at most
    /// `O(text × pattern)` steps); extended groups a memoized one. Both
    /// give up once the run's deadline passes ([`crate::interrupt`]).
    fn match_here(&self, tokens: &[Token], text: &[char], start: usize, end: usize) -> bool {
        if !has_ext(tokens) {
            return self.match_simple(tokens, &text[start..end]);
        }
        let mut memo = HashMap::new();
        self.match_ext_here(tokens, text, start, end, &mut memo)
    }

    /// One token that matches exactly one character.
    fn single(&self, token: &Token, c: char) -> bool {
        match token {
            Token::Char(x) => self.eq(*x, c),
            Token::Any => true,
            Token::Class { negated, items } => self.class_matches(items, c) != *negated,
            Token::Star | Token::Ext { .. } => false,
        }
    }

    /// `*`, `?`, characters and classes only: advance greedily, and on a
    /// mismatch go back to the last `*` and let it take one more character.
    fn match_simple(&self, tokens: &[Token], text: &[char]) -> bool {
        let (mut t, mut p) = (0, 0);
        let mut star: Option<(usize, usize)> = None;
        while t < text.len() {
            if crate::interrupt::stopped() {
                return false;
            }
            match tokens.get(p) {
                Some(Token::Star) => {
                    star = Some((p, t));
                    p += 1;
                }
                Some(token) if self.single(token, text[t]) => {
                    p += 1;
                    t += 1;
                }
                _ => match star {
                    Some((star_p, star_t)) => {
                        p = star_p + 1;
                        t = star_t + 1;
                        star = Some((star_p, star_t + 1));
                    }
                    None => return false,
                },
            }
        }
        tokens[p..].iter().all(|token| *token == Token::Star)
    }

    /// The general matcher, each (tokens, start, end) decided once.
    fn match_ext_here(
        &self,
        tokens: &[Token],
        text: &[char],
        mut start: usize,
        end: usize,
        memo: &mut Memo,
    ) -> bool {
        // Runs of single-character tokens need no recursion.
        let mut tokens = tokens;
        while let Some((first, rest)) = tokens.split_first() {
            if matches!(first, Token::Star | Token::Ext { .. }) {
                break;
            }
            if start >= end || !self.single(first, text[start]) {
                return false;
            }
            start += 1;
            tokens = rest;
        }
        let Some((first, rest)) = tokens.split_first() else {
            return start == end;
        };
        if crate::interrupt::stopped() {
            return false;
        }
        let key = (tokens.as_ptr() as usize, tokens.len(), start, end);
        if let Some(&known) = memo.get(&key) {
            return known;
        }
        let matched = match first {
            Token::Star => {
                rest.is_empty()
                    || (start..=end).any(|i| self.match_ext_here(rest, text, i, end, memo))
            }
            Token::Ext { kind, alternatives } => {
                self.match_ext(*kind, alternatives, rest, text, start, end, memo)
            }
            _ => unreachable!("single-character tokens were consumed above"),
        };
        memo.insert(key, matched);
        matched
    }

    #[allow(clippy::too_many_arguments)]
    fn match_ext(
        &self,
        kind: char,
        alternatives: &[Vec<Token>],
        rest: &[Token],
        text: &[char],
        start: usize,
        end: usize,
        memo: &mut Memo,
    ) -> bool {
        let any_alt = |from: usize, to: usize, memo: &mut Memo| {
            alternatives
                .iter()
                .any(|alt| self.match_ext_here(alt, text, from, to, memo))
        };
        match kind {
            '@' => (start..=end).any(|mid| {
                any_alt(start, mid, memo) && self.match_ext_here(rest, text, mid, end, memo)
            }),
            '?' => {
                self.match_ext_here(rest, text, start, end, memo)
                    || (start..=end).any(|mid| {
                        any_alt(start, mid, memo) && self.match_ext_here(rest, text, mid, end, memo)
                    })
            }
            '!' => (start..=end).any(|mid| {
                !any_alt(start, mid, memo) && self.match_ext_here(rest, text, mid, end, memo)
            }),
            '+' | '*' => {
                if kind == '*' && self.match_ext_here(rest, text, start, end, memo) {
                    return true;
                }
                // One alternative, then zero or more (as `*(...)`): a
                // repetition ending at `mid` is tried once per `mid`.
                let mut reached = vec![false; end + 1];
                let mut frontier = vec![start];
                while let Some(from) = frontier.pop() {
                    for (mid, seen) in reached.iter_mut().enumerate().skip(from + 1) {
                        if *seen || !any_alt(from, mid, memo) {
                            continue;
                        }
                        *seen = true;
                        if self.match_ext_here(rest, text, mid, end, memo) {
                            return true;
                        }
                        frontier.push(mid);
                    }
                }
                false
            }
            _ => false,
        }
    }

    fn class_matches(&self, items: &[ClassItem], c: char) -> bool {
        items.iter().any(|item| match item {
            ClassItem::Char(x) => self.eq(*x, c),
            ClassItem::Range(lo, hi) => {
                (*lo..=*hi).contains(&c)
                    || (self.nocase
                        && ((*lo..=*hi).contains(&c.to_ascii_lowercase())
                            || (*lo..=*hi).contains(&c.to_ascii_uppercase())))
            }
            ClassItem::Named(name) => named_class(name, c),
        })
    }
}

/// Whether `c` is in the POSIX class `name` (`alpha`, `digit`, ...).
pub fn named_class(name: &str, c: char) -> bool {
    match name {
        "alpha" => c.is_alphabetic(),
        "digit" => c.is_ascii_digit(),
        "alnum" => c.is_alphanumeric(),
        "upper" => c.is_uppercase(),
        "lower" => c.is_lowercase(),
        "space" => c.is_whitespace(),
        "blank" => c == ' ' || c == '\t',
        "punct" => c.is_ascii_punctuation(),
        "print" => !c.is_control(),
        "graph" => !c.is_control() && !c.is_whitespace(),
        "cntrl" => c.is_control(),
        "xdigit" => c.is_ascii_hexdigit(),
        "word" => c.is_alphanumeric() || c == '_',
        _ => false,
    }
}

/// Extended groups nested deeper than this are read as literal text (the
/// parser and the matcher recurse once per level).
const MAX_GROUP_NESTING: usize = 256;

/// For each `(`, whether a `)` closes it (escapes skipped): an unclosed
/// group is literal text, known without parsing the rest of the pattern
/// once per `(` (which made `@(@(@(...` exponential).
fn group_closes(chars: &[char]) -> Vec<bool> {
    let mut closed = vec![false; chars.len()];
    let mut open = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '(' => open.push(i),
            ')' => {
                if let Some(start) = open.pop() {
                    closed[start] = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    closed
}

fn parse(
    chars: &[char],
    closes: &[bool],
    pos: &mut usize,
    extglob: bool,
    in_group: bool,
    nesting: usize,
) -> Vec<Token> {
    let mut tokens = Vec::new();
    while *pos < chars.len() {
        let c = chars[*pos];
        if in_group && (c == '|' || c == ')') {
            break;
        }
        *pos += 1;
        match c {
            '\\' => {
                if let Some(&next) = chars.get(*pos) {
                    tokens.push(Token::Char(next));
                    *pos += 1;
                } else {
                    tokens.push(Token::Char('\\'));
                }
            }
            '?' | '*' | '+' | '@' | '!'
                if extglob
                    && chars.get(*pos) == Some(&'(')
                    && closes[*pos]
                    && nesting < MAX_GROUP_NESTING =>
            {
                let save = *pos;
                *pos += 1;
                let mut alternatives = Vec::new();
                loop {
                    alternatives.push(parse(chars, closes, pos, extglob, true, nesting + 1));
                    match chars.get(*pos) {
                        Some('|') => *pos += 1,
                        Some(')') => {
                            *pos += 1;
                            break;
                        }
                        _ => {
                            // Unclosed: literal text.
                            *pos = save;
                            alternatives.clear();
                            break;
                        }
                    }
                }
                if alternatives.is_empty() {
                    tokens.push(Token::Char(c));
                } else {
                    tokens.push(Token::Ext {
                        kind: c,
                        alternatives,
                    });
                }
            }
            '*' => {
                if tokens.last() != Some(&Token::Star) {
                    tokens.push(Token::Star);
                }
            }
            '?' => tokens.push(Token::Any),
            '[' => match parse_class(chars, *pos) {
                Some((token, next)) => {
                    tokens.push(token);
                    *pos = next;
                }
                None => tokens.push(Token::Char('[')),
            },
            _ => tokens.push(Token::Char(c)),
        }
    }
    tokens
}

/// A bracket expression starting after `[`; returns it and the position
/// after `]`.
fn parse_class(chars: &[char], start: usize) -> Option<(Token, usize)> {
    let mut i = start;
    let mut negated = false;
    if matches!(chars.get(i), Some('!') | Some('^')) {
        negated = true;
        i += 1;
    }
    let mut items = Vec::new();
    let mut first = true;
    loop {
        let c = *chars.get(i)?;
        if c == ']' && !first {
            return Some((Token::Class { negated, items }, i + 1));
        }
        first = false;
        if c == '[' && chars.get(i + 1) == Some(&':') {
            let rest: String = chars[i + 2..].iter().collect();
            if let Some(end) = rest.find(":]") {
                items.push(ClassItem::Named(rest[..end].to_string()));
                i += 2 + rest[..end].chars().count() + 2;
                continue;
            }
        }
        let c = if c == '\\' {
            i += 1;
            *chars.get(i)?
        } else {
            c
        };
        if chars.get(i + 1) == Some(&'-') && chars.get(i + 2).is_some_and(|c| *c != ']') {
            let hi = chars[i + 2];
            items.push(ClassItem::Range(c, hi));
            i += 3;
        } else {
            items.push(ClassItem::Char(c));
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, text: &str) -> bool {
        Pattern::new(pattern, true).matches(text)
    }

    #[test]
    fn basic_globs() {
        assert!(m("*.txt", "a.txt"));
        assert!(!m("*.txt", "a.txt.bak"));
        assert!(m("a?c", "abc"));
        assert!(m("[a-c]x", "bx"));
        assert!(!m("[!a-c]x", "bx"));
        assert!(m("[[:digit:]][[:alpha:]]", "1z"));
        assert!(m("[]]", "]"));
        assert!(m("\\*", "*"));
        assert!(!m("\\*", "x"));
        assert!(m("", ""));
        assert!(m("*", ""));
    }

    #[test]
    fn substitution_lengths_are_counted_as_bash_counts_them() {
        let length = substitution_length;
        assert_eq!(length("abc"), Some(3));
        assert_eq!(length("a?c"), Some(3));
        assert_eq!(length("a*"), None);
        assert_eq!(length("@(a|b)"), None);
        assert_eq!(length("@a"), Some(2));
        assert_eq!(length("\\*x"), Some(2));
        assert_eq!(length("[abc]x"), Some(2));
        assert_eq!(length("[]]"), Some(1));
        assert_eq!(length("[[:digit:]]"), Some(1));
        assert_eq!(length("[[.].]]"), Some(1));
        assert_eq!(length("[\\]]"), Some(1));
        // bash's scan ends at the first `]` after a negation.
        assert_eq!(length("[^]]"), Some(2));
        assert_eq!(length("[!]a]"), Some(3));
        // A bracket that never closes counts what it holds.
        assert_eq!(length("x[ab"), Some(4));
        assert_eq!(length("["), Some(1));
    }

    #[test]
    fn extended_globs() {
        assert!(m("@(foo|bar)", "bar"));
        assert!(!m("@(foo|bar)", "baz"));
        assert!(m("*(ab)", "ababab"));
        assert!(m("*(ab)", ""));
        assert!(m("+(ab)c", "ababc"));
        assert!(!m("+(ab)c", "c"));
        assert!(m("?(x)y", "y"));
        assert!(m("!(*.txt)", "a.md"));
        assert!(!m("!(*.txt)", "a.txt"));
    }

    #[test]
    fn prefixes_and_suffixes() {
        let p = Pattern::new("*/", false);
        assert_eq!(p.match_prefix("a/b/c", false), Some(2));
        assert_eq!(p.match_prefix("a/b/c", true), Some(4));
        let p = Pattern::new(".*", false);
        assert_eq!(p.match_suffix("a.tar.gz", false), Some(5));
        assert_eq!(p.match_suffix("a.tar.gz", true), Some(1));
        let chars: Vec<char> = "hello".chars().collect();
        assert_eq!(
            Pattern::new("l*", false).find(&chars, 0, None),
            Some((2, 5))
        );
        assert_eq!(
            Pattern::new("l?", false).find(&chars, 0, Some(2)),
            Some((2, 4))
        );
    }

    #[test]
    fn magic_detection() {
        assert!(has_magic("*.rs", false));
        assert!(!has_magic("\\*.rs", false));
        assert!(!has_magic("plain", false));
        assert!(has_magic("@(a)", true));
        // Read byte by byte: a backslash before a multi-byte character
        // escapes only its first byte, and no other byte of it is special.
        assert!(has_magic("\\é*", false));
        assert!(!has_magic("\\*é", false));
        assert!(!has_magic("é[", false));
        assert!(has_magic("é[é]", false));
    }
}
