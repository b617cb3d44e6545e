//! `hash`: the commands the shell remembers having found on `PATH` (the
//! table itself is in the interpreter, beside the `PATH` search).

use crate::builtins::common::{builtin_error, usage_error, write_out};
use crate::interp::{ExecResult, Shell};

const USAGE: &str = "hash [-lr] [-p pathname] [-dt] [name ...]";

/// What the options ask for.
#[derive(Default)]
struct HashOptions {
    /// `-r`: forget everything first.
    reset: bool,
    /// `-d`: forget the names.
    delete: bool,
    /// `-t`: print where each name leads.
    print: bool,
    /// `-l`: list as `hash -p` commands.
    reusable: bool,
    /// `-p path`: remember the names as `path`.
    path: Option<String>,
}

pub fn hash(shell: &mut Shell, args: &[String]) -> ExecResult {
    let (options, first) = match read_options(shell, args) {
        Ok(read) => read,
        Err(status) => return Ok(status),
    };
    let names = &args[first..];
    if options.reset {
        shell.hash_table().clear();
    }
    if names.is_empty() {
        if options.delete || options.print {
            let letter = if options.delete { 'd' } else { 't' };
            return builtin_error(
                shell,
                "hash",
                &format!("-{letter}: option requires an argument"),
                1,
            );
        }
        if options.reset || options.path.is_some() {
            return Ok(0);
        }
        return list(shell, options.reusable);
    }
    let mut status = 0;
    for name in names {
        if let Some(path) = &options.path {
            let file = shell.cwd().resolve(path).ok();
            let hit = crate::interp::PathHit {
                shown: path.clone(),
                file,
            };
            shell.hash_table().insert(name, hit);
        } else if options.delete {
            if !shell.hash_table().remove(name) {
                status = not_found(shell, name);
            }
        } else if options.print {
            match shell.hash_table().get(name) {
                Some(entry) => {
                    let text = match names.len() {
                        1 => format!("{}\n", entry.hit.shown),
                        _ => format!("{name}\t{}\n", entry.hit.shown),
                    };
                    if write_out(shell, "hash", &text)? != 0 {
                        return Ok(1);
                    }
                }
                None => status = not_found(shell, name),
            }
        } else if name.contains('/')
            || shell.ctx.table.kind(name) == Some(crate::interp::CommandKind::Builtin)
        {
            // Paths and builtins are never looked up.
        } else {
            match shell.command_path(name) {
                Some(hit) => shell.hash_table().insert(name, hit),
                None => status = not_found(shell, name),
            }
        }
    }
    Ok(status)
}

fn not_found(shell: &mut Shell, name: &str) -> i32 {
    shell.fail("hash", &format!("{name}: not found"), 1)
}

/// The table: `hits` and the path per command, or `hash -p` lines.
fn list(shell: &mut Shell, reusable: bool) -> ExecResult {
    let table = shell.hash_table().clone();
    let mut entries = table.entries().peekable();
    if entries.peek().is_none() {
        return write_out(shell, "hash", "hash: hash table empty\n");
    }
    let mut text = String::new();
    if !reusable {
        text.push_str("hits\tcommand\n");
    }
    for (name, entry) in entries {
        if reusable {
            text.push_str(&format!("builtin hash -p {} {name}\n", entry.hit.shown));
        } else {
            text.push_str(&format!("{:4}\t{}\n", entry.hits, entry.hit.shown));
        }
    }
    write_out(shell, "hash", &text)
}

/// The option words, until `--`, `-` or the first name; `-p` takes the
/// rest of its word or the next one.
fn read_options(shell: &mut Shell, args: &[String]) -> Result<(HashOptions, usize), i32> {
    let mut options = HashOptions::default();
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        index += 1;
        if arg == "--" {
            break;
        }
        let Some(letters) = arg.strip_prefix('-').filter(|l| !l.is_empty()) else {
            index -= 1;
            break;
        };
        for (at, letter) in letters.char_indices() {
            match letter {
                'r' => options.reset = true,
                'd' => options.delete = true,
                't' => options.print = true,
                'l' => options.reusable = true,
                'p' => {
                    let attached = &letters[at + 1..];
                    let path = if attached.is_empty() {
                        index += 1;
                        args.get(index - 1).cloned()
                    } else {
                        Some(attached.to_string())
                    };
                    let Some(path) = path else {
                        shell.fail("hash", "-p: option requires an argument", 2);
                        return Err(usage_error(shell, "hash", USAGE));
                    };
                    options.path = Some(path);
                    break;
                }
                _ => {
                    shell.fail("hash", &format!("-{letter}: invalid option"), 2);
                    return Err(usage_error(shell, "hash", USAGE));
                }
            }
        }
    }
    Ok((options, index))
}
