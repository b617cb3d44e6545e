//! `dd`: copies blocks from a file (or standard input) to a file (or
//! standard output) as GNU coreutils' dd does: `if=`, `of=`, `bs=`, `ibs=`,
//! `obs=`, `count=`, `skip=`, `seek=`, `conv=` (`notrunc`, `sync`, `ucase`,
//! `lcase`, `swab`, `excl`, `nocreat`, `noerror`, `fsync`, `fdatasync`),
//! `iflag=`/`oflag=` (`skip_bytes`, `count_bytes`, `fullblock`, `append`,
//! `seek_bytes`), `status=` (`none`, `noxfer`, `progress`), its numbers
//! (`512`, `1k`, `1M`, `1kB`, `2w`, `4x1k`, …), its record counts and its
//! messages. Input from the VFS arrives whole, so every read but the last
//! fills its block (GNU's reads from a pipe may come up short); the time
//! and rate on the last line are the sandbox's own.

use std::time::Instant;

use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, ShellView};

/// What the operands ask for.
struct Settings {
    input: Option<String>,
    output: Option<String>,
    input_block: usize,
    output_block: usize,
    /// `bs=`: blocks are written as read, never gathered into `obs`.
    same_blocks: bool,
    count: Option<u64>,
    skip: u64,
    seek: u64,
    conversions: Conversions,
    skip_bytes: bool,
    count_bytes: bool,
    seek_bytes: bool,
    append: bool,
    status: Status,
}

#[derive(Default)]
struct Conversions {
    no_truncate: bool,
    sync: bool,
    upper: bool,
    lower: bool,
    swap: bool,
    exclusive: bool,
    no_create: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Status {
    All,
    NoTransfer,
    None,
}

/// Why the operands were refused: GNU's words, and whether its `--help`
/// hint follows.
struct Refusal(String, bool);

pub fn dd(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let settings = match parse(&args[1..]) {
        Ok(settings) => settings,
        Err(Refusal(message, hint)) => {
            let message = if hint {
                format!("{message}\nTry 'dd --help' for more information.")
            } else {
                message
            };
            return Ok(shell.fail_command("dd", &message, 1));
        }
    };
    let started = Instant::now();
    let mut source = match open_quiet(shell, settings.input.as_deref().unwrap_or("-")) {
        Ok(source) => source,
        Err(reason) => {
            let name = settings.input.as_deref().unwrap_or("-");
            return Ok(shell.fail_command("dd", &format!("failed to open '{name}': {reason}"), 1));
        }
    };
    // The file written, as it is before the copy (kept past `seek`
    // unless truncated), or None for a stream.
    let sink = match settings.output.as_deref() {
        None | Some("/dev/stdout") => Sink::Stdout,
        Some("/dev/stderr") => Sink::Stderr,
        Some("/dev/null") => Sink::Discard,
        Some(name) => match existing_output(shell, name, &settings) {
            Ok(file) => Sink::File(file),
            Err(message) => return Ok(shell.fail_command("dd", &message, 1)),
        },
    };
    let to = match &sink {
        Sink::File(file) => To::File(file.room),
        Sink::Stdout => To::Stdout,
        Sink::Stderr => To::Stderr,
        Sink::Discard => To::Nowhere,
    };
    let mut counts = Counts {
        output_block: settings.output_block,
        ..Counts::default()
    };
    // Skipping: whole input blocks (or bytes) read and dropped.
    let mut to_skip = if settings.skip_bytes {
        settings.skip
    } else {
        settings.skip.saturating_mul(settings.input_block as u64)
    };
    let mut block = vec![0u8; settings.input_block];
    while to_skip > 0 {
        shell.check_watch()?;
        let want = to_skip.min(block.len() as u64) as usize;
        let read = read_full(&mut source, &mut block[..want]);
        if read == 0 {
            break;
        }
        to_skip -= read as u64;
    }
    let mut written: Vec<u8> = Vec::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut total_in: u64 = 0;
    let mut stopped = None;
    'copy: loop {
        shell.check_watch()?;
        let want = match settings.count {
            Some(count) if settings.count_bytes => {
                let left = count.saturating_sub(total_in);
                if left == 0 {
                    break;
                }
                left.min(block.len() as u64) as usize
            }
            Some(count) if counts.full_in + counts.partial_in >= count => break,
            _ => block.len(),
        };
        let read = read_full(&mut source, &mut block[..want]);
        if read == 0 {
            break;
        }
        total_in += read as u64;
        if read == settings.input_block {
            counts.full_in += 1;
        } else {
            counts.partial_in += 1;
        }
        let mut data = block[..read].to_vec();
        if settings.conversions.sync && read < settings.input_block {
            data.resize(settings.input_block, 0);
        }
        convert(&mut data, &settings.conversions);
        if settings.same_blocks {
            if let Some(status) = emit(shell, to, &mut counts, &mut written, &data)? {
                stopped = Some(status);
                break;
            }
        } else {
            pending.extend_from_slice(&data);
            while pending.len() >= settings.output_block {
                let rest = pending.split_off(settings.output_block);
                if let Some(status) = emit(shell, to, &mut counts, &mut written, &pending)? {
                    stopped = Some(status);
                    break 'copy;
                }
                pending = rest;
            }
        }
    }
    if stopped.is_none() && !pending.is_empty() {
        stopped = emit(shell, to, &mut counts, &mut written, &pending)?;
    }
    if let Some(status) = stopped {
        // Nothing of a copy that outgrew the quota is written; the
        // records that were copied are still reported, as GNU does.
        if let (To::File(_), Some(name)) = (to, &settings.output) {
            shell.fail_command(
                "dd",
                &format!("error writing '{name}': No space left on device"),
                1,
            );
        }
        report(shell, &settings, &counts, started);
        return Ok(status);
    }
    if let (Some(name), Sink::File(file)) = (&settings.output, sink) {
        let data = file.finish(&written, &settings);
        let Ok(path) = shell.cwd().resolve(name) else {
            return Ok(shell.fail_command("dd", &format!("failed to open '{name}'"), 1));
        };
        let result = shell.context().vfs.lock().write_file(&path, data);
        if let Err(error) = result {
            return Ok(shell.fail_fs(
                "dd",
                name,
                &error,
                |reason| format!("error writing '{name}': {reason}"),
                1,
            ));
        }
    }
    report(shell, &settings, &counts, started);
    Ok(0)
}

/// The records in and out, and unless `status=noxfer` the bytes, time and
/// rate, on stderr (nothing with `status=none`).
fn report(shell: &mut ShellView, settings: &Settings, counts: &Counts, started: Instant) {
    if settings.status == Status::None {
        return;
    }
    let mut report = format!(
        "{}+{} records in\n{}+{} records out\n",
        counts.full_in, counts.partial_in, counts.full_out, counts.partial_out
    );
    if settings.status == Status::All {
        let seconds = started.elapsed().as_secs_f64();
        report.push_str(&transfer_line(counts.bytes_out, seconds));
    }
    shell.write_stderr(report.as_bytes());
}

/// Blocks read and written, whole and partial (a whole one written is
/// `output_block` long), and the bytes written.
#[derive(Default)]
struct Counts {
    output_block: usize,
    full_in: u64,
    partial_in: u64,
    full_out: u64,
    partial_out: u64,
    bytes_out: u64,
}

/// Writes one output block: to standard output at once (so a reader that
/// stops early, as `head` does, ends the copy), or into the file's new
/// bytes.
fn emit(
    shell: &mut ShellView,
    to: To,
    counts: &mut Counts,
    written: &mut Vec<u8>,
    data: &[u8],
) -> Result<Option<i32>, goccia_interp::interp::Flow> {
    match to {
        // Past what the quota leaves, the copy stops here rather than
        // gather bytes that could never be written.
        To::File(room) if (written.len() + data.len()) as u64 > room => {
            return Ok(Some(1));
        }
        To::File(_) => written.extend_from_slice(data),
        To::Nowhere => {}
        To::Stderr => shell.write_stderr(data),
        To::Stdout => {
            if let Err(error) = shell.write_stdout(data) {
                return shell.io_status("dd", error).map(Some);
            }
        }
    }
    counts.bytes_out += data.len() as u64;
    if data.len() == counts.output_block {
        counts.full_out += 1;
    } else {
        counts.partial_out += 1;
    }
    Ok(None)
}

/// Where the copy goes: `of=`'s file, a standard stream (no `of=`,
/// `/dev/stdout`, `/dev/stderr`), or nowhere (`/dev/null`).
enum Sink {
    File(OutputFile),
    Stdout,
    Stderr,
    Discard,
}

/// [`Sink`] without the file, for each block written (with the room the
/// quota leaves the file).
#[derive(Clone, Copy)]
enum To {
    File(u64),
    Stdout,
    Stderr,
    Nowhere,
}

/// The file `of=` names, before the copy.
struct OutputFile {
    before: Vec<u8>,
    /// Bytes the quota leaves for what the copy writes.
    room: u64,
}

impl OutputFile {
    /// The file after the copy: what was there up to the seek offset (or
    /// all of it with `oflag=append`), the copied bytes, then — only with
    /// `conv=notrunc` — what was there past them.
    fn finish(self, written: &[u8], settings: &Settings) -> Vec<u8> {
        let mut data = self.before;
        let offset = if settings.append {
            data.len()
        } else if settings.seek_bytes {
            settings.seek as usize
        } else {
            (settings.seek as usize).saturating_mul(settings.output_block)
        };
        let end = offset + written.len();
        if data.len() < offset {
            data.resize(offset, 0);
        }
        if settings.conversions.no_truncate && !settings.append {
            if data.len() < end {
                data.resize(end, 0);
            }
            data[offset..end].copy_from_slice(written);
        } else {
            data.truncate(offset);
            data.extend_from_slice(written);
        }
        data
    }
}

fn existing_output(
    shell: &mut ShellView,
    name: &str,
    settings: &Settings,
) -> Result<OutputFile, String> {
    let path = shell
        .cwd()
        .resolve(name)
        .map_err(|_| format!("failed to open '{name}': No such file or directory"))?;
    let vfs = shell.context().vfs.lock();
    match vfs.read_file(&path) {
        Ok(_) if settings.conversions.exclusive => {
            Err(format!("failed to open '{name}': File exists"))
        }
        Ok(data) => Ok(OutputFile {
            before: data.to_vec(),
            room: vfs.remaining().max_bytes.saturating_add(data.len() as u64),
        }),
        Err(error) if error.errno == goccia_vfs::Errno::NoEnt => {
            if settings.conversions.no_create {
                Err(format!(
                    "failed to open '{name}': No such file or directory"
                ))
            } else {
                Ok(OutputFile {
                    before: Vec::new(),
                    room: vfs.remaining().max_bytes,
                })
            }
        }
        Err(error) => Err(format!("failed to open '{name}': {}", error.reason())),
    }
}

/// Reads until `buffer` is full or the input ends (the input is a file or
/// a stream the sandbox holds: a short read means its end; a read error
/// ends it too, as the end of what could be read).
fn read_full(source: &mut goccia_interp::input::Source, buffer: &mut [u8]) -> usize {
    let mut filled = 0;
    while filled < buffer.len() {
        match source.read_some(&mut buffer[filled..]) {
            Ok(0) | Err(_) => break,
            Ok(read) => filled += read,
        }
    }
    filled
}

fn convert(data: &mut [u8], conversions: &Conversions) {
    if conversions.swap {
        for pair in data.chunks_exact_mut(2) {
            pair.swap(0, 1);
        }
    }
    if conversions.upper {
        data.make_ascii_uppercase();
    } else if conversions.lower {
        data.make_ascii_lowercase();
    }
}

fn parse(operands: &[String]) -> Result<Settings, Refusal> {
    let mut settings = Settings {
        input: None,
        output: None,
        input_block: 512,
        output_block: 512,
        same_blocks: false,
        count: None,
        skip: 0,
        seek: 0,
        conversions: Conversions::default(),
        skip_bytes: false,
        count_bytes: false,
        seek_bytes: false,
        append: false,
        status: Status::All,
    };
    let mut block_size = None;
    for operand in operands {
        let Some((key, value)) = operand.split_once('=') else {
            return Err(Refusal(
                format!("unrecognized operand \u{2018}{operand}\u{2019}"),
                true,
            ));
        };
        match key {
            "if" => settings.input = Some(value.to_string()),
            "of" => settings.output = Some(value.to_string()),
            "bs" => block_size = Some(block(value)?),
            "ibs" => settings.input_block = block(value)?,
            "obs" => settings.output_block = block(value)?,
            "count" => settings.count = Some(number(value)?),
            "skip" | "iseek" => settings.skip = number(value)?,
            "seek" | "oseek" => settings.seek = number(value)?,
            "conv" => {
                for word in value.split(',') {
                    let conversions = &mut settings.conversions;
                    match word {
                        "notrunc" => conversions.no_truncate = true,
                        "sync" => conversions.sync = true,
                        "ucase" => conversions.upper = true,
                        "lcase" => conversions.lower = true,
                        "swab" => conversions.swap = true,
                        "excl" => conversions.exclusive = true,
                        "nocreat" => conversions.no_create = true,
                        // Nothing to sync or to stop on in memory.
                        "noerror" | "fsync" | "fdatasync" | "sparse" => {}
                        _ => {
                            return Err(Refusal(
                                format!("invalid conversion: \u{2018}{word}\u{2019}"),
                                true,
                            ));
                        }
                    }
                }
            }
            "iflag" | "oflag" => {
                for word in value.split(',') {
                    match (key, word) {
                        ("iflag", "skip_bytes") => settings.skip_bytes = true,
                        ("iflag", "count_bytes") => settings.count_bytes = true,
                        ("oflag", "seek_bytes") => settings.seek_bytes = true,
                        ("oflag", "append") => settings.append = true,
                        // Reads fill their block here already; the rest
                        // concern the host's caches and devices.
                        (
                            _,
                            "fullblock" | "direct" | "dsync" | "sync" | "nocache" | "nonblock"
                            | "noatime" | "noctty" | "nofollow",
                        ) => {}
                        _ => {
                            let which = if key == "iflag" { "input" } else { "output" };
                            return Err(Refusal(
                                format!("invalid {which} flag: \u{2018}{word}\u{2019}"),
                                true,
                            ));
                        }
                    }
                }
            }
            "status" => {
                settings.status = match value {
                    "none" => Status::None,
                    "noxfer" => Status::NoTransfer,
                    "progress" => Status::All,
                    _ => {
                        return Err(Refusal(
                            format!("invalid status level: \u{2018}{value}\u{2019}"),
                            true,
                        ));
                    }
                };
            }
            _ => {
                return Err(Refusal(
                    format!("unrecognized operand \u{2018}{operand}\u{2019}"),
                    true,
                ));
            }
        }
    }
    if let Some(size) = block_size {
        settings.input_block = size;
        settings.output_block = size;
        settings.same_blocks = true;
    }
    Ok(settings)
}

/// A block size: a number above zero, and small enough to hold in memory
/// (GNU refuses sizes its buffers cannot take in the same words).
fn block(text: &str) -> Result<usize, Refusal> {
    const LARGEST: u64 = 1 << 30;
    match number(text)? {
        0 => Err(invalid(text)),
        size if size > LARGEST => Err(Refusal(
            format!(
                "invalid number: \u{2018}{text}\u{2019}: Value too large for defined data type"
            ),
            false,
        )),
        size => Ok(size as usize),
    }
}

/// dd's numbers: digits with an optional suffix (`c` 1, `w` 2, `b` 512,
/// `k`/`K` 1024, `kB` 1000, `M`, `MB`, `G`, …), multiplied by `x`.
fn number(text: &str) -> Result<u64, Refusal> {
    text.split('x').try_fold(1u64, |product, factor| {
        let value = match factor.strip_suffix('w') {
            Some(digits) if digits.bytes().all(|b| b.is_ascii_digit()) && !digits.is_empty() => {
                digits.parse::<u64>().ok().and_then(|n| n.checked_mul(2))
            }
            _ => {
                let factor = factor
                    .strip_suffix('k')
                    .map_or_else(|| factor.to_string(), |digits| format!("{digits}K"));
                crate::args::parse_size_suffix(&factor)
            }
        };
        value
            .filter(|_| !factor.is_empty() && factor.starts_with(|c: char| c.is_ascii_digit()))
            .and_then(|value| product.checked_mul(value))
            .ok_or_else(|| invalid(text))
    })
}

fn invalid(text: &str) -> Refusal {
    Refusal(format!("invalid number: \u{2018}{text}\u{2019}"), false)
}

/// `N bytes (SI, IEC) copied, T s, R/s`, as GNU dd words it.
fn transfer_line(bytes: u64, seconds: f64) -> String {
    let si = human(bytes as f64, 1000.0, &["kB", "MB", "GB", "TB", "PB", "EB"]);
    let iec = human(
        bytes as f64,
        1024.0,
        &["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"],
    );
    let sizes = match (si, iec) {
        (None, _) => String::new(),
        (Some(si), None) => format!(" ({si})"),
        (Some(si), Some(iec)) => format!(" ({si}, {iec})"),
    };
    let seconds = seconds.max(1e-9);
    let rate = bytes as f64 / seconds;
    let rate = human(rate, 1000.0, &["kB", "MB", "GB", "TB", "PB", "EB"])
        .unwrap_or_else(|| format!("{} B", rate.round()));
    let time = goccia_interp::printf::format_float(seconds, 'g', "", "", None);
    format!("{bytes} bytes{sizes} copied, {time} s, {rate}/s\n")
}

/// `value` scaled to the largest unit it reaches (one decimal below 100),
/// or None below the first unit.
fn human(value: f64, base: f64, units: &[&str]) -> Option<String> {
    let mut scaled = value;
    let mut unit = None;
    for name in units {
        if scaled < base {
            break;
        }
        scaled /= base;
        unit = Some(*name);
    }
    let unit = unit?;
    Some(if scaled < 100.0 {
        format!("{scaled:.1} {unit}")
    } else {
        format!("{scaled:.0} {unit}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_take_dd_suffixes_and_products() {
        let n = |text: &str| number(text).ok();
        assert_eq!(n("512"), Some(512));
        assert_eq!(n("1k"), Some(1024));
        assert_eq!(n("1K"), Some(1024));
        assert_eq!(n("1kB"), Some(1000));
        assert_eq!(n("2w"), Some(4));
        assert_eq!(n("2x3"), Some(6));
        assert_eq!(n("4x1k"), Some(4096));
        assert_eq!(n("1b"), Some(512));
        assert_eq!(n("x"), None);
        assert_eq!(n(""), None);
        assert_eq!(n("1q"), None);
    }

    #[test]
    fn transfer_lines_name_sizes_as_gnu() {
        assert!(transfer_line(8, 0.001).starts_with("8 bytes copied, 0.001 s, 8.0 kB/s"));
        assert!(transfer_line(1000, 1.0).starts_with("1000 bytes (1.0 kB) copied"));
        assert!(transfer_line(1024, 1.0).starts_with("1024 bytes (1.0 kB, 1.0 KiB) copied"));
        assert!(transfer_line(3 << 20, 1.0).starts_with("3145728 bytes (3.1 MB, 3.0 MiB)"));
    }
}
