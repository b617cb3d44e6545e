//! Shell builtins: control flow, options, the environment, directories,
//! `eval`/`source`, `type`/`command`, `getopts`, `trap`, `test`.

use std::io::Write;
use std::time::Duration;

use goccia_vfs::VfsPath;

use super::Kind;
use crate::arith;
use crate::interp::test_expr;
use crate::interp::{ExecResult, Flow, Shell};
use crate::parse::Parser;
use goccia_core::Stop;

fn write_out(shell: &mut Shell, name: &str, text: &str) -> ExecResult {
    match shell.out().write_all(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status(name, error),
    }
}

/// `bash: name: message` with status.
fn builtin_error(shell: &mut Shell, name: &str, message: &str, status: i32) -> ExecResult {
    Ok(shell.fail(name, message, status))
}

pub fn colon(_: &mut Shell, _: &[String]) -> ExecResult {
    Ok(0)
}

pub fn false_(_: &mut Shell, _: &[String]) -> ExecResult {
    Ok(1)
}

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
        text.into_bytes()
    };
    if newline {
        bytes.push(b'\n');
    }
    match shell.out().write_all(&bytes) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("echo", error),
    }
}

pub fn cd(shell: &mut Shell, args: &[String]) -> ExecResult {
    let operands: Vec<&String> = args[1..]
        .iter()
        .filter(|a| !matches!(a.as_str(), "-P" | "-L" | "-e" | "-@"))
        .collect();
    if operands.len() > 1 {
        return builtin_error(shell, "cd", "too many arguments", 1);
    }
    let (target, print) = match operands.first().map(|s| s.as_str()) {
        None | Some("~") => match shell.get_var("HOME") {
            Some(home) => (home, false),
            None => return builtin_error(shell, "cd", "HOME not set", 1),
        },
        Some("-") => match shell.get_var("OLDPWD") {
            Some(old) => (old, true),
            None => return builtin_error(shell, "cd", "OLDPWD not set", 1),
        },
        Some(dir) => (dir.to_string(), false),
    };
    if target.is_empty() {
        return Ok(0);
    }
    let path = match shell.cwd().resolve(&target) {
        Ok(path) => path,
        Err(_) => return builtin_error(shell, "cd", &format!("{target}: File name too long"), 1),
    };
    let exists = {
        let vfs = shell.context().vfs.lock();
        if vfs.is_dir(&path) {
            Ok(())
        } else if vfs.exists(&path) {
            Err("Not a directory")
        } else {
            Err("No such file or directory")
        }
    };
    if let Err(reason) = exists {
        return builtin_error(shell, "cd", &format!("{target}: {reason}"), 1);
    }
    change_dir(shell, path);
    if print {
        let text = format!("{}\n", shell.cwd());
        return write_out(shell, "cd", &text);
    }
    Ok(0)
}

pub(crate) fn change_dir(shell: &mut Shell, path: VfsPath) {
    let old = shell.cwd().to_string();
    let _ = shell.set_var("OLDPWD", old);
    let _ = shell.set_var("PWD", path.to_string());
    shell.set_cwd(path);
}

pub fn pwd(shell: &mut Shell, _: &[String]) -> ExecResult {
    let text = format!("{}\n", shell.cwd());
    write_out(shell, "pwd", &text)
}

fn status_arg(shell: &mut Shell, name: &str, arg: Option<&String>) -> Result<i32, i32> {
    match arg {
        None => Ok(shell.last_status()),
        Some(text) => match text.trim().parse::<i64>() {
            Ok(n) => Ok((n & 0xff) as i32),
            Err(_) => Err(shell.fail(name, &format!("{text}: numeric argument required"), 2)),
        },
    }
}

pub fn exit(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() > 2 {
        return builtin_error(shell, "exit", "too many arguments", 1);
    }
    shell.exit_requested = true;
    match status_arg(shell, "exit", args.get(1)) {
        Ok(status) => Err(Flow::Exit(status)),
        Err(status) => Err(Flow::Exit(status)),
    }
}

pub fn return_(shell: &mut Shell, args: &[String]) -> ExecResult {
    match status_arg(shell, "return", args.get(1)) {
        Ok(status) => Err(Flow::Return(status)),
        Err(status) => Err(Flow::Return(status)),
    }
}

fn loop_count(shell: &mut Shell, name: &str, args: &[String]) -> Result<usize, i32> {
    match args.get(1) {
        None => Ok(1),
        Some(text) => match text.parse::<i64>() {
            Ok(n) if n >= 1 => Ok(n as usize),
            Ok(_) => Err(shell.fail(name, &format!("{text}: loop count out of range"), 1)),
            Err(_) => Err(shell.fail(name, &format!("{text}: numeric argument required"), 1)),
        },
    }
}

pub fn break_(shell: &mut Shell, args: &[String]) -> ExecResult {
    if shell.loop_depth == 0 {
        return builtin_error(
            shell,
            "break",
            "only meaningful in a `for', `while', or `until' loop",
            0,
        );
    }
    match loop_count(shell, "break", args) {
        Ok(n) => Err(Flow::Break(n.min(shell.loop_depth))),
        Err(status) => Ok(status),
    }
}

pub fn continue_(shell: &mut Shell, args: &[String]) -> ExecResult {
    if shell.loop_depth == 0 {
        return builtin_error(
            shell,
            "continue",
            "only meaningful in a `for', `while', or `until' loop",
            0,
        );
    }
    match loop_count(shell, "continue", args) {
        Ok(n) => Err(Flow::Continue(n.min(shell.loop_depth))),
        Err(status) => Ok(status),
    }
}

pub fn shift(shell: &mut Shell, args: &[String]) -> ExecResult {
    let count = match args.get(1) {
        None => 1,
        Some(text) => match text.parse::<usize>() {
            Ok(n) => n,
            Err(_) => {
                return builtin_error(
                    shell,
                    "shift",
                    &format!("{text}: numeric argument required"),
                    1,
                );
            }
        },
    };
    if count > shell.positional.len() {
        return Ok(1);
    }
    let rest = shell.positional[count..].to_vec();
    shell.positional = std::sync::Arc::new(rest);
    Ok(0)
}

/// `set -o` names and their flags.
const SET_OPTIONS: &[(&str, char)] = &[
    ("allexport", 'a'),
    ("braceexpand", 'B'),
    ("errexit", 'e'),
    ("errtrace", 'E'),
    ("functrace", 'T'),
    ("hashall", 'h'),
    ("histexpand", 'H'),
    ("history", '\0'),
    ("ignoreeof", '\0'),
    ("interactive-comments", '\0'),
    ("keyword", 'k'),
    ("monitor", 'm'),
    ("noclobber", 'C'),
    ("noexec", 'n'),
    ("noglob", 'f'),
    ("nolog", '\0'),
    ("notify", 'b'),
    ("nounset", 'u'),
    ("onecmd", 't'),
    ("physical", 'P'),
    ("pipefail", '\0'),
    ("posix", '\0'),
    ("privileged", 'p'),
    ("verbose", 'v'),
    ("vi", '\0'),
    ("emacs", '\0'),
    ("xtrace", 'x'),
];

pub(crate) fn set_option(shell: &mut Shell, name: &str, on: bool) -> bool {
    let o = &mut shell.opts;
    match name {
        "errexit" => o.errexit = on,
        "nounset" => o.nounset = on,
        "pipefail" => o.pipefail = on,
        "xtrace" => o.xtrace = on,
        "noglob" => o.noglob = on,
        "noclobber" => o.noclobber = on,
        "allexport" => o.allexport = on,
        "noexec" => o.noexec = on,
        "verbose" => o.verbose = on,
        _ => return SET_OPTIONS.iter().any(|(n, _)| *n == name),
    }
    true
}

fn option_value(shell: &Shell, name: &str) -> bool {
    let o = &shell.opts;
    match name {
        "errexit" => o.errexit,
        "nounset" => o.nounset,
        "pipefail" => o.pipefail,
        "xtrace" => o.xtrace,
        "noglob" => o.noglob,
        "noclobber" => o.noclobber,
        "allexport" => o.allexport,
        "noexec" => o.noexec,
        "verbose" => o.verbose,
        "braceexpand" | "hashall" | "interactive-comments" => true,
        _ => false,
    }
}

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
                        if !set_option(shell, name, on) {
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
                        for (name, _) in SET_OPTIONS {
                            let value = option_value(shell, name);
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
            let name = match flag {
                'e' => "errexit",
                'u' => "nounset",
                'x' => "xtrace",
                'f' => "noglob",
                'C' => "noclobber",
                'a' => "allexport",
                'n' => "noexec",
                'v' => "verbose",
                'B' | 'h' | 'm' | 'H' | 'b' | 'k' | 'p' | 'P' | 't' | 'E' | 'T' => continue,
                other => {
                    return builtin_error(shell, "set", &format!("-{other}: invalid option"), 2);
                }
            };
            set_option(shell, name, on);
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

const SHOPT_OPTIONS: &[&str] = &[
    "autocd",
    "cdspell",
    "checkhash",
    "checkwinsize",
    "cmdhist",
    "dotglob",
    "expand_aliases",
    "extglob",
    "extquote",
    "failglob",
    "globstar",
    "histappend",
    "inherit_errexit",
    "lastpipe",
    "nocaseglob",
    "nocasematch",
    "nullglob",
    "patsub_replacement",
    "progcomp",
    "promptvars",
    "sourcepath",
    "xpg_echo",
];

/// The flag behind a `shopt` option goccia implements.
pub(crate) fn shopt_flag<'a>(
    opts: &'a mut crate::interp::Options,
    name: &str,
) -> Option<&'a mut bool> {
    Some(match name {
        "dotglob" => &mut opts.dotglob,
        "expand_aliases" => &mut opts.expand_aliases,
        "extglob" => &mut opts.extglob,
        "failglob" => &mut opts.failglob,
        "globstar" => &mut opts.globstar,
        "nocaseglob" => &mut opts.nocaseglob,
        "nocasematch" => &mut opts.nocasematch,
        "nullglob" => &mut opts.nullglob,
        "lastpipe" => &mut opts.lastpipe,
        "inherit_errexit" => &mut opts.inherit_errexit,
        _ => return None,
    })
}

fn shopt_get(shell: &mut Shell, name: &str) -> Option<bool> {
    if let Some(flag) = shopt_flag(&mut shell.opts, name) {
        return Some(*flag);
    }
    match name {
        "cmdhist" | "extquote" | "patsub_replacement" | "progcomp" | "promptvars"
        | "sourcepath" | "checkwinsize" | "checkhash" => Some(true),
        _ if SHOPT_OPTIONS.contains(&name) => Some(false),
        _ => None,
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
                    if !set_option(shell, name, on) {
                        status = shell.fail("shopt", &format!("{name}: invalid option name"), 1);
                    }
                }
                None => {
                    if !option_value(shell, name) {
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
            match shopt_flag(&mut shell.opts, name) {
                Some(flag) => *flag = on,
                None if SHOPT_OPTIONS.contains(&name.as_str()) => {}
                None => {
                    status = shell.fail("shopt", &format!("{name}: invalid shell option name"), 1)
                }
            }
        }
        return Ok(status);
    }
    let list: Vec<String> = if names.is_empty() {
        SHOPT_OPTIONS.iter().map(|s| s.to_string()).collect()
    } else {
        names
    };
    let mut status = 0;
    let mut text = String::new();
    for name in &list {
        match shopt_get(shell, name) {
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
                        Ok(key) => shell.unset_element(base, &key),
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

pub fn eval(shell: &mut Shell, args: &[String]) -> ExecResult {
    let source = args[1..].join(" ");
    run_text(shell, &source)
}

/// Runs source text in this shell (`eval`, `source`): a syntax error is
/// status 2 for that text, not the end of the shell.
pub(crate) fn run_text(shell: &mut Shell, source: &str) -> ExecResult {
    let mut parser = Parser::new(source);
    let mut status = 0;
    loop {
        parser.set_aliases(
            shell
                .aliases
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            shell.opts.expand_aliases,
        );
        match parser.next_command() {
            Ok(Some(list)) => {
                status = shell.run_list(&list)?;
                shell.status = status;
            }
            Ok(None) => return Ok(status),
            Err(error) => {
                shell.report_syntax_error(&error);
                return Ok(2);
            }
        }
    }
}

pub fn source(shell: &mut Shell, args: &[String]) -> ExecResult {
    let Some(file) = args.get(1) else {
        return builtin_error(shell, args[0].as_str(), "filename argument required", 2);
    };
    let path = match shell.cwd().resolve(file) {
        Ok(path) => path,
        Err(_) => return builtin_error(shell, file, "No such file or directory", 1),
    };
    let data = shell.context().vfs.lock().read_file(&path);
    let text = match data {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(error) => return builtin_error(shell, file, error.errno.strerror(), 1),
    };
    let saved = (args.len() > 2).then(|| {
        std::mem::replace(
            &mut shell.positional,
            std::sync::Arc::new(args[2..].to_vec()),
        )
    });
    shell.func_stack.push("source".to_string());
    shell.sources.push(file.clone());
    let result = run_text(shell, &text);
    shell.sources.pop();
    shell.func_stack.pop();
    if let Some(saved) = saved {
        shell.positional = saved;
    }
    match result {
        Err(Flow::Return(status)) => Ok(status),
        other => other,
    }
}

pub fn alias(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut status = 0;
    let mut text = String::new();
    let names: Vec<&String> = args[1..].iter().filter(|a| a.as_str() != "-p").collect();
    if names.is_empty() {
        let mut all: Vec<(String, String)> = shell
            .aliases
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        all.sort();
        for (name, value) in all {
            text.push_str(&format!("alias {name}={}\n", crate::interp::quote(&value)));
        }
    }
    for arg in names {
        match arg.split_once('=') {
            Some((name, value)) => {
                shell.aliases.insert(name.to_string(), value.to_string());
            }
            None => match shell.aliases.get(arg.as_str()) {
                Some(value) => {
                    text.push_str(&format!("alias {arg}={}\n", crate::interp::quote(value)))
                }
                None => status = shell.fail("alias", &format!("{arg}: not found"), 1),
            },
        }
    }
    write_out(shell, "alias", &text)?;
    Ok(status)
}

pub fn unalias(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut status = 0;
    for arg in &args[1..] {
        if arg == "-a" {
            shell.aliases.clear();
        } else if shell.aliases.remove(arg.as_str()).is_none() {
            status = shell.fail("unalias", &format!("{arg}: not found"), 1);
        }
    }
    Ok(status)
}

const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// Binaries that also exist as builtins (`which echo` finds them).
const ALSO_FILES: &[&str] = &[
    "echo", "printf", "test", "[", "true", "false", "kill", "pwd", "sleep", "env",
];

pub fn type_(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut terse = false;
    let mut all = false;
    let mut path_only = false;
    let mut names = Vec::new();
    for arg in &args[1..] {
        match arg.as_str() {
            "-t" => terse = true,
            "-a" => all = true,
            "-p" | "-P" => path_only = true,
            "-f" => {}
            name => names.push(name.to_string()),
        }
    }
    let mut status = 0;
    let mut text = String::new();
    for name in &names {
        let mut found = false;
        if !path_only {
            if let Some(value) = shell.aliases.get(name.as_str()) {
                found = true;
                text.push_str(&if terse {
                    "alias\n".to_string()
                } else {
                    format!("{name} is aliased to `{value}'\n")
                });
            }
            if (!found || all) && KEYWORDS.contains(&name.as_str()) {
                found = true;
                text.push_str(&if terse {
                    "keyword\n".to_string()
                } else {
                    format!("{name} is a shell keyword\n")
                });
            }
            if (!found || all) && shell.functions.contains_key(name.as_str()) {
                found = true;
                if terse {
                    text.push_str("function\n");
                } else {
                    text.push_str(&format!("{name} is a function\n"));
                    text.push_str(&crate::interp::function_text(shell, name));
                }
            }
        }
        let kind = super::kind(name);
        if (!found || all) && kind == Some(Kind::Builtin) && !path_only {
            found = true;
            text.push_str(&if terse {
                "builtin\n".to_string()
            } else {
                format!("{name} is a shell builtin\n")
            });
        }
        let is_file = kind == Some(Kind::Utility) || (all && ALSO_FILES.contains(&name.as_str()));
        if (!found || all || path_only) && is_file {
            found = true;
            text.push_str(&if terse {
                "file\n".to_string()
            } else if path_only {
                format!("/usr/bin/{name}\n")
            } else {
                format!("{name} is /usr/bin/{name}\n")
            });
        }
        if (!found || all)
            && kind.is_none()
            && let Some(path) = shell.find_in_path(name)
        {
            found = true;
            text.push_str(&if terse {
                "file\n".to_string()
            } else if path_only {
                format!("{path}\n")
            } else {
                format!("{name} is {path}\n")
            });
        }
        if !found {
            status = 1;
            if !terse && !path_only {
                shell.fail("type", &format!("{name}: not found"), 1);
            }
        }
    }
    write_out(shell, "type", &text)?;
    Ok(status)
}

pub fn command(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut index = 1;
    let mut describe = None;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "-v" => describe = Some(false),
            "-V" => describe = Some(true),
            "-p" => {}
            "--" => {
                index += 1;
                break;
            }
            _ => break,
        }
        index += 1;
    }
    let rest = &args[index..];
    if rest.is_empty() {
        return Ok(0);
    }
    if let Some(verbose) = describe {
        let mut status = 0;
        let mut text = String::new();
        for name in rest {
            if let Some(value) = shell.aliases.get(name.as_str()) {
                text.push_str(&if verbose {
                    format!("{name} is aliased to `{value}'\n")
                } else {
                    format!("alias {name}={}\n", crate::interp::quote(value))
                });
            } else if shell.functions.contains_key(name.as_str()) {
                text.push_str(&if verbose {
                    format!("{name} is a function\n")
                } else {
                    format!("{name}\n")
                });
            } else if KEYWORDS.contains(&name.as_str()) {
                text.push_str(&if verbose {
                    format!("{name} is a shell keyword\n")
                } else {
                    format!("{name}\n")
                });
            } else {
                match super::kind(name) {
                    Some(Kind::Builtin) => text.push_str(&if verbose {
                        format!("{name} is a shell builtin\n")
                    } else {
                        format!("{name}\n")
                    }),
                    Some(Kind::Utility) => text.push_str(&if verbose {
                        format!("{name} is /usr/bin/{name}\n")
                    } else {
                        format!("/usr/bin/{name}\n")
                    }),
                    None if let Some(path) = shell.find_in_path(name) => {
                        text.push_str(&if verbose {
                            format!("{name} is {path}\n")
                        } else {
                            format!("{path}\n")
                        });
                    }
                    None => {
                        let is_script = name.contains('/')
                            && shell
                                .cwd()
                                .resolve(name)
                                .is_ok_and(|p| shell.context().vfs.lock().is_file(&p));
                        if is_script {
                            text.push_str(&format!("{name}\n"));
                        } else {
                            status = 1;
                            if verbose {
                                shell.fail("command", &format!("{name}: not found"), 1);
                            }
                        }
                    }
                }
            }
        }
        write_out(shell, "command", &text)?;
        return Ok(status);
    }
    shell.dispatch_command(rest)
}

pub fn builtin(shell: &mut Shell, args: &[String]) -> ExecResult {
    let Some(name) = args.get(1) else {
        return Ok(0);
    };
    match super::kind(name) {
        Some(Kind::Builtin) => shell.dispatch_command(&args[1..]),
        _ => builtin_error(shell, "builtin", &format!("{name}: not a shell builtin"), 1),
    }
}

pub fn which(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut status = 0;
    let mut text = String::new();
    for name in args[1..].iter().filter(|a| !a.starts_with('-')) {
        if super::kind(name) == Some(Kind::Utility) || ALSO_FILES.contains(&name.as_str()) {
            text.push_str(&format!("/usr/bin/{name}\n"));
        } else if let Some(path) = shell.find_in_path(name) {
            text.push_str(&format!("{path}\n"));
        } else {
            status = 1;
        }
    }
    write_out(shell, "which", &text)?;
    Ok(status)
}

pub fn help(shell: &mut Shell, args: &[String]) -> ExecResult {
    if let Some(name) = args.get(1) {
        return match super::kind(name) {
            Some(_) => write_out(
                shell,
                "help",
                &format!("{name}: a goccia shell command over the sandbox filesystem\n"),
            ),
            None => builtin_error(
                shell,
                "help",
                &format!(
                    "no help topics match `{name}'.  Try `help help' or `man -k {name}' or `info {name}'."
                ),
                1,
            ),
        };
    }
    let mut names: Vec<&str> = super::names().collect();
    names.sort_unstable();
    let text = format!(
        "goccia shell: bash syntax over the sandbox filesystem; no host process is ever started.\nCommands:\n{}\n",
        names.join(" ")
    );
    write_out(shell, "help", &text)
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
    let finish = |shell: &mut Shell, optind: usize| -> ExecResult {
        let _ = shell.set_var(&name, "?");
        let _ = shell.set_var("OPTIND", optind.to_string());
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

fn signal_name(name: &str) -> Option<String> {
    let upper = name.to_uppercase();
    let bare = upper.strip_prefix("SIG").unwrap_or(&upper);
    Some(
        match bare {
            "0" | "EXIT" => "EXIT",
            "ERR" => "ERR",
            "DEBUG" => "DEBUG",
            "RETURN" => "RETURN",
            "1" | "HUP" => "HUP",
            "2" | "INT" => "INT",
            "3" | "QUIT" => "QUIT",
            "9" | "KILL" => "KILL",
            "10" | "USR1" => "USR1",
            "12" | "USR2" => "USR2",
            "13" | "PIPE" => "PIPE",
            "14" | "ALRM" => "ALRM",
            "15" | "TERM" => "TERM",
            "17" | "CHLD" => "CHLD",
            _ => return None,
        }
        .to_string(),
    )
}

pub fn trap(shell: &mut Shell, args: &[String]) -> ExecResult {
    let rest: Vec<&String> = args[1..].iter().filter(|a| a.as_str() != "--").collect();
    if rest.is_empty() || rest[0] == "-p" {
        let filter: Vec<String> = rest.iter().skip(1).filter_map(|s| signal_name(s)).collect();
        let shown = if shell.traps.is_empty() {
            &shell.parent_traps
        } else {
            &shell.traps
        };
        let mut all: Vec<(String, String)> =
            shown.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        all.sort();
        let text: String = all
            .into_iter()
            .filter(|(k, _)| filter.is_empty() || filter.contains(k))
            .map(|(k, v)| format!("trap -- {} {k}\n", crate::interp::quote(&v)))
            .collect();
        return write_out(shell, "trap", &text);
    }
    if rest[0] == "-l" {
        return write_out(
            shell,
            "trap",
            " 1) SIGHUP\t 2) SIGINT\t 3) SIGQUIT\t 9) SIGKILL\t15) SIGTERM\n",
        );
    }
    let (action, signals) = if rest.len() == 1
        && signal_name(rest[0]).is_some()
        && rest[0].chars().all(|c| c.is_ascii_digit())
    {
        (None, &rest[..])
    } else {
        (Some(rest[0].clone()), &rest[1..])
    };
    let mut status = 0;
    for signal in signals {
        let Some(name) = signal_name(signal) else {
            status = shell.fail(
                "trap",
                &format!("{signal}: invalid signal specification"),
                1,
            );
            continue;
        };
        match action.as_deref() {
            None | Some("-") => {
                shell.traps.remove(&name);
            }
            Some(action) => {
                shell.traps.insert(name, action.to_string());
            }
        }
    }
    Ok(status)
}

fn dirs_text(shell: &Shell) -> String {
    let mut parts = vec![shell.cwd().to_string()];
    parts.extend(shell.dir_stack.iter().rev().map(|p| p.to_string()));
    format!("{}\n", parts.join(" "))
}

pub fn pushd(shell: &mut Shell, args: &[String]) -> ExecResult {
    let Some(target) = args.get(1) else {
        let Some(top) = shell.dir_stack.pop() else {
            return builtin_error(shell, "pushd", "no other directory", 1);
        };
        let current = shell.cwd().clone();
        shell.dir_stack.push(current);
        change_dir(shell, top);
        let text = dirs_text(shell);
        return write_out(shell, "pushd", &text);
    };
    let Ok(path) = shell.cwd().resolve(target) else {
        return builtin_error(
            shell,
            "pushd",
            &format!("{target}: No such file or directory"),
            1,
        );
    };
    if !shell.context().vfs.lock().is_dir(&path) {
        return builtin_error(
            shell,
            "pushd",
            &format!("{target}: No such file or directory"),
            1,
        );
    }
    let current = shell.cwd().clone();
    shell.dir_stack.push(current);
    change_dir(shell, path);
    let text = dirs_text(shell);
    write_out(shell, "pushd", &text)
}

pub fn popd(shell: &mut Shell, _: &[String]) -> ExecResult {
    let Some(top) = shell.dir_stack.pop() else {
        return builtin_error(shell, "popd", "directory stack empty", 1);
    };
    change_dir(shell, top);
    let text = dirs_text(shell);
    write_out(shell, "popd", &text)
}

pub fn dirs(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.iter().any(|a| a == "-c") {
        shell.dir_stack.clear();
        return Ok(0);
    }
    if args.iter().any(|a| a == "-v") {
        let mut parts = vec![shell.cwd().to_string()];
        parts.extend(shell.dir_stack.iter().rev().map(|p| p.to_string()));
        let text: String = parts
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{i:2}  {p}\n"))
            .collect();
        return write_out(shell, "dirs", &text);
    }
    let text = dirs_text(shell);
    write_out(shell, "dirs", &text)
}

pub fn umask(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() == 1 {
        return write_out(shell, "umask", "0022\n");
    }
    if args[1] == "-S" {
        return write_out(shell, "umask", "u=rwx,g=rx,o=rx\n");
    }
    Ok(0)
}

pub fn times(shell: &mut Shell, _: &[String]) -> ExecResult {
    write_out(shell, "times", "0m0.000s 0m0.000s\n0m0.000s 0m0.000s\n")
}

pub fn caller(shell: &mut Shell, _: &[String]) -> ExecResult {
    if shell.func_stack.is_empty() {
        return Ok(1);
    }
    let caller = if shell.func_stack.len() > 1 {
        shell.func_stack[shell.func_stack.len() - 2].clone()
    } else {
        "main".to_string()
    };
    let text = format!("{} {caller} main\n", shell.line);
    write_out(shell, "caller", &text)
}

pub fn exec(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut index = 1;
    while args
        .get(index)
        .is_some_and(|a| a.starts_with('-') && a.len() > 1)
    {
        index += 1;
    }
    if index >= args.len() {
        return Ok(0);
    }
    let status = shell.dispatch_command(&args[index..])?;
    Err(Flow::Exit(status))
}

pub fn kill(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.get(1).is_some_and(|a| a == "-l") {
        return write_out(
            shell,
            "kill",
            "HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM\n",
        );
    }
    let targets: Vec<&String> = args[1..].iter().filter(|a| !a.starts_with('-')).collect();
    if targets.is_empty() {
        return builtin_error(
            shell,
            "kill",
            "usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]",
            2,
        );
    }
    let mut status = 0;
    for target in targets {
        if target.parse::<u64>().is_err() {
            status = shell.fail(
                "kill",
                &format!("{target}: arguments must be process or job IDs"),
                1,
            );
        } else if Some(target.parse::<u64>().unwrap_or(0)) != shell.last_bg
            && target.parse::<u64>().ok() != Some(shell.pid)
        {
            status = shell.fail("kill", &format!("({target}) - No such process"), 1);
        }
    }
    Ok(status)
}

pub fn ulimit(shell: &mut Shell, _: &[String]) -> ExecResult {
    write_out(shell, "ulimit", "unlimited\n")
}

pub fn env(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut clear = false;
    let mut unset = Vec::new();
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "-i" | "-" => clear = true,
            "-u" => {
                index += 1;
                if let Some(name) = args.get(index) {
                    unset.push(name.clone());
                }
            }
            "--" => {
                index += 1;
                break;
            }
            _ => break,
        }
        index += 1;
    }
    let mut assignments = Vec::new();
    while let Some(arg) = args.get(index) {
        match arg.split_once('=') {
            Some((name, value)) if crate::parse::is_name(name) => {
                assignments.push((name.to_string(), value.to_string()))
            }
            _ => break,
        }
        index += 1;
    }
    if index >= args.len() {
        let mut vars: Vec<(String, String)> = if clear { Vec::new() } else { shell.exported() };
        vars.retain(|(name, _)| !unset.contains(name));
        for (name, value) in &assignments {
            vars.retain(|(n, _)| n != name);
            vars.push((name.clone(), value.clone()));
        }
        let text: String = vars.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        return write_out(shell, "env", &text);
    }
    let mut child = shell.child_process();
    if clear {
        for (name, _) in child.exported() {
            child.vars.unset(&name);
        }
    }
    for name in &unset {
        child.vars.unset(name);
    }
    for (name, value) in assignments {
        let _ = child.set_var(&name, value);
        if let Some(var) = child.vars.get_mut(&name) {
            var.attrs.exported = true;
        }
    }
    child.dispatch_command(&args[index..])
}

pub fn printenv(shell: &mut Shell, args: &[String]) -> ExecResult {
    let vars = shell.exported();
    if args.len() == 1 {
        let text: String = vars.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        return write_out(shell, "printenv", &text);
    }
    let mut status = 0;
    let mut text = String::new();
    for name in &args[1..] {
        match vars.iter().find(|(k, _)| k == name) {
            Some((_, value)) => text.push_str(&format!("{value}\n")),
            None => status = 1,
        }
    }
    write_out(shell, "printenv", &text)?;
    Ok(status)
}

/// Parses `1`, `0.5`, `2m`, `1h`, `1d`.
pub(crate) fn parse_duration(text: &str) -> Option<Duration> {
    let (number, unit) = match text.chars().last()? {
        's' => (&text[..text.len() - 1], 1.0),
        'm' => (&text[..text.len() - 1], 60.0),
        'h' => (&text[..text.len() - 1], 3600.0),
        'd' => (&text[..text.len() - 1], 86400.0),
        _ => (text, 1.0),
    };
    let value: f64 = number.parse().ok()?;
    if value.is_nan() || value < 0.0 || !value.is_finite() {
        return None;
    }
    Some(Duration::from_secs_f64(value * unit))
}

pub fn sleep(shell: &mut Shell, args: &[String]) -> ExecResult {
    if args.len() < 2 {
        shell.fail_command(
            "sleep",
            "missing operand\nTry 'sleep --help' for more information.",
            1,
        );
        return Ok(1);
    }
    let mut total = Duration::ZERO;
    for arg in &args[1..] {
        match parse_duration(arg) {
            Some(duration) => total += duration,
            None => {
                shell.fail_command(
                    "sleep",
                    &format!(
                        "invalid time interval '{arg}'\nTry 'sleep --help' for more information."
                    ),
                    1,
                );
                return Ok(1);
            }
        }
    }
    sleep_for(shell, total)?;
    Ok(0)
}

/// Sleeps in slices, honouring the deadline and cancellation.
pub(crate) fn sleep_for(shell: &Shell, total: Duration) -> Result<(), Flow> {
    let end = std::time::Instant::now() + total;
    loop {
        shell.check_watch()?;
        let now = std::time::Instant::now();
        if now >= end {
            return Ok(());
        }
        let remaining = shell.watch().remaining();
        if remaining.is_zero() {
            return Err(Flow::Stop(Stop::DEADLINE));
        }
        std::thread::sleep((end - now).min(Duration::from_millis(20)).min(remaining));
    }
}

/// `goccia [options] <path>`: runs a JS entry, shared or in a child
/// sandbox, through the launcher the sandbox installed.
pub fn goccia(shell: &mut Shell, args: &[String]) -> ExecResult {
    match shell.context().launcher.clone() {
        Some(launcher) => launcher.launch(shell, args),
        None => builtin_error(
            shell,
            "goccia",
            "nested execution is not available in this shell",
            126,
        ),
    }
}

/// `compgen [-bcdfv] [-A action] [-W words] [prefix]`: completion
/// candidates, one per line.
pub fn compgen(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut actions: Vec<String> = Vec::new();
    let mut words: Option<String> = None;
    let mut prefix = String::new();
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "-A" | "-W" if i + 1 >= args.len() => {
                return builtin_error(
                    shell,
                    "compgen",
                    &format!("{}: option requires an argument", args[i]),
                    2,
                );
            }
            "-A" => {
                actions.push(args[i + 1].clone());
                i += 1;
            }
            "-W" => {
                words = Some(args[i + 1].clone());
                i += 1;
            }
            flag if flag.starts_with('-') && flag.len() > 1 => {
                for c in flag[1..].chars() {
                    actions.push(
                        match c {
                            'b' => "builtin",
                            'c' => "command",
                            'd' => "directory",
                            'f' => "file",
                            'v' => "variable",
                            'a' => "alias",
                            'k' => "keyword",
                            _ => {
                                return builtin_error(
                                    shell,
                                    "compgen",
                                    &format!("-{c}: invalid option"),
                                    2,
                                );
                            }
                        }
                        .to_string(),
                    );
                }
            }
            word => prefix = word.to_string(),
        }
        i += 1;
    }
    let mut candidates: Vec<String> = Vec::new();
    if let Some(words) = words {
        candidates.extend(words.split_whitespace().map(str::to_string));
    }
    for action in &actions {
        match action.as_str() {
            "builtin" => candidates.extend(
                super::names()
                    .filter(|n| super::kind(n) == Some(Kind::Builtin))
                    .map(str::to_string),
            ),
            "command" => {
                candidates.extend(shell.known_commands());
                candidates.extend(KEYWORDS.iter().map(|k| k.to_string()));
            }
            "function" => candidates.extend(shell.functions.keys().cloned()),
            "alias" => candidates.extend(shell.aliases.keys().cloned()),
            "keyword" => candidates.extend(KEYWORDS.iter().map(|k| k.to_string())),
            "variable" => candidates.extend(shell.vars.visible().into_keys()),
            "file" | "directory" => {
                let (folder, _) = prefix.rsplit_once('/').unwrap_or(("", ""));
                let dir = if folder.is_empty() && !prefix.starts_with('/') {
                    "."
                } else if folder.is_empty() {
                    "/"
                } else {
                    folder
                };
                let Ok(path) = shell.cwd().resolve(dir) else {
                    continue;
                };
                let entries = shell
                    .context()
                    .vfs
                    .lock()
                    .read_dir(&path)
                    .unwrap_or_default();
                for entry in entries {
                    if action == "directory" && entry.node_type != goccia_vfs::NodeType::Directory {
                        continue;
                    }
                    let shown = if prefix.contains('/') {
                        format!("{folder}/{}", entry.name)
                    } else {
                        entry.name.to_string()
                    };
                    candidates.push(shown);
                }
            }
            other => {
                return builtin_error(
                    shell,
                    "compgen",
                    &format!("{other}: invalid action name"),
                    2,
                );
            }
        }
    }
    candidates.retain(|c| c.starts_with(&prefix));
    candidates.sort();
    candidates.dedup();
    if candidates.is_empty() {
        return Ok(1);
    }
    let text: String = candidates.iter().map(|c| format!("{c}\n")).collect();
    write_out(shell, "compgen", &text)?;
    Ok(0)
}
