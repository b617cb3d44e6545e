//! Path names: `realpath`, `readlink`, `basename`, `dirname`.

use crate::interp::{ExecResult, Shell};
use crate::utilities::args::parse_options;
use crate::utilities::args::usage;
use goccia_vfs::{Errno, VfsPath};

pub(crate) fn resolve(shell: &Shell, operand: &str) -> Result<VfsPath, &'static str> {
    shell
        .cwd()
        .resolve(operand)
        .map_err(|e| Errno::from(&e).strerror())
}

pub fn realpath(shell: &mut Shell, args: &[String]) -> ExecResult {
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
    let mut out = String::new();
    let mut status = 0;
    for operand in &parsed.operands {
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let vfs = shell.context().vfs.lock();
        let ok = if parsed.has('m') {
            true
        } else if parsed.has('e') {
            vfs.exists(&path)
        } else {
            path.parent().is_none_or(|p| vfs.is_dir(&p))
        };
        drop(vfs);
        if ok {
            out.push_str(&format!("{path}\n"));
        } else {
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
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("realpath", error);
    }
    Ok(status)
}

pub fn readlink(shell: &mut Shell, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("canonicalize", 'f', false),
            ("canonicalize-existing", 'e', false),
            ("canonicalize-missing", 'm', false),
            ("no-newline", 'n', false),
        ]
    );
    let canonical = parsed.has('f') || parsed.has('e') || parsed.has('m');
    let mut out = String::new();
    let mut status = 0;
    for operand in &parsed.operands {
        if !canonical {
            // There are no symlinks in the sandbox filesystem.
            status = 1;
            continue;
        }
        let Ok(path) = resolve(shell, operand) else {
            status = 1;
            continue;
        };
        let vfs = shell.context().vfs.lock();
        let ok = if parsed.has('m') {
            true
        } else if parsed.has('e') {
            vfs.exists(&path)
        } else {
            path.parent().is_none_or(|p| vfs.is_dir(&p))
        };
        drop(vfs);
        if ok {
            out.push_str(path.as_ref());
            if !parsed.has('n') {
                out.push('\n');
            }
        } else {
            status = 1;
        }
    }
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
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

pub fn basename(shell: &mut Shell, args: &[String]) -> ExecResult {
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
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
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

pub fn dirname(shell: &mut Shell, args: &[String]) -> ExecResult {
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
    if let Err(error) = shell.write_stdout(text.as_bytes()) {
        return shell.io_status("dirname", error);
    }
    Ok(0)
}
