//! `xargs`, as GNU findutils' reads its input and builds its commands:
//! items split at blanks with quotes and backslashes grouping (or at
//! `-d`/`-0` delimiters), runs of `-n` items, `-L` lines or `-I` lines,
//! each command no longer than `-s` characters; the command's status
//! decides whether xargs goes on (126, 127 and 255 stop it) and what it
//! returns (123 when a run failed).

use goccia_interp::interp::{ExecResult, Flow, ShellView};

/// GNU's default for `-s`: what its own `--show-limits` reports as the
/// size of command buffer it uses here.
const DEFAULT_MAX_CHARS: usize = 131_072;

struct Settings {
    max_args: Option<usize>,
    max_lines: Option<usize>,
    replace: Option<String>,
    delimiter: Option<char>,
    /// `-a FILE`: items from the file; stdin is left to the commands.
    arg_file: Option<String>,
    max_chars: Option<usize>,
    /// `-x`: a run that does not fit in `-s` ends xargs.
    exit_if_too_long: bool,
    interactive: bool,
    trace: bool,
    no_run_empty: bool,
    end_of_input: Option<String>,
    slot_var: Option<String>,
    command: Vec<String>,
}

/// A refusal of the command line: GNU's words, and whether its `--help`
/// hint follows.
struct Refusal(String, bool);

pub fn xargs(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut settings = match settings(args) {
        Ok(settings) => settings,
        Err(Refusal(message, true)) => {
            let message = format!("{message}\nTry 'xargs --help' for more information.");
            return Ok(shell.fail_command("xargs", &message, 1));
        }
        Err(Refusal(message, false)) => return Ok(shell.fail_command("xargs", &message, 1)),
    };
    // GNU complains of `-s 0` and goes on with the smallest size.
    if settings.max_chars == Some(0) {
        shell.write_stderr(b"xargs: value 0 for -s option should be >= 1\n");
        settings.max_chars = Some(1);
    }
    let mut input = match read_input(shell, &settings) {
        Ok(input) => input,
        Err(status) => return Ok(status),
    };
    // `-E EOF`: input ends at the first word that is EOF (a delimiter
    // given with -0 or -d turns it off, as in GNU xargs).
    if let Some(end) = settings.end_of_input.as_deref() {
        if settings.delimiter.is_none() {
            input = before_end_of_input(&input, end);
        } else {
            shell.write_stderr(
                b"xargs: warning: the -E option has no effect if -0 or -d is used.\n\n",
            );
        }
    }
    // Items read before an unmatched quote still run (none: nothing runs,
    // not even the command alone); then GNU's complaint, and status 1.
    let (groups, quote_error) = groups(&input, &settings);
    let complain = |shell: &mut ShellView| {
        if let Some(quote) = quote_error {
            shell.fail_command(
                "xargs",
                &format!(
                    "unmatched {quote} quote; by default quotes are special to xargs unless you use the -0 option"
                ),
                1,
            );
        }
    };
    if quote_error.is_some() && groups.is_empty() {
        complain(shell);
        return Ok(1);
    }
    let runs = match runs(&settings, groups) {
        Ok(runs) => runs,
        Err(message) => return Ok(shell.fail_command("xargs", message, 1)),
    };
    if settings.interactive
        && let Some(first) = runs.first()
    {
        // `-p` writes the command, then opens the terminal to ask, and a
        // sandbox has none.
        let shown: Vec<String> = first
            .iter()
            .map(|word| crate::args::shell_escape(word))
            .collect();
        shell.write_stderr(shown.join(" ").as_bytes());
        let message = "failed to open /dev/tty for reading: No such device or address";
        return Ok(shell.fail_command("xargs", message, 1));
    }
    let mut status = 0;
    for words in runs {
        if settings.trace {
            let shown: Vec<String> = words
                .iter()
                .map(|word| crate::args::shell_escape(word))
                .collect();
            shell.write_stderr(format!("{}\n", shown.join(" ")).as_bytes());
        }
        if !super::runnable(shell, &words[0]) {
            // With -I, GNU names the command as the line gave it, before
            // the replacement.
            let shown = match (&settings.replace, settings.command.first()) {
                (Some(_), Some(template)) => template,
                _ => &words[0],
            };
            let message = format!("{shown}: No such file or directory");
            return Ok(shell.fail_command("xargs", &message, 127));
        }
        let mut child = shell.child_process();
        if let Some(name) = &settings.slot_var {
            let _ = child.export(name, "0");
        }
        let result = match child.dispatch_command(&words) {
            Ok(code) => code,
            Err(Flow::Exit(code))
            | Err(Flow::Return(code))
            | Err(Flow::Abandon(code))
            | Err(Flow::Discard(code)) => code,
            Err(other) => return Err(other),
        };
        match result {
            0 => {}
            126 | 127 => return Ok(result),
            255 => {
                let message = format!("{}: exited with status 255; aborting", words[0]);
                return Ok(shell.fail_command("xargs", &message, 124));
            }
            _ => status = 123,
        }
    }
    complain(shell);
    Ok(if quote_error.is_some() { 1 } else { status })
}

/// The input: `-a`'s file, or stdin.
fn read_input(shell: &mut ShellView, settings: &Settings) -> Result<String, i32> {
    if let Some(file) = &settings.arg_file {
        let read = goccia_interp::input::open_quiet(shell, file)
            .and_then(|mut source| source.read_all().map_err(|_| "Input/output error"));
        return match read {
            Ok(bytes) => Ok(goccia_interp::raw::decode_vec(bytes)),
            Err(reason) => Err(shell.fail_command(
                "xargs",
                &format!("Cannot open input file \u{2018}{file}\u{2019}: {reason}"),
                1,
            )),
        };
    }
    let Some(reader) = shell.fds().input(0) else {
        return Ok(String::new());
    };
    let limit = shell.context().limits.max_buffered_input;
    match goccia_interp::io::read_to_end_capped(&mut *reader.lock(), limit) {
        Ok(bytes) => Ok(goccia_interp::raw::decode_vec(bytes)),
        Err(error) => match shell.io_status("xargs", error) {
            Ok(status) => Err(status),
            Err(_) => Err(1),
        },
    }
}

/// The input as groups of items (a group is one item, or under `-L` one
/// logical line), and the quote left open if reading stopped at one.
fn groups(input: &str, settings: &Settings) -> (Vec<Vec<String>>, Option<&'static str>) {
    if settings.replace.is_some() {
        let lines: Vec<String> = match settings.delimiter {
            Some(d) => input.split(d).map(str::to_string).collect(),
            None => input
                .split('\n')
                .map(|l| l.trim_start_matches([' ', '\t']).to_string())
                .collect(),
        };
        return (
            lines
                .into_iter()
                .filter(|l| !l.is_empty())
                .map(|l| vec![l])
                .collect(),
            None,
        );
    }
    if let Some(d) = settings.delimiter {
        let mut parts: Vec<String> = input.split(d).map(str::to_string).collect();
        // Only the delimiter ends an item: a newline before the end of
        // input is part of the last one, as GNU xargs reads it.
        if parts.last().is_some_and(String::is_empty) {
            parts.pop();
        }
        return (parts.into_iter().map(|item| vec![item]).collect(), None);
    }
    if settings.max_lines.is_some() && settings.max_args.is_none() {
        return lines(input);
    }
    let (items, open) = items(input);
    (items.into_iter().map(|item| vec![item]).collect(), open)
}

/// The commands to run: the groups in runs of `-n` items or `-L` lines,
/// none longer than `-s` allows; with `-I` one per line.
fn runs(settings: &Settings, groups: Vec<Vec<String>>) -> Result<Vec<Vec<String>>, &'static str> {
    let command = &settings.command;
    if let Some(pattern) = &settings.replace {
        return Ok(groups
            .iter()
            .flatten()
            .map(|item| {
                command
                    .iter()
                    .map(|word| word.replace(pattern.as_str(), item))
                    .collect()
            })
            .collect());
    }
    if groups.is_empty() {
        // No input: the command runs once, unless -r.
        return Ok(if settings.no_run_empty {
            Vec::new()
        } else {
            vec![command.clone()]
        });
    }
    let per_run = settings
        .max_args
        .or(settings.max_lines)
        .unwrap_or(usize::MAX)
        .max(1);
    let limit = settings.max_chars.unwrap_or(DEFAULT_MAX_CHARS);
    // Each word costs its bytes and a terminating NUL, as in exec's table.
    let cost = |words: &[String]| words.iter().map(|w| w.len() + 1).sum::<usize>();
    let base = cost(command);
    let mut runs = Vec::new();
    let mut run = command.clone();
    let mut size = base;
    let mut taken = 0;
    for group in groups {
        let needed = cost(&group);
        if taken > 0 && (taken == per_run || size + needed > limit) {
            if settings.exit_if_too_long && taken < per_run {
                return Err("argument list too long");
            }
            runs.push(std::mem::replace(&mut run, command.clone()));
            size = base;
            taken = 0;
        }
        if size + needed > limit {
            return Err(if base >= limit {
                "cannot fit single argument within argument list size limit"
            } else {
                "argument line too long"
            });
        }
        size += needed;
        taken += 1;
        run.extend(group);
    }
    runs.push(run);
    Ok(runs)
}

/// Splits xargs input: blanks separate items, quotes and backslashes
/// group. Reading stops at a quote left open, which is returned.
fn items(text: &str) -> (Vec<String>, Option<&'static str>) {
    let mut items = Vec::new();
    let mut current = String::new();
    let mut has = false;
    let mut chars = text.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match quote {
            Some(q) if c == q => quote = None,
            // A quoted item ends at its line: GNU refuses a newline in it.
            Some(q) if c == '\n' => return (items, Some(quote_name(q))),
            Some(_) => current.push(c),
            None => match c {
                '\'' | '"' => {
                    quote = Some(c);
                    has = true;
                }
                '\\' => {
                    if let Some(next) = chars.next() {
                        current.push(next);
                        has = true;
                    }
                }
                // GNU xargs splits at blanks and newlines only: a `\r` (a
                // file name from a CRLF list) is part of the item.
                ' ' | '\t' | '\n' => {
                    if has || !current.is_empty() {
                        items.push(std::mem::take(&mut current));
                        has = false;
                    }
                }
                c => current.push(c),
            },
        }
    }
    if let Some(q) = quote {
        return (items, Some(quote_name(q)));
    }
    if has || !current.is_empty() {
        items.push(current);
    }
    (items, None)
}

fn quote_name(quote: char) -> &'static str {
    if quote == '"' { "double" } else { "single" }
}

/// The input of `xargs -L`: its logical lines (a line ending in a blank
/// goes on to the next), each as its items; blank lines are none.
fn lines(text: &str) -> (Vec<Vec<String>>, Option<&'static str>) {
    let mut lines = Vec::new();
    let mut logical = String::new();
    let pieces: Vec<&str> = text.split('\n').collect();
    for (index, line) in pieces.iter().enumerate() {
        logical.push_str(line);
        if line.ends_with([' ', '\t']) && index + 1 < pieces.len() {
            logical.push(' ');
            continue;
        }
        let (items, open) = items(&logical);
        if open.is_some() {
            return (lines, open);
        }
        if !items.is_empty() {
            lines.push(items);
        }
        logical.clear();
    }
    (lines, None)
}

/// `xargs` input up to the first blank-separated word equal to `end`.
fn before_end_of_input(input: &str, end: &str) -> String {
    let mut kept = String::new();
    for line in input.split_inclusive('\n') {
        let words: Vec<&str> = line
            .split([' ', '\t', '\n'])
            .filter(|word| !word.is_empty())
            .collect();
        if let Some(at) = words.iter().position(|word| *word == end) {
            if at > 0 {
                kept.push_str(&words[..at].join(" "));
                kept.push('\n');
            }
            return kept;
        }
        kept.push_str(line);
    }
    kept
}

/// Options that take a value, long names and the letter they stand for;
/// `optional` values (`--replace`, `--eof`, `--max-lines`) only follow `=`.
/// In GNU's order, which its "ambiguous" message lists them in.
const LONGS: &[(&str, char, Value)] = &[
    ("null", '0', Value::None),
    ("arg-file", 'a', Value::Required),
    ("delimiter", 'd', Value::Required),
    ("eof", 'e', Value::Optional),
    ("replace", 'i', Value::Optional),
    ("max-lines", 'l', Value::Optional),
    ("max-args", 'n', Value::Required),
    ("open-tty", 'o', Value::None),
    ("interactive", 'p', Value::None),
    ("no-run-if-empty", 'r', Value::None),
    ("max-chars", 's', Value::Required),
    ("verbose", 't', Value::None),
    ("exit", 'x', Value::None),
    ("max-procs", 'P', Value::Required),
    ("process-slot-var", 'S', Value::Required),
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Value {
    None,
    Required,
    Optional,
}

/// Short options: those after `:` take a value (attached or next), those
/// after `;` take one only attached (`-i[R]`, `-e[EOF]`, `-l[N]`).
fn short_kind(letter: char) -> Option<Value> {
    match letter {
        '0' | 'p' | 'r' | 't' | 'x' | 'o' => Some(Value::None),
        'a' | 'd' | 'E' | 'I' | 'L' | 'n' | 'P' | 's' => Some(Value::Required),
        'e' | 'i' | 'l' => Some(Value::Optional),
        _ => None,
    }
}

/// Reads the options (GNU's getopt stops at the first operand: the
/// command and its words are never options).
fn settings(args: &[String]) -> Result<Settings, Refusal> {
    let mut options: Vec<(char, Option<String>)> = Vec::new();
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        index += 1;
        if arg == "--" {
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (long, None),
            };
            let candidates: Vec<_> = LONGS.iter().filter(|(n, ..)| n.starts_with(name)).collect();
            let found = LONGS
                .iter()
                .find(|(n, ..)| *n == name)
                .or_else(|| (candidates.len() == 1).then(|| candidates[0]));
            let Some(&(full, letter, kind)) = found else {
                let word = if candidates.len() > 1 {
                    let names: Vec<String> = candidates
                        .iter()
                        .map(|(n, ..)| format!("'--{n}'"))
                        .collect();
                    format!(
                        "option '{arg}' is ambiguous; possibilities: {}",
                        names.join(" ")
                    )
                } else {
                    format!("unrecognized option '{arg}'")
                };
                return Err(Refusal(word, true));
            };
            let value = match (kind, attached) {
                (Value::None, Some(_)) => {
                    return Err(Refusal(
                        format!("option '--{full}' doesn't allow an argument"),
                        true,
                    ));
                }
                (Value::Required, None) => {
                    let Some(value) = args.get(index) else {
                        return Err(Refusal(
                            format!("option '--{full}' requires an argument"),
                            true,
                        ));
                    };
                    index += 1;
                    Some(value.clone())
                }
                (_, attached) => attached,
            };
            options.push((letter, value));
            continue;
        }
        let Some(letters) = arg.strip_prefix('-').filter(|rest| !rest.is_empty()) else {
            index -= 1;
            break;
        };
        for (at, letter) in letters.char_indices() {
            let rest = &letters[at + letter.len_utf8()..];
            match short_kind(letter) {
                Some(Value::None) => options.push((letter, None)),
                Some(Value::Required) => {
                    let value = if rest.is_empty() {
                        let Some(value) = args.get(index) else {
                            return Err(Refusal(
                                format!("option requires an argument -- '{letter}'"),
                                true,
                            ));
                        };
                        index += 1;
                        value.clone()
                    } else {
                        rest.to_string()
                    };
                    options.push((letter, Some(value)));
                    break;
                }
                Some(Value::Optional) => {
                    options.push((letter, (!rest.is_empty()).then(|| rest.to_string())));
                    break;
                }
                None => return Err(Refusal(format!("invalid option -- '{letter}'"), true)),
            }
        }
    }
    let mut settings = Settings {
        max_args: None,
        max_lines: None,
        replace: None,
        delimiter: None,
        arg_file: None,
        max_chars: None,
        exit_if_too_long: false,
        interactive: false,
        trace: false,
        no_run_empty: false,
        end_of_input: None,
        slot_var: None,
        command: if index < args.len() {
            args[index..].to_vec()
        } else {
            vec!["echo".to_string()]
        },
    };
    for (letter, value) in options {
        let text = value.clone().unwrap_or_default();
        match letter {
            '0' => settings.delimiter = Some('\0'),
            'a' => settings.arg_file = value,
            'd' => {
                settings.delimiter = goccia_interp::escape::printf_format(&text).0.chars().next()
            }
            'E' | 'e' => settings.end_of_input = value.filter(|text| !text.is_empty()),
            'I' | 'i' => {
                settings.replace = Some(value.unwrap_or_else(|| "{}".to_string()));
                settings.max_lines = None;
                settings.max_args = None;
            }
            'L' | 'l' => {
                settings.max_lines = Some(match value {
                    Some(text) => count(&text, 'L')?,
                    None => 1,
                });
                settings.max_args = None;
                settings.replace = None;
            }
            'n' => {
                settings.max_args = Some(count(&text, 'n')?);
                settings.max_lines = None;
            }
            's' => {
                settings.max_chars = Some(if text == "0" { 0 } else { count(&text, 's')? });
            }
            'P' => {
                text.parse::<usize>().map_err(|_| {
                    Refusal(format!("invalid number \"{text}\" for -P option"), true)
                })?;
            }
            'p' => settings.interactive = true,
            'r' => settings.no_run_empty = true,
            't' => settings.trace = true,
            'x' => settings.exit_if_too_long = true,
            'S' => settings.slot_var = value,
            _ => {}
        }
    }
    Ok(settings)
}

/// A count of `-n`, `-L` or `-s`, at least 1, refused in GNU's words.
fn count(text: &str, option: char) -> Result<usize, Refusal> {
    match text.parse::<usize>() {
        Ok(0) => Err(Refusal(
            format!("value 0 for -{option} option should be >= 1"),
            true,
        )),
        Ok(n) => Ok(n),
        Err(_) => Err(Refusal(
            format!("invalid number \"{text}\" for -{option} option"),
            true,
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_quote_stops_reading_and_is_named() {
        assert_eq!(items("a \"b c\n"), (vec!["a".to_string()], Some("double")));
        assert_eq!(items("a 'b"), (vec!["a".to_string()], Some("single")));
        assert_eq!(
            items("a 'b c' d"),
            (vec!["a".into(), "b c".into(), "d".into()], None)
        );
    }
}
