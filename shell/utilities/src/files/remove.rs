//! Removing: `rm`.

use crate::args::parse_options;
use crate::args::usage;
use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::Node;

pub fn rm(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[
            ("recursive", 'r', false),
            ("force", 'f', false),
            ("verbose", 'v', false),
            ("dir", 'd', false),
            ("interactive", 'i', false),
            ("no-preserve-root", 'N', false),
        ]
    );
    let recursive = parsed.has('r') || parsed.has('R');
    let force = parsed.has('f');
    if parsed.operands.is_empty() {
        if force {
            return Ok(0);
        }
        return usage(shell, "rm", "missing operand", 1);
    }
    let mut status = 0;
    let mut report = String::new();
    for operand in &parsed.operands {
        // `.` and `..` (and `dir/.`) are never removed recursively: GNU rm
        // refuses them rather than empty the working directory.
        let last = operand.trim_end_matches('/').rsplit('/').next();
        if recursive && matches!(last, Some(".") | Some("..")) {
            status = shell.fail_command(
                "rm",
                &format!("refusing to remove '.' or '..' directory: skipping '{operand}'"),
                1,
            );
            continue;
        }
        let path = match resolve(shell, operand) {
            Ok(path) => path,
            // An empty operand names nothing: silent under -f, as GNU.
            Err(_) if force && operand.is_empty() => continue,
            Err(reason) => {
                status =
                    shell.fail_command("rm", &format!("cannot remove '{operand}': {reason}"), 1);
                continue;
            }
        };
        if path.is_root() && recursive {
            status = shell.fail_command("rm", "it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe", 1);
            continue;
        }
        // A link is removed, never what it points at.
        let node = shell.context().vfs.lock().lookup_link(&path);
        match node {
            Err(_) => {
                if !force {
                    status = shell.fail_command(
                        "rm",
                        &format!("cannot remove '{operand}': No such file or directory"),
                        1,
                    );
                }
            }
            Ok(Node::Dir(dir)) if !recursive => {
                if parsed.has('d') && dir.is_empty() {
                    let _ = shell.context().vfs.lock().remove_dir(&path);
                    if parsed.has('v') {
                        report.push_str(&format!("removed directory '{operand}'\n"));
                    }
                } else {
                    status = shell.fail_command(
                        "rm",
                        &format!("cannot remove '{operand}': Is a directory"),
                        1,
                    );
                }
            }
            Ok(node) => {
                if parsed.has('v') {
                    verbose_removals(&mut report, operand, &node);
                }
                let removed = shell.context().vfs.lock().remove_all(&path);
                if let Err(error) = removed {
                    status = shell.fail_fs(
                        "rm",
                        operand,
                        &error,
                        |reason| format!("cannot remove '{operand}': {reason}"),
                        1,
                    );
                }
            }
        }
    }
    if !report.is_empty()
        && let Err(error) = shell.write_stdout(report.as_bytes())
    {
        return shell.io_status("rm", error);
    }
    Ok(status)
}

fn verbose_removals(report: &mut String, shown: &str, node: &Node) {
    if let Node::Dir(dir) = node {
        for (name, child) in dir.iter() {
            verbose_removals(
                report,
                &format!("{}/{name}", shown.trim_end_matches('/')),
                child,
            );
        }
        report.push_str(&format!("removed directory '{shown}'\n"));
    } else {
        report.push_str(&format!("removed '{shown}'\n"));
    }
}
