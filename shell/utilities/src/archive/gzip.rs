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
            ("list", 'l', false),
            ("test", 't', false),
        ],
    )
    .and_then(|parsed| crate::args::check_flags(&parsed, "cdkfqv123456789nNlt").map(|()| parsed))
    {
        Ok(parsed) => parsed,
        Err(message) => {
            return Ok(shell.fail_command(
                "gzip",
                &format!("{message}\nTry `gzip --help' for more information."),
                1,
            ));
        }
    };
    // The last level given wins; -n keeps the name and time out.
    let level = parsed
        .last_of(&['1', '2', '3', '4', '5', '6', '7', '8', '9'])
        .and_then(|digit| digit.to_digit(10));
    let keep_name = parsed.last_of(&['n', 'N']) != Some('n');
    // -t: each archive is decompressed and nothing is written.
    let testing = parsed.has('t');
    decompress |= parsed.has('d') || testing;
    let to_stdout = parsed.has('c') || parsed.operands.is_empty();
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    if parsed.has('l') && name != "zcat" {
        return list(shell, name, &operands, parsed.has('v'), parsed.has('q'));
    }
    let limit = shell.context().limits.max_buffered_input;
    let mut status = 0;
    // gunzip and zcat are `gzip -d` and `gzip -cd`: every message says
    // `gzip`, as theirs do.
    for operand in &operands {
        // Decompressing `x` means `x.gz` when `x` is not there.
        // (A device or `/dev/fd/N` is read as it is.)
        let in_tree = operand != "-" && !operand.starts_with("/dev/");
        let operand = &match decompress && in_tree && !exists(shell, operand) {
            true if !has_suffix(operand) => format!("{operand}.gz"),
            _ => operand.clone(),
        };
        // A name gunzip cannot take a suffix off is left alone, unread.
        if decompress && !to_stdout && !testing && operand != "-" && !has_suffix(operand) {
            let warned =
                shell.fail_command("gzip", &format!("{operand}: unknown suffix -- ignored"), 2);
            if status == 0 {
                status = warned;
            }
            continue;
        }
        let data = match open_quiet(shell, operand) {
            Ok(mut source) => match source.read_all() {
                Ok(data) => data,
                Err(error) => {
                    status = shell.fail_command("gzip", &format!("{operand}: {error}"), 1);
                    continue;
                }
            },
            Err(reason) => {
                status = shell.fail_command("gzip", &format!("{operand}: {reason}"), 1);
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
                    let shown = if operand == "-" {
                        "stdin"
                    } else {
                        operand.as_str()
                    };
                    if error.kind() == std::io::ErrorKind::OutOfMemory {
                        status = shell.fail_command("gzip", &format!("{shown}: {error}"), 1);
                    } else if data.len() < 2 || data.starts_with(&[0x1f, 0x8b]) {
                        // Too short to tell, or a gzip stream cut short.
                        shell.write_stderr(b"\n");
                        status = shell.fail_command(
                            "gzip",
                            &format!("{shown}: unexpected end of file"),
                            1,
                        );
                    } else {
                        // GNU's message comes after an empty line.
                        shell.write_stderr(b"\n");
                        status =
                            shell.fail_command("gzip", &format!("{shown}: not in gzip format"), 1);
                    }
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
        if testing {
            if verbose {
                shell.write_stderr(format!("{operand}:\t OK\n").as_bytes());
            }
            continue;
        }
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
        // A warning (exit 0).
        let gzip = "gzip";
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
                    // A warning: status 2, as GNU's.
                    let warned = shell.fail_command(
                        gzip,
                        &format!("{operand}: unknown suffix -- ignored"),
                        2,
                    );
                    // An error (1) outranks a warning, as in GNU's.
                    if status == 0 {
                        status = warned;
                    }
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
            let warned = shell.fail_command(
                gzip,
                &format!("{target} already exists;\tnot overwritten"),
                2,
            );
            if status == 0 {
                status = warned;
            }
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

/// Whether `operand` names something in the tree.
fn exists(shell: &ShellView, operand: &str) -> bool {
    shell
        .cwd()
        .resolve(operand)
        .is_ok_and(|path| shell.context().vfs.lock().lookup(&path).is_ok())
}

/// Whether `name` ends with a suffix gunzip takes off.
fn has_suffix(name: &str) -> bool {
    [".gz", ".tgz", ".z", "-gz", "-z", "_z", ".taz"]
        .iter()
        .any(|suffix| name.ends_with(suffix))
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

/// `gzip -l`: each archive's compressed and plain sizes (the plain one
/// from its trailer), the ratio `-v` shows, and the name it would
/// decompress to; with `-v` also its method, CRC and time, and a line of
/// totals for more than one (whose ratio, as GNU's, takes off the last
/// archive's header only).
fn list(
    shell: &mut ShellView,
    name: &str,
    operands: &[String],
    verbose: bool,
    quiet: bool,
) -> ExecResult {
    const COLUMNS: &str = "         compressed        uncompressed  ratio uncompressed_name";
    let mut out = String::new();
    let mut status = 0;
    let mut listed = 0;
    let (mut packed, mut plain, mut overhead) = (0u64, 0u64, 0u64);
    for operand in operands {
        let data = match open_quiet(shell, operand)
            .map_err(str::to_string)
            .and_then(|mut source| source.read_all().map_err(|error| error.to_string()))
        {
            Ok(data) => data,
            Err(reason) => {
                status = shell.fail_command("gzip", &format!("{operand}: {reason}"), 1);
                continue;
            }
        };
        if data.len() < 18 || data[..2] != [0x1f, 0x8b] {
            let shown = if operand == "-" {
                "stdin"
            } else {
                operand.as_str()
            };
            shell.write_stderr(b"\n");
            status = shell.fail_command("gzip", &format!("{shown}: not in gzip format"), 1);
            continue;
        }
        let trailer = &data[data.len() - 8..];
        let crc = u32::from_le_bytes([trailer[0], trailer[1], trailer[2], trailer[3]]);
        let size = u64::from(u32::from_le_bytes([
            trailer[4], trailer[5], trailer[6], trailer[7],
        ]));
        let deflated = payload_len(&data);
        if listed == 0 && !quiet {
            if verbose {
                out.push_str("method  crc     date  time  ");
            }
            out.push_str(COLUMNS);
            out.push('\n');
        }
        listed += 1;
        if verbose {
            let seconds = mtime_of(shell, operand);
            let when = goccia_interp::time::strftime_at(
                "%b %e %H:%M",
                i64::from(seconds),
                &shell.time_zone(),
            );
            out.push_str(&format!("defla {crc:08x} {when} "));
        }
        let shown = match operand.as_str() {
            "-" => "stdout",
            path => path
                .strip_suffix(".gz")
                .or_else(|| path.strip_suffix(".tgz"))
                .unwrap_or(path),
        };
        out.push_str(&format!(
            "{:>19} {:>19} {} {shown}\n",
            data.len(),
            size,
            ratio(size as usize, deflated)
        ));
        packed += data.len() as u64;
        plain += size;
        overhead = (data.len() - deflated) as u64;
    }
    if listed > 1 && !quiet {
        if verbose {
            out.push_str(&" ".repeat(28));
        }
        let deflated = packed.saturating_sub(overhead);
        out.push_str(&format!(
            "{packed:>19} {plain:>19} {} (totals)\n",
            ratio(plain as usize, deflated as usize)
        ));
    }
    match shell.write_stdout(out.as_bytes()) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status(name, error),
    }
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
