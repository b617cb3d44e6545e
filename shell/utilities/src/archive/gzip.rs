//! `gzip`, `gunzip` and `zcat`.

use super::{GzipHeader, gunzip_bytes, gzip_bytes, write_output};
use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, ShellView};

pub fn gzip(shell: &mut ShellView, args: &[String]) -> ExecResult {
    compress_command(shell, args, "gzip", false)
}

pub fn gunzip(shell: &mut ShellView, args: &[String]) -> ExecResult {
    compress_command(shell, args, "gunzip", true)
}

pub fn zcat(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut args = args.to_vec();
    args.insert(1, "-c".to_string());
    compress_command(shell, &args, "zcat", true)
}

fn compress_command(
    shell: &mut ShellView,
    args: &[String],
    name: &str,
    mut decompress: bool,
) -> ExecResult {
    let parsed = match crate::args::getopt(
        args,
        "",
        &[
            ("stdout", 'c', false),
            ("to-stdout", 'c', false),
            ("decompress", 'd', false),
            ("keep", 'k', false),
            ("force", 'f', false),
            ("quiet", 'q', false),
            ("verbose", 'v', false),
            ("fast", '1', false),
            ("best", '9', false),
            ("no-name", 'n', false),
            ("name", 'N', false),
        ],
    )
    .and_then(|parsed| crate::args::check_flags(&parsed, "cdkfqv123456789nN").map(|()| parsed))
    {
        Ok(parsed) => parsed,
        Err(message) => return Ok(shell.fail_command(name, &message, 1)),
    };
    // The last level given wins; -n keeps the name and time out.
    let level = parsed
        .last_of(&['1', '2', '3', '4', '5', '6', '7', '8', '9'])
        .and_then(|digit| digit.to_digit(10));
    let keep_name = parsed.last_of(&['n', 'N']) != Some('n');
    decompress |= parsed.has('d');
    let to_stdout = parsed.has('c') || parsed.operands.is_empty();
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    let limit = shell.context().limits.max_buffered_input;
    let mut status = 0;
    for operand in &operands {
        let data = match open_quiet(shell, operand) {
            Ok(mut source) => match source.read_all() {
                Ok(data) => data,
                Err(error) => {
                    status = shell.fail_command(name, &format!("{operand}: {error}"), 1);
                    continue;
                }
            },
            Err(reason) => {
                status = shell.fail_command(name, &format!("{operand}: {reason}"), 1);
                continue;
            }
        };
        let verbose = parsed.has('v') && name != "zcat";
        let converted = if decompress {
            match gunzip_bytes(&data, limit) {
                Ok(bytes) => bytes,
                Err(error) => {
                    // Past the buffered-input limit is that limit, not a
                    // file that is not gzip.
                    let reason = if error.kind() == std::io::ErrorKind::OutOfMemory {
                        error.to_string()
                    } else {
                        "not in gzip format".to_string()
                    };
                    status = shell.fail_command(name, &format!("{operand}: {reason}"), 1);
                    continue;
                }
            }
        } else {
            let mut header = GzipHeader {
                level,
                ..GzipHeader::default()
            };
            if keep_name && operand != "-" {
                header.name = operand.rsplit('/').next().map(str::to_string);
                header.mtime = mtime_of(shell, operand);
            } else if keep_name {
                // A regular file on standard input lends its time (no name),
                // as it does to GNU gzip; a pipe has none.
                header.mtime = shell
                    .fds()
                    .regular_mtime_ns(0)
                    .map_or(0, |ns| (ns.max(0) / 1_000_000_000) as u32);
            }
            gzip_bytes(&data, &header)
        };
        let ratio = if decompress {
            ratio(converted.len(), payload_len(&data))
        } else {
            ratio(data.len(), payload_len(&converted))
        };
        if to_stdout || operand == "-" {
            if let Err(error) = shell.write_stdout(&converted) {
                return shell.io_status(name, error);
            }
            if verbose {
                let line = if operand == "-" {
                    format!("{ratio}\n")
                } else {
                    format!("{operand}:\t{ratio} -- replaced with stdout\n")
                };
                shell.write_stderr(line.as_bytes());
            }
            continue;
        }
        // gunzip is gzip -d: its messages say `gzip`. A warning (exit 0).
        let gzip = if name == "zcat" { name } else { "gzip" };
        if !decompress && operand.ends_with(".gz") {
            shell.write_stderr(
                format!("{gzip}: {operand} already has .gz suffix -- unchanged\n").as_bytes(),
            );
            continue;
        }
        let target = if decompress {
            let stem = match operand.strip_suffix(".tgz") {
                Some(stem) => Some(format!("{stem}.tar")),
                None => operand.strip_suffix(".gz").map(str::to_string),
            };
            match stem {
                Some(stem) => stem,
                None => {
                    status = shell.fail_command(
                        name,
                        &format!("{operand}: unknown suffix -- ignored"),
                        1,
                    );
                    continue;
                }
            }
        } else {
            format!("{operand}.gz")
        };
        // An existing output is never replaced without -f: the file there
        // may be the only copy of something (GNU gzip, not on a terminal).
        let exists = shell
            .cwd()
            .resolve(&target)
            .is_ok_and(|path| shell.context().vfs.lock().lookup_link(&path).is_ok());
        if exists && !parsed.has('f') {
            status = shell.fail_command(
                gzip,
                &format!("{target} already exists;\tnot overwritten"),
                2,
            );
            continue;
        }
        if write_output(shell, name, Some(&target), converted).is_err() {
            status = 1;
            continue;
        }
        if !parsed.has('k')
            && let Ok(path) = shell.cwd().resolve(operand)
        {
            let _ = shell.context().vfs.lock().remove_file(&path);
        }
        if verbose {
            let done = if parsed.has('k') {
                "created"
            } else {
                "replaced with"
            };
            shell.write_stderr(format!("{operand}:\t{ratio} -- {done} {target}\n").as_bytes());
        }
    }
    Ok(status)
}

/// The modification time of the file at `operand`, in whole seconds (0
/// when there is none to read).
fn mtime_of(shell: &ShellView, operand: &str) -> u32 {
    let Ok(path) = shell.cwd().resolve(operand) else {
        return 0;
    };
    let vfs = shell.context().vfs.lock();
    vfs.lookup(&path).map_or(0, |node| {
        (node.meta().mtime_ns.max(0) / 1_000_000_000) as u32
    })
}

/// GNU gzip's `-v` ratio: the share of the plain size the compression
/// saved, counting only the deflate stream (`%5.1f%%`; 0.0% when empty).
fn ratio(plain: usize, deflated: usize) -> String {
    let saved = if plain == 0 {
        0.0
    } else {
        100.0 * (plain as f64 - deflated as f64) / plain as f64
    };
    format!("{saved:5.1}%")
}

/// The deflate stream's length in a gzip member: the whole less the
/// header (with its optional fields, RFC 1952) and the 8-byte trailer.
fn payload_len(member: &[u8]) -> usize {
    const FHCRC: u8 = 0x02;
    const FEXTRA: u8 = 0x04;
    const FNAME: u8 = 0x08;
    const FCOMMENT: u8 = 0x10;
    let flags = member.get(3).copied().unwrap_or(0);
    let mut at = 10;
    if flags & FEXTRA != 0 {
        let extra = member
            .get(at..at + 2)
            .map_or(0, |len| u16::from_le_bytes([len[0], len[1]]) as usize);
        at += 2 + extra;
    }
    for field in [FNAME, FCOMMENT] {
        if flags & field != 0 {
            let end = member
                .get(at..)
                .and_then(|rest| rest.iter().position(|byte| *byte == 0));
            at += end.map_or(0, |end| end + 1);
        }
    }
    if flags & FHCRC != 0 {
        at += 2;
    }
    member.len().saturating_sub(at + 8)
}
