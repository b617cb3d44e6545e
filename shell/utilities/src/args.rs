//! Reading a utility's arguments, GNU-style, and the helpers every
//! utility shares to report a usage error and flush buffered output.

use std::io::Write;

use goccia_interp::interp::ExecResult;
use goccia_interp::interp::ShellView;

/// Parsed command-line options.
#[derive(Clone, Debug, Default)]
pub(crate) struct Parsed {
    /// Flags in order (repeats kept: `-vv`).
    pub flags: Vec<char>,
    /// Options with values, in order.
    pub values: Vec<(char, String)>,
    pub operands: Vec<String>,
    /// Every option in the order given, with its value if it takes one
    /// (for commands where flags and valued options interleave: `od -c -t x1`).
    pub sequence: Vec<(char, Option<String>)>,
}

impl Parsed {
    pub fn has(&self, flag: char) -> bool {
        self.flags.contains(&flag)
    }

    /// Of `flags`, the one given last (options that override each other).
    pub fn last_of(&self, flags: &[char]) -> Option<char> {
        self.flags.iter().rev().find(|f| flags.contains(f)).copied()
    }

    /// The last value given for `option`.
    pub fn value(&self, option: char) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(o, _)| *o == option)
            .map(|(_, v)| v.as_str())
    }

    pub fn all(&self, option: char) -> Vec<&str> {
        self.values
            .iter()
            .filter(|(o, _)| *o == option)
            .map(|(_, v)| v.as_str())
            .collect()
    }
}

/// A long option: its name, the short option it means, whether it takes
/// a value.
pub(crate) type Long = (&'static str, char, bool);

/// GNU-style parsing: short flags combine (`-la`), short options take
/// their value attached or next (`-n5`, `-n 5`), long options use `=` or
/// the next argument, `--` ends options, options may follow operands.
pub(crate) fn getopt(args: &[String], with_value: &str, longs: &[Long]) -> Result<Parsed, String> {
    let mut parsed = Parsed::default();
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            parsed.operands.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (long, None),
            };
            let matches: Vec<&Long> = longs
                .iter()
                .filter(|(n, _, _)| n.starts_with(name))
                .collect();
            let exact = longs.iter().find(|(n, _, _)| *n == name);
            let Some(&(_, short, takes)) = exact.or(if matches.len() == 1 {
                Some(matches[0])
            } else {
                None
            }) else {
                return Err(if matches.len() > 1 {
                    format!("option '--{name}' is ambiguous")
                } else {
                    format!("unrecognized option '--{name}'")
                });
            };
            if takes {
                let value = match attached {
                    Some(value) => value,
                    None => {
                        let Some(value) = args.get(i) else {
                            return Err(format!("option '--{name}' requires an argument"));
                        };
                        i += 1;
                        value.clone()
                    }
                };
                parsed.sequence.push((short, Some(value.clone())));
                parsed.values.push((short, value));
            } else {
                // A value given to a flag (`--color=never`) is kept for a
                // command whose long option takes one optionally.
                if let Some(value) = &attached {
                    parsed.values.push((short, value.clone()));
                }
                parsed.sequence.push((short, attached));
                parsed.flags.push(short);
            }
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            let chars: Vec<char> = arg[1..].chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                j += 1;
                if with_value.contains(c) {
                    let value = if j < chars.len() {
                        let value: String = chars[j..].iter().collect();
                        j = chars.len();
                        value
                    } else {
                        let Some(value) = args.get(i) else {
                            return Err(format!("option requires an argument -- '{c}'"));
                        };
                        i += 1;
                        value.clone()
                    };
                    parsed.sequence.push((c, Some(value.clone())));
                    parsed.values.push((c, value));
                } else if longs.iter().any(|(_, s, _)| *s == c) || c.is_ascii_alphanumeric() {
                    parsed.sequence.push((c, None));
                    parsed.flags.push(c);
                } else {
                    return Err(format!("invalid option -- '{c}'"));
                }
            }
            continue;
        }
        parsed.operands.push(arg.clone());
    }
    Ok(parsed)
}

/// GNU's `argmatch`: which of `choices` (each a word and its synonyms)
/// `word` names, or the complaint GNU prints, listing the valid words.
pub(crate) fn argmatch(option: &str, word: &str, choices: &[&[&str]]) -> Result<usize, String> {
    if let Some(index) = choices.iter().position(|names| names.contains(&word)) {
        return Ok(index);
    }
    let valid: Vec<String> = choices
        .iter()
        .map(|names| {
            let quoted: Vec<String> = names
                .iter()
                .map(|name| format!("\u{2018}{name}\u{2019}"))
                .collect();
            format!("  - {}", quoted.join(", "))
        })
        .collect();
    Err(format!(
        "invalid argument \u{2018}{word}\u{2019} for \u{2018}{option}\u{2019}\nValid arguments are:\n{}",
        valid.join("\n")
    ))
}

/// The operands of a command that takes no options, GNU-style: `--`
/// ends the options, and any option given is refused (`factor`, `tsort`).
/// A lone `-` is an operand.
pub(crate) fn operands_only(args: &[String]) -> Result<Vec<String>, String> {
    let mut operands = Vec::new();
    let mut options_end = false;
    for arg in &args[1..] {
        if !options_end && arg == "--" {
            options_end = true;
        } else if !options_end && arg.starts_with("--") {
            return Err(format!("unrecognized option '{arg}'"));
        } else if !options_end && arg.len() > 1 && arg.starts_with('-') {
            let flag = arg[1..].chars().next().unwrap_or('-');
            return Err(format!("invalid option -- '{flag}'"));
        } else {
            operands.push(arg.clone());
        }
    }
    Ok(operands)
}

/// Rejects flags outside `allowed` (`getopt` accepts any alphanumeric).
pub(crate) fn check_flags(parsed: &Parsed, allowed: &str) -> Result<(), String> {
    match parsed.flags.iter().find(|f| !allowed.contains(**f)) {
        Some(flag) => Err(format!("invalid option -- '{flag}'")),
        None => Ok(()),
    }
}

/// A count with an optional binary suffix (`10`, `2K`, `1M`, `3kB`).
pub(crate) fn parse_size_suffix(text: &str) -> Option<u64> {
    let text = text.trim();
    let digits_end = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let value: u64 = text[..digits_end].parse().ok()?;
    let multiplier: u64 = match &text[digits_end..] {
        "" | "c" => 1,
        "b" => 512,
        "K" | "KiB" | "k" => 1 << 10,
        "kB" | "KB" => 1000,
        "M" | "MiB" => 1 << 20,
        "MB" => 1_000_000,
        "G" | "GiB" => 1 << 30,
        "GB" => 1_000_000_000,
        "T" | "TiB" => 1 << 40,
        "TB" => 1_000_000_000_000,
        "P" | "PiB" => 1 << 50,
        "PB" => 1_000_000_000_000_000,
        "E" | "EiB" => 1 << 60,
        "EB" => 1_000_000_000_000_000_000,
        _ => return None,
    };
    value.checked_mul(multiplier)
}

/// Parses a utility's options GNU-style with [`getopt`]; on a usage error,
/// reports it (`name: message` and the `--help` hint, `name` being
/// `args[0]`) and returns from the utility with status 1 (or the status
/// given first: `parse_options!(status 2; shell, args, "n", &[...])`).
macro_rules! parse_options {
    (status $status:expr; $shell:expr, $args:expr, $values:expr, $longs:expr $(,)?) => {
        match $crate::args::getopt($args, $values, $longs) {
            Ok(parsed) => parsed,
            Err(message) => {
                let name = $args[0].clone();
                return $crate::args::usage($shell, &name, &message, $status);
            }
        }
    };
    ($shell:expr, $args:expr, $values:expr, $longs:expr $(,)?) => {
        parse_options!(status 1; $shell, $args, $values, $longs)
    };
}
pub(crate) use parse_options;

/// Output buffered in 16 KiB, flushed by [`finish`].
pub(crate) type Out = std::io::BufWriter<goccia_interp::interp::OutHandle>;

/// The command's stdout, buffered.
pub(crate) fn buffered(shell: &ShellView) -> Out {
    std::io::BufWriter::with_capacity(16 << 10, shell.out())
}

/// Flushes `out`; the status, or the write's failure.
pub(crate) fn finish(shell: &mut ShellView, name: &str, mut out: Out, status: i32) -> ExecResult {
    match out.flush() {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status(name, error),
    }
}

/// A usage error, GNU-style: `name: message` and the `--help` hint.
pub(crate) fn usage(shell: &mut ShellView, name: &str, message: &str, status: i32) -> ExecResult {
    Ok(shell.fail_command(
        name,
        &format!("{message}\nTry '{name} --help' for more information."),
        status,
    ))
}

/// Writes `text` to stdout and ends with `status` (or the write's failure).
pub(crate) fn print_text(shell: &mut ShellView, name: &str, text: &str, status: i32) -> ExecResult {
    match shell.write_stdout(&goccia_interp::raw::encode(text)) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status(name, error),
    }
}

/// A word as gnulib's `quotearg` writes it in its shell-escape style, as
/// GNU tools echo a command line (`diff -r`'s options, `xargs -t`): as it
/// is when the shell would read it back unchanged; else in double quotes
/// when a `'` is the only trouble and nothing in it is special there; else
/// in single quotes, a `'` inside as `'\''`, and characters that do not
/// print in `$'…'` segments between them.
pub(crate) fn shell_escape(word: &str) -> String {
    use goccia_interp::printf::{ansi_c_quote, needs_ansi_c};
    let special = |(index, c): (usize, char)| {
        " \t\n!\"$&'()*;<=>?[\\]^`|".contains(c)
            || (index == 0 && (c == '#' || c == '~'))
            || (word.len() == 1 && (c == '{' || c == '}'))
            || needs_ansi_c(c)
    };
    if word.is_empty() {
        return "''".to_string();
    }
    if !word.chars().enumerate().any(special) {
        return word.to_string();
    }
    let troubles_double_quotes = |c: char| "$`\\\"!".contains(c) || needs_ansi_c(c);
    if word.contains('\'') && !word.chars().any(troubles_double_quotes) {
        return format!("\"{word}\"");
    }
    let mut out = String::from("'");
    let mut escaping = false;
    for c in word.chars() {
        if needs_ansi_c(c) {
            if !escaping {
                out.push_str("'$'");
                escaping = true;
            }
            // The C escape alone, without `ansi_c_quote`'s `$'` and `'`.
            let quoted = ansi_c_quote(&c.to_string());
            out.push_str(&quoted[2..quoted.len() - 1]);
            continue;
        }
        if escaping {
            out.push_str("''");
            escaping = false;
        }
        if c == '\'' {
            out.push_str("'\\''");
        } else {
            out.push(c);
        }
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod shell_escape_tests {
    use super::shell_escape;

    #[test]
    fn quotes_only_what_the_shell_would_change() {
        assert_eq!(shell_escape("-Naur"), "-Naur");
        assert_eq!(shell_escape("--ignore=x"), "'--ignore=x'");
        assert_eq!(shell_escape("*.txt"), "'*.txt'");
        assert_eq!(shell_escape("it's"), "\"it's\"");
        assert_eq!(shell_escape("a'b$c"), "'a'\\''b$c'");
        assert_eq!(shell_escape("\tx"), "''$'\\t''x'");
        assert_eq!(shell_escape("x\t"), "'x'$'\\t'");
        assert_eq!(shell_escape("a\t\tb"), "'a'$'\\t\\t''b'");
        assert_eq!(shell_escape("\u{e9}"), "\u{e9}");
        assert_eq!(shell_escape(""), "''");
        assert_eq!(shell_escape("a#b"), "a#b");
        assert_eq!(shell_escape("#b"), "'#b'");
    }
}
