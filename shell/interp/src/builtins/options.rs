//! `set` and `shopt`: the shell's options, through the one option table
//! of the interpreter.

use crate::builtins::common::builtin_error;
use crate::builtins::common::flag_letters;
use crate::builtins::common::write_out;
use crate::builtins::common::write_out_then;
use crate::interp::options::{self, SET_OPTIONS, SHOPT_OPTIONS};
use crate::interp::{ExecResult, Shell};

pub fn set(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() == 1 {
        let text = shell.set_listing();
        return write_out(shell, "set", &text);
    }
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        if arg == "--" {
            shell.positional = std::sync::Arc::new(args[i + 1..].to_vec());
            return Ok(0);
        }
        if arg == "-" {
            shell.opts.xtrace = false;
            shell.opts.verbose = false;
            i += 1;
            if i < args.len() {
                shell.positional = std::sync::Arc::new(args[i..].to_vec());
            }
            return Ok(0);
        }
        let (on, flags) = match arg.chars().next() {
            Some('-') => (true, &arg[1..]),
            Some('+') => (false, &arg[1..]),
            _ => {
                shell.positional = std::sync::Arc::new(args[i..].to_vec());
                return Ok(0);
            }
        };
        for flag in flags.chars() {
            if flag == 'o' {
                i += 1;
                match args.get(i) {
                    Some(name) => {
                        if !shell.opts.set_named(name, on) {
                            return builtin_error(
                                shell,
                                "set",
                                &format!("{name}: invalid option name"),
                                2,
                            );
                        }
                    }
                    None => {
                        let mut text = String::new();
                        for option in SET_OPTIONS {
                            let (name, value) = (option.name, shell.opts.get(option));
                            if on {
                                text.push_str(&format!(
                                    "{name:<15}\t{}\n",
                                    if value { "on" } else { "off" }
                                ));
                            } else {
                                text.push_str(&format!(
                                    "set {}o {name}\n",
                                    if value { '-' } else { '+' }
                                ));
                            }
                        }
                        return write_out(shell, "set", &text);
                    }
                }
                continue;
            }
            match options::by_letter(flag) {
                Some(option) => {
                    shell.opts.set(option, on);
                }
                None => {
                    return builtin_error(shell, "set", &format!("-{flag}: invalid option"), 2);
                }
            }
        }
        i += 1;
    }
    Ok(0)
}

pub fn shopt(shell: &mut Shell, args: &[String]) -> ExecResult {
    let usage = "shopt [-pqsu] [-o] [optname ...]";
    let (letters, index) = match flag_letters(shell, "shopt", args, "pqsuo", usage) {
        Ok(read) => read,
        Err(status) => return Ok(status),
    };
    let set_on = letters.contains(&'s');
    let set_off = letters.contains(&'u');
    let quiet = letters.contains(&'q');
    let print = letters.contains(&'p');
    let set_o = letters.contains(&'o');
    if set_on && set_off {
        let message = "cannot set and unset shell options simultaneously";
        return builtin_error(shell, "shopt", message, 1);
    }
    let names = &args[index..];
    let (table, invalid) = if set_o {
        (SET_OPTIONS, "invalid option name")
    } else {
        (SHOPT_OPTIONS, "invalid shell option name")
    };
    let line = |option: &options::Named, value: bool| match (print, set_o) {
        (true, true) => format!("set {}o {}\n", if value { '-' } else { '+' }, option.name),
        (true, false) => format!(
            "shopt {} {}\n",
            if value { "-s" } else { "-u" },
            option.name
        ),
        _ => format!(
            "{:<15}\t{}\n",
            option.name,
            if value { "on" } else { "off" }
        ),
    };
    let mut status = 0;
    let mut text = String::new();
    if set_on || set_off {
        if names.is_empty() {
            // `shopt -s` lists the options that are on, `-u` those off.
            for option in table {
                let value = shell.opts.get(option);
                if value == set_on {
                    text.push_str(&line(option, value));
                }
            }
        }
        for name in names {
            match options::find(table, name) {
                Some(option) => {
                    shell.opts.set(option, set_on);
                }
                None => status = shell.fail("shopt", &format!("{name}: {invalid}"), 1),
            }
        }
    } else if names.is_empty() {
        for option in table {
            text.push_str(&line(option, shell.opts.get(option)));
        }
    } else {
        // Asked by name: the status says whether every one is on.
        for name in names {
            match options::find(table, name) {
                Some(option) => {
                    let value = shell.opts.get(option);
                    if !value {
                        status = 1;
                    }
                    text.push_str(&line(option, value));
                }
                None => status = shell.fail("shopt", &format!("{name}: {invalid}"), 1),
            }
        }
    }
    if !quiet {
        return write_out_then(shell, "shopt", &text, status);
    }
    Ok(status)
}
