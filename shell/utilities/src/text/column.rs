//! `column`, as util-linux 2.38 lays text out. Without `-t`, entries fill
//! columns (or rows with `-x`) in tab stops to the width (`-c`, 80). With
//! `-t`, a table: cells split at blanks or `-s`'s characters, every column
//! as wide as its widest cell, rows filled out to the widest row, the last
//! column never padded; `-N` names columns, which `-R`, `-H`, `-O` and
//! `-J` (JSON) then refer to.

use crate::args::{getopt, usage};
use crate::text::sort::read_lines;
use goccia_interp::interp::{ExecResult, ShellView};

const TAB: usize = 8;

#[derive(Default)]
struct Settings {
    table: bool,
    /// `-s`: the characters cells are split at (each one a separator).
    separators: Option<Vec<char>>,
    output_separator: String,
    width: usize,
    fill_rows: bool,
    names: Vec<String>,
    right: Vec<String>,
    hide: Vec<String>,
    order: Vec<String>,
    json: bool,
    table_name: String,
    /// `-l`: at most this many columns; the last takes the rest of a line.
    max_columns: Option<usize>,
    no_headings: bool,
    keep_empty_lines: bool,
}

pub fn column(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "sociNRHOnlWTE",
        &[
            ("table", 't', false),
            ("separator", 's', true),
            ("output-separator", 'o', true),
            ("output-width", 'c', true),
            ("fillrows", 'x', false),
            ("table-columns", 'N', true),
            ("table-right", 'R', true),
            ("table-hide", 'H', true),
            ("table-order", 'O', true),
            ("table-name", 'n', true),
            ("table-columns-limit", 'l', true),
            ("table-noheadings", 'd', false),
            ("keep-empty-lines", 'L', false),
            ("json", 'J', false),
            ("table-wrap", 'W', true),
            ("table-truncate", 'T', true),
            ("table-noextreme", 'E', true),
            ("table-empty-lines", 'e', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return usage(shell, "column", &message, 1),
    };
    let list = |option: char| -> Vec<String> {
        parsed
            .all(option)
            .iter()
            .flat_map(|value| value.split(','))
            .filter(|name| !name.is_empty())
            .map(String::from)
            .collect()
    };
    let width = match parsed.value('c') {
        None => 80,
        Some(text) => match text.parse::<usize>() {
            Ok(width) => width,
            Err(_) => {
                let message = format!("invalid columns argument: '{text}'");
                return Ok(shell.fail_command("column", &message, 1));
            }
        },
    };
    let max_columns = match parsed.value('l') {
        None => None,
        Some(text) => match text.parse::<usize>() {
            Ok(count) if count > 0 => Some(count),
            Ok(_) => {
                let message = "columns limit must be greater than zero";
                return Ok(shell.fail_command("column", message, 1));
            }
            Err(_) => {
                let message = format!("invalid columns limit argument: '{text}'");
                return Ok(shell.fail_command("column", &message, 1));
            }
        },
    };
    let settings = Settings {
        table: parsed.has('t') || parsed.has('J'),
        separators: parsed.value('s').map(|s| s.chars().collect()),
        output_separator: parsed.value('o').unwrap_or("  ").to_string(),
        width,
        fill_rows: parsed.has('x'),
        names: list('N'),
        right: list('R'),
        hide: list('H'),
        order: list('O'),
        json: parsed.has('J'),
        table_name: parsed.value('n').unwrap_or("table").to_string(),
        max_columns,
        no_headings: parsed.has('d'),
        keep_empty_lines: parsed.has('L'),
    };
    if settings.json && settings.names.is_empty() {
        return Ok(shell.fail_command("column", "option --table-columns required for --json", 1));
    }
    let lines = match read_lines(shell, "column", &parsed.operands, b'\n') {
        Ok(lines) => lines,
        Err(status) => return Ok(status.min(1)),
    };
    let text = if settings.json {
        json(&settings, &cells(&lines, &settings))
    } else if settings.table {
        table(&settings, &cells(&lines, &settings))
    } else {
        let entries: Vec<&str> = lines
            .iter()
            .map(String::as_str)
            .filter(|l| !l.is_empty())
            .collect();
        fill(&entries, settings.width, settings.fill_rows)
    };
    match shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("column", error),
    }
}

/// Entries in columns of tab stops: each column as wide as the longest
/// entry rounded up to the next stop; as many columns as `width` holds;
/// filled down the columns, or along the rows (`-x`). Entries wider than
/// the width are listed one a line.
fn fill(entries: &[&str], width: usize, fill_rows: bool) -> String {
    let longest = entries.iter().map(|e| e.chars().count()).max().unwrap_or(0);
    let mut out = String::new();
    if entries.is_empty() {
        return out;
    }
    if longest >= width {
        for entry in entries {
            out.push_str(entry);
            out.push('\n');
        }
        return out;
    }
    let column_width = (longest + TAB) & !(TAB - 1);
    let columns = (width / column_width).max(1);
    // Tabs from `written` to the stop past the end of the column ending
    // at `column_end`.
    let pad = |out: &mut String, written: &mut usize, column_end: usize| {
        loop {
            let next = (*written + TAB) & !(TAB - 1);
            if next > column_end {
                break;
            }
            out.push('\t');
            *written = next;
        }
    };
    if fill_rows {
        let (mut column, mut written, mut column_end) = (0, 0, column_width);
        for (index, entry) in entries.iter().enumerate() {
            out.push_str(entry);
            written += entry.chars().count();
            if index + 1 == entries.len() {
                break;
            }
            column += 1;
            if column == columns {
                out.push('\n');
                (column, written, column_end) = (0, 0, column_width);
            } else {
                pad(&mut out, &mut written, column_end);
                column_end += column_width;
            }
        }
        out.push('\n');
        return out;
    }
    let rows = entries.len().div_ceil(columns);
    for row in 0..rows {
        let (mut written, mut column_end) = (0, column_width);
        let mut at = row;
        while at < entries.len() {
            out.push_str(entries[at]);
            written += entries[at].chars().count();
            at += rows;
            if at >= entries.len() {
                break;
            }
            pad(&mut out, &mut written, column_end);
            column_end += column_width;
        }
        out.push('\n');
    }
    out
}

/// The cells of each line (blank lines left out unless `-L`).
fn cells(lines: &[String], settings: &Settings) -> Vec<Vec<String>> {
    let limit = settings.max_columns.unwrap_or(usize::MAX);
    lines
        .iter()
        .filter(|line| settings.keep_empty_lines || !line.trim().is_empty())
        .map(|line| split(line, settings.separators.as_deref(), limit))
        .collect()
}

/// One line's cells: at each separator character, or at runs of blanks
/// (leading ones skipped); the `limit`-th cell takes the rest of the line.
fn split(line: &str, separators: Option<&[char]>, limit: usize) -> Vec<String> {
    let mut cells = Vec::new();
    let mut rest = line;
    loop {
        if separators.is_none() {
            rest = rest.trim_start_matches([' ', '\t']);
            if rest.is_empty() {
                break;
            }
        }
        if cells.len() + 1 == limit {
            cells.push(rest.to_string());
            break;
        }
        let is_separator =
            |c: char| separators.map_or(c == ' ' || c == '\t', |set| set.contains(&c));
        match rest.find(is_separator) {
            Some(at) => {
                cells.push(rest[..at].to_string());
                let separator = rest[at..].chars().next().map_or(1, char::len_utf8);
                rest = &rest[at + separator..];
            }
            None => {
                cells.push(rest.to_string());
                break;
            }
        }
    }
    cells
}

/// Which columns show, in what order: `-O` first, the rest after, `-H`
/// left out; a column is named by `-N`'s name or its number.
fn shown_columns(settings: &Settings, count: usize) -> Vec<usize> {
    let index_of = |name: &str| -> Option<usize> {
        settings
            .names
            .iter()
            .position(|n| n == name)
            .or_else(|| name.parse::<usize>().ok().and_then(|n| n.checked_sub(1)))
    };
    let mut order: Vec<usize> = settings
        .order
        .iter()
        .filter_map(|name| index_of(name))
        .filter(|&i| i < count)
        .collect();
    order.extend((0..count).filter(|i| !settings.order.iter().any(|n| index_of(n) == Some(*i))));
    let hidden: Vec<usize> = settings
        .hide
        .iter()
        .filter_map(|name| index_of(name))
        .collect();
    order.retain(|i| !hidden.contains(i));
    let mut seen = Vec::new();
    order.retain(|i| {
        let new = !seen.contains(i);
        seen.push(*i);
        new
    });
    order
}

fn table(settings: &Settings, rows: &[Vec<String>]) -> String {
    let count = rows
        .iter()
        .map(Vec::len)
        .max()
        .unwrap_or(0)
        .max(settings.names.len());
    let mut all: Vec<Vec<String>> = Vec::new();
    if !settings.names.is_empty() && !settings.no_headings {
        all.push(settings.names.clone());
    }
    all.extend(rows.iter().cloned());
    let columns = shown_columns(settings, count);
    let cell = |row: &Vec<String>, column: usize| row.get(column).cloned().unwrap_or_default();
    let widths: Vec<usize> = columns
        .iter()
        .map(|&c| {
            all.iter()
                .map(|row| cell(row, c).chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let right = |column: usize| {
        settings.right.iter().any(|name| {
            settings.names.get(column).is_some_and(|n| n == name)
                || name.parse::<usize>().ok() == Some(column + 1)
        })
    };
    let mut out = String::new();
    for row in &all {
        for (k, (&column, &width)) in columns.iter().zip(&widths).enumerate() {
            let text = cell(row, column);
            let last = k + 1 == columns.len();
            if right(column) {
                out.push_str(&goccia_interp::pad::left_pad(&text, width, ' '));
            } else if last {
                out.push_str(&text);
            } else {
                out.push_str(&goccia_interp::pad::right_pad(&text, width, ' '));
            }
            if !last {
                out.push_str(&settings.output_separator);
            }
        }
        out.push('\n');
    }
    out
}

/// `-J`: the rows as objects of `-N`'s names, in libsmartcols' layout.
fn json(settings: &Settings, rows: &[Vec<String>]) -> String {
    let columns = shown_columns(settings, settings.names.len());
    let mut out = format!("{{\n   \"{}\": [", escape(&settings.table_name));
    for (index, row) in rows.iter().enumerate() {
        out.push_str(if index == 0 { "\n      {" } else { ",{" });
        for (k, &column) in columns.iter().enumerate() {
            let value = row.get(column).map_or("", String::as_str);
            out.push_str(&format!(
                "\n         \"{}\": \"{}\"{}",
                escape(&settings.names[column]),
                escape(value),
                if k + 1 < columns.len() { "," } else { "" }
            ));
        }
        out.push_str("\n      }");
    }
    out.push_str("\n   ]\n}\n");
    out
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_split_as_util_linux_splits_them() {
        assert_eq!(split("  a  b c", None, usize::MAX), ["a", "b", "c"]);
        assert_eq!(split("a,,b", Some(&[',']), usize::MAX), ["a", "", "b"]);
        assert_eq!(split("1 one x  y", None, 2), ["1", "one x  y"]);
    }

    #[test]
    fn entries_fill_columns_then_rows() {
        let words = ["banana", "Apple", "cherry", "apple", "banana", "Date"];
        assert_eq!(
            fill(&words, 30, false),
            "banana\tcherry\tbanana\nApple\tapple\tDate\n"
        );
        assert_eq!(
            fill(&words, 30, true),
            "banana\tApple\tcherry\napple\tbanana\tDate\n"
        );
    }
}
