//! Brace expansion (`a{b,c}d`, `{1..10..2}`, `{a..e}`), bash's first
//! expansion: on a word's unquoted literal text, before anything else,
//! bounded by a byte budget.

use std::borrow::Cow;

use crate::ast::*;

#[derive(Clone, PartialEq)]
enum Atom {
    Char(char),
    /// A `\\` or `` ` `` a character sequence made (`{Z..a}`): bash puts
    /// it into the word's text, where it is syntax again (an escape, the
    /// start of a command substitution).
    Made(char),
    Part(WordPart),
}

/// Why brace expansion made no words.
#[derive(Debug, PartialEq)]
pub(crate) enum BraceError {
    /// The words would take more than the byte budget.
    TooLarge,
    /// A sequence made a `` ` `` that nothing closes: bash's "bad
    /// substitution" (the message), which abandons the command.
    Unclosed(String),
}

/// Brace expansion of a word (on its unquoted literal text), within
/// `max_bytes`.
/// A word that expands to itself (most words: no unquoted `{`) is given
/// back as it is, without a copy.
pub(crate) fn brace_expand(word: &Word, max_bytes: usize) -> Result<Cow<'_, [Word]>, BraceError> {
    let has_brace = word
        .parts
        .iter()
        .any(|p| matches!(p, WordPart::Literal(t) if t.contains('{')));
    if !has_brace {
        return Ok(Cow::Borrowed(std::slice::from_ref(word)));
    }
    let mut atoms = Vec::new();
    for part in &word.parts {
        match part {
            WordPart::Literal(text) => atoms.extend(text.chars().map(Atom::Char)),
            other => atoms.push(Atom::Part(other.clone())),
        }
    }
    let mut budget = max_bytes / std::mem::size_of::<Atom>();
    let expanded = expand_atoms(&atoms, 0, &mut budget).ok_or(BraceError::TooLarge)?;
    if expanded.len() == 1 && expanded[0] == atoms {
        return Ok(Cow::Borrowed(std::slice::from_ref(word)));
    }
    expanded
        .into_iter()
        .map(|atoms| atoms_to_word(atoms).map(with_tilde_prefix))
        .collect::<Result<Vec<_>, _>>()
        .map(Cow::Owned)
}

/// Tilde expansion comes after brace expansion: a word it makes that
/// starts with `~` and a login name up to `/` (`{a,~}/x`, `~{/src,root}`)
/// gets its tilde prefix.
fn with_tilde_prefix(mut word: Word) -> Word {
    let Some(WordPart::Literal(text)) = word.parts.first() else {
        return word;
    };
    let Some(rest) = text.strip_prefix('~') else {
        return word;
    };
    let end = rest.find('/').unwrap_or(rest.len());
    let ends_prefix = end < rest.len() || word.parts.len() == 1;
    if !ends_prefix || !rest[..end].chars().all(crate::parse::is_login_char) {
        return word;
    }
    let user = rest[..end].to_string();
    let tail = rest[end..].to_string();
    word.parts.remove(0);
    if !tail.is_empty() {
        word.parts.insert(0, WordPart::Literal(tail));
    }
    word.parts.insert(0, WordPart::Tilde(user));
    word
}

fn atoms_to_word(atoms: Vec<Atom>) -> Result<Word, BraceError> {
    let mut parts = Vec::new();
    let mut literal = String::new();
    let mut atoms = atoms.into_iter().peekable();
    while let Some(atom) = atoms.next() {
        match atom {
            // A made backslash escapes what follows it; at the end of the
            // word it leaves a quoted nothing (the word stays, empty or
            // not). Before an expansion bash would keep that expansion's
            // text literal; here the backslash just goes.
            Atom::Made('\\') => {
                flush(&mut literal, &mut parts);
                match atoms.peek().cloned() {
                    Some(Atom::Char(c) | Atom::Made(c)) => {
                        atoms.next();
                        parts.push(WordPart::Escaped(c.to_string()));
                    }
                    Some(Atom::Part(_)) => {}
                    None => parts.push(WordPart::SingleQuoted(String::new())),
                }
            }
            // A made backquote ending the word stays one; otherwise it
            // opens a command substitution that only another made one
            // can close.
            Atom::Made(_) if atoms.peek().is_none() => literal.push('`'),
            Atom::Made(_) => {
                let rest: Vec<Atom> = atoms.by_ref().collect();
                let close = rest.iter().position(|a| matches!(a, Atom::Made('`')));
                let command: Option<String> = close.and_then(|close| {
                    rest[..close]
                        .iter()
                        .map(|a| match a {
                            Atom::Char(c) | Atom::Made(c) => Some(*c),
                            Atom::Part(_) => None,
                        })
                        .collect()
                });
                let Some((command, close)) = command.zip(close) else {
                    let text = crate::parse::word_text(&atoms_to_plain_word(rest));
                    return Err(BraceError::Unclosed(format!(
                        "bad substitution: no closing \"`\" in `{text}"
                    )));
                };
                flush(&mut literal, &mut parts);
                parts.push(WordPart::CommandSub(std::sync::Arc::new(
                    crate::parse::backquoted(&command),
                )));
                atoms = rest
                    .into_iter()
                    .skip(close + 1)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .peekable();
            }
            // Bash expands braces in the word's text, so name characters
            // an alternative puts after a bare `$name` lengthen that name
            // (`{$a,b}_c` makes `$a_c`, `$a{x,y}` makes `$ax` and `$ay`).
            Atom::Char(c) if literal.is_empty() && (c.is_ascii_alphanumeric() || c == '_') => {
                match parts.last_mut() {
                    Some(WordPart::Param(param)) if takes_name_chars(param) => param.name.push(c),
                    _ => literal.push(c),
                }
            }
            Atom::Char(c) => literal.push(c),
            Atom::Part(part) => {
                flush(&mut literal, &mut parts);
                parts.push(part);
            }
        }
    }
    flush(&mut literal, &mut parts);
    Ok(Word { parts })
}

/// Ends the literal text gathered so far as a part of its own.
fn flush(literal: &mut String, parts: &mut Vec<WordPart>) {
    if !literal.is_empty() {
        parts.push(WordPart::Literal(std::mem::take(literal)));
    }
}

/// The atoms as a word, made characters as plain ones (for messages).
fn atoms_to_plain_word(atoms: Vec<Atom>) -> Word {
    let mut parts = Vec::new();
    let mut literal = String::new();
    for atom in atoms {
        match atom {
            Atom::Char(c) | Atom::Made(c) => literal.push(c),
            Atom::Part(part) => {
                flush(&mut literal, &mut parts);
                parts.push(part);
            }
        }
    }
    flush(&mut literal, &mut parts);
    Word { parts }
}

/// Whether `param` is a bare `$name` (not `${name}`, not `$1` or `$@`).
fn takes_name_chars(param: &ParamExpansion) -> bool {
    !param.braced && crate::parse::is_name(&param.name)
}

/// Every alternative built is charged to `budget` (in atoms); `None` once
/// it runs out.
fn expand_atoms(atoms: &[Atom], depth: usize, budget: &mut usize) -> Option<Vec<Vec<Atom>>> {
    if depth > 64 {
        return Some(vec![atoms.to_vec()]);
    }
    // Find the first `{` that has a matching `}` with a `,` or `..` inside
    // (the braces indexed once: scanning from every `{` was quadratic).
    let braces = Braces::index(atoms);
    let mut start = 0;
    while start < atoms.len() {
        if matches!(atoms[start], Atom::Char('{'))
            && !(start > 0 && matches!(atoms[start - 1], Atom::Char('$')))
            && let Some((close, commas)) = braces.expansion(atoms, start)
        {
            let prefix = &atoms[..start];
            let suffix = &atoms[close + 1..];
            let alternatives: Vec<Vec<Atom>> = if commas.is_empty() {
                match sequence(&atoms[start + 1..close]) {
                    Some(items) => items
                        .into_iter()
                        .map(|s| {
                            s.chars()
                                .map(|c| match c {
                                    '\\' | '`' => Atom::Made(c),
                                    c => Atom::Char(c),
                                })
                                .collect()
                        })
                        .collect(),
                    None => {
                        start += 1;
                        continue;
                    }
                }
            } else {
                let mut bounds = vec![start];
                bounds.extend(&commas);
                bounds.push(close);
                bounds
                    .windows(2)
                    .map(|w| atoms[w[0] + 1..w[1]].to_vec())
                    .collect()
            };
            let mut out = Vec::new();
            for alternative in alternatives {
                let size = prefix.len() + alternative.len() + suffix.len();
                *budget = budget.checked_sub(size)?;
                let mut combined = Vec::with_capacity(size);
                combined.extend_from_slice(prefix);
                combined.extend(alternative);
                combined.extend_from_slice(suffix);
                out.extend(expand_atoms(&combined, depth + 1, budget)?);
            }
            return Some(out);
        }
        start += 1;
    }
    Some(vec![atoms.to_vec()])
}

/// Where each `{` closes, whether a `,` sits directly inside it, and how
/// many `..` pairs start before each position: one pass over the atoms.
struct Braces {
    close: Vec<Option<usize>>,
    has_comma: Vec<bool>,
    dots_before: Vec<usize>,
}

impl Braces {
    fn index(atoms: &[Atom]) -> Braces {
        let mut close = vec![None; atoms.len()];
        let mut has_comma = vec![false; atoms.len()];
        let mut dots_before = Vec::with_capacity(atoms.len() + 1);
        let mut open = Vec::new();
        let mut dots = 0;
        for (i, atom) in atoms.iter().enumerate() {
            dots_before.push(dots);
            match atom {
                Atom::Char('{') => open.push(i),
                Atom::Char('}') => {
                    if let Some(start) = open.pop() {
                        close[start] = Some(i);
                    }
                }
                Atom::Char(',') => {
                    if let Some(&start) = open.last() {
                        has_comma[start] = true;
                    }
                }
                Atom::Char('.') if matches!(atoms.get(i + 1), Some(Atom::Char('.'))) => dots += 1,
                _ => {}
            }
        }
        dots_before.push(dots);
        Braces {
            close,
            has_comma,
            dots_before,
        }
    }

    /// The `}` matching the `{` at `open` and its top-level commas, when
    /// the pair is an expansion (commas, or a `..` inside).
    fn expansion(&self, atoms: &[Atom], open: usize) -> Option<(usize, Vec<usize>)> {
        let close = self.close[open]?;
        if !self.has_comma[open] {
            // A `..` pair lying wholly inside the braces.
            let inside =
                close > open + 2 && self.dots_before[close - 1] > self.dots_before[open + 1];
            return inside.then(|| (close, Vec::new()));
        }
        let mut depth = 0;
        let mut commas = Vec::new();
        for (i, atom) in atoms.iter().enumerate().take(close).skip(open + 1) {
            match atom {
                Atom::Char('{') => depth += 1,
                Atom::Char('}') => depth -= 1,
                Atom::Char(',') if depth == 0 => commas.push(i),
                _ => {}
            }
        }
        Some((close, commas))
    }
}

/// `{a..e}`, `{1..10..2}`, `{01..10}`.
fn sequence(atoms: &[Atom]) -> Option<Vec<String>> {
    let text: String = atoms
        .iter()
        .map(|a| match a {
            Atom::Char(c) => Some(*c),
            Atom::Made(_) | Atom::Part(_) => None,
        })
        .collect::<Option<String>>()?;
    let parts: Vec<&str> = text.split("..").collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let step: i64 = match parts.get(2) {
        Some(s) => s.parse().ok()?,
        None => 1,
    };
    let step = step.unsigned_abs().max(1) as i64;
    if let (Ok(a), Ok(b)) = (parts[0].parse::<i64>(), parts[1].parse::<i64>()) {
        let width = |s: &str| {
            let digits = s.trim_start_matches('-');
            if digits.len() > 1 && digits.starts_with('0') {
                s.len()
            } else {
                0
            }
        };
        let width = width(parts[0]).max(width(parts[1]));
        let mut out = Vec::new();
        let mut n = a;
        loop {
            if out.len() > 1_000_000 {
                return None;
            }
            out.push(if width > 0 {
                crate::pad::zero_pad_signed(n, width)
            } else {
                n.to_string()
            });
            if n == b {
                break;
            }
            n += if a < b { step } else { -step };
            if (a < b && n > b) || (a > b && n < b) {
                break;
            }
        }
        return Some(out);
    }
    let (a, b) = (single_char(parts[0])?, single_char(parts[1])?);
    if !(a.is_ascii_alphabetic() && b.is_ascii_alphabetic()) {
        return None;
    }
    let (a, b) = (a as i64, b as i64);
    let mut out = Vec::new();
    let mut n = a;
    loop {
        out.push(char::from_u32(n as u32)?.to_string());
        if n == b {
            break;
        }
        n += if a < b { step } else { -step };
        if (a < b && n > b) || (a > b && n < b) {
            break;
        }
    }
    Some(out)
}

fn single_char(text: &str) -> Option<char> {
    let mut chars = text.chars();
    let c = chars.next()?;
    chars.next().is_none().then_some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn braces(text: &str) -> Vec<String> {
        brace_expand(&Word::literal(text), 1 << 20)
            .unwrap()
            .iter()
            .map(|w| w.as_plain().unwrap())
            .collect()
    }

    #[test]
    fn brace_expansion() {
        assert_eq!(braces("a{b,c}d"), ["abd", "acd"]);
        assert_eq!(braces("{1..3}"), ["1", "2", "3"]);
        assert_eq!(braces("{3..1}"), ["3", "2", "1"]);
        assert_eq!(braces("{01..03}"), ["01", "02", "03"]);
        assert_eq!(braces("{a..e..2}"), ["a", "c", "e"]);
        assert_eq!(braces("{a,b}{1,2}"), ["a1", "a2", "b1", "b2"]);
        assert_eq!(braces("{a,{b,c}}"), ["a", "b", "c"]);
        assert_eq!(braces("{a}"), ["{a}"]);
        assert_eq!(braces("{}"), ["{}"]);
        assert_eq!(braces("x{,y}"), ["x", "xy"]);
    }

    #[test]
    fn made_backslashes_and_backquotes_are_syntax_again() {
        let word = Word::literal("{Z..a}");
        let words = brace_expand(&word, 1 << 20).unwrap();
        let texts: Vec<String> = words.iter().map(crate::parse::word_text).collect();
        assert_eq!(texts, ["Z", "[", "", "]", "^", "_", "`", "a"]);
        assert_eq!(words[2].parts, [WordPart::SingleQuoted(String::new())]);
        assert!(matches!(
            brace_expand(&Word::literal("-{a..Z}-"), 1 << 20),
            Err(BraceError::Unclosed(message)) if message.ends_with("in `-")
        ));
    }

    #[test]
    fn brace_expansion_stops_at_its_byte_budget() {
        let word = Word::literal("{1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{1..9}{0..9}");
        assert_eq!(brace_expand(&word, 64 << 20), Err(BraceError::TooLarge));
        assert_eq!(
            brace_expand(&Word::literal("{1..3}"), 1 << 10)
                .unwrap()
                .len(),
            3
        );
    }
}
