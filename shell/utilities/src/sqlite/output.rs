//! How the sqlite3 shell prints a result: its output modes (`list`,
//! `csv`, `json`, `line`, `column`, `box`, `markdown`, `table`, `tabs`,
//! `quote`, `insert`) with SQLite 3.40's rules for quoting, headers,
//! widths and numbers (`%!.15g` for text, `%!.20g` where the value must
//! read back exactly).

use rusqlite::types::ValueRef;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    List,
    Csv,
    Json,
    Line,
    Column,
    Box,
    Markdown,
    Table,
    Tabs,
    Quote,
    Insert,
}

impl Mode {
    pub fn parse(name: &str) -> Option<Mode> {
        Some(match name {
            "list" => Mode::List,
            "csv" => Mode::Csv,
            "json" => Mode::Json,
            "line" | "lines" => Mode::Line,
            "column" | "columns" => Mode::Column,
            "box" => Mode::Box,
            "markdown" => Mode::Markdown,
            "table" => Mode::Table,
            "tabs" => Mode::Tabs,
            "quote" => Mode::Quote,
            "insert" => Mode::Insert,
            _ => return None,
        })
    }

    /// Modes that lay the whole result out at once (widths from every row).
    pub fn columnar(self) -> bool {
        matches!(
            self,
            Mode::Column | Mode::Box | Mode::Markdown | Mode::Table
        )
    }
}

/// The printing settings (`.mode`, `.headers`, `.separator`, ...).
#[derive(Clone, Debug)]
pub struct Format {
    pub mode: Mode,
    pub headers: bool,
    /// Whether `.headers` was given (a columnar `.mode` then keeps it).
    pub headers_set: bool,
    pub column_separator: String,
    pub row_separator: String,
    pub null_value: String,
    /// `.mode insert TABLE`.
    pub insert_table: String,
}

impl Default for Format {
    fn default() -> Format {
        Format {
            mode: Mode::List,
            headers: false,
            headers_set: false,
            column_separator: "|".to_string(),
            row_separator: "\n".to_string(),
            null_value: String::new(),
            insert_table: "table".to_string(),
        }
    }
}

impl Format {
    /// `.mode NAME`: the separators and header defaults that come with it.
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
        match mode {
            Mode::Csv => {
                self.column_separator = ",".to_string();
                self.row_separator = "\r\n".to_string();
            }
            Mode::Tabs => self.column_separator = "\t".to_string(),
            Mode::List => {
                self.column_separator = "|".to_string();
                self.row_separator = "\n".to_string();
            }
            _ => {}
        }
        if mode.columnar() && !self.headers_set {
            self.headers = true;
        }
    }
}

/// A value as the sqlite3 shell holds it for printing.
#[derive(Clone, Debug)]
pub enum Cell {
    Null,
    Integer(i64),
    Real(f64),
    Text(Vec<u8>),
    Blob(Vec<u8>),
}

impl From<ValueRef<'_>> for Cell {
    fn from(value: ValueRef<'_>) -> Cell {
        match value {
            ValueRef::Null => Cell::Null,
            ValueRef::Integer(n) => Cell::Integer(n),
            ValueRef::Real(r) => Cell::Real(r),
            ValueRef::Text(t) => Cell::Text(t.to_vec()),
            ValueRef::Blob(b) => Cell::Blob(b.to_vec()),
        }
    }
}

/// SQLite's `%!.Ng`: `%.Ng`, always with a digit after the point.
pub fn real_text(value: f64, precision: usize) -> String {
    if value.is_infinite() {
        return if value > 0.0 { "Inf" } else { "-Inf" }.to_string();
    }
    let text = goccia_interp::printf::format_float(value, 'g', "", "", Some(precision));
    match text.split_once('e') {
        Some((mantissa, exponent)) if !mantissa.contains('.') => {
            format!("{mantissa}.0e{exponent}")
        }
        Some(_) => text,
        None if text.contains('.') => text,
        None => format!("{text}.0"),
    }
}

/// A real as the modes that must read back write it (`json`, `quote`,
/// `insert`).
fn exact_real(value: f64) -> String {
    if value.is_infinite() {
        return if value > 0.0 { "1e999" } else { "-1e999" }.to_string();
    }
    if value.fract() == 0.0 && value.abs() < 9.2e18 {
        return format!("{}.0", value as i64);
    }
    real_text(value, 20)
}

impl Cell {
    /// As `sqlite3_column_text` gives it (NULL as the null value).
    pub fn text(&self, null: &str) -> Vec<u8> {
        match self {
            Cell::Null => null.as_bytes().to_vec(),
            Cell::Integer(n) => n.to_string().into_bytes(),
            Cell::Real(r) => real_text(*r, 15).into_bytes(),
            Cell::Text(t) | Cell::Blob(t) => t.clone(),
        }
    }

    /// As an SQL literal (`quote` and `insert` modes, `.dump`).
    pub fn literal(&self) -> Vec<u8> {
        match self {
            Cell::Null => b"NULL".to_vec(),
            Cell::Integer(n) => n.to_string().into_bytes(),
            Cell::Real(r) => exact_real(*r).into_bytes(),
            Cell::Text(t) => {
                let mut out = vec![b'\''];
                for byte in t {
                    if *byte == b'\'' {
                        out.push(b'\'');
                    }
                    out.push(*byte);
                }
                out.push(b'\'');
                out
            }
            Cell::Blob(b) => {
                let hex: String = b.iter().map(|byte| format!("{byte:02x}")).collect();
                format!("X'{hex}'").into_bytes()
            }
        }
    }

    fn json(&self) -> Vec<u8> {
        match self {
            Cell::Null => b"null".to_vec(),
            Cell::Integer(n) => n.to_string().into_bytes(),
            Cell::Real(r) => exact_real(*r).into_bytes(),
            Cell::Text(t) | Cell::Blob(t) => json_string(t),
        }
    }
}

fn json_string(text: &[u8]) -> Vec<u8> {
    let mut out = vec![b'"'];
    for &byte in text {
        match byte {
            b'"' => out.extend(b"\\\""),
            b'\\' => out.extend(b"\\\\"),
            b'\n' => out.extend(b"\\n"),
            b'\r' => out.extend(b"\\r"),
            b'\t' => out.extend(b"\\t"),
            8 => out.extend(b"\\b"),
            12 => out.extend(b"\\f"),
            0..=0x1f => out.extend(format!("\\u{byte:04x}").as_bytes()),
            _ => out.push(byte),
        }
    }
    out.push(b'"');
    out
}

/// Whether a CSV field needs quotes: a blank, a quote, a control or
/// non-ASCII byte, or the separator.
fn needs_csv_quotes(text: &[u8], separator: &str) -> bool {
    text.iter()
        .any(|b| *b <= b' ' || *b == b'"' || *b == b'\'' || *b >= 0x7f)
        || (!separator.is_empty() && contains(text, separator.as_bytes()))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn csv_field(cell: &Cell, format: &Format) -> Vec<u8> {
    let text = match cell {
        Cell::Null => return format.null_value.as_bytes().to_vec(),
        other => other.text(""),
    };
    if !needs_csv_quotes(&text, &format.column_separator) {
        return text;
    }
    let mut out = vec![b'"'];
    for byte in text {
        if byte == b'"' {
            out.push(b'"');
        }
        out.push(byte);
    }
    out.push(b'"');
    out
}

/// One statement's result, printed row by row (or, in the columnar
/// modes, all at once by [`Printer::finish`]).
pub struct Printer<'a> {
    format: &'a Format,
    names: Vec<String>,
    rows: usize,
    /// The columnar modes' rows, kept until the end.
    held: Vec<Vec<String>>,
}

impl<'a> Printer<'a> {
    pub fn new(format: &'a Format, names: Vec<String>) -> Printer<'a> {
        Printer {
            format,
            names,
            rows: 0,
            held: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: &[Cell], out: &mut Vec<u8>) {
        let format = self.format;
        let first = self.rows == 0;
        self.rows += 1;
        let separator = format.column_separator.as_bytes();
        let newline = format.row_separator.as_bytes();
        match format.mode {
            Mode::List | Mode::Tabs => {
                if first && format.headers {
                    out.extend(self.names.join(&format.column_separator).as_bytes());
                    out.extend(newline);
                }
                for (index, cell) in cells.iter().enumerate() {
                    if index > 0 {
                        out.extend(separator);
                    }
                    out.extend(cell.text(&format.null_value));
                }
                out.extend(newline);
            }
            Mode::Csv => {
                let header =
                    |name: &String| csv_field(&Cell::Text(name.as_bytes().to_vec()), format);
                if first && format.headers {
                    let fields: Vec<Vec<u8>> = self.names.iter().map(header).collect();
                    out.extend(fields.join(separator));
                    out.extend(newline);
                }
                let fields: Vec<Vec<u8>> = cells.iter().map(|c| csv_field(c, format)).collect();
                out.extend(fields.join(separator));
                out.extend(newline);
            }
            Mode::Json => {
                out.extend(if first { &b"[{"[..] } else { &b",\n{"[..] });
                for (index, (name, cell)) in self.names.iter().zip(cells).enumerate() {
                    if index > 0 {
                        out.push(b',');
                    }
                    out.extend(json_string(name.as_bytes()));
                    out.push(b':');
                    out.extend(cell.json());
                }
                out.push(b'}');
            }
            Mode::Line => {
                if !first {
                    out.push(b'\n');
                }
                // At least five wide, as sqlite3 lays it out.
                let width = self
                    .names
                    .iter()
                    .map(|n| n.chars().count())
                    .fold(5, usize::max);
                for (name, cell) in self.names.iter().zip(cells) {
                    out.extend(goccia_interp::pad::left_pad(name, width, ' ').as_bytes());
                    out.extend(b" = ");
                    out.extend(cell.text(&format.null_value));
                    out.push(b'\n');
                }
            }
            Mode::Quote => {
                if first && format.headers {
                    let names: Vec<Vec<u8>> = self
                        .names
                        .iter()
                        .map(|n| Cell::Text(n.as_bytes().to_vec()).literal())
                        .collect();
                    out.extend(names.join(&b","[..]));
                    out.push(b'\n');
                }
                let fields: Vec<Vec<u8>> = cells.iter().map(Cell::literal).collect();
                out.extend(fields.join(&b","[..]));
                out.push(b'\n');
            }
            Mode::Insert => {
                out.extend(format!("INSERT INTO {} VALUES(", format.insert_table).as_bytes());
                let fields: Vec<Vec<u8>> = cells.iter().map(Cell::literal).collect();
                out.extend(fields.join(&b","[..]));
                out.extend(b");\n");
            }
            Mode::Column | Mode::Box | Mode::Markdown | Mode::Table => {
                let texts = cells
                    .iter()
                    .map(|c| String::from_utf8_lossy(&c.text(&format.null_value)).into_owned())
                    .collect();
                self.held.push(texts);
            }
        }
    }

    /// Ends the result (`]` of JSON; the columnar modes' whole table).
    pub fn finish(self, out: &mut Vec<u8>) {
        let format = self.format;
        if format.mode == Mode::Json {
            if self.rows > 0 {
                out.extend(b"]\n");
            }
            return;
        }
        if !format.mode.columnar() || self.held.is_empty() {
            return;
        }
        let widths: Vec<usize> = (0..self.names.len())
            .map(|index| {
                let values = self.held.iter().map(|row| row[index].chars().count());
                let header = if format.headers || format.mode != Mode::Column {
                    self.names[index].chars().count()
                } else {
                    0
                };
                values.chain([header]).max().unwrap_or(0)
            })
            .collect();
        let left = |text: &str, width: usize| goccia_interp::pad::right_pad(text, width, ' ');
        let centered = |text: &str, width: usize| {
            let len = text.chars().count();
            let before = width.saturating_sub(len) / 2;
            goccia_interp::pad::right_pad(&format!("{}{text}", " ".repeat(before)), width, ' ')
        };
        let line = |out: &mut Vec<u8>, cells: Vec<String>, open: &str, join: &str, close: &str| {
            out.extend(open.as_bytes());
            out.extend(cells.join(join).as_bytes());
            out.extend(close.as_bytes());
            out.push(b'\n');
        };
        let rule = |fill: &str, extra: usize| -> Vec<String> {
            widths.iter().map(|w| fill.repeat(w + extra)).collect()
        };
        match format.mode {
            Mode::Column => {
                if format.headers {
                    let header = self
                        .names
                        .iter()
                        .zip(&widths)
                        .map(|(n, w)| left(n, *w))
                        .collect();
                    line(out, header, "", "  ", "");
                    line(out, rule("-", 0), "", "  ", "");
                }
                for row in &self.held {
                    let cells = row.iter().zip(&widths).map(|(c, w)| left(c, *w)).collect();
                    line(out, cells, "", "  ", "");
                }
            }
            Mode::Box => {
                line(out, rule("─", 2), "┌", "┬", "┐");
                let header = self
                    .names
                    .iter()
                    .zip(&widths)
                    .map(|(n, w)| centered(n, *w))
                    .collect();
                line(out, header, "│ ", " │ ", " │");
                line(out, rule("─", 2), "├", "┼", "┤");
                for row in &self.held {
                    let cells = row.iter().zip(&widths).map(|(c, w)| left(c, *w)).collect();
                    line(out, cells, "│ ", " │ ", " │");
                }
                line(out, rule("─", 2), "└", "┴", "┘");
            }
            Mode::Table => {
                line(out, rule("-", 2), "+", "+", "+");
                let header = self
                    .names
                    .iter()
                    .zip(&widths)
                    .map(|(n, w)| centered(n, *w))
                    .collect();
                line(out, header, "| ", " | ", " |");
                line(out, rule("-", 2), "+", "+", "+");
                for row in &self.held {
                    let cells = row.iter().zip(&widths).map(|(c, w)| left(c, *w)).collect();
                    line(out, cells, "| ", " | ", " |");
                }
                line(out, rule("-", 2), "+", "+", "+");
            }
            _ => {
                let header = self
                    .names
                    .iter()
                    .zip(&widths)
                    .map(|(n, w)| centered(n, *w))
                    .collect();
                line(out, header, "| ", " | ", " |");
                line(out, rule("-", 2), "|", "|", "|");
                for row in &self.held {
                    let cells = row.iter().zip(&widths).map(|(c, w)| left(c, *w)).collect();
                    line(out, cells, "| ", " | ", " |");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_keep_a_digit_after_the_point() {
        assert_eq!(real_text(2.0, 15), "2.0");
        assert_eq!(real_text(1e20, 15), "1.0e+20");
        assert_eq!(real_text(1.0 / 3.0, 15), "0.333333333333333");
        assert_eq!(real_text(f64::INFINITY, 15), "Inf");
        assert_eq!(exact_real(0.1), "0.10000000000000000555");
        assert_eq!(exact_real(100.0), "100.0");
        assert_eq!(exact_real(f64::NEG_INFINITY), "-1e999");
    }

    #[test]
    fn csv_quotes_what_sqlite_quotes() {
        let format = Format {
            column_separator: ",".to_string(),
            ..Format::default()
        };
        let field =
            |text: &str| String::from_utf8(csv_field(&Cell::Text(text.into()), &format)).unwrap();
        assert_eq!(field("plain"), "plain");
        assert_eq!(field("a b"), "\"a b\"");
        assert_eq!(field("x\"y"), "\"x\"\"y\"");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("é"), "\"é\"");
    }
}
