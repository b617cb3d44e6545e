//! `install` (docs/shell.md): copies files into place with a mode (0755
//! unless `-m`), makes folders (`-d`, and a destination's parents with
//! `-D`), and reports what it did with `-v` in GNU's words. Owners (`-o`,
//! `-g`) are accepted and change nothing, as for `chown`; `-s` strips
//! nothing (there are no binaries to strip).

use crate::args::{parse_options, usage};
use crate::files::info::parse_mode;
use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::{Node, NodeType, VfsPath};

const NAME: &str = "install";

/// What one `install` does, read from its options.
struct Plan {
    mode: u32,
    verbose: bool,
    compare: bool,
    keep_times: bool,
    parents: bool,
}

pub fn install(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "mtogS",
        &[
            ("mode", 'm', true),
            ("directory", 'd', false),
            ("verbose", 'v', false),
            ("target-directory", 't', true),
            ("no-target-directory", 'T', false),
            ("owner", 'o', true),
            ("group", 'g', true),
            ("preserve-timestamps", 'p', false),
            ("compare", 'C', false),
            ("strip", 's', false),
            ("suffix", 'S', true),
        ]
    );
    if let Some(flag) = parsed
        .flags
        .iter()
        .find(|flag| !"dvTpCsDcb".contains(**flag))
    {
        return usage(shell, NAME, &format!("invalid option -- '{flag}'"), 1);
    }
    let directories = parsed.has('d');
    let mode = match parsed.value('m') {
        // Symbolic modes start from nothing, as GNU's.
        Some(text) => match parse_mode(text, 0, directories) {
            Some(mode) => mode,
            None => {
                return Ok(shell.fail_command(
                    NAME,
                    &format!("invalid mode \u{2018}{text}\u{2019}"),
                    1,
                ));
            }
        },
        None => 0o755,
    };
    let plan = Plan {
        mode,
        verbose: parsed.has('v'),
        compare: parsed.has('C'),
        keep_times: parsed.has('p'),
        parents: parsed.has('D'),
    };
    let mut report = Report::default();
    let status = match (directories, parsed.value('t')) {
        (true, _) => make_folders(shell, &parsed.operands, &plan, &mut report),
        (false, Some(folder)) => {
            if parsed.operands.is_empty() {
                return usage(shell, NAME, "missing file operand", 1);
            }
            into_folder(shell, &parsed.operands, folder, &plan, &mut report)
        }
        (false, None) => match parsed.operands.as_slice() {
            [] => return usage(shell, NAME, "missing file operand", 1),
            [only] => {
                return usage(
                    shell,
                    NAME,
                    &format!("missing destination file operand after '{only}'"),
                    1,
                );
            }
            [sources @ .., target] => {
                let into = !parsed.has('T') && is_folder(shell, target);
                if into {
                    into_folder(shell, sources, target, &plan, &mut report)
                } else if sources.len() == 1 {
                    install_file(shell, &sources[0], target, &plan, &mut report)
                } else if exists(shell, target) {
                    shell.fail_command(NAME, &format!("target '{target}': Not a directory"), 1)
                } else {
                    shell.fail_command(
                        NAME,
                        &format!("target '{target}': No such file or directory"),
                        1,
                    )
                }
            }
        },
    };
    report.flush(shell, status)
}

/// Why making a folder failed: a message, or the tree's refusal.
enum Failure {
    Message(String),
    Fs(goccia_vfs::FsError),
}

/// `-v`'s lines, which GNU writes through stdio: a pipe holds them until
/// an error message (which flushes stdio first) or the end.
#[derive(Default)]
struct Report {
    lines: String,
}

impl Report {
    fn line(&mut self, plan: &Plan, text: String) {
        if plan.verbose {
            self.lines.push_str(&text);
            self.lines.push('\n');
        }
    }

    fn fail(&mut self, shell: &mut ShellView, message: &str) -> i32 {
        let _ = shell.write_stdout(std::mem::take(&mut self.lines).as_bytes());
        shell.fail_command(NAME, message, 1)
    }

    /// A refused write (its denial worded as every command words it),
    /// or a message when nothing was tried.
    fn failed(
        &mut self,
        shell: &mut ShellView,
        operand: &str,
        failure: Failure,
        usual: impl FnOnce(&str) -> String,
    ) -> i32 {
        match failure {
            Failure::Message(message) => self.fail(shell, &message),
            Failure::Fs(error) => {
                let _ = shell.write_stdout(std::mem::take(&mut self.lines).as_bytes());
                shell.fail_fs(NAME, operand, &error, usual, 1)
            }
        }
    }

    fn flush(self, shell: &mut ShellView, status: i32) -> ExecResult {
        match shell.write_stdout(self.lines.as_bytes()) {
            Ok(()) => Ok(status),
            Err(error) => shell.io_status(NAME, error),
        }
    }
}

fn is_folder(shell: &ShellView, operand: &str) -> bool {
    resolve(shell, operand).is_ok_and(|path| shell.context().vfs.lock().is_dir(&path))
}

fn exists(shell: &ShellView, operand: &str) -> bool {
    resolve(shell, operand).is_ok_and(|path| shell.context().vfs.lock().exists(&path))
}

/// `-d`: each operand made with its parents; the parents get 0755, the
/// operand the mode.
fn make_folders(
    shell: &mut ShellView,
    operands: &[String],
    plan: &Plan,
    report: &mut Report,
) -> i32 {
    if operands.is_empty() {
        let _ = usage(shell, NAME, "missing file operand", 1);
        return 1;
    }
    let mut status = 0;
    for operand in operands {
        let made = make_parents(shell, operand, true, plan, report).and_then(|path| {
            let mut vfs = shell.context().vfs.lock();
            vfs.set_mode(&path, plan.mode).map_err(Failure::Fs)
        });
        if let Err(failure) = made {
            status = report.failed(shell, operand, failure, |reason| {
                format!("cannot create directory '{operand}': {reason}")
            });
        }
    }
    status
}

/// Makes the folders of `operand` (all of it when `whole`, else its
/// parents), naming each one made as the operand spells it.
fn make_parents(
    shell: &mut ShellView,
    operand: &str,
    whole: bool,
    plan: &Plan,
    report: &mut Report,
) -> Result<VfsPath, Failure> {
    let path = resolve(shell, operand).map_err(|reason| {
        Failure::Message(format!("cannot create directory '{operand}': {reason}"))
    })?;
    let written: Vec<&str> = operand.split('/').filter(|part| !part.is_empty()).collect();
    let components: Vec<&str> = path.components().collect();
    let wanted = if whole {
        components.len()
    } else {
        components.len().saturating_sub(1)
    };
    // The operand's own words cover its last components.
    let first_written = components.len().saturating_sub(written.len());
    let mut vfs = shell.context().vfs.lock();
    let mut current = VfsPath::root();
    for (index, name) in components.iter().take(wanted).enumerate() {
        current = current.join(name);
        if vfs.is_dir(&current) {
            continue;
        }
        vfs.mkdir(&current).map_err(Failure::Fs)?;
        let _ = vfs.set_mode(&current, 0o755);
        let shown = match index.checked_sub(first_written) {
            Some(_) if operand.starts_with('/') => current.to_string(),
            Some(upto) => written[..=upto].join("/"),
            None => current.to_string(),
        };
        report.line(plan, format!("install: creating directory '{shown}'"));
    }
    Ok(path)
}

/// Each source into `folder`, under its own name.
fn into_folder(
    shell: &mut ShellView,
    sources: &[String],
    folder: &str,
    plan: &Plan,
    report: &mut Report,
) -> i32 {
    if !is_folder(shell, folder) {
        return report.fail(
            shell,
            &format!("target '{folder}': No such file or directory"),
        );
    }
    let mut status = 0;
    for source in sources {
        let name = source
            .trim_end_matches('/')
            .rsplit('/')
            .next()
            .unwrap_or(source);
        let target = format!("{}/{name}", folder.trim_end_matches('/'));
        status = status.max(install_file(shell, source, &target, plan, report));
    }
    status
}

/// Copies `source` to `target` with the plan's mode.
fn install_file(
    shell: &mut ShellView,
    source: &str,
    target: &str,
    plan: &Plan,
    report: &mut Report,
) -> i32 {
    let node = resolve(shell, source).ok().and_then(|path| {
        shell
            .context()
            .vfs
            .lock()
            .lookup(&path)
            .ok()
            .map(|node| (path, node))
    });
    let Some((from, node)) = node else {
        return report.fail(
            shell,
            &format!("cannot stat '{source}': No such file or directory"),
        );
    };
    if node.node_type() == NodeType::Directory {
        return report.fail(shell, &format!("omitting directory '{source}'"));
    }
    if plan.parents
        && let Err(failure) = make_parents(shell, target, false, plan, report)
    {
        return report.failed(shell, target, failure, |reason| {
            format!("cannot create directory for '{target}': {reason}")
        });
    }
    let Ok(to) = resolve(shell, target) else {
        return report.fail(shell, &format!("cannot create regular file '{target}'"));
    };
    if shell.context().vfs.lock().is_dir(&to) {
        return report.fail(
            shell,
            &format!("cannot overwrite directory '{target}' with non-directory"),
        );
    }
    let copied = {
        let mut vfs = shell.context().vfs.lock();
        let existing = vfs.lookup(&to).ok();
        // `-C`: a file that already holds these bytes and this mode stays.
        let same = plan.compare
            && matches!((&existing, &node), (Some(Node::File(there)), Node::File(here))
                if there.same_content(here) && there.meta().mode & 0o7777 == plan.mode);
        if same {
            return 0;
        }
        vfs.all_or_nothing(|vfs| {
            let removed = match existing {
                Some(Node::File(_) | Node::Link(_)) => {
                    vfs.remove_file(&to)?;
                    true
                }
                _ => false,
            };
            vfs.copy(&from, &to)?;
            vfs.set_mode(&to, plan.mode)?;
            let mtime = plan.keep_times.then(|| node.meta().mtime_ns);
            vfs.set_mtime(&to, mtime)?;
            Ok(removed)
        })
    };
    match copied {
        Ok(removed) => {
            if removed {
                report.line(plan, format!("removed '{target}'"));
            }
            report.line(plan, format!("'{source}' -> '{target}'"));
            0
        }
        Err(error) => report.failed(shell, target, Failure::Fs(error), |reason| {
            format!("cannot create regular file '{target}': {reason}")
        }),
    }
}
