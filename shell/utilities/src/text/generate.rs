//! Generated lines: `seq` and `yes`.

use crate::args::buffered;
use crate::args::finish;
use crate::args::usage;
use goccia_interp::interp::{ExecResult, ShellView};
use std::io::Write;

fn seq_number(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

fn decimals(text: &str) -> usize {
    if text.contains(['e', 'E']) {
        return 0;
    }
    text.split_once('.').map_or(0, |(_, frac)| frac.len())
}

pub fn seq(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut separator = "\n".to_string();
    let mut format: Option<String> = None;
    let mut equal_width = false;
    let mut numbers = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        match arg.as_str() {
            "-s" | "--separator" => {
                i += 1;
                separator = args.get(i).cloned().unwrap_or_default();
            }
            "-f" | "--format" => {
                i += 1;
                format = args.get(i).cloned();
            }
            "-w" | "--equal-width" => equal_width = true,
            _ if arg.starts_with("-s") && arg.len() > 2 => separator = arg[2..].to_string(),
            _ if arg.starts_with("-f") && arg.len() > 2 => format = Some(arg[2..].to_string()),
            _ => numbers.push(arg.clone()),
        }
        i += 1;
    }
    let parsed: Vec<Option<f64>> = numbers.iter().map(|n| seq_number(n)).collect();
    if numbers.is_empty() || numbers.len() > 3 {
        return usage(
            shell,
            "seq",
            if numbers.is_empty() {
                "missing operand"
            } else {
                "extra operand"
            },
            1,
        );
    }
    if let Some(index) = parsed.iter().position(Option::is_none) {
        return usage(
            shell,
            "seq",
            &format!("invalid floating point argument: '{}'", numbers[index]),
            1,
        );
    }
    let values: Vec<f64> = parsed.into_iter().flatten().collect();
    let (first, step, last) = match values.len() {
        1 => (1.0, 1.0, values[0]),
        2 => (values[0], 1.0, values[1]),
        _ => (values[0], values[1], values[2]),
    };
    if step == 0.0 {
        return usage(
            shell,
            "seq",
            &format!("invalid Zero increment value: '{}'", numbers[1]),
            1,
        );
    }
    let precision = numbers
        .iter()
        .take(if numbers.len() == 3 {
            2
        } else {
            numbers.len().min(1)
        })
        .map(|n| decimals(n))
        .max()
        .unwrap_or(0)
        .max(if numbers.len() >= 2 {
            decimals(&numbers[0])
        } else {
            0
        });
    let precision = if numbers.len() == 3 {
        decimals(&numbers[0]).max(decimals(&numbers[1]))
    } else {
        precision
    };
    let render = |value: f64| -> String {
        match &format {
            Some(format) => {
                let mut out = Vec::new();
                goccia_interp::printf::format_all(
                    format,
                    &[format!("{value}")],
                    &goccia_interp::time::Zone::default(),
                    &mut out,
                    &mut |_| {},
                );
                String::from_utf8_lossy(&out).into_owned()
            }
            None => goccia_interp::pad::fixed(value, precision),
        }
    };
    let beyond =
        |value: f64| (step > 0.0 && value > last + 1e-9) || (step < 0.0 && value < last - 1e-9);
    // `-w` pads to the widest number, which in a monotone sequence is an
    // end: known before the first line, so the output streams (an endless
    // `seq 1 1e12 | head` holds one line, not all of them).
    let width = if equal_width && !beyond(first) {
        let steps = ((last - first) / step + 1e-9).floor();
        let ends = [render(first), render(first + step * steps)];
        ends.iter().map(String::len).max().unwrap_or(0)
    } else {
        0
    };
    let equalise = |item: String| match item.strip_prefix('-') {
        _ if !equal_width => item,
        Some(rest) => format!(
            "-{}",
            goccia_interp::pad::left_pad(rest, width.saturating_sub(1), '0')
        ),
        None => goccia_interp::pad::left_pad(&item, width, '0'),
    };
    let mut out = buffered(shell);
    let mut n = 0u64;
    loop {
        let value = first + step * n as f64;
        if beyond(value) {
            break;
        }
        let item = equalise(render(value));
        let separated = if n > 0 {
            out.write_all(separator.as_bytes())
        } else {
            Ok(())
        };
        if let Err(error) = separated.and_then(|()| out.write_all(item.as_bytes())) {
            return shell.io_status("seq", error);
        }
        n += 1;
        if n.is_multiple_of(4096) {
            shell.check_watch()?;
        }
    }
    if n > 0
        && let Err(error) = out.write_all(b"\n")
    {
        return shell.io_status("seq", error);
    }
    finish(shell, "seq", out, 0)
}

pub fn yes(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let text = if args.len() > 1 {
        args[1..].join(" ")
    } else {
        "y".to_string()
    };
    let line = format!("{text}\n");
    let chunk = line.repeat((8192 / line.len()).max(1));
    let mut out = shell.out();
    loop {
        shell.check_watch()?;
        if let Err(error) = out.write_all(chunk.as_bytes()) {
            return shell.io_status("yes", error);
        }
    }
}
