//! `bzip2`, `bunzip2` and `bzcat`, with bzip2 1.0.8's rules and messages:
//! a file becomes `NAME.bz2` (the input removed unless `-k`), an existing
//! output is never replaced without `-f`, and a name without a known
//! suffix decompresses to `NAME.out`.

use super::{bunzip2_bytes, bzip2_bytes, write_output};
use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_vfs::Node;

pub fn bzip2(shell: &mut ShellView, args: &[String]) -> ExecResult {
    run(shell, args, "bzip2", Action::Compress, false)
}

pub fn bunzip2(shell: &mut ShellView, args: &[String]) -> ExecResult {
    run(shell, args, "bunzip2", Action::Decompress, false)
}

pub fn bzcat(shell: &mut ShellView, args: &[String]) -> ExecResult {
    run(shell, args, "bzcat", Action::Decompress, true)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Action {
    Compress,
    Decompress,
    Test,
}

/// What the command line asks.
struct Options {
    action: Action,
    to_stdout: bool,
    keep: bool,
    force: bool,
    verbose: bool,
    /// The block size in 100k units (`-1` … `-9`; 9 by default).
    level: u32,
    operands: Vec<String>,
}

/// Reads bzip2's flags, which combine (`-kv9`) and may come anywhere
/// among the names until `--`.
fn parse(args: &[String], action: Action, to_stdout: bool) -> Result<Options, String> {
    let mut options = Options {
        action,
        to_stdout,
        keep: false,
        force: false,
        verbose: false,
        level: 9,
        operands: Vec::new(),
    };
    let mut names_only = false;
    for arg in &args[1..] {
        if names_only || arg == "-" || !arg.starts_with('-') {
            options.operands.push(arg.clone());
            continue;
        }
        let flags: Vec<char> = match arg.as_str() {
            "--" => {
                names_only = true;
                continue;
            }
            "--decompress" => vec!['d'],
            "--compress" => vec!['z'],
            "--keep" => vec!['k'],
            "--force" => vec!['f'],
            "--test" => vec!['t'],
            "--stdout" => vec!['c'],
            "--quiet" => vec!['q'],
            "--verbose" => vec!['v'],
            "--small" => vec!['s'],
            "--fast" => vec!['1'],
            "--best" => vec!['9'],
            long if long.starts_with("--") => return Err(format!("Bad flag `{long}'")),
            short => short[1..].chars().collect(),
        };
        for flag in flags {
            match flag {
                'd' => options.action = Action::Decompress,
                'z' => options.action = Action::Compress,
                't' => options.action = Action::Test,
                'c' => options.to_stdout = true,
                'k' => options.keep = true,
                'f' => options.force = true,
                'v' => options.verbose = true,
                'q' | 's' => {}
                digit @ '1'..='9' => options.level = digit.to_digit(10).unwrap_or(9),
                _ => return Err(format!("Bad flag `{arg}'")),
            }
        }
    }
    Ok(options)
}

fn run(
    shell: &mut ShellView,
    args: &[String],
    name: &str,
    action: Action,
    to_stdout: bool,
) -> ExecResult {
    let options = match parse(args, action, to_stdout) {
        Ok(options) => options,
        Err(message) => {
            let text = format!(
                "{name}: {message}\n{name}: flags -d -z -t -c -k -f -q -v -s -1..-9, \
                 --fast, --best; `{name} --help' in GNU bzip2 lists them\n"
            );
            shell.write_stderr(text.as_bytes());
            return Ok(1);
        }
    };
    let mut operands = options.operands.clone();
    // No names: standard input to standard output.
    let to_stdout = options.to_stdout || operands.is_empty();
    if operands.is_empty() {
        operands.push("-".to_string());
    }
    // bzip2 pads names in its verbose lines to the longest given (at
    // least 7 characters).
    let width = operands
        .iter()
        .map(|operand| shown(operand).chars().count())
        .max()
        .unwrap_or(0)
        .max(7);
    let mut status = 0;
    for operand in &operands {
        let outcome = one(shell, name, &options, operand, to_stdout, width)?;
        status = status.max(outcome);
    }
    Ok(status)
}

/// How bzip2 names standard input in its messages.
fn shown(operand: &str) -> &str {
    if operand == "-" { "(stdin)" } else { operand }
}

/// The suffixes bzip2 knows, and what each becomes when decompressed.
const SUFFIXES: [(&str, &str); 4] = [
    (".bz2", ""),
    (".bz", ""),
    (".tbz2", ".tar"),
    (".tbz", ".tar"),
];

/// The file a compressed name decompresses to, and whether bzip2 had to
/// guess (`NAME.out`).
fn decompressed_name(operand: &str) -> (String, bool) {
    for (suffix, replacement) in SUFFIXES {
        if let Some(stem) = operand.strip_suffix(suffix)
            && !stem.is_empty()
            && !stem.ends_with('/')
        {
            return (format!("{stem}{replacement}"), false);
        }
    }
    (format!("{operand}.out"), true)
}

/// Compresses, decompresses or tests one operand; its status.
fn one(
    shell: &mut ShellView,
    name: &str,
    options: &Options,
    operand: &str,
    to_stdout: bool,
    width: usize,
) -> Result<i32, goccia_interp::Flow> {
    let complain = |shell: &mut ShellView, message: String, status: i32| {
        shell.write_stderr(format!("{name}: {message}\n").as_bytes());
        status
    };
    if operand != "-" {
        let node = shell
            .cwd()
            .resolve(operand)
            .ok()
            .and_then(|path| shell.context().vfs.lock().lookup(&path).ok());
        if matches!(node, Some(Node::Dir(_))) {
            return Ok(complain(
                shell,
                format!("Input file {operand} is a directory."),
                1,
            ));
        }
    }
    if options.action == Action::Compress && !to_stdout {
        for (suffix, _) in SUFFIXES {
            if operand.ends_with(suffix) {
                return Ok(complain(
                    shell,
                    format!("Input file {operand} already has {suffix} suffix."),
                    1,
                ));
            }
        }
    }
    let data = match open_quiet(shell, operand) {
        Ok(mut source) => match source.read_all() {
            Ok(data) => data,
            Err(error) => return shell.io_status(name, error),
        },
        Err(reason) => {
            return Ok(complain(
                shell,
                format!("Can't open input file {operand}: {reason}."),
                1,
            ));
        }
    };
    let limit = shell.context().limits.max_buffered_input;
    let padded = goccia_interp::pad::right_pad(&format!("{}:", shown(operand)), width + 1, ' ');
    let converted = match options.action {
        Action::Compress => bzip2_bytes(&data, options.level),
        Action::Decompress | Action::Test => match bunzip2_bytes(&data, limit) {
            Ok(plain) => plain,
            Err(error) => {
                let failure = undecompressable(&data, &error, shown(operand), options.action);
                if failure.after_blank_line {
                    shell.write_stderr(b"\n");
                }
                return Ok(complain(shell, failure.message, failure.status));
            }
        },
    };
    if options.action == Action::Test {
        if options.verbose {
            shell.write_stderr(format!("  {padded} ok\n").as_bytes());
        }
        return Ok(0);
    }
    if options.verbose {
        let line = match options.action {
            Action::Compress => format!("  {padded} {}\n", report(data.len(), converted.len())),
            _ => format!("  {padded} done\n"),
        };
        shell.write_stderr(line.as_bytes());
    }
    if to_stdout || operand == "-" {
        if let Err(error) = shell.write_stdout(&converted) {
            return shell.io_status(name, error);
        }
        return Ok(0);
    }
    let target = match options.action {
        Action::Compress => format!("{operand}.bz2"),
        _ => {
            let (target, guessed) = decompressed_name(operand);
            if guessed {
                shell.write_stderr(
                    format!("{name}: Can't guess original name for {operand} -- using {target}\n")
                        .as_bytes(),
                );
            }
            target
        }
    };
    let exists = shell
        .cwd()
        .resolve(&target)
        .is_ok_and(|path| shell.context().vfs.lock().lookup_link(&path).is_ok());
    if exists && !options.force {
        return Ok(complain(
            shell,
            format!("Output file {target} already exists."),
            1,
        ));
    }
    if write_output(shell, name, Some(&target), converted).is_err() {
        return Ok(1);
    }
    if !options.keep
        && let Ok(path) = shell.cwd().resolve(operand)
    {
        let _ = shell.context().vfs.lock().remove_file(&path);
    }
    Ok(0)
}

/// What bzip2 says of data it could not decompress (or test).
struct Failure {
    message: String,
    status: i32,
    /// bzip2 sets a corrupt stream's message apart with a blank line.
    after_blank_line: bool,
}

/// Why `data` could not be decompressed (or tested): not bzip2 at all,
/// cut short, or failing its checks (status 2, as bzip2 exits for corrupt
/// data); past the shell's buffered-input limit, that limit (1).
fn undecompressable(data: &[u8], error: &std::io::Error, shown: &str, action: Action) -> Failure {
    let testing = action == Action::Test;
    if error.kind() == std::io::ErrorKind::OutOfMemory {
        return Failure {
            message: format!("{shown}: {error}"),
            status: 1,
            after_blank_line: false,
        };
    }
    let magic = data.starts_with(b"BZh");
    let message = if !magic {
        if testing {
            format!("{shown}: bad magic number (file not created by bzip2)")
        } else {
            format!("{shown} is not a bzip2 file.")
        }
    } else if error.kind() == std::io::ErrorKind::UnexpectedEof {
        if testing {
            format!("{shown}: file ends unexpectedly")
        } else {
            "Compressed file ends unexpectedly;\n\tperhaps it is corrupted?".to_string()
        }
    } else if testing {
        format!("{shown}: data integrity (CRC) error in data")
    } else {
        "Data integrity error when decompressing.".to_string()
    };
    Failure {
        message,
        status: 2,
        after_blank_line: magic && !testing,
    }
}

/// bzip2's `-v` report of a compression: the ratio, bits per byte, the
/// share saved and the sizes (`0.383:1, 20.889 bits/byte, -161.11% saved,
/// 18 in, 47 out.`).
fn report(plain: usize, packed: usize) -> String {
    if plain == 0 {
        return " no data compressed.".to_string();
    }
    let (plain_f, packed_f) = (plain as f64, packed as f64);
    format!(
        "{:6.3}:1, {:6.3} bits/byte, {:5.2}% saved, {plain} in, {packed} out.",
        plain_f / packed_f,
        8.0 * packed_f / plain_f,
        100.0 * (1.0 - packed_f / plain_f)
    )
}
