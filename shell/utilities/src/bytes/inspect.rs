//! Looking into bytes: `cmp` and `strings`.

use std::io::Write;

use super::{read_operands, write};
use crate::args::{parse_options, usage};
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};

// ----- cmp, strings -----

pub fn cmp(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(status 2; shell, args,
    "",
    &[
        ("silent", 's', false),
        ("quiet", 's', false),
        ("verbose", 'l', false),
    ]);
    if parsed.operands.is_empty() {
        return usage(shell, "cmp", "missing operand", 2);
    }
    let second = parsed
        .operands
        .get(1)
        .cloned()
        .unwrap_or_else(|| "-".to_string());
    let Ok(mut a) = open_source(shell, "cmp", &parsed.operands[0]) else {
        return Ok(2);
    };
    let Ok(mut b) = open_source(shell, "cmp", &second) else {
        return Ok(2);
    };
    let (a, b) = match (a.read_all(), b.read_all()) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return Ok(2),
    };
    if parsed.has('l') {
        // GNU pads the byte numbers to the digits of the smaller size,
        // a stream's size counting as the largest file offset.
        let stream = |name: &str| name == "-" || name.starts_with("/dev/");
        let smallest = [(&parsed.operands[0], a.len()), (&second, b.len())]
            .iter()
            .map(|(name, len)| {
                if stream(name) {
                    i64::MAX as u64
                } else {
                    *len as u64
                }
            })
            .min()
            .unwrap_or(0);
        let width = smallest.to_string().len();
        let mut text = String::new();
        for (j, (x, y)) in a.iter().zip(&b).enumerate() {
            if x != y {
                let at = goccia_interp::pad::left_pad(&(j + 1).to_string(), width, ' ');
                text.push_str(&format!("{at} {x:3o} {y:3o}\n"));
            }
        }
        let status = match (text.is_empty(), a.len() == b.len()) {
            (true, true) => 0,
            _ => 1,
        };
        // GNU writes this message at once and the list through stdio,
        // which a pipe holds until the end.
        report_eof(shell, [&parsed.operands[0], &second], [&a, &b]);
        return write(shell, "cmp", text.as_bytes(), status);
    }
    let mut line = 1;
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if x != y {
            if !parsed.has('s') {
                let text = format!(
                    "{} {second} differ: byte {}, line {line}\n",
                    parsed.operands[0],
                    i + 1
                );
                return write(shell, "cmp", text.as_bytes(), 1);
            }
            return Ok(1);
        }
        if *x == b'\n' {
            line += 1;
        }
    }
    if a.len() != b.len() {
        if !parsed.has('s') {
            report_eof(shell, [&parsed.operands[0], &second], [&a, &b]);
        }
        return Ok(1);
    }
    Ok(0)
}

/// `cmp`'s word on inputs of different lengths: which one ended, where
/// (nothing when they are as long).
fn report_eof(shell: &mut ShellView, names: [&str; 2], data: [&[u8]; 2]) {
    let [a, b] = data;
    if a.len() == b.len() {
        return;
    }
    let shorter = if a.len() < b.len() {
        names[0]
    } else {
        names[1]
    };
    shell.fail_command(
        "cmp",
        &format!("EOF on {shorter} after byte {}", a.len().min(b.len())),
        1,
    );
}

pub fn strings(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let args: Vec<String> = args
        .iter()
        .enumerate()
        .flat_map(|(i, a)| {
            if i > 0
                && a.len() > 1
                && a.starts_with('-')
                && a[1..].chars().all(|c| c.is_ascii_digit())
            {
                vec!["-n".to_string(), a[1..].to_string()]
            } else {
                vec![a.clone()]
            }
        })
        .collect();
    let parsed = parse_options!(
        shell,
        &args,
        "n",
        &[("bytes", 'n', true), ("all", 'a', false)]
    );
    let minimum: usize = parsed.value('n').and_then(|n| n.parse().ok()).unwrap_or(4);
    let data = match read_operands(shell, "strings", &parsed.operands) {
        Ok(data) => data,
        Err(status) => return Ok(status),
    };
    let mut text = Vec::new();
    let mut run = Vec::new();
    for byte in data.iter().copied().chain(std::iter::once(0)) {
        if byte == b'\t' || (32..127).contains(&byte) {
            run.push(byte);
        } else {
            if run.len() >= minimum {
                text.extend_from_slice(&run);
                text.push(b'\n');
            }
            run.clear();
        }
    }
    let _ = shell.out().flush();
    write(shell, "strings", &text, 0)
}
