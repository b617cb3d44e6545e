//! `time` as the GNU program (`command time -f '%e' cmd`, `env time`),
//! beside the shell's `time` keyword. The sandbox measures the wall
//! clock only: the CPU, memory and I/O figures of a format are 0, since
//! goccia's commands are no processes of their own with such accounts.

use std::io::Write;
use std::time::Instant;

use crate::output::open_sink_or_fail;
use goccia_interp::interp::{ExecResult, ShellView};

const DEFAULT_FORMAT: &str = "%Uuser %Ssystem %Eelapsed %PCPU (%Xavgtext+%Ddavgdata %Mmaxresident)k\n%Iinputs+%Ooutputs (%Fmajor+%Rminor)pagefaults %Wswaps";
const PORTABLE_FORMAT: &str = "real %e\nuser %U\nsys %S";
const TRY_HELP: &str = "Try 'time --help' for more information.";

/// What the options ask for.
struct TimeOptions {
    format: String,
    portable: bool,
    output: Option<String>,
    append: bool,
}

pub fn time(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let (options, first) = match read_options(args) {
        Ok(read) => read,
        Err(message) => {
            let text = format!("{message}\n{TRY_HELP}");
            return Ok(shell.fail_command("time", &text, 125));
        }
    };
    let command = &args[first..];
    if command.is_empty() {
        let text = format!("missing program to run\n{TRY_HELP}");
        return Ok(shell.fail_command("time", &text, 125));
    }
    // Opened first, as GNU `time` does: a report that cannot be written
    // is an error before anything runs.
    let mut report_file = match &options.output {
        Some(file) => match open_sink_or_fail(shell, "time", file, options.append, 125) {
            Ok(sink) => Some(sink),
            Err(status) => return Ok(status),
        },
        None => None,
    };
    let started = Instant::now();
    let status = if super::runnable(shell, &command[0]) {
        let child = shell.child_process();
        super::run_child(shell, "time", command, child)?
    } else {
        let message = format!("cannot run {}: No such file or directory", command[0]);
        shell.fail_command("time", &message, 127)
    };
    let elapsed = started.elapsed().as_secs_f64();
    let mut report = String::new();
    if status != 0 && !options.portable {
        report.push_str(&format!("Command exited with non-zero status {status}\n"));
    }
    report.push_str(&render(&options.format, elapsed, status, command));
    report.push('\n');
    match report_file.as_mut() {
        Some(sink) => {
            if let Err(error) = sink
                .write_all(report.as_bytes())
                .and_then(|()| sink.flush())
            {
                let file = options.output.as_deref().unwrap_or_default();
                return Ok(shell.fail_command("time", &format!("{file}: {error}"), 1));
            }
        }
        None => shell.write_stderr(report.as_bytes()),
    }
    Ok(status)
}

/// The options before the command (`-f FMT`, `--format=FMT`, `-p`, `-o
/// FILE`, `-a`, `-v`, `-q`), and where the command starts.
fn read_options(args: &[String]) -> Result<(TimeOptions, usize), String> {
    let mut options = TimeOptions {
        format: DEFAULT_FORMAT.to_string(),
        portable: false,
        output: None,
        append: false,
    };
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        index += 1;
        let mut value = |name: &str| {
            index += 1;
            args.get(index - 1)
                .cloned()
                .ok_or_else(|| format!("option requires an argument -- '{name}'"))
        };
        match arg.as_str() {
            "--" => break,
            "-f" => options.format = value("f")?,
            "-o" => options.output = Some(value("o")?),
            "-p" | "--portability" => {
                options.portable = true;
                options.format = PORTABLE_FORMAT.to_string();
            }
            "-a" | "--append" => options.append = true,
            // The verbose report would be all zeros but the clock; the
            // default one is kept.
            "-v" | "--verbose" | "-q" | "--quiet" => {}
            long if long.starts_with("--format=") => options.format = long[9..].to_string(),
            long if long.starts_with("--output=") => options.output = Some(long[9..].to_string()),
            option if option.starts_with("--") => {
                return Err(format!("unrecognized option '{option}'"));
            }
            option if option.starts_with('-') && option.len() > 1 => {
                let letter = option.chars().nth(1).unwrap_or('-');
                return Err(format!("invalid option -- '{letter}'"));
            }
            _ => {
                index -= 1;
                break;
            }
        }
    }
    Ok((options, index))
}

/// The report for `format`: `%e` and `%E` are the wall clock, `%x` the
/// status, `%C` the command line; the resource figures are 0.
fn render(format: &str, elapsed: f64, status: i32, command: &[String]) -> String {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        match c {
            '%' => match chars.next() {
                Some('%') => out.push('%'),
                Some('e') => out.push_str(&format!("{elapsed:.2}")),
                Some('E') => out.push_str(&clock(elapsed)),
                Some('U' | 'S') => out.push_str("0.00"),
                Some('P') => out.push_str("0%"),
                Some('x') => out.push_str(&status.to_string()),
                Some('C') => out.push_str(&command.join(" ")),
                Some(
                    'M' | 'K' | 'D' | 'p' | 'X' | 'Z' | 'F' | 'R' | 'W' | 'c' | 'w' | 'I' | 'O'
                    | 'r' | 's' | 'k' | 't',
                ) => out.push('0'),
                Some(other) => {
                    out.push_str("?%");
                    out.push(other);
                }
                None => out.push_str("?%"),
            },
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push_str("?\\");
                    out.push(other);
                }
                None => out.push_str("?\\"),
            },
            c => out.push(c),
        }
    }
    out
}

/// `%E`: `[hours:]minutes:seconds.hundredths`.
fn clock(elapsed: f64) -> String {
    let hundredths = (elapsed * 100.0).round() as u64;
    let (seconds, fraction) = (hundredths / 100, hundredths % 100);
    let (minutes, seconds) = (seconds / 60, seconds % 60);
    if minutes >= 60 {
        format!("{}:{:02}:{seconds:02}", minutes / 60, minutes % 60)
    } else {
        format!("{minutes}:{seconds:02}.{fraction:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_fill_the_clock_and_zero_the_rest() {
        let command = ["true".to_string()];
        assert_eq!(
            render("%e %M %x %C %%", 0.5, 3, &command),
            "0.50 0 3 true %"
        );
        assert_eq!(
            render("%E|\\t|\\q|%z", 61.25, 0, &command),
            "1:01.25|\t|?\\q|?%z"
        );
        assert_eq!(clock(3725.0), "1:02:05");
    }

    #[test]
    fn options_stop_at_the_command() {
        let args: Vec<String> = ["time", "-f", "%e", "-a", "ls", "-l"]
            .map(str::to_string)
            .to_vec();
        let (options, first) = read_options(&args).unwrap();
        assert_eq!(
            (options.format.as_str(), options.append, first),
            ("%e", true, 4)
        );
        let args: Vec<String> = ["time", "-z"].map(str::to_string).to_vec();
        assert_eq!(
            read_options(&args).err().as_deref(),
            Some("invalid option -- 'z'")
        );
    }
}
