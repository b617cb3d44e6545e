//! Line layout: `rev`, `tac`, `nl`, `fold`.

use crate::args::Out;
use crate::args::buffered;
use crate::args::finish;
use crate::args::parse_options;
use crate::text::lines::normalize_count_args;
use crate::text::lines::operands_or_stdin;
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};
use std::io::Write;

fn line_filter(
    shell: &mut ShellView,
    name: &str,
    operands: &[String],
    mut f: impl FnMut(&[u8], &mut Out) -> std::io::Result<()>,
) -> ExecResult {
    let mut out = buffered(shell);
    let mut status = 0;
    for file in operands_or_stdin(operands) {
        let Ok(mut source) = open_source(shell, name, &file) else {
            status = 1;
            continue;
        };
        if let Err(error) = source.for_each_line(|line| {
            f(line, &mut out)?;
            Ok(true)
        }) {
            return shell.io_status(name, error);
        }
    }
    finish(shell, name, out, status)
}

pub fn rev(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let operands: Vec<String> = args[1..].to_vec();
    line_filter(shell, "rev", &operands, |line, out| {
        let (body, newline) = match line.strip_suffix(b"\n") {
            Some(body) => (body, true),
            None => (line, false),
        };
        let reversed: String = goccia_interp::raw::decode(body).chars().rev().collect();
        out.write_all(&goccia_interp::raw::encode(&reversed))?;
        if newline {
            out.write_all(b"\n")?;
        }
        Ok(())
    })
}

pub fn tac(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let files = operands_or_stdin(&args[1..]);
    let mut out = buffered(shell);
    let mut status = 0;
    for file in files {
        let Ok(mut source) = open_source(shell, "tac", &file) else {
            status = 1;
            continue;
        };
        let data = match source.read_all() {
            Ok(data) => data,
            Err(error) => return shell.io_status("tac", error),
        };
        let mut lines: Vec<Vec<u8>> = data
            .split_inclusive(|b| *b == b'\n')
            .map(<[u8]>::to_vec)
            .collect();
        if let Some(last) = lines.last_mut()
            && !last.ends_with(b"\n")
        {
            // GNU tac glues an unterminated last line to the next.
            let tail = std::mem::take(last);
            lines.pop();
            lines.push(tail);
        }
        for line in lines.iter().rev() {
            if let Err(error) = out.write_all(line) {
                return shell.io_status("tac", error);
            }
        }
    }
    finish(shell, "tac", out, status)
}

pub fn nl(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(shell, args, "bwsvinf", &[]);
    let style = parsed.value('b').unwrap_or("t").to_string();
    let width: usize = parsed.value('w').and_then(|w| w.parse().ok()).unwrap_or(6);
    let separator = parsed.value('s').unwrap_or("\t").to_string();
    let mut number: i64 = parsed.value('v').and_then(|v| v.parse().ok()).unwrap_or(1);
    let increment: i64 = parsed.value('i').and_then(|v| v.parse().ok()).unwrap_or(1);
    let format = parsed.value('n').unwrap_or("rn").to_string();
    let operands = parsed.operands.clone();
    line_filter(shell, "nl", &operands, |line, out| {
        let body = line.strip_suffix(b"\n").unwrap_or(line);
        let numbered = match style.as_str() {
            "a" => true,
            "n" => false,
            _ => !body.is_empty(),
        };
        if numbered {
            let text = match format.as_str() {
                "ln" => goccia_interp::pad::right_pad(&number.to_string(), width, ' '),
                "rz" => goccia_interp::pad::left_pad(&number.to_string(), width, '0'),
                _ => goccia_interp::pad::left_pad(&number.to_string(), width, ' '),
            };
            write!(out, "{text}{separator}")?;
            number += increment;
        } else {
            write!(out, "{}", " ".repeat(width + separator.len()))?;
        }
        out.write_all(body)?;
        out.write_all(b"\n")?;
        Ok(())
    })
}

pub fn fold(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let args = normalize_count_args(args)
        .into_iter()
        .map(|a| if a == "-n" { "-w".to_string() } else { a })
        .collect::<Vec<_>>();
    let parsed = parse_options!(
        shell,
        &args,
        "w",
        &[
            ("width", 'w', true),
            ("spaces", 's', false),
            ("bytes", 'b', false),
        ]
    );
    let width: usize = parsed
        .value('w')
        .and_then(|w| w.parse().ok())
        .unwrap_or(80)
        .max(1);
    let spaces = parsed.has('s');
    let operands = parsed.operands.clone();
    line_filter(shell, "fold", &operands, |line, out| {
        let (body, newline) = match line.strip_suffix(b"\n") {
            Some(body) => (body, true),
            None => (line, false),
        };
        let chars: Vec<char> = goccia_interp::raw::decode(body).chars().collect();
        let mut start = 0;
        while chars.len() - start > width {
            let mut end = start + width;
            if spaces && let Some(space) = chars[start..end].iter().rposition(|c| *c == ' ') {
                end = start + space + 1;
            }
            let piece: String = chars[start..end].iter().collect();
            out.write_all(&goccia_interp::raw::encode(&piece))?;
            out.write_all(b"\n")?;
            start = end;
        }
        let rest: String = chars[start..].iter().collect();
        out.write_all(&goccia_interp::raw::encode(&rest))?;
        if newline {
            out.write_all(b"\n")?;
        }
        Ok(())
    })
}
