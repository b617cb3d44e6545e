//! Values and arguments: `unset`, `let`, `getopts`, `test` and `[`.

use crate::arith;
use crate::builtins::common::builtin_error;
use crate::interp::test_expr;
use crate::interp::{ExecResult, Shell};

pub fn unset(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut functions = false;
    let mut variables = false;
    let mut status = 0;
    for arg in &args[1..] {
        match arg.as_str() {
            "-f" => functions = true,
            "-v" => variables = true,
            "-n" => variables = true,
            name => {
                if functions && !variables {
                    shell.functions.remove(name);
                    continue;
                }
                if let Some((base, index)) = crate::interp::split_subscript(name) {
                    if index == "@" || index == "*" {
                        shell.vars.unset(base);
                        continue;
                    }
                    match shell.subscript_key(base, index) {
                        Ok(key) => {
                            if let Err(message) = shell.unset_element(base, &key) {
                                status = shell.fail("unset", &message, 1);
                            }
                        }
                        Err(_) => status = 1,
                    }
                    continue;
                }
                if !crate::parse::is_name(name) {
                    status = shell.fail("unset", &format!("`{name}': not a valid identifier"), 1);
                    continue;
                }
                let resolved = shell.resolve_name(name);
                if shell.vars.get_raw(&resolved).is_some() {
                    if !shell.vars.unset(&resolved) {
                        status = shell.fail(
                            "unset",
                            &format!("{name}: cannot unset: readonly variable"),
                            1,
                        );
                    }
                } else if !variables {
                    shell.functions.remove(name);
                }
            }
        }
    }
    Ok(status)
}

pub fn getopts(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() < 3 {
        return builtin_error(
            shell,
            "getopts",
            "usage: getopts optstring name [arg ...]",
            2,
        );
    }
    let spec = args[1].clone();
    let name = args[2].clone();
    let params: Vec<String> = if args.len() > 3 {
        args[3..].to_vec()
    } else {
        shell.positional.to_vec()
    };
    let silent = spec.starts_with(':');
    let spec = spec.trim_start_matches(':');
    let mut optind: usize = shell
        .get_var("OPTIND")
        .and_then(|v| v.parse().ok())
        .unwrap_or(1)
        .max(1);
    if shell.getopts_offset == 0 {
        shell.getopts_offset = 1;
    }
    // At the end OPTIND names the first operand, at most one past the
    // last argument (a new list after an old loop starts over).
    let count = params.len();
    let finish = |shell: &mut Shell, optind: usize| -> ExecResult {
        let _ = shell.set_var(&name, "?");
        let _ = shell.set_var("OPTIND", optind.min(count + 1).to_string());
        shell.vars.unset("OPTARG");
        if !crate::parse::is_name(&name) {
            let message = format!("`{name}': not a valid identifier");
            return builtin_error(shell, "getopts", &message, 1);
        }
        shell.getopts_offset = 0;
        Ok(1)
    };
    let Some(current) = params.get(optind - 1).cloned() else {
        return finish(shell, optind);
    };
    if shell.getopts_offset == 1 && (!current.starts_with('-') || current == "-") {
        return finish(shell, optind);
    }
    if shell.getopts_offset == 1 && current == "--" {
        return finish(shell, optind + 1);
    }
    let chars: Vec<char> = current.chars().collect();
    let offset = shell
        .getopts_offset
        .min(chars.len().saturating_sub(1))
        .max(1);
    let option = chars[offset];
    let mut next_offset = offset + 1;
    let at_end = next_offset >= chars.len();
    let position = spec.find(option).filter(|_| option != ':');
    let takes_value = position.is_some_and(|p| spec[p + 1..].starts_with(':'));
    let _ = shell.vars.unset("OPTARG");
    let status = match position {
        None => {
            if silent {
                let _ = shell.set_var("OPTARG", option.to_string());
            } else {
                shell.write_stderr(
                    format!("{}: illegal option -- {option}\n", shell.arg0).as_bytes(),
                );
            }
            let _ = shell.set_var(&name, "?");
            0
        }
        Some(_) if takes_value => {
            if !at_end {
                let value: String = chars[next_offset..].iter().collect();
                let _ = shell.set_var("OPTARG", value);
                next_offset = chars.len();
                let _ = shell.set_var(&name, option.to_string());
            } else if let Some(value) = params.get(optind) {
                let _ = shell.set_var("OPTARG", value.clone());
                optind += 1;
                next_offset = chars.len();
                let _ = shell.set_var(&name, option.to_string());
            } else if silent {
                let _ = shell.set_var("OPTARG", option.to_string());
                let _ = shell.set_var(&name, ":");
                next_offset = chars.len();
            } else {
                shell.write_stderr(
                    format!("{}: option requires an argument -- {option}\n", shell.arg0).as_bytes(),
                );
                let _ = shell.set_var(&name, "?");
                next_offset = chars.len();
            }
            0
        }
        Some(_) => {
            let _ = shell.set_var(&name, option.to_string());
            0
        }
    };
    if next_offset >= chars.len() {
        optind += 1;
        shell.getopts_offset = 1;
    } else {
        shell.getopts_offset = next_offset;
    }
    let _ = shell.set_var("OPTIND", optind.to_string());
    // A name that is no variable name is reported after the parsing,
    // which still moves OPTIND and OPTARG, as bash does.
    if !crate::parse::is_name(&name) {
        let message = format!("`{name}': not a valid identifier");
        return builtin_error(shell, "getopts", &message, 1);
    }
    Ok(status)
}

pub fn let_(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() < 2 {
        return builtin_error(shell, "let", "expression expected", 1);
    }
    let mut last = 0;
    for expr in &args[1..] {
        match arith::eval(expr, shell) {
            Ok(value) => last = value,
            Err(arith::ArithError::Unbound(name)) => return Err(shell.unbound(&name)),
            Err(error) => return builtin_error(shell, "let", &error.to_string(), 1),
        }
    }
    Ok(i32::from(last == 0))
}

pub fn test(shell: &mut Shell, args: &[String]) -> ExecResult {
    match test_expr::run_test(shell, &args[1..]) {
        Ok(result) => Ok(i32::from(!result)),
        Err(message) => builtin_error(shell, &args[0], &message, 2),
    }
}

pub fn bracket(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.last().map(String::as_str) != Some("]") {
        return builtin_error(shell, "[", "missing `]'", 2);
    }
    match test_expr::run_test(shell, &args[1..args.len() - 1]) {
        Ok(result) => Ok(i32::from(!result)),
        Err(message) => builtin_error(shell, "[", &message, 2),
    }
}
