//! `set` and `shopt`: the shell's options, through the one option table
//! of the interpreter.

use crate::builtins::common::builtin_error;
use crate::builtins::common::write_out;
use crate::interp::options::{self, SET_OPTIONS, SHOPT_OPTIONS};
use crate::interp::{ExecResult, Shell};

pub fn set(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() == 1 {
        let mut text = String::new();
        for (name, var) in shell.vars.visible() {
            if let Some(value) = &var.value {
                match value {
                    crate::vars::Value::Scalar(v) => {
                        text.push_str(&format!("{name}={}\n", quote_set(v)))
                    }
                    _ => {
                        if let Some(decl) = shell.declaration_text(&name, false) {
                            let body = decl.splitn(3, ' ').nth(2).unwrap_or("").to_string();
                            text.push_str(&format!("{body}\n"));
                        }
                    }
                }
            }
        }
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

fn quote_set(value: &str) -> String {
    if value
        .chars()
        .all(|c| c.is_alphanumeric() || "_-./:,+@%".contains(c))
        && !value.is_empty()
    {
        value.to_string()
    } else {
        crate::interp::quote(value)
    }
}

pub fn shopt(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut mode = None;
    let mut quiet = false;
    let mut print = false;
    let mut set_o = false;
    let mut names = Vec::new();
    for arg in &args[1..] {
        match arg.as_str() {
            "-s" => mode = Some(true),
            "-u" => mode = Some(false),
            "-q" => quiet = true,
            "-p" => print = true,
            "-o" => set_o = true,
            other => names.push(other.to_string()),
        }
    }
    if set_o {
        let mut status = 0;
        for name in &names {
            match mode {
                Some(on) => {
                    if !shell.opts.set_named(name, on) {
                        status = shell.fail("shopt", &format!("{name}: invalid option name"), 1);
                    }
                }
                None => {
                    if !shell.opts.is_set(name) {
                        status = 1;
                    }
                }
            }
        }
        return Ok(status);
    }
    if let Some(on) = mode {
        let mut status = 0;
        for name in &names {
            match options::find(SHOPT_OPTIONS, name) {
                Some(option) => {
                    shell.opts.set(option, on);
                }
                None => {
                    status = shell.fail("shopt", &format!("{name}: invalid shell option name"), 1)
                }
            }
        }
        return Ok(status);
    }
    let list: Vec<String> = if names.is_empty() {
        SHOPT_OPTIONS.iter().map(|o| o.name.to_string()).collect()
    } else {
        names
    };
    let mut status = 0;
    let mut text = String::new();
    for name in &list {
        match options::find(SHOPT_OPTIONS, name).map(|o| shell.opts.get(o)) {
            Some(value) => {
                if !value {
                    status = 1;
                }
                if print {
                    text.push_str(&format!(
                        "shopt {} {name}\n",
                        if value { "-s" } else { "-u" }
                    ));
                } else {
                    text.push_str(&format!(
                        "{name:<15}\t{}\n",
                        if value { "on" } else { "off" }
                    ));
                }
            }
            None => {
                status = shell.fail("shopt", &format!("{name}: invalid shell option name"), 1);
            }
        }
    }
    if !quiet {
        write_out(shell, "shopt", &text)?;
    }
    Ok(status)
}
