//! `iconv`: text from one character set to another, as glibc 2.36's
//! `iconv` converts it — its names for the sets, its byte-order marks, its
//! messages and statuses, `-c`, `//IGNORE` and `//TRANSLIT` (the common
//! replacements of its C.UTF-8 locale: `translit`). The sets are in
//! `charset`.

mod charset;
mod translit;

use charset::{Charset, Stop, Writer};

use crate::args::parse_options;
use goccia_interp::interp::{ExecResult, ShellView};

/// What the target name asks for after `//`.
#[derive(Default)]
struct Suffixes {
    translit: bool,
    ignore: bool,
}

pub fn iconv(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "fto",
        &[
            ("from-code", 'f', true),
            ("to-code", 't', true),
            ("output", 'o', true),
            ("list", 'l', false),
            ("silent", 's', false),
            ("verbose", 'V', false),
        ]
    );
    if parsed.has('l') {
        let list = "ANSI_X3.4-1968, ASCII, ISO-8859-1, LATIN1, UTF-8, UTF-16, UTF-16BE, \
                    UTF-16LE, UTF-32, UTF-32BE, UTF-32LE, and the WHATWG encodings \
                    (WINDOWS-1250 ... WINDOWS-1258, ISO-8859-2 ... ISO-8859-16, KOI8-R, \
                    KOI8-U, IBM866, MACINTOSH, SHIFT_JIS, EUC-JP, ISO-2022-JP, EUC-KR, \
                    GBK, GB18030, BIG5)\n";
        return crate::args::print_text(shell, "iconv", list, 0);
    }
    let locale = if shell.bytewise_locale() {
        "ANSI_X3.4-1968"
    } else {
        "UTF-8"
    };
    let from_name = parsed.value('f').unwrap_or(locale).to_string();
    let to_text = parsed.value('t').unwrap_or(locale).to_string();
    let (from_base, _) = split_suffixes(&from_name);
    let (to_base, suffixes) = split_suffixes(&to_text);
    let (from, to) = match (Charset::named(from_base), Charset::named(to_base)) {
        (Some(from), Some(to)) => (from, to),
        (None, None) => {
            let message =
                format!("conversions from `{from_base}' and to `{to_base}' are not supported");
            return Ok(shell.fail_command("iconv", &message, 1));
        }
        (None, _) => {
            let message = format!("conversion from `{from_base}' is not supported");
            return Ok(shell.fail_command("iconv", &message, 1));
        }
        (_, None) => {
            let message = format!("conversion to `{to_base}' is not supported");
            return Ok(shell.fail_command("iconv", &message, 1));
        }
    };
    let skip = parsed.has('c') || suffixes.ignore;
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    let mut out = to.preamble().to_vec();
    let mut writer = Writer::new(to);
    let mut status = 0;
    // `//IGNORE` (without `-c`) fails at the end where something was left
    // out, naming the end of the input, as glibc does.
    let mut left_out = None;
    for operand in &operands {
        let input = match goccia_interp::input::open_quiet(shell, operand)
            .and_then(|mut source| source.read_all().map_err(|_| "Input/output error"))
        {
            Ok(input) => input,
            Err(reason) => {
                let message = format!("cannot open input file `{operand}': {reason}");
                status = shell.fail_command("iconv", &message, 1);
                continue;
            }
        };
        let (chars, stop) = from.decode(&input, skip);
        if stop == Some(Stop::Skipped) {
            left_out = Some(input.len());
        }
        let mut failed_at = None;
        for &(c, offset) in &chars {
            if writer.push(c, &mut out) {
                continue;
            }
            if suffixes.translit {
                let fits = |text: &str| text.chars().all(|c| to.encode(c, &mut Vec::new()));
                for replacement in translit::transliterate(c, fits).chars() {
                    writer.push(replacement, &mut out);
                }
            } else if skip {
                left_out = Some(input.len());
            } else {
                failed_at = Some(offset);
                break;
            }
        }
        let message = match (failed_at, stop) {
            (Some(offset), _) | (None, Some(Stop::Illegal(offset))) => {
                format!("illegal input sequence at position {offset}")
            }
            (None, Some(Stop::Incomplete)) => {
                "incomplete character or shift sequence at end of buffer".to_string()
            }
            (None, None | Some(Stop::Skipped)) => {
                // What each input made is written before the next is read
                // (and before a message about it).
                if parsed.value('o').is_none() {
                    if let Some(failed) = flush(shell, None, &out) {
                        return failed;
                    }
                    out.clear();
                }
                continue;
            }
        };
        writer.finish(&mut out);
        if let Some(failed) = flush(shell, parsed.value('o'), &out) {
            return failed;
        }
        return Ok(shell.fail_command("iconv", &message, 1));
    }
    writer.finish(&mut out);
    if let Some(failed) = flush(shell, parsed.value('o'), &out) {
        return failed;
    }
    if let Some(end) = left_out.filter(|_| suffixes.ignore && !parsed.has('c')) {
        let message = format!("illegal input sequence at position {end}");
        return Ok(shell.fail_command("iconv", &message, 1));
    }
    Ok(status)
}

/// `UTF-8//TRANSLIT//IGNORE`: the set's name and what follows it.
fn split_suffixes(name: &str) -> (&str, Suffixes) {
    let mut parts = name.split("//");
    let base = parts.next().unwrap_or("");
    let mut suffixes = Suffixes::default();
    for part in parts.flat_map(|part| part.split(',')) {
        match part.to_ascii_uppercase().as_str() {
            "TRANSLIT" => suffixes.translit = true,
            "IGNORE" => suffixes.ignore = true,
            _ => {}
        }
    }
    (base, suffixes)
}

/// Writes what was converted to stdout or to `-o`'s file; on failure, how
/// the command ends (the message is written).
fn flush(shell: &mut ShellView, output: Option<&str>, out: &[u8]) -> Option<ExecResult> {
    let Some(output) = output else {
        return shell
            .write_stdout(out)
            .err()
            .map(|error| shell.io_status("iconv", error));
    };
    let cannot_open = |reason: &str| format!("cannot open output file `{output}': {reason}");
    let Ok(path) = shell.cwd().resolve(output) else {
        let message = cannot_open("No such file or directory");
        return Some(Ok(shell.fail_command("iconv", &message, 1)));
    };
    let written = shell.context().vfs.lock().write_file(&path, out.to_vec());
    written
        .err()
        .map(|error| Ok(shell.fail_fs("iconv", output, &error, cannot_open, 1)))
}
