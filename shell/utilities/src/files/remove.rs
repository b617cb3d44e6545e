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
    // The last of -f, -i and -I decides: -f never asks (and is quiet about
    // what is missing), -i asks for each, -I once for many (GNU's rules).
    let last = parsed.last_of(&['f', 'i', 'I']);
    let force = parsed.has('f') && parsed.last_of(&['f', 'i']) == Some('f');
    if parsed.operands.is_empty() {
        if force {
            return Ok(0);
        }
        return usage(shell, "rm", "missing operand", 1);
    }
    if last == Some('I') {
        let count = parsed.operands.len();
        let noun = if count == 1 { "argument" } else { "arguments" };
        let question = if recursive {
            Some(format!("remove {count} {noun} recursively"))
        } else {
            (count > 3).then(|| format!("remove {count} {noun}"))
        };
        if let Some(question) = question
            && !ask(shell, &question)
        {
            return Ok(0);
        }
    }
    let asking = last == Some('i');
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
        if asking && (recursive || !matches!(node, Ok(Node::Dir(_)))) && node.is_ok() {
            let verbose = parsed.has('v');
            let mut asked = Asked {
                verbose,
                report: &mut report,
            };
            status = status.max(remove_asking(shell, &mut asked, &path, operand).status);
            continue;
        }
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
                    if asking && !ask(shell, &format!("remove directory '{operand}'")) {
                        continue;
                    }
                    let _ = shell.context().vfs.lock().remove_dir(&path);
                    if parsed.has('v') {
                        report.push_str(&format!("removed directory '{operand}'\n"));
                    }
                } else if parsed.has('d') {
                    status = shell.fail_command(
                        "rm",
                        &format!("cannot remove '{operand}': Directory not empty"),
                        1,
                    );
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

/// Writes `rm: QUESTION? ` to stderr and reads the answer: a line of
/// standard input (see [`goccia_interp::input::answer_line`]); none left
/// is no.
fn ask(shell: &mut ShellView, question: &str) -> bool {
    shell.write_stderr(format!("rm: {question}? ").as_bytes());
    goccia_interp::input::answer_line(shell).is_some_and(|line| goccia_interp::input::is_yes(&line))
}

/// What `rm -i` carries from one name to the next: what `-v` reports
/// (written at the end, as GNU's buffered output comes after the
/// questions).
struct Asked<'a> {
    verbose: bool,
    report: &'a mut String,
}

/// How asking about one name ended.
struct Outcome {
    /// 1 if a removal failed.
    status: i32,
    /// The folders above are not asked about (GNU skips them): after a
    /// folder not entered, an empty folder kept, or a removal that failed.
    holds_parent: bool,
}

/// `rm -i` on one name: asks before each removal, descending into a
/// folder only when told to.
fn remove_asking(
    shell: &mut ShellView,
    asked: &mut Asked<'_>,
    path: &goccia_vfs::VfsPath,
    shown: &str,
) -> Outcome {
    let node = shell.context().vfs.lock().lookup_link(path);
    let Ok(node) = node else {
        return Outcome {
            status: 0,
            holds_parent: false,
        };
    };
    let is_dir = matches!(node, Node::Dir(_));
    // Declining an empty folder (asked about on the way in, as GNU does)
    // holds the folders above; declining a file, or a full folder on the
    // way out once its contents are gone, does not.
    let mut declined = Outcome {
        status: 0,
        holds_parent: is_dir,
    };
    let question = match &node {
        Node::Dir(dir) if !dir.is_empty() => {
            if !ask(shell, &format!("descend into directory '{shown}'")) {
                return declined;
            }
            let names: Vec<String> = dir.iter().map(|(name, _)| name.to_string()).collect();
            let mut status = 0;
            let mut held = false;
            for name in names {
                let child = format!("{}/{name}", shown.trim_end_matches('/'));
                let outcome = remove_asking(shell, asked, &path.join(&name), &child);
                status = status.max(outcome.status);
                held |= outcome.holds_parent;
            }
            if held {
                return Outcome {
                    status,
                    holds_parent: true,
                };
            }
            declined.holds_parent = false;
            format!("remove directory '{shown}'")
        }
        Node::Dir(_) => format!("remove directory '{shown}'"),
        Node::File(file) if file.data().is_empty() => {
            format!("remove regular empty file '{shown}'")
        }
        Node::File(_) => format!("remove regular file '{shown}'"),
        Node::Link(_) => format!("remove symbolic link '{shown}'"),
    };
    if !ask(shell, &question) {
        return declined;
    }
    // A folder is removed only if it is empty now (a file in it may have
    // been kept).
    let removed = if is_dir {
        shell.context().vfs.lock().remove_dir(path)
    } else {
        shell.context().vfs.lock().remove_all(path)
    };
    match removed {
        Ok(()) => {
            if asked.verbose {
                let what = if is_dir {
                    "removed directory"
                } else {
                    "removed"
                };
                asked.report.push_str(&format!("{what} '{shown}'\n"));
            }
            Outcome {
                status: 0,
                holds_parent: false,
            }
        }
        Err(error) => Outcome {
            status: shell.fail_fs(
                "rm",
                shown,
                &error,
                |reason| format!("cannot remove '{shown}': {reason}"),
                1,
            ),
            holds_parent: true,
        },
    }
}
