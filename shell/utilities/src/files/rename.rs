//! `rename`: the Perl one (`rename 's/\.txt$/.md/' *.txt`, Debian's
//! File::Rename), for the expressions people give it: substitutions
//! (`s/RE/REPLACEMENT/gi`, any delimiter) and transliterations
//! (`y/a-z/A-Z/`, `tr/…/…/`), as many as `-e` names, applied in turn to
//! each name. Other Perl code needs Perl: the host's `rename`, run as a
//! host command (docs/host-commands.md).

use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};

/// One expression of the program.
enum Edit {
    Substitute {
        pattern: fancy_regex::Regex,
        replacement: String,
        global: bool,
    },
    Transliterate {
        from: Vec<char>,
        to: Vec<char>,
    },
}

impl Edit {
    fn apply(&self, name: &str) -> Result<String, String> {
        match self {
            Edit::Substitute {
                pattern,
                replacement,
                global,
            } => {
                let limit = if *global { 0 } else { 1 };
                pattern
                    .try_replacen(name, limit, replacement.as_str())
                    .map(|renamed| renamed.into_owned())
                    .map_err(|error| error.to_string())
            }
            Edit::Transliterate { from, to } => Ok(name
                .chars()
                .map(|c| match from.iter().position(|f| *f == c) {
                    // A shorter replacement list repeats its last character.
                    Some(index) => to.get(index).or(to.last()).copied().unwrap_or(c),
                    None => c,
                })
                .collect()),
        }
    }
}

const USAGE: &str = "Usage:
    rename [ -h|-m|-V ] [ -v ] [ -0 ] [ -n ] [ -f ] [ -d ] [ -u [enc]]
    [ -e|-E perlexpr]*|perlexpr [ files ]
";

pub fn rename(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut verbose = false;
    let mut dry_run = false;
    let mut force = false;
    let mut null = false;
    let mut basename_only = false;
    let mut expressions = Vec::new();
    let mut operands = Vec::new();
    let mut words = args[1..].iter();
    while let Some(word) = words.next() {
        if !operands.is_empty() || !word.starts_with('-') || word == "-" {
            operands.push(word.clone());
            continue;
        }
        if word == "--" {
            operands.extend(words.by_ref().cloned());
            break;
        }
        let flags: Vec<char> = word[1..].chars().collect();
        for (index, flag) in flags.iter().enumerate() {
            match flag {
                'v' => verbose = true,
                'n' => dry_run = true,
                'f' => force = true,
                '0' => null = true,
                'd' => basename_only = true,
                'e' | 'E' => {
                    let attached: String = flags[index + 1..].iter().collect();
                    match (attached.is_empty(), words.next()) {
                        (false, _) => expressions.push(attached),
                        (true, Some(expression)) => expressions.push(expression.clone()),
                        (true, None) => {
                            shell.write_stderr(USAGE.as_bytes());
                            return Ok(2);
                        }
                    }
                    break;
                }
                _ => {
                    shell.write_stderr(format!("Unknown option: {flag}\n{USAGE}").as_bytes());
                    return Ok(2);
                }
            }
        }
    }
    if expressions.is_empty() {
        if operands.is_empty() {
            shell.write_stderr(USAGE.as_bytes());
            return Ok(2);
        }
        expressions.push(operands.remove(0));
    }
    let mut edits = Vec::new();
    for expression in &expressions {
        match parse(expression) {
            Ok(parsed) => edits.extend(parsed),
            Err(message) => {
                shell.write_stderr(format!("rename: {message}\n").as_bytes());
                return Ok(2);
            }
        }
    }
    // No names given: they are read from standard input.
    if operands.is_empty() {
        let input = match goccia_interp::input::open_quiet(shell, "-") {
            Ok(mut source) => source.read_all().unwrap_or_default(),
            Err(_) => Vec::new(),
        };
        operands = goccia_interp::input::names(&input, null);
    }
    let mut status = 0;
    for old in &operands {
        shell.check_watch()?;
        // With -d only the last part of the name is edited.
        let (folder, base) = match old.rfind('/').filter(|_| basename_only) {
            Some(slash) => old.split_at(slash + 1),
            None => ("", old.as_str()),
        };
        let mut renamed = base.to_string();
        for edit in &edits {
            match edit.apply(&renamed) {
                Ok(next) => renamed = next,
                Err(message) => {
                    shell.write_stderr(format!("rename: {message}\n").as_bytes());
                    return Ok(2);
                }
            }
        }
        let new = format!("{folder}{renamed}");
        if new == *old {
            continue;
        }
        if dry_run {
            if let Err(error) = shell.write_stdout(format!("rename({old}, {new})\n").as_bytes()) {
                return shell.io_status("rename", error);
            }
            continue;
        }
        let (Ok(from), Ok(to)) = (resolve(shell, old), resolve(shell, &new)) else {
            status = shell.fail_command("rename", &format!("{old}: invalid name"), 1);
            continue;
        };
        let exists = shell.context().vfs.lock().lookup_link(&to).is_ok();
        if exists && !force {
            // Not an error to File::Rename: said, and the status stays 0.
            shell.write_stderr(format!("{old} not renamed: {new} already exists\n").as_bytes());
            continue;
        }
        let moved = {
            let mut vfs = shell.context().vfs.lock();
            if exists && !matches!(vfs.lookup_link(&to), Ok(goccia_vfs::Node::Dir(_))) {
                vfs.remove_file(&to).and_then(|()| vfs.rename(&from, &to))
            } else {
                vfs.rename(&from, &to)
            }
        };
        match moved {
            Ok(()) if verbose => {
                let line = format!("{old} renamed as {new}\n");
                if let Err(error) = shell.write_stdout(line.as_bytes()) {
                    return shell.io_status("rename", error);
                }
            }
            Ok(()) => {}
            Err(error) => {
                status = shell.fail_fs(
                    "rename",
                    old,
                    &error,
                    |reason| format!("can't rename {old} to {new}: {reason}"),
                    1,
                );
            }
        }
    }
    Ok(status)
}

/// Substitutions and transliterations separated by `;` (as a Perl
/// program of them is); anything else is refused, naming what is
/// understood.
fn parse(expression: &str) -> Result<Vec<Edit>, String> {
    let mut edits = Vec::new();
    let mut rest = expression.trim_start();
    while !rest.is_empty() {
        let (edit, after) = parse_one(rest, expression)?;
        edits.push(edit);
        let after = after.trim_start();
        rest = match after.strip_prefix(';') {
            Some(next) => next.trim_start(),
            None if after.is_empty() => after,
            None => return Err(format!("syntax error near `{after}' in: {expression}")),
        };
    }
    if edits.is_empty() {
        return Err(format!("no expression in `{expression}'"));
    }
    Ok(edits)
}

/// The edit at the start of `text`, and what follows its modifiers.
fn parse_one<'a>(text: &'a str, expression: &str) -> Result<(Edit, &'a str), String> {
    let trimmed = text;
    if let Some(rest) = trimmed.strip_prefix('s') {
        let (pattern, rest) = delimited(rest)?;
        let (replacement, after) = second_part(rest, pattern.1)?;
        let (pattern, _) = pattern;
        let end = after
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(after.len());
        let (flags, after) = after.split_at(end);
        let mut global = false;
        // Perl's modifiers as inline flags (the regex syntax has them).
        let mut inline = String::new();
        for flag in flags.trim().chars() {
            match flag {
                'g' => global = true,
                'i' | 'x' | 's' | 'm' => inline.push(flag),
                'r' => {}
                other => return Err(format!("unknown modifier `{other}' in {expression}")),
            }
        }
        let source = if inline.is_empty() {
            pattern.clone()
        } else {
            format!("(?{inline}){pattern}")
        };
        let pattern = fancy_regex::Regex::new(&source)
            .map_err(|error| format!("{error} in regex: {pattern}"))?;
        let edit = Edit::Substitute {
            pattern,
            replacement: perl_replacement(&replacement),
            global,
        };
        return Ok((edit, after));
    }
    let transliteration = trimmed
        .strip_prefix("tr")
        .or_else(|| trimmed.strip_prefix('y'));
    if let Some(rest) = transliteration {
        let (from, rest) = delimited(rest)?;
        let (to, after) = second_part(rest, from.1)?;
        let after = after.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let edit = Edit::Transliterate {
            from: ranges(&from.0),
            to: ranges(&to),
        };
        return Ok((edit, after));
    }
    Err(format!(
        "only s/PATTERN/REPLACEMENT/ and y/FROM/TO/ (tr) are understood here, not `{expression}'; \
         for other Perl code, run the host's rename as a host command (docs/host-commands.md)"
    ))
}

/// The first part of `s/…/…/`: `(text, closing delimiter)` and the rest
/// after it. Brackets pair (`s{…}{…}`); other delimiters repeat.
fn delimited(text: &str) -> Result<((String, char), &str), String> {
    let mut chars = text.chars();
    let Some(open) = chars.next() else {
        return Err("Substitution pattern not terminated".to_string());
    };
    if open.is_alphanumeric() || open.is_whitespace() {
        return Err(format!("unexpected `{open}' after the operator"));
    }
    let close = match open {
        '{' => '}',
        '[' => ']',
        '(' => ')',
        '<' => '>',
        other => other,
    };
    let (part, rest) = second_part(chars.as_str(), close)
        .map_err(|_| "Substitution pattern not terminated".to_string())?;
    // Bracketed, the second part opens with its own bracket.
    let rest = if open != close {
        rest.trim_start()
            .strip_prefix(open)
            .ok_or("Substitution replacement not terminated")?
    } else {
        rest
    };
    Ok(((part, close), rest))
}

/// The text up to an unescaped `close` (an escaped delimiter is the
/// character itself), and what follows it.
fn second_part(text: &str, close: char) -> Result<(String, &str), String> {
    let mut part = String::new();
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        if escaped {
            if c != close {
                part.push('\\');
            }
            part.push(c);
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == close {
            return Ok((part, &text[at + c.len_utf8()..]));
        } else {
            part.push(c);
        }
    }
    Err("Substitution replacement not terminated".to_string())
}

/// A Perl replacement in the regex crate's syntax: `$1`, `${1}`, `\1`
/// and `$&` name groups; other escapes are the character (`\n` a
/// newline); a lone `$` is literal.
fn perl_replacement(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut at = 0;
    while at < chars.len() {
        match chars[at] {
            '\\' if at + 1 < chars.len() => {
                let next = chars[at + 1];
                match next {
                    '1'..='9' => out.push_str(&format!("${{{next}}}")),
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    '$' => out.push_str("$$"),
                    other => out.push(other),
                }
                at += 2;
            }
            '$' if chars.get(at + 1) == Some(&'&') => {
                out.push_str("${0}");
                at += 2;
            }
            '$' if chars.get(at + 1).is_some_and(char::is_ascii_digit) => {
                let digits: String = chars[at + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .collect();
                out.push_str(&format!("${{{digits}}}"));
                at += 1 + digits.len();
            }
            '$' if chars.get(at + 1) == Some(&'{') => {
                let end = chars[at..].iter().position(|c| *c == '}');
                match end {
                    Some(end) => {
                        out.extend(&chars[at..=at + end]);
                        at += end + 1;
                    }
                    None => {
                        out.push_str("$$");
                        at += 1;
                    }
                }
            }
            '$' => {
                out.push_str("$$");
                at += 1;
            }
            other => {
                out.push(other);
                at += 1;
            }
        }
    }
    out
}

/// `a-z0-9_` as the characters it stands for.
fn ranges(text: &str) -> Vec<char> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        if at + 2 < chars.len() && chars[at + 1] == '-' && chars[at] <= chars[at + 2] {
            out.extend(chars[at]..=chars[at + 2]);
            at += 3;
        } else {
            out.push(chars[at]);
            at += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn apply(expression: &str, name: &str) -> String {
        parse(expression)
            .unwrap()
            .iter()
            .try_fold(name.to_string(), |name, edit| edit.apply(&name))
            .unwrap()
    }

    #[test]
    fn substitutions_as_perl_writes_them() {
        assert_eq!(apply(r"s/\.txt$/.md/", "a.txt"), "a.md");
        assert_eq!(apply(r"s/(\w+)\.md/$1-new.md/", "b.md"), "b-new.md");
        assert_eq!(apply(r"s{a}{b}g", "banana"), "bbnbnb");
        assert_eq!(apply(r"s#A#x#i", "Aa"), "xa");
        assert_eq!(apply(r"s/(a)(b)/\2\1/", "ab.c"), "ba.c");
        assert_eq!(apply(r"s/x/\$/", "x"), "$");
        assert_eq!(apply(r"s/\//_/g", "a/b"), "a_b");
        assert_eq!(apply(r"s/.*/[$&]/", "q"), "[q]");
        // A program of several, as Perl separates them.
        assert_eq!(apply(r"s/a/b/g; s/\.txt$/.md/;", "aa.txt"), "bb.md");
        assert_eq!(apply("y/a/b/;s/b/c/", "a"), "c");
    }

    #[test]
    fn transliterations_with_ranges() {
        assert_eq!(apply("y/a-z/A-Z/", "d.log"), "D.LOG");
        assert_eq!(apply("tr/ _/-/", "a b_c"), "a-b-c");
    }

    #[test]
    fn other_perl_is_refused_by_name() {
        let error = parse("$_ = lc").err().unwrap();
        assert!(error.contains("as a host command"), "{error}");
        assert!(parse("s/(/x/").is_err());
        assert!(parse("s/a/b").is_err());
        assert!(parse("s/a/b/ junk").is_err());
    }
}
