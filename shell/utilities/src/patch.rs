//! `patch`: applies a unified patch (from stdin, `-i FILE` or a second
//! operand) to the VFS — to the files it names, or to the one file a first
//! operand names (GNU's `patch FILE < PATCH`) —
//! all or nothing (GNU patch applies file by file; a sandbox prefers
//! nothing to half). The hunks are applied by `goccia_vfs::apply_patch`.
//!
//! `-p N` strips N leading path components (default 0, as GNU patch for
//! paths without directories); `-d DIR` changes to DIR first; `--dry-run`
//! checks without changing anything; `-s` is quiet. Status 0 when applied,
//! 1 when the patch does not fit the files, 2 for a malformed patch or a
//! usage error.

use goccia_vfs::{PatchError, PatchOptions, apply_patch};

use crate::args::{check_flags, parse_options, usage};
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};

pub fn patch(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(status 2; shell, args, "pid", &[
        ("strip", 'p', true),
        ("input", 'i', true),
        ("directory", 'd', true),
        ("dry-run", 'D', false),
        ("quiet", 's', false),
        ("silent", 's', false),
    ]);
    if let Err(message) = check_flags(&parsed, "Ds") {
        return usage(shell, "patch", &message, 2);
    }
    let mut strip = 0;
    let mut input = "-".to_string();
    let mut base = shell.cwd().clone();
    for (flag, value) in &parsed.values {
        match flag {
            'p' => match value.parse() {
                Ok(n) => strip = n,
                Err(_) => {
                    return usage(
                        shell,
                        "patch",
                        &format!("strip count {value} is not a number"),
                        2,
                    );
                }
            },
            'i' => input = value.clone(),
            _ => match base.resolve(value) {
                Ok(dir) => base = dir,
                Err(error) => {
                    return Ok(shell.fail_command("patch", &format!("{value}: {error}"), 2));
                }
            },
        }
    }
    // GNU's `patch [FILE [PATCHFILE]]`: the file every hunk applies to,
    // then where the patch is read from.
    let mut file = None;
    match &parsed.operands[..] {
        [] => {}
        [original, rest @ ..] => {
            match base.resolve(original) {
                Ok(path) => file = Some(path),
                Err(error) => {
                    return Ok(shell.fail_command("patch", &format!("{original}: {error}"), 2));
                }
            }
            match rest {
                [] => {}
                [patch_file] if !parsed.values.iter().any(|(flag, _)| *flag == 'i') => {
                    input = patch_file.clone();
                }
                [extra, ..] => {
                    let message = format!("extra operand '{extra}'");
                    return usage(shell, "patch", &message, 2);
                }
            }
        }
    }
    let Ok(mut source) = open_source(shell, "patch", &input) else {
        return Ok(2);
    };
    let text = match source.read_all() {
        Ok(bytes) => bytes,
        Err(error) => return shell.io_status("patch", error),
    };
    let Ok(text) = String::from_utf8(text) else {
        return Ok(shell.fail_command("patch", "the patch is not text", 2));
    };
    let dry_run = parsed.flags.contains(&'D');
    let options = PatchOptions { strip, base, file };
    let outcome = {
        let mut vfs = shell.context().vfs.lock();
        if dry_run {
            apply_patch(&mut vfs.clone(), &text, &options)
        } else {
            apply_patch(&mut vfs, &text, &options)
        }
    };
    match outcome {
        Ok(files) => {
            if !parsed.flags.contains(&'s') {
                let mut report = String::new();
                for file in files {
                    let verb = if dry_run { "checking" } else { "patching" };
                    // As GNU patch names it: relative to where it applies.
                    let name = match file.path.strip_prefix(&options.base) {
                        Some(names) if !names.is_empty() => names.join("/"),
                        _ => file.path.to_string(),
                    };
                    report.push_str(&format!("{verb} file {name}\n"));
                }
                if let Err(error) = shell.write_stdout(report.as_bytes()) {
                    return shell.io_status("patch", error);
                }
            }
            Ok(0)
        }
        Err(PatchError::Fs(error)) if error.denied.is_some() => {
            let path = error.path.to_string();
            Ok(shell.fail_fs("patch", &path, &error, |reason| reason.to_string(), 1))
        }
        Err(error) => {
            let status = match error {
                PatchError::Malformed { .. }
                | PatchError::Empty
                | PatchError::BadPath { .. }
                | PatchError::SeveralFiles { .. } => 2,
                _ => 1,
            };
            Ok(shell.fail_command("patch", &format!("{error}; nothing was changed"), status))
        }
    }
}
