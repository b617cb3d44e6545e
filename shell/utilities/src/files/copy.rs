//! Copying and moving: `cp` and `mv` (one implementation).

use crate::args::getopt;
use crate::args::usage;
use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::{Node, NodeType, VfsPath};

pub(crate) fn copy_or_move(shell: &mut ShellView, args: &[String], moving: bool) -> ExecResult {
    // `ln` (a hard link is a copy here) words its errors as itself.
    let name = match args[0].as_str() {
        "ln" => "ln",
        _ if moving => "mv",
        _ => "cp",
    };
    let parsed = match getopt(
        args,
        "tS",
        &[
            ("recursive", 'r', false),
            ("force", 'f', false),
            ("no-clobber", 'n', false),
            ("verbose", 'v', false),
            ("archive", 'a', false),
            ("preserve", 'p', false),
            ("target-directory", 't', true),
            ("interactive", 'i', false),
            ("update", 'u', false),
            ("no-target-directory", 'T', false),
            ("dereference", 'L', false),
            ("no-dereference", 'P', false),
            ("no-dereference-preserve-links", 'd', false),
            ("dereference-command-line", 'H', false),
            ("backup", 'b', false),
            ("suffix", 'S', true),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, name, &message, 1),
    };
    let recursive = moving || parsed.has('r') || parsed.has('R') || parsed.has('a');
    let backup = match super::backup::Backup::from_options(shell, &parsed, 'b') {
        Ok(backup) => backup,
        Err(message) => return usage(shell, name, &message, 1),
    };
    // -p, -a, --preserve: a file keeps its time (a copied folder keeps
    // its entries' times in any case: the VFS shares the tree).
    let preserve = !moving && (parsed.has('p') || parsed.has('a'));
    // Which links cp follows (GNU's rules): -L all, -P/-d/-a none, -H
    // those named on the command line; by default those named, unless
    // copying recursively. `mv` moves links as they are.
    let follow_all = !moving && parsed.last_of(&['L', 'P', 'd', 'a', 'H']) == Some('L');
    let follow_named = !moving
        && match parsed.last_of(&['L', 'P', 'd', 'a', 'H']) {
            Some('L' | 'H') => true,
            Some(_) => false,
            None => !recursive,
        };
    let mut operands = parsed.operands.clone();
    let target = match parsed.value('t') {
        Some(target) => target.to_string(),
        None => {
            if operands.len() < 2 {
                let message = if operands.is_empty() {
                    "missing file operand".to_string()
                } else {
                    format!("missing destination file operand after '{}'", operands[0])
                };
                return usage(shell, name, &message, 1);
            }
            operands.pop().expect("two operands")
        }
    };
    let Ok(target_path) = resolve(shell, &target) else {
        return Ok(shell.fail_command(name, &format!("cannot stat '{target}'"), 1));
    };
    let target_is_dir = shell.context().vfs.lock().is_dir(&target_path) && !parsed.has('T');
    if operands.len() > 1 && !target_is_dir {
        return Ok(shell.fail_command(name, &format!("target '{target}' is not a directory"), 1));
    }
    let mut status = 0;
    let mut report = String::new();
    for operand in &operands {
        let source = match resolve(shell, operand) {
            Ok(source) => source,
            Err(reason) => {
                status = shell.fail_command(name, &format!("cannot stat '{operand}': {reason}"), 1);
                continue;
            }
        };
        let node = {
            let vfs = shell.context().vfs.lock();
            if follow_named {
                vfs.lookup(&source)
            } else {
                vfs.lookup_link(&source)
            }
        };
        let node = match node {
            Ok(node) => node,
            Err(_) => {
                // GNU ln says it could not reach the target; cp and mv
                // that they could not stat the source.
                let what = if name == "ln" {
                    "failed to access"
                } else {
                    "cannot stat"
                };
                status = shell.fail_command(
                    name,
                    &format!("{what} '{operand}': No such file or directory"),
                    1,
                );
                continue;
            }
        };
        if node.node_type() == NodeType::Directory && !recursive {
            status = shell.fail_command(
                name,
                &format!("-r not specified; omitting directory '{operand}'"),
                1,
            );
            continue;
        }
        // `cp -r dir/. target/` copies what the folder holds into the
        // folder given: the name written last is `.`.
        let dot = !moving && (operand == "." || operand.trim_end_matches('/').ends_with("/."));
        let destination = if target_is_dir && !dot {
            match source.file_name() {
                Some(file) => target_path.join(file),
                None => target_path.clone(),
            }
        } else {
            target_path.clone()
        };
        if destination == source {
            if moving {
                continue;
            }
            // GNU names the destination as it builds it: the folder
            // operand and the source's name.
            let shown = match source.file_name() {
                _ if target_is_dir && dot => format!("{}/.", target.trim_end_matches('/')),
                Some(file) if target_is_dir => {
                    format!("{}/{file}", target.trim_end_matches('/'))
                }
                _ => target.to_string(),
            };
            status = shell.fail_command(
                name,
                &format!("'{operand}' and '{shown}' are the same file"),
                1,
            );
            continue;
        }
        if destination.starts_with(&source) && node.node_type() == NodeType::Directory {
            status = shell.fail_command(
                name,
                &format!(
                    "cannot {} '{operand}' to a subdirectory of itself, '{target}'",
                    if moving { "move" } else { "copy a directory," }
                ),
                1,
            );
            continue;
        }
        // A file is copied through a link at the destination (never a
        // dangling one), as cp writes through links.
        let destination = {
            let vfs = shell.context().vfs.lock();
            match vfs.lookup_link(&destination) {
                Ok(Node::Link(_)) if !moving && node.node_type() == NodeType::File => {
                    match vfs.lookup(&destination) {
                        Ok(_) => vfs.resolve(&destination, true).unwrap_or(destination),
                        Err(_) => {
                            drop(vfs);
                            status = shell.fail_command(
                                name,
                                &format!("not writing through dangling symlink '{target}'"),
                                1,
                            );
                            continue;
                        }
                    }
                }
                _ => destination,
            }
        };
        let exists = shell.context().vfs.lock().lookup_link(&destination).ok();
        if let Some(existing) = &exists {
            if parsed.has('n') {
                continue;
            }
            // -u: a file is not copied (or moved) over one at least as new.
            if parsed.has('u')
                && existing.node_type() != NodeType::Directory
                && node.node_type() != NodeType::Directory
                && node.meta().mtime_ns <= existing.meta().mtime_ns
            {
                continue;
            }
            if existing.node_type() == NodeType::Directory && node.node_type() == NodeType::File {
                status = shell.fail_command(
                    name,
                    &format!(
                        "cannot overwrite directory '{}' with non-directory",
                        destination
                    ),
                    1,
                );
                continue;
            }
        }
        let shown_destination = if target_is_dir {
            format!(
                "{}/{}",
                target.trim_end_matches('/'),
                if dot {
                    "."
                } else {
                    source.file_name().unwrap_or("")
                }
            )
        } else {
            target.clone()
        };
        // `cp -rv` names what it makes inside a folder too (a folder that
        // was there already is not named), gathered before the copy.
        let inside = match (&node, parsed.has('v') && !moving) {
            (Node::Dir(_), true) => {
                let vfs = shell.context().vfs.lock();
                let mut lines = String::new();
                copied_inside(
                    &vfs,
                    &source,
                    &destination,
                    operand,
                    &shown_destination,
                    &mut lines,
                );
                lines
            }
            _ => String::new(),
        };
        let top_was_there =
            matches!(exists, Some(Node::Dir(_))) && node.node_type() == NodeType::Directory;
        let backed_up;
        let result = {
            let mut vfs = shell.context().vfs.lock();
            // The file about to be replaced goes aside first (-b).
            let set_aside = match (&backup, node.node_type()) {
                (Some(backup), kind) if kind != NodeType::Directory => {
                    backup.make(&mut vfs, &destination)
                }
                _ => Ok(None),
            };
            match set_aside {
                Ok(name) => backed_up = name,
                Err(error) => {
                    drop(vfs);
                    status = shell.fail_fs(
                        name,
                        &shown_destination,
                        &error,
                        |reason| format!("cannot backup '{shown_destination}': {reason}"),
                        1,
                    );
                    continue;
                }
            }
            if moving {
                vfs.rename(&source, &destination)
            } else {
                match (&node, &exists) {
                    // With -L, links inside are followed too: the tree is
                    // copied entry by entry.
                    (Node::Dir(_), _) if follow_all => {
                        vfs.all_or_nothing(|vfs| copy_dereferenced(vfs, &source, &destination))
                    }
                    // Merging into a tree is one change: all of it or,
                    // if any path is refused, none.
                    (Node::Dir(_), Some(Node::Dir(_))) => {
                        vfs.all_or_nothing(|vfs| merge_copy(vfs, &source, &destination))
                    }
                    // A link copied as a link (its text, never followed).
                    (Node::Link(_), _) => vfs.graft(&destination, node.clone()),
                    _ => vfs
                        .copy(&source, &destination)
                        .and_then(|()| match (&node, preserve) {
                            (Node::File(file), true) => {
                                vfs.set_mtime(&destination, Some(file.meta().mtime_ns))
                            }
                            _ => Ok(()),
                        }),
                }
            }
        };
        // How -v names the backup: beside the destination as shown.
        let backup_note = backed_up.map_or_else(String::new, |backup_name| {
            let shown = match shown_destination.rsplit_once('/') {
                Some((folder, _)) => format!("{folder}/{backup_name}"),
                None => backup_name,
            };
            format!(" (backup: '{shown}')")
        });
        match result {
            Ok(()) => {
                if parsed.has('v') {
                    if moving {
                        report.push_str(&format!(
                            "renamed '{operand}' -> '{shown_destination}'{backup_note}\n"
                        ));
                    } else if args[0] == "ln" {
                        // A hard link (made as a copy), as GNU ln words it.
                        report.push_str(&format!("'{shown_destination}' => '{operand}'\n"));
                    } else {
                        if !top_was_there {
                            report.push_str(&format!(
                                "'{operand}' -> '{shown_destination}'{backup_note}\n"
                            ));
                        }
                        report.push_str(&inside);
                    }
                }
            }
            Err(error) => {
                let verb = if moving { "move" } else { "copy" };
                // A denial names the end it is about: the destination, or
                // (moving out of a protected place) the source.
                let about = if error.path.starts_with(&destination) {
                    shown_destination.as_str()
                } else {
                    operand.as_str()
                };
                status = shell.fail_fs(
                    name,
                    about,
                    &error,
                    |reason| format!("cannot {verb} '{operand}': {reason}"),
                    1,
                );
            }
        }
    }
    if !report.is_empty()
        && let Err(error) = shell.write_stdout(report.as_bytes())
    {
        return shell.io_status(name, error);
    }
    Ok(status)
}

/// The `cp -v` lines for what copying the folder `source` to
/// `destination` makes inside it, in the order it is copied (a folder
/// before what it holds); folders already at the destination are not
/// named, as GNU names only what it creates.
fn copied_inside(
    vfs: &goccia_vfs::Vfs,
    source: &VfsPath,
    destination: &VfsPath,
    shown_source: &str,
    shown_destination: &str,
    lines: &mut String,
) {
    let Ok(entries) = vfs.read_dir(source) else {
        return;
    };
    for entry in entries {
        let from = source.join(&entry.name);
        let to = destination.join(&entry.name);
        let shown_from = format!("{}/{}", shown_source.trim_end_matches('/'), entry.name);
        let shown_to = format!("{}/{}", shown_destination.trim_end_matches('/'), entry.name);
        let is_folder = matches!(vfs.lookup_link(&from), Ok(Node::Dir(_)));
        let folder_there = matches!(vfs.lookup_link(&to), Ok(Node::Dir(_)));
        if !(is_folder && folder_there) {
            lines.push_str(&format!("'{shown_from}' -> '{shown_to}'\n"));
        }
        if is_folder {
            copied_inside(vfs, &from, &to, &shown_from, &shown_to, lines);
        }
    }
}

/// `cp -rL`: a tree copied with every link in it followed (a dangling one
/// is copied as the link it is; a folder already on the way is not
/// entered again).
fn copy_dereferenced(
    vfs: &mut goccia_vfs::Vfs,
    source: &VfsPath,
    destination: &VfsPath,
) -> Result<(), goccia_vfs::FsError> {
    match vfs.lookup(source) {
        Ok(Node::Dir(dir)) => {
            if !vfs.is_dir(destination) {
                vfs.mkdir(destination)?;
            }
            let real = vfs.resolve(source, true)?;
            for (name, _) in dir.iter() {
                let child = source.join(name);
                if vfs
                    .resolve(&child, true)
                    .is_ok_and(|to| real.starts_with(&to))
                {
                    continue;
                }
                copy_dereferenced(vfs, &child, &destination.join(name))?;
            }
            Ok(())
        }
        Ok(_) => vfs.copy(source, destination),
        Err(_) => {
            let node = vfs.lookup_link(source)?;
            vfs.graft(destination, node)
        }
    }
}

/// `cp -r dir existing-dir/dir`: merge into what is there.
fn merge_copy(
    vfs: &mut goccia_vfs::Vfs,
    source: &VfsPath,
    destination: &VfsPath,
) -> Result<(), goccia_vfs::FsError> {
    let Node::Dir(dir) = vfs.lookup(source)? else {
        return vfs.copy(source, destination);
    };
    for (name, child) in dir.iter() {
        let target = destination.join(name);
        match (child, vfs.lookup_link(&target).ok()) {
            (Node::Dir(_), Some(Node::Dir(_))) => merge_copy(vfs, &source.join(name), &target)?,
            (Node::Link(_), _) => vfs.graft(&target, child.clone())?,
            _ => vfs.copy(&source.join(name), &target)?,
        }
    }
    Ok(())
}

pub fn cp(shell: &mut ShellView, args: &[String]) -> ExecResult {
    copy_or_move(shell, args, false)
}

pub fn mv(shell: &mut ShellView, args: &[String]) -> ExecResult {
    copy_or_move(shell, args, true)
}
