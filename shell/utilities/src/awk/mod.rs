//! `awk`: the POSIX language with the common gawk extensions (`gensub`,
//! `strftime`, `systime`, `**`, `nextfile`, regex `RS`, `length(array)`).

mod format;
mod interp;
mod lexer;
mod parser;
mod value;

/// C's `strtod` on a prefix, as awk reads numbers (also `sort -g`'s).
pub(crate) use value::leading_number as strtod;

use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, ShellView};

pub fn awk(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut field_separator = None;
    let mut assignments = Vec::new();
    let mut program_text: Option<String> = None;
    let mut program_files = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        if arg == "--" {
            i += 1;
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            break;
        }
        let value = |i: &mut usize, attached: &str| -> Option<String> {
            if !attached.is_empty() {
                return Some(attached.to_string());
            }
            *i += 1;
            args.get(*i).cloned()
        };
        if let Some(rest) = arg.strip_prefix("-F") {
            let fs = value(&mut i, rest).unwrap_or_default();
            field_separator = Some(if fs == "t" {
                "\t".to_string()
            } else {
                goccia_interp::escape::printf_format(&fs).0
            });
        } else if let Some(rest) = arg.strip_prefix("-v") {
            let Some(assignment) = value(&mut i, rest) else {
                return Ok(shell.fail_command("awk", "option requires an argument -- v", 2));
            };
            match assignment.split_once('=') {
                Some((name, value)) => assignments.push((name.to_string(), value.to_string())),
                None => {
                    return Ok(shell.fail_command(
                        "awk",
                        &format!("`{assignment}' argument to `-v' not in `var=value' form"),
                        2,
                    ));
                }
            }
        } else if let Some(rest) = arg.strip_prefix("-f") {
            match value(&mut i, rest) {
                Some(file) => program_files.push(file),
                None => {
                    return Ok(shell.fail_command("awk", "option requires an argument -- f", 2));
                }
            }
        } else if arg == "--version" || arg == "-V" {
            return match shell.write_stdout(b"GNU Awk 5.2.1 (goccia)\n") {
                Ok(()) => Ok(0),
                Err(error) => shell.io_status("awk", error),
            };
        } else if arg.starts_with("--") || arg == "-e" || arg == "-E" {
            if arg == "-e" || arg == "--source" {
                program_text = value(&mut i, "");
            }
        } else {
            return Ok(shell.fail_command("awk", &format!("invalid option -- '{}'", &arg[1..]), 2));
        }
        i += 1;
    }
    let mut source = String::new();
    // Where each program file's lines start in the program read as one,
    // for a fatal error's `FILE:N:` (text from the command line is
    // `cmd. line`).
    let mut sources: Vec<(u32, String)> = Vec::new();
    let mut open_ends = Vec::new();
    for file in &program_files {
        match open_quiet(shell, file).and_then(|mut s| s.read_all().map_err(|_| "read error")) {
            Ok(data) => {
                sources.push((source.matches('\n').count() as u32 + 1, file.clone()));
                let text = goccia_interp::raw::decode(&data);
                source.push_str(&text);
                if !text.ends_with('\n') {
                    open_ends.push(parser::OpenEnd {
                        at: source.chars().count(),
                        blank_before: text.ends_with([' ', '\t']),
                    });
                }
                source.push('\n');
            }
            Err(reason) => {
                return Ok(shell.fail_command(
                    "awk",
                    &format!("fatal: can't open source file `{file}' for reading: {reason}"),
                    2,
                ));
            }
        }
    }
    let from_command_line = program_text.is_some() || program_files.is_empty();
    if let Some(text) = program_text {
        sources.push((
            source.matches('\n').count() as u32 + 1,
            "cmd. line".to_string(),
        ));
        source.push_str(&text);
    } else if program_files.is_empty() {
        let Some(text) = args.get(i) else {
            return Ok(shell.fail_command("awk", "usage: awk [POSIX or GNU style options] -f progfile [--] file ...\nusage: awk [POSIX or GNU style options] [--] 'program' file ...", 2));
        };
        source.push_str(text);
        i += 1;
    }
    // gawk reads program text as if a newline ended it: a syntax error at
    // its end is reported at that newline, under the next line's number.
    if from_command_line && !source.ends_with('\n') {
        source.push('\n');
    }
    let operands: Vec<String> = args[i.min(args.len())..].to_vec();
    if sources.is_empty() {
        sources.push((1, "cmd. line".to_string()));
    }
    // gawk names where a fatal error happened: the program's source and
    // line, and the input being read.
    let location = |line: u32| {
        let (start, name) = sources
            .iter()
            .rev()
            .find(|(start, _)| *start <= line)
            .unwrap_or(&sources[0]);
        format!("{name}:{}: ", line - start + 1)
    };
    // A program gawk cannot read ends with status 1; a syntax error shows
    // its line with a caret under where reading stopped.
    let tokens = match lexer::Lexer::new(&source).tokens() {
        Ok(tokens) => tokens,
        Err(lexer::LexError { message, at }) => {
            let report = caret_report(&source, at, None, false, &message, &location);
            return Ok(shell.fail_command("awk", &report, 1));
        }
    };
    let program = match parser::Parser::new(tokens)
        .with_open_ends(open_ends)
        .program()
    {
        Ok(program) => program,
        Err(error) => {
            let report = match error.caret {
                Some(at) => {
                    let shown = error.end_of_file.then_some("(END OF FILE)");
                    caret_report(
                        &source,
                        at,
                        shown,
                        error.next_line,
                        &error.message,
                        &location,
                    )
                }
                None => format!("{}{}", location(error.line), error.message),
            };
            return Ok(shell.fail_command("awk", &report, 1));
        }
    };
    let mut runner = interp::Awk::new(shell, &program, operands, &assignments, field_separator);
    let result = runner.run();
    let closing = runner.close_all();
    let flushed = runner.flush();
    let exit_code = runner.exit_code;
    for result in [result, closing, flushed] {
        match result {
            Ok(())
            | Err(interp::Jump::Exit)
            | Err(interp::Jump::Next)
            | Err(interp::Jump::NextFile) => {}
            Err(interp::Jump::Error(message)) => {
                let _ = runner.flush();
                let context = runner.input_context();
                let at = location(runner.line);
                return Ok(runner.shell.fail_command(
                    "awk",
                    &format!("{at}{context}fatal: {message}"),
                    2,
                ));
            }
            Err(interp::Jump::Denied(message)) => {
                let _ = runner.flush();
                return Ok(runner.shell.fail_command("awk", &message, 1));
            }
            Err(interp::Jump::Stop(flow)) => return Err(flow),
            Err(_) => {}
        }
    }
    Ok(exit_code)
}

/// gawk's report of a program it cannot read (two lines, the first
/// without its `awk: `): the source line where
/// reading stopped, then a caret under the character at index `at` of
/// `source` (gawk counts bytes, and keeps a tab as a tab so the caret
/// lines up), then `message`. At a newline, the line it ends is shown
/// under the next line's number, as gawk has counted the newline by
/// then; at the end of the program, its last line; `shown_text` in place
/// of the line when given.
fn caret_report(
    source: &str,
    at: usize,
    shown_text: Option<&str>,
    next_line: bool,
    message: &str,
    location: &dyn Fn(u32) -> String,
) -> String {
    let chars: Vec<char> = source.chars().collect();
    let at = at.min(chars.len());
    let at_newline = chars.get(at) == Some(&'\n');
    // The character whose line is shown: before a final newline, the
    // line it ends.
    let shown = if at == chars.len() && at > 0 && chars[at - 1] == '\n' {
        at - 1
    } else {
        at
    };
    let begin = chars[..shown]
        .iter()
        .rposition(|c| *c == '\n')
        .map_or(0, |newline| newline + 1);
    let end = chars[begin..]
        .iter()
        .position(|c| *c == '\n')
        .map_or(chars.len(), |offset| begin + offset);
    let line_number = chars[..begin].iter().filter(|c| **c == '\n').count() as u32
        + 1
        + u32::from(at_newline || next_line);
    let text: String = match shown_text {
        Some(text) => text.to_string(),
        None => chars[begin..end].iter().collect(),
    };
    let caret: String =
        goccia_interp::raw::encode(&chars[begin..shown.max(begin)].iter().collect::<String>())
            .iter()
            .map(|byte| if *byte == b'\t' { '\t' } else { ' ' })
            .collect();
    // The first line's `awk: ` is the caller's, as for every message.
    let prefix = location(line_number);
    format!("{prefix}{text}\nawk: {prefix}{caret}^ {message}")
}
