//! What a name means: `alias`, `unalias`, `type`, `command`, `builtin`,
//! `which`, `help` (the command table comes from the
//! context, so these builtins never import the commands they list).

use crate::builtins::common::builtin_error;
use crate::builtins::common::flag_letters;
use crate::builtins::common::usage_error;
use crate::builtins::common::write_out;
use crate::builtins::common::write_out_then;
use crate::interp::{ExecResult, Shell};

const ALIAS_USAGE: &str = "alias [-p] [name[=value] ... ]";
const UNALIAS_USAGE: &str = "unalias [-a] name [name ...]";

pub fn alias(shell: &mut Shell, args: &[String]) -> ExecResult {
    let (letters, first) = match flag_letters(shell, "alias", args, "p", ALIAS_USAGE) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let names = &args[first..];
    let mut status = 0;
    let mut text = String::new();
    if names.is_empty() || letters.contains(&'p') {
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
    write_out_then(shell, "alias", &text, status)
}

pub fn unalias(shell: &mut Shell, args: &[String]) -> ExecResult {
    let (letters, first) = match flag_letters(shell, "unalias", args, "a", UNALIAS_USAGE) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    if letters.contains(&'a') {
        shell.aliases.clear();
        return Ok(0);
    }
    if first == args.len() {
        return Ok(usage_error(shell, "unalias", UNALIAS_USAGE));
    }
    let mut status = 0;
    for arg in &args[first..] {
        if shell.aliases.remove(arg.as_str()).is_none() {
            status = shell.fail("unalias", &format!("{arg}: not found"), 1);
        }
    }
    Ok(status)
}

/// bash's reserved words, in its order.
pub(crate) const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "in", "function", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// `type`'s options.
#[derive(Default)]
struct TypeOptions {
    /// `-t`: one word per finding (`alias`, `file`, ...).
    terse: bool,
    /// `-a`: every finding, not just the one that runs.
    all: bool,
    /// `-p`: the path, only when the name runs a file.
    path_if_file: bool,
    /// `-P`: search `PATH` even for builtins and functions.
    path_always: bool,
    /// `-f`: functions are not looked up.
    no_functions: bool,
}

/// One thing a name means, in the order bash looks.
enum Meaning {
    Alias(String),
    Keyword,
    Function,
    Builtin,
    File(String),
    /// A program the shell remembers finding (`hash`).
    Hashed(String),
}

pub fn type_(shell: &mut Shell, args: &[String]) -> ExecResult {
    let usage = "type [-afptP] name [name ...]";
    let (letters, index) = match flag_letters(shell, "type", args, "afptP", usage) {
        Ok(read) => read,
        Err(status) => return Ok(status),
    };
    let options = TypeOptions {
        terse: letters.contains(&'t'),
        all: letters.contains(&'a'),
        path_if_file: letters.contains(&'p'),
        path_always: letters.contains(&'P'),
        no_functions: letters.contains(&'f'),
    };
    let mut status = 0;
    let mut text = String::new();
    for name in &args[index..] {
        let meanings = type_meanings(shell, name, &options);
        if meanings.is_empty() {
            status = 1;
            if !options.terse && !options.path_if_file && !options.path_always {
                shell.fail("type", &format!("{name}: not found"), 1);
            }
            continue;
        }
        let path_mode = options.path_if_file || options.path_always;
        for meaning in &meanings {
            match meaning {
                // `-p`/`-P` print paths only; a name that runs something
                // else prints nothing (and is still found).
                Meaning::File(path) | Meaning::Hashed(path) if path_mode => {
                    text.push_str(&format!("{path}\n"))
                }
                _ if path_mode => {}
                meaning if options.terse => text.push_str(match meaning {
                    Meaning::Alias(_) => "alias\n",
                    Meaning::Keyword => "keyword\n",
                    Meaning::Function => "function\n",
                    Meaning::Builtin => "builtin\n",
                    Meaning::File(_) | Meaning::Hashed(_) => "file\n",
                }),
                Meaning::Alias(value) => {
                    text.push_str(&format!("{name} is aliased to `{value}'\n"))
                }
                Meaning::Keyword => text.push_str(&format!("{name} is a shell keyword\n")),
                Meaning::Function => {
                    text.push_str(&format!("{name} is a function\n"));
                    text.push_str(&crate::interp::function_text(shell, name));
                }
                Meaning::Builtin => text.push_str(&format!("{name} is a shell builtin\n")),
                Meaning::File(path) => text.push_str(&format!("{name} is {path}\n")),
                Meaning::Hashed(path) => text.push_str(&format!("{name} is hashed ({path})\n")),
            }
        }
    }
    write_out_then(shell, "type", &text, status)
}

/// What `name` means to `type`, in bash's order: the first only, unless
/// `-a`.
fn type_meanings(shell: &mut Shell, name: &str, options: &TypeOptions) -> Vec<Meaning> {
    let mut meanings = Vec::new();
    if !options.path_always {
        if shell.opts.expand_aliases
            && let Some(value) = shell.aliases.get(name)
        {
            meanings.push(Meaning::Alias(value.clone()));
        }
        if KEYWORDS.contains(&name) {
            meanings.push(Meaning::Keyword);
        }
        if !options.no_functions && shell.functions.contains_key(name) {
            meanings.push(Meaning::Function);
        }
        if shell.ctx.table.kind(name) == Some(crate::interp::CommandKind::Builtin) {
            meanings.push(Meaning::Builtin);
        }
        if !options.all && !meanings.is_empty() {
            meanings.truncate(1);
            return meanings;
        }
    }
    if name.contains('/') {
        let is_executable = shell.cwd().resolve(name).is_ok_and(|path| {
            shell.context().vfs.lock().stat(&path).is_ok_and(|stat| {
                stat.node_type == goccia_vfs::NodeType::File && stat.mode & 0o111 != 0
            })
        });
        if is_executable || shell.system_program_at(name).is_some() {
            meanings.push(Meaning::File(name.to_string()));
        }
        return meanings;
    }
    if !options.all
        && let Some(entry) = shell.hash_table().get(name)
    {
        meanings.push(Meaning::Hashed(entry.hit.shown.clone()));
        return meanings;
    }
    let mut paths: Vec<String> = shell
        .path_hits(name, options.all)
        .into_iter()
        .map(|hit| hit.shown)
        .collect();
    if paths.is_empty() {
        // A utility on a PATH without system folders still runs; and
        // without `-a` bash falls back to a file it could not run.
        if let Some(hit) = shell.command_path(name) {
            paths.push(hit.shown);
        } else if !options.all
            && let Some(path) = shell.file_in_path(name)
        {
            paths.push(path);
        }
    }
    meanings.extend(paths.into_iter().map(Meaning::File));
    meanings
}

pub fn command(shell: &mut Shell, args: &[String]) -> ExecResult {
    let usage = "command [-pVv] command [arg ...]";
    let (letters, index) = match flag_letters(shell, "command", args, "pVv", usage) {
        Ok(read) => read,
        Err(status) => return Ok(status),
    };
    // The last of -v and -V counts.
    let describe = letters.iter().rev().find_map(|&letter| match letter {
        'v' => Some(false),
        'V' => Some(true),
        _ => None,
    });
    let default_path = letters.contains(&'p');
    let rest = &args[index..];
    if rest.is_empty() {
        return Ok(0);
    }
    // `-p`: the search uses a default PATH that finds the standard
    // utilities, whatever PATH holds.
    let saved_path = default_path.then(|| {
        let saved = shell.vars.get_raw("PATH").cloned();
        *shell.vars.entry("PATH") = crate::vars::Var::scalar(crate::interp::DEFAULT_PATH);
        saved
    });
    let result = match describe {
        Some(verbose) => describe_commands(shell, rest, verbose),
        None => shell.dispatch_command(rest),
    };
    if let Some(saved) = saved_path {
        match saved {
            Some(var) => *shell.vars.entry("PATH") = var,
            None => {
                shell.vars.unset("PATH");
            }
        }
    }
    result
}

/// `command -v` (a name, a path or an alias definition per name) and
/// `command -V` (as `type`); the status is the last name's.
fn describe_commands(shell: &mut Shell, names: &[String], verbose: bool) -> ExecResult {
    let options = TypeOptions::default();
    let mut status = 0;
    let mut text = String::new();
    for name in names {
        let Some(meaning) = type_meanings(shell, name, &options).into_iter().next() else {
            status = 1;
            if verbose {
                shell.fail("command", &format!("{name}: not found"), 1);
            }
            continue;
        };
        status = 0;
        match (meaning, verbose) {
            (Meaning::Alias(value), false) => {
                text.push_str(&format!("alias {name}={}\n", crate::interp::quote(&value)))
            }
            (Meaning::File(path) | Meaning::Hashed(path), false) => {
                text.push_str(&format!("{path}\n"))
            }
            (_, false) => text.push_str(&format!("{name}\n")),
            (Meaning::Alias(value), true) => {
                text.push_str(&format!("{name} is aliased to `{value}'\n"))
            }
            (Meaning::Keyword, true) => text.push_str(&format!("{name} is a shell keyword\n")),
            (Meaning::Function, true) => {
                text.push_str(&format!("{name} is a function\n"));
                text.push_str(&crate::interp::function_text(shell, name));
            }
            (Meaning::Builtin, true) => text.push_str(&format!("{name} is a shell builtin\n")),
            (Meaning::File(path), true) => text.push_str(&format!("{name} is {path}\n")),
            (Meaning::Hashed(path), true) => text.push_str(&format!("{name} is hashed ({path})\n")),
        }
    }
    write_out_then(shell, "command", &text, status)
}

pub fn builtin(shell: &mut Shell, args: &[String]) -> ExecResult {
    let rest = match args.get(1).map(String::as_str) {
        Some("--") => &args[2..],
        _ => &args[1..],
    };
    let Some(name) = rest.first() else {
        return Ok(0);
    };
    match shell.ctx.table.kind(name) {
        Some(crate::interp::CommandKind::Builtin) => shell.dispatch_command(rest),
        _ => builtin_error(shell, "builtin", &format!("{name}: not a shell builtin"), 1),
    }
}

pub fn which(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut status = 0;
    let mut text = String::new();
    for name in args[1..].iter().filter(|a| !a.starts_with('-')) {
        if let Some(hit) = shell.command_path(name) {
            text.push_str(&format!("{}\n", hit.shown));
        } else if shell.is_system_program(name) {
            text.push_str(&format!("/usr/bin/{name}\n"));
        } else {
            status = 1;
        }
    }
    write_out_then(shell, "which", &text, status)
}

pub fn help(shell: &mut Shell, args: &[String]) -> ExecResult {
    if let Some(name) = args.get(1) {
        return match shell.ctx.table.kind(name) {
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
    let mut names: Vec<&str> = shell.ctx.table.names().collect();
    names.sort_unstable();
    let text = format!(
        "goccia shell: bash syntax over the sandbox filesystem; no host process is ever started.\nCommands:\n{}\n",
        names.join(" ")
    );
    write_out(shell, "help", &text)
}
