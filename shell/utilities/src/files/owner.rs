//! `chown` and `chgrp` (docs/shell.md, "Owners").
//!
//! The VFS keeps no owners: every file is the sandbox user's (`user`, uid
//! and gid 1000), and every user or group *name* is that user, as `id NAME`
//! answers. So these commands change nothing, and what they report is what
//! GNU's report would be on a file system that keeps no owners (one mounted
//! to accept and ignore `chown`): a name is always "retained"; a number
//! other than 1000 "changed", because the call that would change it
//! succeeds. `-v`/`-c` word it as GNU does, `-R` reports a folder after
//! what it holds, and an operand that is not there fails as GNU's does.

use crate::args::usage;
use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::{NodeType, Vfs, VfsPath};

/// The sandbox user's name, uid and gid.
const USER: &str = "user";
const USER_ID: u64 = 1000;

/// Which of the two commands runs (their spec and their words differ).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Command {
    Chown,
    Chgrp,
}

impl Command {
    fn name(self) -> &'static str {
        match self {
            Command::Chown => "chown",
            Command::Chgrp => "chgrp",
        }
    }
}

/// What `-v`/`-c` report; the last of them given wins, as in GNU.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Report {
    Nothing,
    Changes,
    Everything,
}

/// An owner or group as written: a name (always the sandbox user) or a
/// number (`+N` is always a number).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Id {
    shown: String,
    number: u64,
}

impl Id {
    fn parse(text: &str) -> Id {
        let digits = text.strip_prefix('+').unwrap_or(text);
        match (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse::<u64>().ok())
            .flatten()
        {
            Some(number) => Id {
                shown: digits.to_string(),
                number,
            },
            None => Id {
                shown: text.to_string(),
                number: USER_ID,
            },
        }
    }

    fn sandbox_user() -> Id {
        Id {
            shown: USER.to_string(),
            number: USER_ID,
        }
    }
}

/// The owner and group a command asks for (either may be absent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Owners {
    user: Option<Id>,
    group: Option<Id>,
}

impl Owners {
    /// `chown`'s `USER[:GROUP]`, `USER:` (the user's login group),
    /// `:GROUP`, or empty. Every name is the sandbox user's, so a `.` is
    /// never taken for `:` (GNU tries the whole as a name first).
    fn parse_chown(spec: &str) -> Owners {
        let Some((user, group)) = spec.split_once(':') else {
            return Owners {
                user: (!spec.is_empty()).then(|| Id::parse(spec)),
                group: None,
            };
        };
        let user = (!user.is_empty()).then(|| Id::parse(user));
        let group = match (group.is_empty(), &user) {
            (false, _) => Some(Id::parse(group)),
            // `USER:` means that user's login group: the sandbox user's.
            (true, Some(_)) => Some(Id::sandbox_user()),
            (true, None) => None,
        };
        Owners { user, group }
    }

    /// As GNU shows an ownership: `USER`, `USER:GROUP` or `:GROUP`.
    fn shown(&self) -> String {
        match (&self.user, &self.group) {
            (Some(user), None) => user.shown.clone(),
            (Some(user), Some(group)) => format!("{}:{}", user.shown, group.shown),
            (None, Some(group)) => format!(":{}", group.shown),
            (None, None) => String::new(),
        }
    }

    /// Whether a file's owner (the sandbox user) would change.
    fn changes(&self) -> bool {
        [&self.user, &self.group]
            .into_iter()
            .flatten()
            .any(|id| id.number != USER_ID)
    }
}

struct Options {
    report: Report,
    quiet: bool,
    recursive: bool,
    reference: Option<String>,
    from: Option<Owners>,
    operands: Vec<String>,
}

/// `chown` and `chgrp`.
pub fn chown(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let command = match args[0].as_str() {
        "chgrp" => Command::Chgrp,
        _ => Command::Chown,
    };
    let name = command.name();
    let options = match parse(command, &args[1..]) {
        Ok(options) => options,
        Err(message) => return usage(shell, name, &message, 1),
    };
    let mut operands = options.operands.as_slice();
    let wanted = match &options.reference {
        Some(reference) => {
            let there = resolve(shell, reference)
                .is_ok_and(|path| shell.context().vfs.lock().exists(&path));
            if !there {
                return Ok(shell.fail_command(
                    name,
                    &format!(
                        "failed to get attributes of '{reference}': No such file or directory"
                    ),
                    1,
                ));
            }
            Owners {
                user: (command == Command::Chown).then(Id::sandbox_user),
                group: Some(Id::sandbox_user()),
            }
        }
        None => {
            let Some((spec, rest)) = operands.split_first() else {
                return usage(shell, name, "missing operand", 1);
            };
            operands = rest;
            match command {
                Command::Chown => Owners::parse_chown(spec),
                Command::Chgrp => Owners {
                    user: None,
                    group: (!spec.is_empty()).then(|| Id::parse(spec)),
                },
            }
        }
    };
    if operands.is_empty() {
        let message = match (&options.reference, options.operands.first()) {
            (None, Some(spec)) => format!("missing operand after \u{2018}{spec}\u{2019}"),
            _ => "missing operand".to_string(),
        };
        return usage(shell, name, &message, 1);
    }
    // `--from=` matches the sandbox user's files only when it names no
    // one else (what would change a file is what does not match it).
    let skipped = options.from.as_ref().is_some_and(Owners::changes);
    let changes = wanted.changes() && !skipped;
    let mut status = 0;
    // GNU's report goes through stdio, which a pipe buffers; an error
    // message flushes it first.
    let mut lines = String::new();
    for operand in operands {
        let path = resolve(shell, operand).ok();
        let targets = {
            let vfs = shell.context().vfs.lock();
            path.filter(|path| vfs.lstat(path).is_ok())
                .map(|path| match options.recursive {
                    true => contents_first(&vfs, &path, operand),
                    false => vec![operand.clone()],
                })
        };
        let Some(targets) = targets else {
            status = 1;
            if !options.quiet {
                // GNU's error messages flush what stdio holds first.
                if let Err(error) = shell.write_stdout(std::mem::take(&mut lines).as_bytes()) {
                    return shell.io_status(name, error);
                }
                shell.fail_command(
                    name,
                    &format!("cannot access '{operand}': No such file or directory"),
                    1,
                );
            }
            if options.report == Report::Everything {
                lines.push_str(&failed(command, operand, &wanted));
            }
            continue;
        };
        for shown in targets {
            let line = match (changes, options.report) {
                (_, Report::Nothing) | (false, Report::Changes) => continue,
                (true, _) => changed(command, &shown, &wanted),
                (false, Report::Everything) => retained(command, &shown, &wanted),
            };
            lines.push_str(&line);
        }
    }
    if let Err(error) = shell.write_stdout(lines.as_bytes()) {
        return shell.io_status(name, error);
    }
    Ok(status)
}

fn parse(command: Command, args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        report: Report::Nothing,
        quiet: false,
        recursive: false,
        reference: None,
        from: None,
        operands: Vec::new(),
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        if arg == "--" {
            options.operands.extend(rest.by_ref().cloned());
            break;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (key, value) = match long.split_once('=') {
                Some((key, value)) => (key, Some(value)),
                None => (long, None),
            };
            match (key, value) {
                ("changes", None) => options.report = Report::Changes,
                ("verbose", None) => options.report = Report::Everything,
                ("silent" | "quiet", None) => options.quiet = true,
                ("recursive", None) => options.recursive = true,
                ("dereference" | "no-dereference" | "preserve-root" | "no-preserve-root", None) => {
                }
                ("reference", Some(file)) => options.reference = Some(file.to_string()),
                ("from", Some(spec)) if command == Command::Chown => {
                    options.from = Some(Owners::parse_chown(spec))
                }
                ("reference" | "from", None) => {
                    return Err(format!("option '--{key}' requires an argument"));
                }
                _ => return Err(format!("unrecognized option '{arg}'")),
            }
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            for flag in arg[1..].chars() {
                match flag {
                    'c' => options.report = Report::Changes,
                    'v' => options.report = Report::Everything,
                    'f' => options.quiet = true,
                    'R' => options.recursive = true,
                    // Links and how -R crosses them: there are no owners
                    // to set through or on a link.
                    'h' | 'H' | 'L' | 'P' => {}
                    other => return Err(format!("invalid option -- '{other}'")),
                }
            }
            continue;
        }
        options.operands.push(arg.clone());
    }
    Ok(options)
}

/// `top` and what it holds, each named below `operand`, a folder after
/// its contents (as GNU's `-R` reports them). Links are not followed.
fn contents_first(vfs: &Vfs, top: &VfsPath, operand: &str) -> Vec<String> {
    let mut out = Vec::new();
    let is_folder = vfs
        .lstat(top)
        .is_ok_and(|stat| stat.node_type == NodeType::Directory);
    if is_folder && let Ok(entries) = vfs.read_dir(top) {
        for entry in entries {
            let below = format!("{}/{}", operand.trim_end_matches('/'), entry.name);
            out.extend(contents_first(vfs, &top.join(&entry.name), &below));
        }
    }
    out.push(operand.to_string());
    out
}

fn changed(command: Command, shown: &str, wanted: &Owners) -> String {
    match command {
        Command::Chgrp => format!(
            "changed group of '{shown}' from {USER} to {}\n",
            group_shown(wanted)
        ),
        Command::Chown => {
            // The old ownership in the form of the new one, with the user
            // always there once a group is named.
            let old = match wanted.group {
                Some(_) => format!("{USER}:{USER}"),
                None => USER.to_string(),
            };
            format!(
                "changed ownership of '{shown}' from {old} to {}\n",
                wanted.shown()
            )
        }
    }
}

fn retained(command: Command, shown: &str, wanted: &Owners) -> String {
    match (command, wanted.shown()) {
        (Command::Chgrp, _) => format!("group of '{shown}' retained as {}\n", group_shown(wanted)),
        (Command::Chown, spec) if spec.is_empty() => format!("ownership of '{shown}' retained\n"),
        (Command::Chown, spec) => format!("ownership of '{shown}' retained as {spec}\n"),
    }
}

fn failed(command: Command, shown: &str, wanted: &Owners) -> String {
    match (command, wanted.shown()) {
        (Command::Chgrp, _) => format!(
            "failed to change group of '{shown}' to {}\n",
            group_shown(wanted)
        ),
        (Command::Chown, spec) if spec.is_empty() => {
            format!("failed to change ownership of '{shown}'\n")
        }
        (Command::Chown, spec) => format!("failed to change ownership of '{shown}' to {spec}\n"),
    }
}

fn group_shown(wanted: &Owners) -> &str {
    wanted
        .group
        .as_ref()
        .map(|group| group.shown.as_str())
        .unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_the_sandbox_user_and_numbers_are_themselves() {
        let spec = Owners::parse_chown("root:staff");
        assert_eq!(spec.shown(), "root:staff");
        assert!(!spec.changes());
        let spec = Owners::parse_chown("+0");
        assert_eq!((spec.shown(), spec.changes()), ("0".to_string(), true));
        let spec = Owners::parse_chown("1000:1000");
        assert!(!spec.changes());
        assert_eq!(Owners::parse_chown("bob:").shown(), "bob:user");
        assert_eq!(Owners::parse_chown(":7").shown(), ":7");
        assert_eq!(Owners::parse_chown(":").shown(), "");
        assert_eq!(Owners::parse_chown("a.b").shown(), "a.b");
    }

    #[test]
    fn the_words_are_gnus() {
        let numeric = Owners::parse_chown("0:5");
        assert_eq!(
            changed(Command::Chown, "f", &numeric),
            "changed ownership of 'f' from user:user to 0:5\n"
        );
        assert_eq!(
            changed(Command::Chown, "f", &Owners::parse_chown("42")),
            "changed ownership of 'f' from user to 42\n"
        );
        assert_eq!(
            changed(Command::Chown, "f", &Owners::parse_chown(":9")),
            "changed ownership of 'f' from user:user to :9\n"
        );
        let group = Owners {
            user: None,
            group: Some(Id::parse("9")),
        };
        assert_eq!(
            changed(Command::Chgrp, "d/x", &group),
            "changed group of 'd/x' from user to 9\n"
        );
        assert_eq!(
            retained(Command::Chown, "f", &Owners::default()),
            "ownership of 'f' retained\n"
        );
        assert_eq!(
            failed(Command::Chown, "m", &Owners::parse_chown("root")),
            "failed to change ownership of 'm' to root\n"
        );
    }
}
