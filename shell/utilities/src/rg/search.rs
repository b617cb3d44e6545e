//! Searching the chosen files with ripgrep's own matcher, searcher and
//! printers (`grep-regex`, `grep-searcher`, `grep-printer`): the output is
//! ripgrep's, byte for byte, for the standard, summary and JSON formats.

use std::io;
use std::path::Path;
use std::time::Instant;

use grep_printer::{JSONBuilder, StandardBuilder, Stats, SummaryBuilder, SummaryKind};
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};
use termcolor::NoColor;

use super::options::{Case, Mode, Options};
use super::walk::Subject;
use goccia_interp::input::Source;
use goccia_interp::interp::ShellView;

/// The matcher the patterns make, as ripgrep builds it.
pub fn matcher(options: &Options, patterns: &[String]) -> Result<RegexMatcher, String> {
    let mut builder = RegexMatcherBuilder::new();
    builder
        .case_insensitive(options.case == Case::Insensitive)
        .case_smart(options.case == Case::Smart)
        .fixed_strings(options.fixed)
        .word(options.word)
        .whole_line(options.line)
        .multi_line(true)
        .dot_matches_new_line(options.multiline && options.multiline_dotall)
        .unicode(true)
        .octal(false);
    if !options.multiline {
        builder.line_terminator(Some(b'\n'));
    }
    match patterns {
        [one] => builder
            .build(one)
            .map_err(|error| unwrapped(&error.to_string(), one)),
        many => builder.build_many(many).map_err(|error| error.to_string()),
    }
}

/// The regex crate's report for one pattern, as ripgrep 13 shows it: the
/// pattern as written, not inside the `(?:...)` the matcher builder adds,
/// with the caret moved back under it.
fn unwrapped(report: &str, pattern: &str) -> String {
    let wrapped = format!("(?:{pattern})");
    let mut lines: Vec<String> = report.lines().map(str::to_string).collect();
    if let Some(at) = lines.iter().position(|line| line.trim_start() == wrapped) {
        lines[at] = lines[at].replacen(&wrapped, pattern, 1);
        if let Some(caret) = lines.get_mut(at + 1) {
            let indent = caret.len() - caret.trim_start().len();
            let shifted = indent.saturating_sub(3).max(4);
            *caret = format!("{}{}", " ".repeat(shifted), caret.trim_start());
        }
        return lines.join("\n");
    }
    report.to_string()
}

fn searcher(options: &Options, subject: &Subject, line_numbers: bool) -> Searcher {
    let binary = if options.text {
        BinaryDetection::none()
    } else if subject.explicit {
        // Named files and stdin: searched, with a note that they are binary.
        BinaryDetection::convert(b'\0')
    } else {
        // Walked files: left at the first NUL, as ripgrep does.
        BinaryDetection::quit(b'\0')
    };
    SearcherBuilder::new()
        .line_number(line_numbers)
        .multi_line(options.multiline)
        .invert_match(options.invert)
        .after_context(options.after)
        .before_context(options.before)
        .max_matches(options.max_count)
        .binary_detection(binary)
        .build()
}

/// How a whole search went.
pub struct Outcome {
    pub matched: bool,
    pub errored: bool,
}

/// Searches every subject, writing as ripgrep would; a closed stdout ends
/// the search quietly (ripgrep exits 0 on a broken pipe).
pub fn search_all(
    shell: &mut ShellView,
    options: &Options,
    matcher: &RegexMatcher,
    subjects: &[Subject],
    show_path: bool,
) -> io::Result<Outcome> {
    let started = Instant::now();
    let line_numbers = options.line_numbers.unwrap_or(false) || options.mode == Mode::Json;
    let mut outcome = Outcome {
        matched: false,
        errored: false,
    };
    let mut total = Stats::new();
    let terminator = options.null.then_some(b'\0');
    // Between files: a blank line under headings, `--` with context, as
    // ripgrep sets its printer.
    let between = if options.heading {
        Some(Vec::new())
    } else if options.after > 0 || options.before > 0 {
        Some(b"--".to_vec())
    } else {
        None
    };
    let mut standard = StandardBuilder::new()
        .separator_search(between)
        .heading(options.heading)
        .path(show_path)
        .only_matching(options.only_matching)
        .column(options.column)
        .byte_offset(options.byte_offset)
        .trim_ascii(options.trim)
        .per_match(options.vimgrep)
        .replacement(options.replace.clone().map(String::into_bytes))
        .path_terminator(terminator)
        .build(NoColor::new(Vec::new()));
    let summary_kind = match options.mode {
        Mode::Count => Some(SummaryKind::Count),
        Mode::CountMatches => Some(SummaryKind::CountMatches),
        Mode::FilesWithMatches => Some(SummaryKind::PathWithMatch),
        Mode::FilesWithoutMatch => Some(SummaryKind::PathWithoutMatch),
        Mode::Quiet => Some(SummaryKind::Quiet),
        _ => None,
    };
    let mut summary = SummaryBuilder::new()
        .kind(summary_kind.unwrap_or(SummaryKind::Count))
        .path(show_path)
        .path_terminator(terminator)
        .build(NoColor::new(Vec::new()));
    let mut json = JSONBuilder::new().build(Vec::new());
    for subject in subjects {
        if let Err(stop) = shell.check_stop() {
            return Err(stop.into_io());
        }
        let data = match &subject.path {
            Some(path) => match shell.context().vfs.lock().read_file(path) {
                Ok(data) => data,
                Err(error) => {
                    let shown = &subject.shown;
                    shell.write_stderr(
                        format!(
                            "{shown}: IO error for operation on {shown}: {}\n",
                            error.reason()
                        )
                        .as_bytes(),
                    );
                    outcome.errored = true;
                    continue;
                }
            },
            None => bytes::Bytes::from(Source::stdin(shell).read_all()?),
        };
        let mut searcher = searcher(options, subject, line_numbers);
        let path = Path::new(&subject.shown);
        let (found, written) = match options.mode {
            Mode::Json => {
                let mut sink = json.sink_with_path(matcher, path);
                searcher
                    .search_slice(matcher, &data, &mut sink)
                    .map_err(io::Error::other)?;
                total += sink.stats();
                let found = sink.has_match();
                (found, std::mem::take(json.get_mut()))
            }
            _ if summary_kind.is_some() => {
                let mut sink = summary.sink_with_path(matcher, path);
                searcher
                    .search_slice(matcher, &data, &mut sink)
                    .map_err(io::Error::other)?;
                let found = sink.has_match();
                (found, std::mem::take(summary.get_mut().get_mut()))
            }
            _ => {
                let mut sink = standard.sink_with_path(matcher, path);
                searcher
                    .search_slice(matcher, &data, &mut sink)
                    .map_err(io::Error::other)?;
                let found = sink.has_match();
                (found, std::mem::take(standard.get_mut().get_mut()))
            }
        };
        outcome.matched |= found;
        if let Err(error) = shell.write_stdout(&written) {
            if error.kind() == io::ErrorKind::BrokenPipe {
                return Ok(outcome);
            }
            return Err(error);
        }
        if options.mode == Mode::Quiet && outcome.matched {
            break;
        }
    }
    if options.mode == Mode::Json {
        total.add_elapsed(started.elapsed());
        let elapsed = started.elapsed();
        // ripgrep 13 writes this message through a JSON value: its keys
        // come out sorted.
        let message = serde_json::json!({
            "type": "summary",
            "data": {
                "elapsed_total": {
                    "secs": elapsed.as_secs(),
                    "nanos": elapsed.subsec_nanos(),
                    "human": format!("{:.6}s", elapsed.as_secs_f64()),
                },
                "stats": serde_json::to_value(&total).map_err(io::Error::other)?,
            },
        });
        let mut out = serde_json::to_vec(&message).map_err(io::Error::other)?;
        out.push(b'\n');
        if let Err(error) = shell.write_stdout(&out)
            && error.kind() != io::ErrorKind::BrokenPipe
        {
            return Err(error);
        }
    }
    Ok(outcome)
}
