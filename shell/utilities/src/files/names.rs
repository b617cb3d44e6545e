//! Path names: `realpath`, `readlink`, `basename`, `dirname`.

use crate::args::parse_options;
use crate::args::usage;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::{Errno, VfsPath};

pub(crate) fn resolve(shell: &ShellView, operand: &str) -> Result<VfsPath, &'static str> {
    shell
        .cwd()
        .resolve(operand)
        .map_err(|e| Errno::from(&e).strerror())
}

/// How much of a path must exist for `realpath` and `readlink -f`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Existing {
    /// Every name (`-e`).
    All,
    /// All but the last (the default of `realpath`, `readlink -f`).
    AllButLast,
    /// None (`-m`).
    None,
}

/// `path` with every symbolic link followed (inside the VFS), or `None`
/// when what must exist does not.
fn canonicalize(shell: &ShellView, path: &VfsPath, existing: Existing) -> Option<VfsPath> {
    let vfs = shell.context().vfs.lock();
    match existing {
        Existing::All => vfs.canonical(path).ok(),
        Existing::AllButLast => vfs.resolve(path, true).ok(),
        Existing::None => {
            let (found, missing) = vfs.resolve_existing(path).ok()?;
            Some(found.join_relative(missing.iter().map(String::as_str)))
        }
    }
}

pub fn realpath(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("canonicalize-missing", 'm', false),
            ("canonicalize-existing", 'e', false),
            ("quiet", 'q', false),
            ("no-symlinks", 's', false),
        ]
    );
    if parsed.operands.is_empty() {
        return usage(shell, "realpath", "missing operand", 1);
    }
    let existing = if parsed.has('m') {
        Existing::None
    } else if parsed.has('e') {
        Existing::All
    } else {
        Existing::AllButLast
    };
    let mut out = String::new();
    let mut status = 0;
    for operand in &parsed.operands {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let found = if parsed.has('s') {
            // Names only, links left as they are.
            let vfs = shell.context().vfs.lock();
            let ok = match existing {
                Existing::None => true,
                Existing::All => vfs.lookup_link(&path).is_ok(),
                Existing::AllButLast => path.parent().is_none_or(|p| vfs.is_dir(&p)),
            };
            ok.then_some(path)
        } else {
            canonicalize(shell, &path, existing)
        };
        match found {
            Some(found) => out.push_str(&format!("{found}\n")),
            None => {
                status = 1;
                if !parsed.has('q') {
                    shell.fail_command(
                        "realpath",
                        &format!("{operand}: No such file or directory"),
                        1,
                    );
                }
            }
        }
    }
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&out)) {
        return shell.io_status("realpath", error);
    }
    Ok(status)
}

pub fn readlink(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("canonicalize", 'f', false),
            ("canonicalize-existing", 'e', false),
            ("canonicalize-missing", 'm', false),
            ("no-newline", 'n', false),
            ("quiet", 'q', false),
            ("silent", 's', false),
            ("verbose", 'v', false),
        ]
    );
    if parsed.operands.is_empty() {
        return usage(shell, "readlink", "missing operand", 1);
    }
    let existing = if parsed.has('m') {
        Some(Existing::None)
    } else if parsed.has('e') {
        Some(Existing::All)
    } else if parsed.has('f') {
        Some(Existing::AllButLast)
    } else {
        None
    };
    let mut out = String::new();
    let mut status = 0;
    for operand in &parsed.operands {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let found = match existing {
            Some(existing) => canonicalize(shell, &path, existing).map(|p| p.to_string()),
            // The link's own text; anything else is a failure, silent
            // unless -v.
            None => {
                let link = shell.context().vfs.lock().read_link(&path);
                match link {
                    Ok(target) => Some(target),
                    Err(error) => {
                        if parsed.has('v') {
                            let reason = error.errno.strerror();
                            shell.fail_command("readlink", &format!("{operand}: {reason}"), 1);
                        }
                        None
                    }
                }
            }
        };
        match found {
            Some(text) => {
                out.push_str(&text);
                if !parsed.has('n') {
                    out.push('\n');
                }
            }
            None => status = 1,
        }
    }
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&out)) {
        return shell.io_status("readlink", error);
    }
    Ok(status)
}

fn base_name(text: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    let trimmed = text.trim_end_matches('/');
    if trimmed.is_empty() {
        return "/".to_string();
    }
    trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
}

pub fn basename(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "s",
        &[
            ("multiple", 'a', false),
            ("suffix", 's', true),
            ("zero", 'z', false),
        ]
    );
    if parsed.operands.is_empty() {
        return usage(shell, "basename", "missing operand", 1);
    }
    let multiple = parsed.has('a') || parsed.value('s').is_some();
    let (names, suffix): (Vec<String>, Option<String>) = if multiple {
        (
            parsed.operands.clone(),
            parsed.value('s').map(str::to_string),
        )
    } else {
        if parsed.operands.len() > 2 {
            return usage(
                shell,
                "basename",
                &format!("extra operand '{}'", parsed.operands[2]),
                1,
            );
        }
        (
            vec![parsed.operands[0].clone()],
            parsed.operands.get(1).cloned(),
        )
    };
    let mut out = String::new();
    for name in names {
        let mut base = base_name(&name);
        if let Some(suffix) = &suffix
            && base.len() > suffix.len()
            && base.ends_with(suffix.as_str())
        {
            base.truncate(base.len() - suffix.len());
        }
        out.push_str(&base);
        out.push(if parsed.has('z') { '\0' } else { '\n' });
    }
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&out)) {
        return shell.io_status("basename", error);
    }
    Ok(0)
}

pub(crate) fn dir_name(text: &str) -> String {
    let trimmed = text.trim_end_matches('/');
    if trimmed.is_empty() {
        return if text.starts_with('/') {
            "/".to_string()
        } else {
            ".".to_string()
        };
    }
    match trimmed.rfind('/') {
        None => ".".to_string(),
        Some(index) => {
            let parent = trimmed[..index].trim_end_matches('/');
            if parent.is_empty() {
                "/".to_string()
            } else {
                parent.to_string()
            }
        }
    }
}

pub fn dirname(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let operands: Vec<&String> = args[1..]
        .iter()
        .filter(|a| !a.starts_with('-') || a.len() == 1)
        .collect();
    if operands.is_empty() {
        return usage(shell, "dirname", "missing operand", 1);
    }
    let text: String = operands
        .iter()
        .map(|o| format!("{}\n", dir_name(o)))
        .collect();
    if let Err(error) = shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        return shell.io_status("dirname", error);
    }
    Ok(0)
}
