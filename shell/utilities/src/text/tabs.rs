//! `expand` and `unexpand`: tabs to spaces and back, with GNU's tab stops
//! (`-t N`, or a list `-t 4,10,20`; the obsolete `-N`), `expand -i`
//! (leading tabs only), `unexpand -a` (every run of blanks, not only
//! leading ones; `-t` implies it unless `--first-only`), and backspaces
//! moving the column back. Checked byte for byte against GNU coreutils in
//! the differential tests.

use crate::text::lines::filter_lines as filter;
use goccia_interp::interp::{ExecResult, ShellView};

/// Where tabs stop.
#[derive(Debug, PartialEq, Eq)]
enum Stops {
    /// Every `n` columns.
    Every(usize),
    /// At these columns (ascending); past the last, there is none.
    At(Vec<usize>),
}

impl Stops {
    /// The first stop after `column`, or `None` past the last of a list.
    fn next(&self, column: usize) -> Option<usize> {
        match self {
            Stops::Every(size) => Some(column - column % size + size),
            Stops::At(list) => list.iter().copied().find(|stop| *stop > column),
        }
    }
}

/// `-t`'s value: a size, or a list separated by commas or blanks.
fn parse_stops(text: &str) -> Result<Stops, String> {
    let mut list = Vec::new();
    for item in text.split([',', ' ', '\t']).filter(|item| !item.is_empty()) {
        let value: usize = item
            .parse()
            .map_err(|_| format!("tab size contains invalid character(s): '{item}'"))?;
        if value == 0 {
            return Err("tab size cannot be 0".to_string());
        }
        if list.last().is_some_and(|last| *last >= value) {
            return Err("tab sizes must be ascending".to_string());
        }
        list.push(value);
    }
    Ok(match list.as_slice() {
        [] => Stops::Every(8),
        [size] => Stops::Every(*size),
        _ => Stops::At(list),
    })
}

/// The options both commands share: the obsolete `-N[,N...]` form becomes
/// `-t`, and what is left goes through the usual option parser.
struct Parsed {
    stops: Option<String>,
    /// Given with `-t`/`--tabs` (not only the obsolete `-N`).
    tabs_option: bool,
    flags: Vec<char>,
    operands: Vec<String>,
}

fn parse(shell: &mut ShellView, name: &str, args: &[String]) -> Result<Parsed, i32> {
    let mut stops: Vec<String> = Vec::new();
    let mut tabs_option = false;
    let mut iter = args[1..].iter();
    let mut only_operands = false;
    let mut operands = Vec::new();
    let mut flags = Vec::new();
    while let Some(arg) = iter.next() {
        if only_operands || arg == "-" || !arg.starts_with('-') {
            operands.push(arg.clone());
            continue;
        }
        if arg == "--" {
            only_operands = true;
            continue;
        }
        if let Some(digits) = arg
            .strip_prefix('-')
            .filter(|d| d.starts_with(|c: char| c.is_ascii_digit()))
        {
            stops.push(digits.to_string());
            continue;
        }
        let value = |inline: &str, iter: &mut std::slice::Iter<'_, String>| {
            if inline.is_empty() {
                iter.next().cloned()
            } else {
                Some(inline.to_string())
            }
        };
        if let Some(inline) = arg.strip_prefix("--tabs") {
            let inline = inline.strip_prefix('=').unwrap_or(inline);
            match value(inline, &mut iter) {
                Some(v) => stops.push(v),
                None => return Err(usage(shell, name, "option '--tabs' requires an argument")),
            }
            tabs_option = true;
            continue;
        }
        match arg.as_str() {
            "--initial" => flags.push('i'),
            "--all" => flags.push('a'),
            "--first-only" => flags.push('f'),
            long if long.starts_with("--") => {
                return Err(usage(shell, name, &format!("unrecognized option '{long}'")));
            }
            short => {
                let chars: Vec<char> = short[1..].chars().collect();
                let mut j = 0;
                while j < chars.len() {
                    match chars[j] {
                        't' => {
                            let inline: String = chars[j + 1..].iter().collect();
                            tabs_option = true;
                            match value(&inline, &mut iter) {
                                Some(v) => stops.push(v),
                                None => {
                                    return Err(usage(
                                        shell,
                                        name,
                                        "option requires an argument -- 't'",
                                    ));
                                }
                            }
                            j = chars.len();
                            continue;
                        }
                        'i' if name == "expand" => flags.push('i'),
                        'a' if name == "unexpand" => flags.push('a'),
                        other => {
                            return Err(usage(
                                shell,
                                name,
                                &format!("invalid option -- '{other}'"),
                            ));
                        }
                    }
                    j += 1;
                }
            }
        }
    }
    Ok(Parsed {
        stops: (!stops.is_empty()).then(|| stops.join(",")),
        tabs_option,
        flags,
        operands,
    })
}

fn usage(shell: &mut ShellView, name: &str, message: &str) -> i32 {
    shell.fail_command(
        name,
        &format!("{message}\nTry '{name} --help' for more information."),
        1,
    )
}

pub fn expand(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = match parse(shell, "expand", args) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let stops = match parse_stops(parsed.stops.as_deref().unwrap_or("8")) {
        Ok(stops) => stops,
        Err(message) => return Ok(usage(shell, "expand", &message)),
    };
    let initial = parsed.flags.contains(&'i');
    filter(shell, "expand", &parsed.operands, |line, out| {
        expand_line(line, &stops, initial, out)
    })
}

fn expand_line(line: &[u8], stops: &Stops, initial: bool, out: &mut Vec<u8>) {
    let mut column = 0usize;
    let mut leading = true;
    for &byte in line {
        match byte {
            b'\t' if !initial || leading => match stops.next(column) {
                Some(stop) => {
                    out.resize(out.len() + (stop - column), b' ');
                    column = stop;
                }
                // Past the last stop of a list: one space.
                None => {
                    out.push(b' ');
                    column += 1;
                }
            },
            b'\x08' => {
                out.push(byte);
                column = column.saturating_sub(1);
                leading = false;
            }
            b'\n' => {
                out.push(byte);
                column = 0;
                leading = true;
            }
            _ => {
                if byte != b' ' {
                    leading = false;
                }
                out.push(byte);
                column += 1;
            }
        }
    }
}

pub fn unexpand(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = match parse(shell, "unexpand", args) {
        Ok(parsed) => parsed,
        Err(status) => return Ok(status),
    };
    let stops = match parse_stops(parsed.stops.as_deref().unwrap_or("8")) {
        Ok(stops) => stops,
        Err(message) => return Ok(usage(shell, "unexpand", &message)),
    };
    // `-t` converts every run, as `-a` does, unless `--first-only`.
    let all = (parsed.flags.contains(&'a') || parsed.tabs_option) && !parsed.flags.contains(&'f');
    filter(shell, "unexpand", &parsed.operands, |line, out| {
        Unexpander::new(&stops, all).line(line, out)
    })
}

/// One line of `unexpand`: runs of blanks that reach a tab stop become a
/// tab; a lone space just before a stop stays a space unless more blanks
/// follow it; a tab ends the run at its stop. Converting stops at the
/// first non-blank unless `all`, and past the last stop of a list.
struct Unexpander<'a> {
    stops: &'a Stops,
    all: bool,
    column: usize,
    /// Blanks read but not yet written: whether they become a tab is known
    /// only when the run reaches a stop or ends.
    pending: Vec<u8>,
    /// The pending run holds one blank that ended exactly at a stop.
    lone_blank_at_stop: bool,
    previous_blank: bool,
    converting: bool,
}

impl<'a> Unexpander<'a> {
    fn new(stops: &'a Stops, all: bool) -> Self {
        Unexpander {
            stops,
            all,
            column: 0,
            pending: Vec::new(),
            lone_blank_at_stop: false,
            previous_blank: false,
            converting: true,
        }
    }

    fn line(mut self, line: &[u8], out: &mut Vec<u8>) {
        for &byte in line {
            let mut byte = byte;
            let blank = byte == b' ' || byte == b'\t';
            if self.converting {
                if blank {
                    match self.stops.next(self.column) {
                        None => self.converting = false,
                        Some(stop) => {
                            if byte == b'\t' {
                                self.column = stop;
                                if let Some(first) = self.pending.first_mut() {
                                    *first = b'\t';
                                }
                            } else {
                                self.column += 1;
                                if !(self.previous_blank && self.column == stop) {
                                    if self.column == stop {
                                        self.lone_blank_at_stop = true;
                                    }
                                    self.pending.push(byte);
                                    self.previous_blank = true;
                                    continue;
                                }
                                // The run reached a stop: one tab for it.
                                byte = b'\t';
                                if let Some(first) = self.pending.first_mut() {
                                    *first = b'\t';
                                }
                            }
                            // What the run was is replaced by the tab; a
                            // lone blank before the previous stop was a
                            // tab's worth of its own.
                            self.pending.truncate(usize::from(self.lone_blank_at_stop));
                        }
                    }
                } else if byte == b'\x08' {
                    // Back one column; the pending run is written out.
                    self.column = self.column.saturating_sub(1);
                } else {
                    self.column += 1;
                }
                if !self.pending.is_empty() {
                    if self.pending.len() > 1 && self.lone_blank_at_stop {
                        self.pending[0] = b'\t';
                    }
                    out.append(&mut self.pending);
                    self.lone_blank_at_stop = false;
                }
                self.previous_blank = blank;
                self.converting &= self.all || blank;
            }
            out.push(byte);
        }
        // Blanks still pending at the end of input (a last line without a
        // newline) are written as before any other byte.
        if self.pending.len() > 1 && self.lone_blank_at_stop {
            self.pending[0] = b'\t';
        }
        out.append(&mut self.pending);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unexpand_text(text: &str, stops: &str, all: bool) -> String {
        let stops = parse_stops(stops).unwrap();
        let mut out = Vec::new();
        for line in text.split_inclusive('\n') {
            Unexpander::new(&stops, all).line(line.as_bytes(), &mut out);
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn stops_parse_as_gnu_reads_them() {
        assert_eq!(parse_stops("4").unwrap(), Stops::Every(4));
        assert_eq!(parse_stops("2,5 9").unwrap(), Stops::At(vec![2, 5, 9]));
        assert_eq!(parse_stops("0").unwrap_err(), "tab size cannot be 0");
        assert_eq!(
            parse_stops("5,3").unwrap_err(),
            "tab sizes must be ascending"
        );
        assert!(parse_stops("x").unwrap_err().contains("invalid character"));
    }

    #[test]
    fn runs_reaching_a_stop_become_tabs() {
        assert_eq!(unexpand_text("        a\n", "8", false), "\ta\n");
        assert_eq!(
            unexpand_text("        a        b\n", "8", false),
            "\ta        b\n"
        );
        assert_eq!(unexpand_text("        a       b\n", "8", true), "\ta\tb\n");
        // A lone space before a stop stays a space.
        assert_eq!(unexpand_text("abcdefg b\n", "8", true), "abcdefg b\n");
    }
}
