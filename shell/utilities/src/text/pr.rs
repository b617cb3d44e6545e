//! `pr`: files paginated for printing, as GNU coreutils 9.1's `pr` lays
//! them out — pages of 66 lines with a five-line header (the date, the
//! name, the page number) and a five-line trailer, or none (`-t`);
//! numbered (`-n`), double-spaced (`-d`), shifted (`-o`) lines; text in
//! columns down (`-N`) or across (`-a`), or files side by side (`-m`), each
//! column cut to its width and padded, the padding written with tabs where
//! a tab fits, as GNU writes it; `-s`/`-J` join columns with a separator
//! unpadded. Form feeds in the input are text here (GNU starts a page).

use crate::files::names::resolve;
use goccia_interp::interp::{ExecResult, ShellView};

/// What the options ask.
struct Layout {
    page_length: usize,
    /// Headers and trailers (`-t`/`-T` and pages of ten lines or fewer
    /// have none).
    framed: bool,
    form_feed: bool,
    width: usize,
    /// `-w` given: lines are cut even with `-s` (not with `-J`).
    width_given: bool,
    /// `-J`: whole lines, never cut.
    join: bool,
    columns: usize,
    across: bool,
    merge: bool,
    double: bool,
    /// `-n`: the separator and the digits.
    numbers: Option<(u8, usize)>,
    first_number: usize,
    margin: usize,
    header: Option<String>,
    date_format: String,
    first_page: usize,
    last_page: usize,
    /// `-s`/`-J`/`-S`: the separator between columns; `aligned` pads and
    /// cuts columns (the default and `-S` alone).
    separator: Vec<u8>,
    aligned: bool,
}

impl Layout {
    /// The lines of a page between its header and trailer (all of it
    /// when there are none).
    fn body_lines(&self) -> usize {
        match self.framed {
            true => self.page_length - 10,
            false => self.page_length,
        }
    }
}

pub fn pr(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let (layout, files) = match parse(args) {
        Ok(parsed) => parsed,
        Err(Refusal { message, hint }) => {
            let message = match hint {
                true => format!("{message}\nTry 'pr --help' for more information."),
                false => message,
            };
            return Ok(shell.fail_command("pr", &message, 1));
        }
    };
    let files = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files
    };
    let zone = shell.time_zone();
    let now = goccia_interp::time::now().timestamp();
    let date = |seconds: Option<i64>| {
        goccia_interp::time::strftime_at(&layout.date_format, seconds.unwrap_or(now), &zone)
    };
    let mut status = 0;
    let mut out = Vec::new();
    if layout.merge {
        // Side by side, every file is opened before anything is written.
        let mut columns = Vec::new();
        for file in &files {
            match read(shell, file) {
                Ok(input) => columns.push(input.lines),
                Err(reason) => {
                    shell.fail_command("pr", &format!("{file}: {reason}"), 1);
                    status = 1;
                }
            }
        }
        let name = layout.header.clone().unwrap_or_default();
        let pages = paginate_merged(&layout, &columns, &date(None), &name, &mut out);
        beyond(shell, &layout, pages, &mut out)?;
    } else {
        for file in &files {
            match read(shell, file) {
                Ok(input) => {
                    let name = layout.header.clone().unwrap_or_else(|| input.name.clone());
                    let pages =
                        paginate(&layout, &input.lines, &date(input.mtime), &name, &mut out);
                    beyond(shell, &layout, pages, &mut out)?;
                }
                Err(reason) => {
                    // What the files before wrote comes first, as glibc's
                    // `error` flushes it.
                    if let Err(error) = shell.write_stdout(&std::mem::take(&mut out)) {
                        return shell.io_status("pr", error);
                    }
                    shell.fail_command("pr", &format!("{file}: {reason}"), 1);
                    status = 1;
                }
            }
        }
    }
    if let Err(error) = shell.write_stdout(&out) {
        return shell.io_status("pr", error);
    }
    Ok(status)
}

/// GNU's warning when `+FIRST` is past a file's last page (the status
/// stays 0), after what was written so far.
fn beyond(
    shell: &mut ShellView,
    layout: &Layout,
    pages: usize,
    out: &mut Vec<u8>,
) -> Result<(), goccia_interp::interp::Flow> {
    if layout.first_page <= pages {
        return Ok(());
    }
    if let Err(error) = shell.write_stdout(&std::mem::take(out)) {
        shell.io_status("pr", error)?;
    }
    let first = layout.first_page;
    shell.write_stderr(
        format!("pr: starting page number {first} exceeds page count {pages}\n").as_bytes(),
    );
    Ok(())
}

/// A file's lines (without their newlines), its name as the header shows
/// it and its modification time.
struct Input {
    lines: Vec<Vec<u8>>,
    name: String,
    mtime: Option<i64>,
}

fn read(shell: &mut ShellView, file: &str) -> Result<Input, &'static str> {
    let data = goccia_interp::input::open_quiet(shell, file)
        .and_then(|mut source| source.read_all().map_err(|_| "Input/output error"))?;
    let mtime = (file != "-")
        .then(|| {
            let path = resolve(shell, file).ok()?;
            let node = shell.context().vfs.lock().lookup(&path).ok()?;
            Some(node.meta().mtime_ns.div_euclid(1_000_000_000))
        })
        .flatten();
    let mut lines: Vec<Vec<u8>> = data.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
    if data.ends_with(b"\n") || data.is_empty() {
        lines.pop();
    }
    Ok(Input {
        lines,
        name: if file == "-" {
            String::new()
        } else {
            file.to_string()
        },
        mtime,
    })
}

/// Options refused, in GNU's words; `hint` adds its `--help` line.
struct Refusal {
    message: String,
    hint: bool,
}

impl Refusal {
    fn plain(message: String) -> Refusal {
        Refusal {
            message,
            hint: false,
        }
    }

    fn hinted(message: String) -> Refusal {
        Refusal {
            message,
            hint: true,
        }
    }
}

fn parse(args: &[String]) -> Result<(Layout, Vec<String>), Refusal> {
    let mut layout = Layout {
        page_length: 66,
        framed: true,
        form_feed: false,
        width: 72,
        width_given: false,
        join: false,
        columns: 1,
        across: false,
        merge: false,
        double: false,
        numbers: None,
        first_number: 1,
        margin: 0,
        header: None,
        date_format: "%Y-%m-%d %H:%M".to_string(),
        first_page: 1,
        last_page: usize::MAX,
        separator: b" ".to_vec(),
        aligned: true,
    };
    let (mut separator_char, mut separator_string, mut join) = (None, None, false);
    let mut files = Vec::new();
    // A number an option takes, or GNU's complaint naming the option;
    // `positive` ones refuse 0 as out of range.
    let number = |text: &str, what: &str, positive: bool| -> Result<usize, Refusal> {
        match text.parse::<usize>() {
            Ok(0) if positive => Err(Refusal::plain(format!(
                "{what}: \u{2018}{text}\u{2019}: Numerical result out of range"
            ))),
            Ok(value) => Ok(value),
            Err(_) => Err(Refusal::plain(format!("{what}: \u{2018}{text}\u{2019}"))),
        }
    };
    // `args[0]` is the command's own name.
    let mut index = 1;
    while index < args.len() {
        let arg = &args[index];
        index += 1;
        if arg == "--" {
            files.extend(args[index..].iter().cloned());
            break;
        }
        if let Some(pages) = arg.strip_prefix('+') {
            let (first, last) = pages.split_once(':').unwrap_or((pages, ""));
            let range = |text: &str| {
                text.parse::<usize>()
                    .ok()
                    .filter(|page| *page > 0)
                    .ok_or_else(|| Refusal::plain(format!("invalid + argument '{pages}'")))
            };
            layout.first_page = range(first)?;
            if !last.is_empty() {
                layout.last_page = range(last)?;
            }
            continue;
        }
        if arg == "-" || !arg.starts_with('-') {
            files.push(arg.clone());
            continue;
        }
        let mut letters = arg[1..].char_indices().peekable();
        while let Some((at, letter)) = letters.next() {
            let rest = &arg[1 + at + letter.len_utf8()..];
            // A value in the same word, else the next word.
            let mut value = || -> Result<String, Refusal> {
                if !rest.is_empty() {
                    return Ok(rest.to_string());
                }
                index += 1;
                args.get(index - 1).cloned().ok_or_else(|| {
                    Refusal::hinted(format!("option requires an argument -- '{letter}'"))
                })
            };
            match letter {
                '0'..='9' => {
                    let digits: String = arg[1 + at..]
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect();
                    layout.columns = number(&digits, "invalid number of columns", true)?;
                    for _ in 1..digits.len() {
                        letters.next();
                    }
                    continue;
                }
                'a' => layout.across = true,
                'd' => layout.double = true,
                'F' | 'f' => layout.form_feed = true,
                'J' => join = true,
                'm' => layout.merge = true,
                'r' => {}
                't' | 'T' => layout.framed = false,
                'h' => {
                    layout.header = Some(value()?);
                    break;
                }
                'D' => {
                    layout.date_format = value()?;
                    break;
                }
                'l' => {
                    let text = value()?;
                    layout.page_length =
                        number(&text, "'-l PAGE_LENGTH' invalid number of lines", true)?;
                    break;
                }
                'o' => {
                    layout.margin = number(&value()?, "'-o MARGIN' invalid line offset", false)?;
                    break;
                }
                'N' => {
                    let text = value()?;
                    layout.first_number =
                        number(&text, "'-N NUMBER' invalid starting line number", false)?;
                    break;
                }
                'w' | 'W' => {
                    let what = format!("'-{letter} PAGE_WIDTH' invalid number of characters");
                    layout.width = number(&value()?, &what, true)?;
                    layout.width_given |= letter == 'w';
                    break;
                }
                // Optional values, in the same word only.
                'n' => {
                    let mut rest = rest.as_bytes();
                    let separator = match rest.first() {
                        Some(byte) if !byte.is_ascii_digit() => {
                            rest = &rest[1..];
                            *byte
                        }
                        _ => b'\t',
                    };
                    let digits = match std::str::from_utf8(rest) {
                        Ok("") => 5,
                        Ok(text) => match text.parse::<usize>() {
                            Ok(digits) if digits > 0 => digits,
                            _ => {
                                return Err(Refusal::hinted(format!(
                                    "'-n' extra characters or invalid number in the argument: \u{2018}{text}\u{2019}"
                                )));
                            }
                        },
                        Err(_) => 5,
                    };
                    layout.numbers = Some((separator, digits));
                    break;
                }
                's' => {
                    separator_char = Some(rest.bytes().next().unwrap_or(b'\t'));
                    break;
                }
                'S' => {
                    separator_string = Some(rest.as_bytes().to_vec());
                    break;
                }
                'c' | 'e' | 'i' | 'v' => {
                    return Err(Refusal::plain(format!(
                        "-{letter} is not supported here (docs/shell.md)"
                    )));
                }
                other => return Err(Refusal::hinted(format!("invalid option -- '{other}'"))),
            }
        }
    }
    if layout.page_length <= 10 {
        layout.framed = false;
    }
    if layout.merge && layout.columns > 1 {
        return Err(Refusal::plain(
            "cannot specify number of columns when printing in parallel".to_string(),
        ));
    }
    if layout.across && layout.merge {
        return Err(Refusal::plain(
            "cannot specify both printing across and printing in parallel".to_string(),
        ));
    }
    // GNU's separators: `-S` as given (default a space, a tab with `-J`);
    // `-s` a character (default a tab), unpadded and uncut unless `-w`.
    if let Some(string) = separator_string {
        layout.separator = string;
    } else if let Some(character) = separator_char {
        layout.separator = vec![character];
        layout.aligned = false;
    } else if join {
        layout.separator = b"\t".to_vec();
    }
    if join {
        layout.aligned = false;
        layout.join = true;
    }
    Ok((layout, files))
}

/// A column's text width: the page's share after the separators, less a
/// line number's room.
fn column_width(layout: &Layout, columns: usize) -> usize {
    let separators = layout.separator.len() * (columns - 1);
    let numbers = number_width(layout, columns);
    if layout.merge {
        // Side by side, one number starts the row.
        return layout.width.saturating_sub(separators + numbers) / columns;
    }
    let share = layout.width.saturating_sub(separators) / columns;
    share.saturating_sub(numbers)
}

/// The room a line number takes: its digits and separator, a tab counted
/// to the next tab stop in columns (written there as spaces).
fn number_width(layout: &Layout, columns: usize) -> usize {
    match layout.numbers {
        None => 0,
        Some((b'\t', digits)) if columns > 1 => digits + (8 - digits % 8),
        Some((_, digits)) => digits + 1,
    }
}

/// Writes a line's number (`-n`): in one column with its separator as
/// given, in several with a tab's room as spaces.
fn number_text(layout: &Layout, number: usize, columns: usize) -> Vec<u8> {
    let Some((separator, digits)) = layout.numbers else {
        return Vec::new();
    };
    let text = number.to_string();
    // The lowest digits when there are more than room for.
    let text = &text[text.len().saturating_sub(digits)..];
    let mut out = goccia_interp::pad::left_pad(text, digits, ' ').into_bytes();
    if separator == b'\t' && columns > 1 {
        out.resize(number_width(layout, columns), b' ');
    } else {
        out.push(separator);
    }
    out
}

/// The five-line header of page `page`: two blank lines (the first holds
/// the margin), the date, the name centred in what is left and `Page N`
/// at the right, two blank lines.
fn header(layout: &Layout, date: &str, name: &str, page: usize, out: &mut Vec<u8>) {
    let page_text = format!("Page {page}");
    let taken = date.chars().count() + name.chars().count() + page_text.len();
    let available = layout.width.saturating_sub(taken);
    let left = (available / 2).max(1);
    let right = (available - available / 2).max(1);
    let margin = " ".repeat(layout.margin);
    out.extend_from_slice(
        format!(
            "{margin}\n\n{margin}{date}{}{name}{}{page_text}\n\n\n",
            " ".repeat(left),
            " ".repeat(right)
        )
        .as_bytes(),
    );
}

/// Ends a page whose body has `used` of its lines: blank lines to fill it
/// and the five-line trailer, or a form feed (`-F`).
fn trailer(layout: &Layout, used: usize, out: &mut Vec<u8>) {
    if !layout.framed {
        return;
    }
    if layout.form_feed {
        out.push(b'\x0c');
        return;
    }
    out.resize(
        out.len() + layout.body_lines().saturating_sub(used) + 5,
        b'\n',
    );
}

/// A line with its number.
type Numbered = (usize, Vec<u8>);

/// One output row: a cell per column (`None`: no line there).
type Row = Vec<Option<Numbered>>;

/// Rows of a page's body.
type Rows = Vec<Row>;

/// One file in pages: its lines numbered, then laid out in columns page
/// by page.
/// Returns the page count GNU reports past the last page: the full pages
/// and one more.
fn paginate(
    layout: &Layout,
    lines: &[Vec<u8>],
    date: &str,
    name: &str,
    out: &mut Vec<u8>,
) -> usize {
    let rows_per_page = body_rows(layout);
    let columns = layout.columns;
    let per_page = rows_per_page * columns;
    let numbered: Vec<Numbered> = lines
        .iter()
        .enumerate()
        .map(|(index, line)| (layout.first_number + index, line.clone()))
        .collect();
    // An empty file has no pages.
    let pages = numbered.chunks(per_page).len();
    for (index, page_lines) in numbered.chunks(per_page).enumerate() {
        let mut rows: Rows = Vec::new();
        if layout.across || columns == 1 {
            for chunk in page_lines.chunks(columns) {
                rows.push(chunk.iter().cloned().map(Some).collect());
            }
        } else {
            // Down the columns; a last page that is not full is balanced,
            // its first columns one line longer than the rest.
            let full = page_lines.len() == per_page;
            let heights: Vec<usize> = (0..columns)
                .map(|column| {
                    if full {
                        rows_per_page
                    } else {
                        page_lines.len() / columns
                            + usize::from(column < page_lines.len() % columns)
                    }
                })
                .collect();
            let mut start = 0;
            let mut cells: Vec<&[Numbered]> = Vec::new();
            for height in &heights {
                cells.push(&page_lines[start..start + height]);
                start += height;
            }
            for row in 0..heights[0] {
                rows.push(
                    cells
                        .iter()
                        .map(|column| column.get(row).cloned())
                        .collect(),
                );
            }
        }
        write_page(
            layout,
            index + 1,
            index + 1 == pages,
            &rows,
            date,
            name,
            out,
        );
    }
    pages
}

/// Files side by side (`-m`), a column each, a page of rows at a time.
fn paginate_merged(
    layout: &Layout,
    files: &[Vec<Vec<u8>>],
    date: &str,
    name: &str,
    out: &mut Vec<u8>,
) -> usize {
    let longest = files.iter().map(Vec::len).max().unwrap_or(0);
    let all: Rows = (0..longest)
        .map(|row| {
            files
                .iter()
                .map(|lines| {
                    lines
                        .get(row)
                        .map(|line| (layout.first_number + row, line.clone()))
                })
                .collect()
        })
        .collect();
    let rows_per_page = body_rows(layout);
    let pages = all.chunks(rows_per_page).len();
    for (index, rows) in all.chunks(rows_per_page).enumerate() {
        write_page(layout, index + 1, index + 1 == pages, rows, date, name, out);
    }
    all.len() / rows_per_page + 1
}

/// The rows a page's body holds (a double-spaced line takes two).
fn body_rows(layout: &Layout) -> usize {
    let body = layout.body_lines();
    if layout.double {
        body.div_ceil(2).max(1)
    } else {
        body.max(1)
    }
}

fn write_page(
    layout: &Layout,
    page: usize,
    last: bool,
    rows: &[Row],
    date: &str,
    name: &str,
    out: &mut Vec<u8>,
) {
    if page < layout.first_page || page > layout.last_page {
        return;
    }
    if layout.framed {
        header(layout, date, name, page, out);
    }
    let columns = rows.first().map_or(1, Vec::len).max(layout.columns);
    let mut used = 0;
    for (index, row) in rows.iter().enumerate() {
        write_row(layout, row, columns, out);
        used += 1;
        // Unframed columns end without the last row's blank line.
        let ends = last && index + 1 == rows.len() && !layout.framed && columns > 1;
        if layout.double && !ends {
            out.push(b'\n');
            used += 1;
        }
    }
    trailer(layout, used, out);
}

/// One output line: the margin, then each column's cell. In one column a
/// line is written as it is; in several, as GNU writes them.
fn write_row(layout: &Layout, row: &[Option<Numbered>], columns: usize, out: &mut Vec<u8>) {
    let margin = layout.margin;
    if columns == 1 {
        out.resize(out.len() + margin, b' ');
        if let Some(Some((number, line))) = row.first() {
            out.extend(number_text(layout, *number, 1));
            out.extend_from_slice(line);
        }
        out.push(b'\n');
        return;
    }
    let last = row.iter().rposition(Option::is_some).unwrap_or(0);
    let width = column_width(layout, columns);
    let cut = layout.aligned || (layout.width_given && !layout.join);
    let numbers = number_width(layout, columns);
    // Where the columns begin and how far apart: side by side the row's
    // one number comes first, else each column has its own.
    let (origin, room) = match layout.merge {
        true => (margin + numbers, width),
        false => (margin, width + numbers),
    };
    let mut line = Tabified::default();
    line.spaces(margin);
    if layout.merge
        && let Some((number, _)) = row.iter().flatten().next()
    {
        for byte in number_text(layout, *number, columns) {
            line.byte(byte);
        }
        line.flush();
    }
    for (column, cell) in row.iter().enumerate().take(last + 1) {
        if column > 0 {
            if layout.aligned {
                line.spaces_to(
                    origin + column * (room + layout.separator.len()) - layout.separator.len(),
                );
            }
            for byte in &layout.separator {
                line.byte(*byte);
            }
            line.flush();
        }
        let Some((number, text)) = cell else {
            continue;
        };
        if !layout.merge {
            for byte in number_text(layout, *number, columns) {
                line.byte(byte);
            }
        }
        line.flush();
        let text_start = line.position();
        for byte in text {
            let at = line.position() - text_start;
            let advance = if *byte == b'\t' { 8 - at % 8 } else { 1 };
            if cut && at + advance > width {
                break;
            }
            if *byte == b'\t' {
                line.spaces(advance);
            } else {
                line.byte(*byte);
            }
        }
    }
    out.extend(line.text);
    out.push(b'\n');
}

/// A line whose runs of spaces are written as GNU `pr` writes them: tabs
/// while a tab stop (every 8) does not pass the run's end, then spaces;
/// a run left at the end of the line is dropped.
#[derive(Default)]
struct Tabified {
    text: Vec<u8>,
    /// The column written text reaches.
    written: usize,
    /// Spaces owed after it.
    pending: usize,
}

impl Tabified {
    fn position(&self) -> usize {
        self.written + self.pending
    }

    fn spaces(&mut self, count: usize) {
        self.pending += count;
    }

    fn spaces_to(&mut self, column: usize) {
        self.pending += column.saturating_sub(self.position());
    }

    fn byte(&mut self, byte: u8) {
        if byte == b' ' {
            self.pending += 1;
            return;
        }
        self.flush();
        self.text.push(byte);
        self.written += 1;
    }

    /// Writes the spaces owed.
    fn flush(&mut self) {
        let goal = self.written + self.pending;
        while goal - self.written > 1 && (self.written / 8 + 1) * 8 <= goal {
            self.text.push(b'\t');
            self.written = (self.written / 8 + 1) * 8;
        }
        while self.written < goal {
            self.text.push(b' ');
            self.written += 1;
        }
        self.pending = 0;
    }
}
