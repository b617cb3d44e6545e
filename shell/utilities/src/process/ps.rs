//! `ps`: the session's processes, laid out as procps lays them out. The
//! session is the shell (`$$`, and the subshell `ps` runs in) and the
//! utilities running now (a pipeline's other stages, the commands around
//! a command substitution); builtins run inside the shell and are not
//! processes. Every process is the sandbox user's and has no terminal, so
//! the selection options (`-e`, `ax`, `-u`) change nothing but `-p`,
//! `--ppid` and `-C` filter. Times the sandbox does not measure (CPU,
//! memory) are zero.

use std::time::{SystemTime, UNIX_EPOCH};

use crate::args::print_text;
use goccia_interp::interp::{ExecResult, Process, ShellView};

/// A column `-o` can name: its header, width and alignment.
struct Column {
    names: &'static [&'static str],
    header: &'static str,
    width: usize,
    right: bool,
}

const COLUMNS: &[Column] = &[
    column(&["pid", "tgid"], "PID", 5, true),
    column(&["ppid"], "PPID", 5, true),
    column(&["pgid", "pgrp"], "PGID", 5, true),
    column(&["sid", "sess", "session"], "SID", 5, true),
    column(&["tpgid"], "TPGID", 5, true),
    column(&["comm", "ucomm", "ucmd"], "COMMAND", 15, false),
    column(&["args", "command"], "COMMAND", 27, false),
    column(&["cmd"], "CMD", 27, false),
    column(&["user", "euser", "uname", "ruser"], "USER", 8, false),
    column(&["uid", "euid", "ruid"], "UID", 5, true),
    column(&["gid", "egid"], "GID", 5, true),
    column(&["tty", "tt", "tname"], "TT", 8, false),
    column(&["time", "cputime"], "TIME", 8, true),
    column(&["bsdtime"], "TIME", 6, true),
    column(&["etime"], "ELAPSED", 11, true),
    column(&["etimes"], "ELAPSED", 7, true),
    column(&["stat"], "STAT", 4, false),
    column(&["s", "state"], "S", 1, false),
    column(&["stime", "start_time"], "STIME", 5, false),
    column(&["start"], "STARTED", 8, true),
    column(&["%cpu", "pcpu"], "%CPU", 4, true),
    column(&["%mem", "pmem"], "%MEM", 4, true),
    column(&["vsz", "vsize"], "VSZ", 6, true),
    column(&["rss", "rssize"], "RSS", 5, true),
    column(&["c"], "C", 2, true),
    column(&["ni", "nice"], "NI", 3, true),
    column(&["pri"], "PRI", 3, true),
];

const fn column(
    names: &'static [&'static str],
    header: &'static str,
    width: usize,
    right: bool,
) -> Column {
    Column {
        names,
        header,
        width,
        right,
    }
}

/// A chosen column and the header it prints under.
struct Field {
    column: &'static Column,
    header: String,
}

/// The standard layouts: each column's name and header.
type Layout = &'static [(&'static str, &'static str)];
const DEFAULT: Layout = &[
    ("pid", "PID"),
    ("tname", "TTY"),
    ("time", "TIME"),
    ("ucmd", "CMD"),
];
const FULL: Layout = &[
    ("user", "UID"),
    ("pid", "PID"),
    ("ppid", "PPID"),
    ("c", "C"),
    ("stime", "STIME"),
    ("tname", "TTY"),
    ("time", "TIME"),
    ("args", "CMD"),
];
const USER_ORIENTED: Layout = &[
    ("user", "USER"),
    ("pid", "PID"),
    ("%cpu", "%CPU"),
    ("%mem", "%MEM"),
    ("vsz", "VSZ"),
    ("rss", "RSS"),
    ("tname", "TTY"),
    ("stat", "STAT"),
    ("stime", "START"),
    ("bsdtime", "TIME"),
    ("args", "COMMAND"),
];

fn layout_fields(layout: Layout) -> Vec<Field> {
    layout
        .iter()
        .map(|(name, header)| Field {
            column: COLUMNS
                .iter()
                .find(|c| c.names.contains(name))
                .expect("the standard layouts name known columns"),
            header: header.to_string(),
        })
        .collect()
}

/// What the arguments ask for.
struct Request {
    fields: Vec<Field>,
    headers: bool,
    pids: Option<Vec<u64>>,
    parents: Option<Vec<u64>>,
    names: Option<Vec<String>>,
}

fn parse_fields(list: &str) -> Result<Vec<Field>, String> {
    let mut fields = Vec::new();
    // Commas separate; blanks too, except inside a `name=Header`.
    let items = list.split(',').flat_map(|piece| {
        if piece.contains('=') {
            vec![piece.trim_start()]
        } else {
            piece.split_whitespace().collect()
        }
    });
    for item in items.filter(|item| !item.is_empty()) {
        let (name, header) = match item.split_once('=') {
            Some((name, header)) => (name, Some(header)),
            None => (item, None),
        };
        let Some(column) = COLUMNS.iter().find(|c| c.names.contains(&name)) else {
            return Err(format!(
                "error: unknown user-defined format specifier \"{name}\""
            ));
        };
        let header = header.map_or(column.header.to_string(), str::to_string);
        fields.push(Field { column, header });
    }
    Ok(fields)
}

fn numbers(list: &str) -> Result<Vec<u64>, String> {
    list.split([',', ' '])
        .filter(|item| !item.is_empty())
        .map(|item| {
            item.parse()
                .map_err(|_| "error: process ID list syntax error".to_string())
        })
        .collect()
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut request = Request {
        fields: Vec::new(),
        headers: true,
        pids: None,
        parents: None,
        names: None,
    };
    let mut layout: Option<Layout> = None;
    let mut custom = String::new();
    let mut i = 1;
    let take = |i: &mut usize, attached: &str| -> Result<String, String> {
        if !attached.is_empty() {
            return Ok(attached.to_string());
        }
        *i += 1;
        args.get(*i)
            .cloned()
            .ok_or_else(|| "error: list of process IDs must follow the option".to_string())
    };
    while i < args.len() {
        let arg = args[i].as_str();
        if let Some(long) = arg.strip_prefix("--") {
            let (name, value) = match long.split_once('=') {
                Some((name, value)) => (name, value),
                None => (long, ""),
            };
            match name {
                "no-headers" | "no-heading" => request.headers = false,
                "headers" => request.headers = true,
                "pid" => request.pids = Some(numbers(&take(&mut i, value)?)?),
                "ppid" => request.parents = Some(numbers(&take(&mut i, value)?)?),
                "format" => custom.push_str(&format!(",{}", take(&mut i, value)?)),
                "user" | "User" | "group" | "Group" | "sort" | "cols" | "columns" | "width"
                | "lines" | "rows" => {
                    take(&mut i, value)?;
                }
                "forest" | "cumulative" => {}
                _ => return Err("error: unknown gnu long option".to_string()),
            }
        } else if let Some(flags) = arg.strip_prefix('-') {
            let chars: Vec<char> = flags.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let flag = chars[j];
                j += 1;
                let attached: String = chars[j..].iter().collect();
                match flag {
                    'e' | 'A' | 'a' | 'd' | 'N' | 'x' | 'w' | 'H' | 'T' | 'r' => {}
                    'f' => layout = Some(FULL),
                    'o' | 'O' => {
                        custom.push_str(&format!(",{}", take(&mut i, &attached)?));
                        j = chars.len();
                    }
                    'p' | 'q' => {
                        request.pids = Some(numbers(&take(&mut i, &attached)?)?);
                        j = chars.len();
                    }
                    'C' => {
                        let names = take(&mut i, &attached)?;
                        request.names = Some(names.split(',').map(str::to_string).collect());
                        j = chars.len();
                    }
                    'u' | 'U' | 'g' | 'G' | 's' | 't' => {
                        take(&mut i, &attached)?;
                        j = chars.len();
                    }
                    _ => return Err("error: unsupported SysV option".to_string()),
                }
            }
        } else if !arg.is_empty() && arg.bytes().all(|b| b.is_ascii_digit() || b == b',') {
            // A bare process ID list (`ps -o pid $$`) selects as `-p`.
            request
                .pids
                .get_or_insert_with(Vec::new)
                .extend(numbers(arg)?);
        } else {
            // BSD syntax: letters without a dash (`aux`, `axo pid,comm`).
            let chars: Vec<char> = arg.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let flag = chars[j];
                j += 1;
                let attached: String = chars[j..].iter().collect();
                match flag {
                    'a' | 'x' | 'e' | 'w' | 'r' | 'T' | 'f' => {}
                    'h' => request.headers = false,
                    'u' => layout = Some(USER_ORIENTED),
                    'o' | 'O' => {
                        custom.push_str(&format!(",{}", take(&mut i, &attached)?));
                        j = chars.len();
                    }
                    'p' | 'q' => {
                        request.pids = Some(numbers(&take(&mut i, &attached)?)?);
                        j = chars.len();
                    }
                    _ => return Err("error: unsupported option (BSD syntax)".to_string()),
                }
            }
        }
        i += 1;
    }
    request.fields = if custom.is_empty() {
        layout_fields(layout.unwrap_or(DEFAULT))
    } else {
        parse_fields(custom.trim_start_matches(','))?
    };
    // A list whose headers are all empty prints no header line.
    if request.fields.iter().all(|f| f.header.is_empty()) {
        request.headers = false;
    }
    Ok(request)
}

pub fn ps(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let request = match parse(args) {
        Ok(request) => request,
        Err(message) => {
            let text = format!("{message}\n\nUsage:\n ps [options]\n");
            shell.write_stderr(text.as_bytes());
            return Ok(1);
        }
    };
    let mut processes = shell_processes(shell);
    processes.extend(shell.context().processes.snapshot());
    processes.sort_by_key(|p| p.pid);
    processes.dedup_by_key(|p| p.pid);
    let own = processes
        .iter()
        .rev()
        .find(|p| p.argv.first().is_some_and(|name| name == "ps"))
        .map(|p| p.pid);
    let user = shell.get_var("USER").unwrap_or_else(|| "user".to_string());
    let selected: Vec<&Process> = processes
        .iter()
        .filter(|p| {
            request
                .pids
                .as_ref()
                .is_none_or(|pids| pids.contains(&p.pid))
        })
        .filter(|p| {
            request
                .parents
                .as_ref()
                .is_none_or(|ids| ids.contains(&p.ppid))
        })
        .filter(|p| {
            request
                .names
                .as_ref()
                .is_none_or(|names| names.contains(&command_name(p)))
        })
        .collect();
    let now = SystemTime::now();
    let mut rows: Vec<Vec<String>> = Vec::new();
    if request.headers {
        rows.push(request.fields.iter().map(|f| f.header.clone()).collect());
    }
    for process in &selected {
        let running = Some(process.pid) == own;
        rows.push(
            request
                .fields
                .iter()
                .map(|field| value(field.column, process, running, &user, now))
                .collect(),
        );
    }
    let mut text = String::new();
    for row in &rows {
        text.push_str(&layout(&request.fields, row));
        text.push('\n');
    }
    // procps exits 1 when nothing was selected.
    let status = i32::from(selected.is_empty());
    print_text(shell, "ps", &text, status)
}

/// The shell `ps` runs in, and its top shell when that is another.
fn shell_processes(shell: &ShellView) -> Vec<Process> {
    let (top, own) = shell.process_ids();
    let started = SystemTime::now() - shell.started().elapsed();
    let mut shells = vec![Process {
        pid: top,
        ppid: 1,
        argv: vec!["bash".to_string()],
        started,
    }];
    if own != top {
        shells.push(Process {
            pid: own,
            ppid: top,
            argv: vec!["bash".to_string()],
            started,
        });
    }
    shells
}

/// The command's name (`comm`): its first word's last component.
fn command_name(process: &Process) -> String {
    let name = process.argv.first().map(String::as_str).unwrap_or("");
    name.rsplit('/').next().unwrap_or(name).to_string()
}

fn value(column: &Column, process: &Process, running: bool, user: &str, now: SystemTime) -> String {
    let elapsed = now
        .duration_since(process.started)
        .unwrap_or_default()
        .as_secs();
    let started = process
        .started
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs();
    let clock = |with_seconds: bool| {
        let of_day = started % 86_400;
        let (h, m, s) = (of_day / 3600, of_day / 60 % 60, of_day % 60);
        if with_seconds {
            format!("{h:02}:{m:02}:{s:02}")
        } else {
            format!("{h:02}:{m:02}")
        }
    };
    match column.names[0] {
        "pid" => process.pid.to_string(),
        "ppid" => process.ppid.to_string(),
        "pgid" | "sid" => process.ppid.min(process.pid).to_string(),
        // No process has a terminal, so none has its foreground group.
        "tpgid" => "-1".to_string(),
        "comm" => command_name(process),
        "args" | "cmd" => process.argv.join(" "),
        "user" => user.to_string(),
        "uid" | "gid" => "1000".to_string(),
        "tty" => "?".to_string(),
        "time" => "00:00:00".to_string(),
        "bsdtime" => "0:00".to_string(),
        "etime" => {
            let (d, h, m, s) = (
                elapsed / 86_400,
                elapsed / 3600 % 24,
                elapsed / 60 % 60,
                elapsed % 60,
            );
            match (d, h) {
                (0, 0) => format!("{m:02}:{s:02}"),
                (0, _) => format!("{h:02}:{m:02}:{s:02}"),
                _ => format!("{d}-{h:02}:{m:02}:{s:02}"),
            }
        }
        "etimes" => elapsed.to_string(),
        "stat" if running => "R".to_string(),
        "stat" if process.ppid == 1 => "Ss".to_string(),
        "stat" => "S".to_string(),
        "s" if running => "R".to_string(),
        "s" => "S".to_string(),
        "stime" => clock(false),
        "start" => clock(true),
        "%cpu" | "%mem" => "0.0".to_string(),
        "pri" => "19".to_string(),
        _ => "0".to_string(),
    }
}

/// One line: columns one space apart, numbers right-aligned, text
/// left-aligned and cut to its width except in the last column.
fn layout(fields: &[Field], row: &[String]) -> String {
    let mut line = String::new();
    let last = fields.len().saturating_sub(1);
    for (index, (field, cell)) in fields.iter().zip(row).enumerate() {
        if index > 0 {
            line.push(' ');
        }
        let width = field.column.width.max(field.header.chars().count());
        if field.column.right {
            line.push_str(&goccia_interp::pad::left_pad(cell, width, ' '));
        } else if index == last {
            line.push_str(cell);
        } else {
            let cut: String = cell.chars().take(width).collect();
            line.push_str(&goccia_interp::pad::right_pad(&cut, width, ' '));
        }
    }
    line.trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        std::iter::once("ps")
            .chain(line.split_whitespace())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn layouts_and_lists_parse() {
        let request = parse(&args("")).unwrap();
        let headers: Vec<&str> = request.fields.iter().map(|f| f.header.as_str()).collect();
        assert_eq!(headers, ["PID", "TTY", "TIME", "CMD"]);
        let request = parse(&args("-o pid,comm=NAME -p 3,4")).unwrap();
        assert_eq!(request.fields[1].header, "NAME");
        assert_eq!(request.pids, Some(vec![3, 4]));
        let request = parse(&args("aux")).unwrap();
        assert_eq!(request.fields[0].header, "USER");
        let request = parse(&args("-o pid= -o comm=")).unwrap();
        assert!(!request.headers);
        assert!(parse(&args("-o bogus")).is_err());
    }

    #[test]
    fn text_is_cut_except_in_the_last_column() {
        let fields = parse_fields("comm,pid").unwrap();
        let row = vec!["a-very-long-command-name".to_string(), "7".to_string()];
        assert_eq!(layout(&fields, &row), "a-very-long-com     7");
    }
}
