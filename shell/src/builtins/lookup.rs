//! What a name means: `alias`, `unalias`, `type`, `command`, `builtin`,
//! `which`, `help`, `compgen` (the command table comes from the
//! context, so these builtins never import the commands they list).

use crate::builtins::common::builtin_error;
use crate::builtins::common::write_out;
use crate::interp::{ExecResult, Shell};

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
        let kind = shell.ctx.table.kind(name);
        if (!found || all) && kind == Some(crate::interp::CommandKind::Builtin) && !path_only {
            found = true;
            text.push_str(&if terse {
                "builtin\n".to_string()
            } else {
                format!("{name} is a shell builtin\n")
            });
        }
        let is_file = kind == Some(crate::interp::CommandKind::Utility)
            || (all && ALSO_FILES.contains(&name.as_str()));
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
                match shell.ctx.table.kind(name) {
                    Some(crate::interp::CommandKind::Builtin) => text.push_str(&if verbose {
                        format!("{name} is a shell builtin\n")
                    } else {
                        format!("{name}\n")
                    }),
                    Some(crate::interp::CommandKind::Utility) => text.push_str(&if verbose {
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
    match shell.ctx.table.kind(name) {
        Some(crate::interp::CommandKind::Builtin) => shell.dispatch_command(&args[1..]),
        _ => builtin_error(shell, "builtin", &format!("{name}: not a shell builtin"), 1),
    }
}

pub fn which(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut status = 0;
    let mut text = String::new();
    for name in args[1..].iter().filter(|a| !a.starts_with('-')) {
        if shell.ctx.table.kind(name) == Some(crate::interp::CommandKind::Utility)
            || ALSO_FILES.contains(&name.as_str())
        {
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
    let mut names: Vec<&str> = shell.ctx.table.names.to_vec();
    names.sort_unstable();
    let text = format!(
        "goccia shell: bash syntax over the sandbox filesystem; no host process is ever started.\nCommands:\n{}\n",
        names.join(" ")
    );
    write_out(shell, "help", &text)
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
                shell
                    .ctx
                    .table
                    .names
                    .iter()
                    .copied()
                    .filter(|n| {
                        shell.ctx.table.kind(n) == Some(crate::interp::CommandKind::Builtin)
                    })
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
