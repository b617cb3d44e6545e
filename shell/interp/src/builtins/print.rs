//! Output builtins: `echo` and `printf` (formatting is [`crate::printf`]).

use crate::interp::{ExecResult, Shell};
use crate::printf::format_all;
use std::io::Write;

pub fn echo(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut newline = true;
    let mut escapes = false;
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        if arg.len() < 2
            || !arg.starts_with('-')
            || !arg[1..].chars().all(|c| matches!(c, 'n' | 'e' | 'E'))
        {
            break;
        }
        for c in arg[1..].chars() {
            match c {
                'n' => newline = false,
                'e' => escapes = true,
                _ => escapes = false,
            }
        }
        index += 1;
    }
    let text = args[index..].join(" ");
    let mut bytes = if escapes {
        let (decoded, stop) = crate::escape::echo(&text);
        if stop {
            newline = false;
        }
        decoded
    } else {
        crate::raw::encode_string(text)
    };
    if newline {
        bytes.push(b'\n');
    }
    match shell.out().write_all(&bytes) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("echo", error),
    }
}

pub fn printf(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut index = 1;
    let mut target = None;
    if args.get(1).map(String::as_str) == Some("-v") {
        let Some(name) = args.get(2) else {
            return Ok(shell.fail("printf", "-v: option requires an argument", 2));
        };
        let valid = match crate::interp::split_subscript(name) {
            Some((base, _)) => crate::parse::is_name(base),
            None => crate::parse::is_name(name),
        };
        if !valid {
            let message = format!("`{name}': not a valid identifier");
            return Ok(shell.fail("printf", &message, 2));
        }
        target = Some(name.clone());
        index = 3;
    }
    if args.get(index).map(String::as_str) == Some("--") {
        index += 1;
    }
    let Some(format) = args.get(index) else {
        return Ok(shell.fail("printf", "usage: printf [-v var] format [arguments]", 2));
    };
    let values = &args[index + 1..];
    let mut out = Vec::new();
    let zone = shell.time_zone();
    let status = format_all(format, values, &zone, &mut out, &mut |message| {
        shell.fail("printf", message, 1);
    });
    match target {
        Some(name) => {
            let text = crate::raw::decode_vec(out);
            if let Err(message) = shell.set_var(&name, text) {
                return Ok(shell.fail("printf", &message, 1));
            }
            Ok(status)
        }
        None => match shell.out().write_all(&out) {
            Ok(()) => Ok(status),
            Err(error) => shell.io_status("printf", error),
        },
    }
}
