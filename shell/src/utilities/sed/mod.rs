//! `sed`: GNU sed's language over the VFS (addresses and ranges, `s` with
//! all flags and case conversions, hold space, branches, `a`/`i`/`c`,
//! `r`/`w`, `-n`, `-i`, `-E`, `-s`, `-z`).

use std::collections::HashMap;

use crate::interp::{ExecResult, Shell};
use crate::utilities::input::open_quiet;
use crate::utilities::matcher::{Matcher, Syntax};

#[derive(Clone, Debug)]
enum Address {
    Line(usize),
    Last,
    Regex(Option<Box<Matcher>>),
    Step(usize, usize),
    /// `0,/re/`
    Zero,
}

#[derive(Clone, Debug)]
enum RangeEnd {
    Address(Address),
    Relative(usize),
    Multiple(usize),
}

#[derive(Clone, Debug)]
struct Selector {
    start: Option<Address>,
    end: Option<RangeEnd>,
    negate: bool,
}

#[derive(Clone, Debug)]
enum Replace {
    Literal(String),
    Group(usize),
    Whole,
    Case(char),
}

#[derive(Clone, Debug)]
enum Cmd {
    Block(usize),
    EndBlock,
    Substitute {
        regex: Option<Box<Matcher>>,
        replacement: Vec<Replace>,
        global: bool,
        nth: usize,
        print: u8,
        write: Option<String>,
        eval: bool,
    },
    Translate(Vec<char>, Vec<char>),
    Print,
    PrintFirst,
    Delete,
    DeleteFirst,
    Next,
    AppendNext,
    Append(String),
    Insert(String),
    Change(String),
    LineNumber,
    List(usize),
    Quit(i32, bool),
    Hold,
    HoldAppend,
    Get,
    GetAppend,
    Exchange,
    Branch(String),
    BranchIfSub(String),
    BranchUnlessSub(String),
    Label(String),
    ReadFile(String),
    ReadLine(String),
    WriteFile(String),
    WriteFirst(String),
    Zap,
    FileName,
    Nop,
}

#[derive(Clone, Debug)]
struct Instruction {
    selector: Selector,
    cmd: Cmd,
}

struct Compiler<'a> {
    chars: Vec<char>,
    pos: usize,
    extended: bool,
    instructions: Vec<Instruction>,
    blocks: Vec<usize>,
    shell: &'a mut Shell,
}

type CResult<T> = Result<T, String>;

impl Compiler<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ') | Some('\t')) {
            self.pos += 1;
        }
    }

    fn skip_separators(&mut self) {
        while matches!(self.peek(), Some(' ') | Some('\t') | Some('\n') | Some(';')) {
            self.pos += 1;
        }
    }

    fn regex(&self, pattern: &str, flags: &str) -> CResult<Option<Box<Matcher>>> {
        if pattern.is_empty() {
            return Ok(None);
        }
        let syntax = if self.extended {
            Syntax::Extended
        } else {
            Syntax::Basic
        };
        let translated = match syntax {
            Syntax::Extended => crate::regex_compat::ere_to_rust(pattern),
            _ => crate::regex_compat::bre_to_rust(pattern),
        };
        let multiline = flags.contains('M') || flags.contains('m');
        let rust = format!("(?s{}){translated}", if multiline { "m" } else { "" });
        let ignore_case = flags.contains('I') || flags.contains('i');
        Matcher::from_rust(&rust, ignore_case)
            .map(|m| Some(Box::new(m)))
            .map_err(|e| format!("-e expression #1, char {}: {e}", self.pos))
    }

    /// Text up to an unescaped `delimiter`; `\n` becomes a newline, `\delim`
    /// the delimiter.
    fn delimited(&mut self, delimiter: char, keep_escapes: bool) -> CResult<String> {
        let mut out = String::new();
        loop {
            let Some(c) = self.peek() else {
                return Err("unterminated `s' command".to_string());
            };
            self.pos += 1;
            if c == delimiter {
                return Ok(out);
            }
            if c == '\\' {
                let Some(next) = self.peek() else {
                    out.push('\\');
                    continue;
                };
                self.pos += 1;
                if next == delimiter {
                    out.push(next);
                } else if next == 'n' && !keep_escapes {
                    out.push('\n');
                } else {
                    out.push('\\');
                    out.push(next);
                }
                continue;
            }
            if c == '[' && !keep_escapes {
                // A bracket expression may contain the delimiter.
                out.push(c);
                let mut first = true;
                while let Some(d) = self.peek() {
                    self.pos += 1;
                    out.push(d);
                    if d == ']' && !first {
                        break;
                    }
                    if !(first && d == '^') {
                        first = false;
                    }
                }
                continue;
            }
            out.push(c);
        }
    }

    fn number(&mut self) -> Option<usize> {
        let start = self.pos;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.pos == start {
            return None;
        }
        self.chars[start..self.pos]
            .iter()
            .collect::<String>()
            .parse()
            .ok()
    }

    fn address(&mut self) -> CResult<Option<Address>> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let first = self.number().unwrap_or(0);
                if self.peek() == Some('~') {
                    self.pos += 1;
                    let step = self.number().unwrap_or(0);
                    return Ok(Some(Address::Step(first, step)));
                }
                Ok(Some(if first == 0 {
                    Address::Zero
                } else {
                    Address::Line(first)
                }))
            }
            Some('$') => {
                self.pos += 1;
                Ok(Some(Address::Last))
            }
            Some('/') | Some('\\') => {
                let delimiter = if self.peek() == Some('\\') {
                    self.pos += 1;
                    self.peek().ok_or("unexpected end")?
                } else {
                    '/'
                };
                self.pos += 1;
                let pattern = self.delimited(delimiter, false)?;
                let mut flags = String::new();
                while matches!(self.peek(), Some('I') | Some('M')) {
                    flags.push(self.peek().unwrap_or('I'));
                    self.pos += 1;
                }
                Ok(Some(Address::Regex(self.regex(&pattern, &flags)?)))
            }
            _ => Ok(None),
        }
    }

    fn selector(&mut self) -> CResult<Selector> {
        let start = self.address()?;
        let mut end = None;
        if start.is_some() && self.peek() == Some(',') {
            self.pos += 1;
            self.skip_spaces();
            end = Some(match self.peek() {
                Some('+') => {
                    self.pos += 1;
                    RangeEnd::Relative(self.number().unwrap_or(0))
                }
                Some('~') => {
                    self.pos += 1;
                    RangeEnd::Multiple(self.number().unwrap_or(0))
                }
                _ => RangeEnd::Address(self.address()?.ok_or("unexpected `,'")?),
            });
        }
        self.skip_spaces();
        let mut negate = false;
        while self.peek() == Some('!') {
            negate = true;
            self.pos += 1;
            self.skip_spaces();
        }
        Ok(Selector { start, end, negate })
    }

    /// Text of `a`, `i`, `c`: `a\` newline text (lines ending in `\`
    /// continue), or GNU's one-line `a text`.
    fn text_argument(&mut self) -> String {
        self.skip_spaces();
        if self.peek() == Some('\\') {
            self.pos += 1;
            if self.peek() == Some('\n') {
                self.pos += 1;
            }
        }
        let mut out = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            if c == '\\' {
                match self.peek() {
                    Some('\n') => {
                        out.push('\n');
                        self.pos += 1;
                    }
                    Some(next) => {
                        out.push(match next {
                            't' => '\t',
                            'n' => '\n',
                            other => other,
                        });
                        self.pos += 1;
                    }
                    None => {}
                }
                continue;
            }
            if c == '\n' {
                break;
            }
            out.push(c);
        }
        out
    }

    fn word_argument(&mut self) -> String {
        self.skip_spaces();
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' || c == ';' {
                break;
            }
            out.push(c);
            self.pos += 1;
        }
        out.trim().to_string()
    }

    fn filename_argument(&mut self) -> String {
        self.skip_spaces();
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                break;
            }
            out.push(c);
            self.pos += 1;
        }
        out
    }

    fn replacement(&self, text: &str) -> Vec<Replace> {
        let mut parts = Vec::new();
        let mut literal = String::new();
        let mut chars = text.chars();
        let flush = |literal: &mut String, parts: &mut Vec<Replace>| {
            if !literal.is_empty() {
                parts.push(Replace::Literal(std::mem::take(literal)));
            }
        };
        while let Some(c) = chars.next() {
            match c {
                '&' => {
                    flush(&mut literal, &mut parts);
                    parts.push(Replace::Whole);
                }
                '\\' => match chars.next() {
                    Some(d @ '0'..='9') => {
                        flush(&mut literal, &mut parts);
                        parts.push(Replace::Group(d.to_digit(10).unwrap_or(0) as usize));
                    }
                    Some(case @ ('L' | 'U' | 'l' | 'u' | 'E')) => {
                        flush(&mut literal, &mut parts);
                        parts.push(Replace::Case(case));
                    }
                    Some('n') => literal.push('\n'),
                    Some('t') => literal.push('\t'),
                    Some('r') => literal.push('\r'),
                    Some('&') => literal.push('&'),
                    Some(other) => literal.push(other),
                    None => literal.push('\\'),
                },
                c => literal.push(c),
            }
        }
        flush(&mut literal, &mut parts);
        parts
    }

    fn compile(&mut self) -> CResult<()> {
        loop {
            self.skip_separators();
            let Some(_) = self.peek() else { break };
            if self.peek() == Some('#') {
                while self.peek().is_some_and(|c| c != '\n') {
                    self.pos += 1;
                }
                continue;
            }
            let selector = self.selector()?;
            let Some(letter) = self.peek() else {
                return Err("missing command".to_string());
            };
            self.pos += 1;
            let cmd = match letter {
                '{' => {
                    self.blocks.push(self.instructions.len());
                    Cmd::Block(0)
                }
                '}' => {
                    let open = self.blocks.pop().ok_or("unexpected `}'")?;
                    let here = self.instructions.len();
                    self.instructions[open].cmd = Cmd::Block(here);
                    Cmd::EndBlock
                }
                's' => {
                    let delimiter = self.peek().ok_or("unterminated `s' command")?;
                    self.pos += 1;
                    let pattern = self.delimited(delimiter, false)?;
                    let replacement_text = self.delimited(delimiter, true)?;
                    let mut global = false;
                    let mut nth = 1;
                    let mut print = 0;
                    let mut write = None;
                    let mut flags = String::new();
                    let mut eval = false;
                    loop {
                        match self.peek() {
                            Some('g') => global = true,
                            Some('p') => print += 1,
                            Some('e') => eval = true,
                            Some(c @ ('i' | 'I' | 'm' | 'M')) => flags.push(c),
                            Some(c) if c.is_ascii_digit() => {
                                nth = self.number().unwrap_or(1);
                                continue;
                            }
                            Some('w') => {
                                self.pos += 1;
                                write = Some(self.filename_argument());
                                break;
                            }
                            _ => break,
                        }
                        self.pos += 1;
                    }
                    Cmd::Substitute {
                        regex: self.regex(&pattern, &flags)?,
                        replacement: self.replacement(&replacement_text),
                        global,
                        nth,
                        print,
                        write,
                        eval,
                    }
                }
                'y' => {
                    let delimiter = self.peek().ok_or("unterminated `y' command")?;
                    self.pos += 1;
                    let from: Vec<char> =
                        crate::escape::printf_format(&self.delimited(delimiter, true)?)
                            .0
                            .chars()
                            .collect();
                    let to: Vec<char> =
                        crate::escape::printf_format(&self.delimited(delimiter, true)?)
                            .0
                            .chars()
                            .collect();
                    if from.len() != to.len() {
                        return Err("strings for `y' command are different lengths".to_string());
                    }
                    Cmd::Translate(from, to)
                }
                'p' => Cmd::Print,
                'P' => Cmd::PrintFirst,
                'd' => Cmd::Delete,
                'D' => Cmd::DeleteFirst,
                'n' => Cmd::Next,
                'N' => Cmd::AppendNext,
                'a' => Cmd::Append(self.text_argument()),
                'i' => Cmd::Insert(self.text_argument()),
                'c' => Cmd::Change(self.text_argument()),
                '=' => Cmd::LineNumber,
                'l' => {
                    self.skip_spaces();
                    Cmd::List(self.number().unwrap_or(70))
                }
                'q' | 'Q' => {
                    self.skip_spaces();
                    let code = self.number().unwrap_or(0) as i32;
                    Cmd::Quit(code, letter == 'q')
                }
                'h' => Cmd::Hold,
                'H' => Cmd::HoldAppend,
                'g' => Cmd::Get,
                'G' => Cmd::GetAppend,
                'x' => Cmd::Exchange,
                'b' => Cmd::Branch(self.word_argument()),
                't' => Cmd::BranchIfSub(self.word_argument()),
                'T' => Cmd::BranchUnlessSub(self.word_argument()),
                ':' => {
                    let label = self.word_argument();
                    if label.is_empty() {
                        return Err("\":\" lacks a label".to_string());
                    }
                    Cmd::Label(label)
                }
                'r' => Cmd::ReadFile(self.filename_argument()),
                'R' => Cmd::ReadLine(self.filename_argument()),
                'w' => Cmd::WriteFile(self.filename_argument()),
                'W' => Cmd::WriteFirst(self.filename_argument()),
                'z' => Cmd::Zap,
                'F' => Cmd::FileName,
                'e' => {
                    self.word_argument();
                    Cmd::Nop
                }
                other => return Err(format!("unknown command: `{other}'")),
            };
            self.instructions.push(Instruction { selector, cmd });
            self.skip_spaces();
            if self.peek() == Some('}') {
                continue;
            }
        }
        if !self.blocks.is_empty() {
            return Err("unmatched `{'".to_string());
        }
        let _ = &self.shell;
        Ok(())
    }
}

/// Per-run state.
struct Machine<'a> {
    program: &'a [Instruction],
    labels: HashMap<String, usize>,
    quiet: bool,
    last_regex: Option<Matcher>,
    range_active: Vec<bool>,
    range_end_line: Vec<usize>,
    hold: String,
    line_number: usize,
    output: Vec<u8>,
    append_queue: Vec<String>,
    writes: HashMap<String, Vec<u8>>,
    separator: u8,
}

enum Action {
    /// End of cycle (with auto-print unless `d`).
    EndCycle {
        print: bool,
    },
    Quit {
        code: i32,
        print: bool,
    },
    /// `D` with text left: restart the cycle without reading.
    Restart,
}

impl Machine<'_> {
    fn matches_address(&mut self, address: &Address, space: &str, is_last: bool) -> bool {
        match address {
            Address::Line(n) => self.line_number == *n,
            Address::Last => is_last,
            Address::Zero => false,
            Address::Step(first, step) => {
                if *step == 0 {
                    self.line_number == *first
                } else {
                    self.line_number >= *first && (self.line_number - first).is_multiple_of(*step)
                }
            }
            Address::Regex(regex) => match regex {
                Some(regex) => {
                    let result = regex.is_match(space);
                    self.last_regex = Some((**regex).clone());
                    result
                }
                None => self.last_regex.as_ref().is_some_and(|r| r.is_match(space)),
            },
        }
    }

    fn selected(&mut self, index: usize, space: &str, is_last: bool) -> bool {
        let selector = self.program[index].selector.clone();
        let result = match (&selector.start, &selector.end) {
            (None, _) => true,
            (Some(start), None) => self.matches_address(start, space, is_last),
            (Some(start), Some(end)) => {
                if self.range_active[index] {
                    let done = match end {
                        RangeEnd::Address(Address::Line(n)) => self.line_number >= *n,
                        RangeEnd::Address(address) => self.matches_address(address, space, is_last),
                        RangeEnd::Relative(_) | RangeEnd::Multiple(_) => {
                            self.line_number >= self.range_end_line[index]
                        }
                    };
                    if done {
                        self.range_active[index] = false;
                    }
                    true
                } else {
                    let starts = match start {
                        Address::Zero => {
                            // `0,/re/`: the range is active from the start and
                            // may end on line 1.
                            if self.line_number == 1 {
                                if let RangeEnd::Address(end) = end
                                    && !self.matches_address(end, space, is_last)
                                {
                                    self.range_active[index] = true;
                                }
                                true
                            } else {
                                false
                            }
                        }
                        other => self.matches_address(other, space, is_last),
                    };
                    if starts && !matches!(start, Address::Zero) {
                        let end_line = match end {
                            RangeEnd::Relative(n) => self.line_number + n,
                            RangeEnd::Multiple(m) => {
                                if *m == 0 {
                                    self.line_number
                                } else {
                                    self.line_number.div_ceil(*m).max(1) * m
                                }
                            }
                            RangeEnd::Address(Address::Line(n)) => *n,
                            _ => 0,
                        };
                        self.range_end_line[index] = end_line;
                        let ends_now = match end {
                            RangeEnd::Address(Address::Line(n)) => *n <= self.line_number,
                            RangeEnd::Relative(n) => *n == 0,
                            RangeEnd::Multiple(_) => end_line <= self.line_number,
                            _ => false,
                        };
                        self.range_active[index] = !ends_now;
                    }
                    starts
                }
            }
        };
        result != selector.negate
    }
}

fn substitute(
    space: &str,
    matcher: &Matcher,
    replacement: &[Replace],
    global: bool,
    nth: usize,
) -> Option<String> {
    let mut out = String::new();
    let mut last = 0;
    let mut replaced = false;
    for (index, found) in matcher.matches(space).enumerate() {
        if index + 1 >= nth {
            out.push_str(&space[last..found.start]);
            apply_replacement(&mut out, space, &found, replacement);
            last = found.end;
            replaced = true;
            if !global {
                break;
            }
        }
    }
    if !replaced {
        return None;
    }
    out.push_str(&space[last..]);
    Some(out)
}

fn apply_replacement(
    out: &mut String,
    space: &str,
    found: &crate::utilities::matcher::Found,
    replacement: &[Replace],
) {
    let mut mode = 'E';
    let mut one_shot: Option<char> = None;
    let push = |out: &mut String, text: &str, mode: char, one_shot: &mut Option<char>| {
        for c in text.chars() {
            let c: String = match one_shot.take() {
                Some('u') => c.to_uppercase().collect(),
                Some('l') => c.to_lowercase().collect(),
                _ => match mode {
                    'U' => c.to_uppercase().collect(),
                    'L' => c.to_lowercase().collect(),
                    _ => c.to_string(),
                },
            };
            out.push_str(&c);
        }
    };
    for part in replacement {
        match part {
            Replace::Literal(text) => push(out, text, mode, &mut one_shot),
            Replace::Whole => push(out, &space[found.start..found.end], mode, &mut one_shot),
            Replace::Group(n) => {
                if let Some(Some((s, e))) = found.groups.get(*n) {
                    push(out, &space[*s..*e], mode, &mut one_shot);
                }
            }
            Replace::Case(c) => match c {
                'u' | 'l' => one_shot = Some(*c),
                other => mode = *other,
            },
        }
    }
}

fn list_escape(space: &str, width: usize) -> String {
    let mut out = String::new();
    let mut column = 0;
    for byte in space.bytes() {
        let piece = match byte {
            b'\\' => "\\\\".to_string(),
            b'\n' => "\\n".to_string(),
            b'\t' => "\\t".to_string(),
            7 => "\\a".to_string(),
            8 => "\\b".to_string(),
            12 => "\\f".to_string(),
            13 => "\\r".to_string(),
            11 => "\\v".to_string(),
            32..=126 => (byte as char).to_string(),
            _ => format!("\\{byte:03o}"),
        };
        if width > 1 && column + piece.len() > width - 1 {
            out.push_str("\\\n");
            column = 0;
        }
        column += piece.len();
        out.push_str(&piece);
    }
    out.push('$');
    out
}

pub fn sed(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut scripts: Vec<String> = Vec::new();
    let mut quiet = false;
    let mut extended = false;
    let mut in_place: Option<String> = None;
    let mut separate = false;
    let mut null_data = false;
    let mut files = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        match arg.as_str() {
            "-n" | "--quiet" | "--silent" => quiet = true,
            "-E" | "-r" | "--regexp-extended" => extended = true,
            "-s" | "--separate" => separate = true,
            "-z" | "--null-data" => null_data = true,
            "-u" | "--unbuffered" | "--posix" | "--debug" | "--sandbox" => {}
            "-e" | "--expression" => {
                scripts.push(args.get(i).cloned().unwrap_or_default());
                i += 1;
            }
            "-f" | "--file" => {
                let file = args.get(i).cloned().unwrap_or_default();
                i += 1;
                match open_quiet(shell, &file)
                    .and_then(|mut s| s.read_all().map_err(|_| "read error"))
                {
                    Ok(data) => scripts.push(
                        String::from_utf8_lossy(&data)
                            .trim_end_matches('\n')
                            .to_string(),
                    ),
                    Err(reason) => {
                        return Ok(shell.fail_command(
                            "sed",
                            &format!("couldn't open file {file}: {reason}"),
                            1,
                        ));
                    }
                }
            }
            "-i" | "--in-place" => in_place = Some(String::new()),
            _ if arg.starts_with("-i") => in_place = Some(arg[2..].to_string()),
            _ if arg.starts_with("--in-place=") => in_place = Some(arg[11..].to_string()),
            _ if arg.starts_with("-e") && arg.len() > 2 => scripts.push(arg[2..].to_string()),
            _ if arg.starts_with('-')
                && arg.len() > 1
                && arg[1..].chars().all(|c| "nErsz".contains(c)) =>
            {
                for c in arg[1..].chars() {
                    match c {
                        'n' => quiet = true,
                        'E' | 'r' => extended = true,
                        's' => separate = true,
                        _ => null_data = true,
                    }
                }
            }
            _ if arg.starts_with('-') && arg.len() > 1 => {
                return Ok(shell.fail_command("sed", &format!("invalid option -- '{}'\nUsage: sed [OPTION]... {{script-only-if-no-other-script}} [input-file]...", &arg[1..]), 1));
            }
            _ => {
                if scripts.is_empty()
                    && files.is_empty()
                    && !args[..i - 1].iter().any(|a| {
                        a == "-e"
                            || a == "-f"
                            || a.starts_with("--expression")
                            || a.starts_with("--file")
                    })
                {
                    scripts.push(arg.clone());
                } else {
                    files.push(arg.clone());
                }
            }
        }
    }
    if scripts.is_empty() {
        return Ok(shell.fail_command("sed", "no script specified\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...", 1));
    }
    // GNU joins -e pieces with newlines; `a\` at the end of one continues.
    let script = scripts.join("\n");
    let mut compiler = Compiler {
        chars: script.chars().collect(),
        pos: 0,
        extended,
        instructions: Vec::new(),
        blocks: Vec::new(),
        shell,
    };
    if let Err(message) = compiler.compile() {
        let message = if message.starts_with("-e") {
            message
        } else {
            format!("-e expression #1, char {}: {message}", compiler.pos)
        };
        return Ok(compiler.shell.fail_command("sed", &message, 1));
    }
    let program = std::mem::take(&mut compiler.instructions);
    let shell = compiler.shell;
    let labels: HashMap<String, usize> = program
        .iter()
        .enumerate()
        .filter_map(|(i, inst)| match &inst.cmd {
            Cmd::Label(name) => Some((name.clone(), i)),
            _ => None,
        })
        .collect();
    for inst in &program {
        if let Cmd::Branch(label) | Cmd::BranchIfSub(label) | Cmd::BranchUnlessSub(label) =
            &inst.cmd
            && !label.is_empty()
            && !labels.contains_key(label)
        {
            return Ok(shell.fail_command(
                "sed",
                &format!("-e expression #1, char 0: can't find label for jump to `{label}'"),
                1,
            ));
        }
    }
    let separator = if null_data { 0 } else { b'\n' };
    let operands = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.clone()
    };
    let mut machine = Machine {
        program: &program,
        labels,
        quiet,
        last_regex: None,
        range_active: vec![false; program.len()],
        range_end_line: vec![0; program.len()],
        hold: String::new(),
        line_number: 0,
        output: Vec::new(),
        append_queue: Vec::new(),
        writes: HashMap::new(),
        separator,
    };
    let mut status = 0;
    if in_place.is_some() {
        for file in &operands {
            let Ok(path) = shell.cwd().resolve(file) else {
                continue;
            };
            let data = shell.context().vfs.lock().read_file(&path);
            let data = match data {
                Ok(data) => data,
                Err(error) => {
                    status = shell.fail_command(
                        "sed",
                        &format!("can't read {file}: {}", error.errno.strerror()),
                        2,
                    );
                    continue;
                }
            };
            machine.line_number = 0;
            machine.range_active.iter_mut().for_each(|r| *r = false);
            let inputs = vec![(file.clone(), data.to_vec())];
            let code = run_program(shell, &mut machine, inputs)?;
            let output = std::mem::take(&mut machine.output);
            if let Some(suffix) = in_place.as_ref().filter(|s| !s.is_empty()) {
                let backup = if suffix.contains('*') {
                    suffix.replace('*', file)
                } else {
                    format!("{file}{suffix}")
                };
                if let Ok(backup_path) = shell.cwd().resolve(&backup) {
                    let _ = shell
                        .context()
                        .vfs
                        .lock()
                        .write_file(&backup_path, data.clone());
                }
            }
            let _ = shell.context().vfs.lock().write_file(&path, output);
            if let Some(code) = code {
                status = code;
                break;
            }
        }
        flush_writes(shell, &mut machine);
        return Ok(status);
    }
    let mut inputs = Vec::new();
    for file in &operands {
        match open_quiet(shell, file) {
            Ok(mut source) => match source.read_all() {
                Ok(data) => inputs.push((file.clone(), data)),
                Err(error) => return shell.io_status("sed", error),
            },
            Err(reason) => {
                shell.fail_command("sed", &format!("can't read {file}: {reason}"), 2);
                status = 2;
            }
        }
    }
    let code = if separate {
        let mut code = None;
        for input in inputs {
            machine.line_number = 0;
            code = run_program(shell, &mut machine, vec![input])?;
            if code.is_some() {
                break;
            }
        }
        code
    } else {
        run_program(shell, &mut machine, inputs)?
    };
    flush_writes(shell, &mut machine);
    let output = std::mem::take(&mut machine.output);
    if let Err(error) = shell.write_stdout(&output) {
        return shell.io_status("sed", error);
    }
    Ok(code.unwrap_or(status))
}

fn flush_writes(shell: &mut Shell, machine: &mut Machine<'_>) {
    for (file, data) in std::mem::take(&mut machine.writes) {
        match file.as_str() {
            "/dev/stdout" => machine.output.extend(data),
            "/dev/stderr" => shell.write_stderr(&data),
            _ => {
                if let Ok(path) = shell.cwd().resolve(&file) {
                    let _ = shell.context().vfs.lock().write_file(&path, data);
                }
            }
        }
    }
}

/// Runs the program over the inputs' lines; `Some(code)` after `q`/`Q`.
fn run_program(
    shell: &mut Shell,
    machine: &mut Machine<'_>,
    inputs: Vec<(String, Vec<u8>)>,
) -> Result<Option<i32>, crate::interp::Flow> {
    let separator = machine.separator;
    let mut lines: Vec<(String, String, bool)> = Vec::new();
    for (name, data) in &inputs {
        let text = String::from_utf8_lossy(data).into_owned();
        let sep = separator as char;
        let mut parts: Vec<&str> = text.split(sep).collect();
        let ends_with_separator = text.ends_with(sep);
        if ends_with_separator || text.is_empty() {
            parts.pop();
        }
        let count = parts.len();
        for (i, part) in parts.into_iter().enumerate() {
            let has_newline = i + 1 < count || ends_with_separator;
            lines.push((name.clone(), part.to_string(), has_newline));
        }
    }
    let total = lines.len();
    let mut cursor = 0;
    let sep = separator as char;
    let emit = |machine: &mut Machine<'_>, text: &str, newline: bool| {
        machine.output.extend_from_slice(text.as_bytes());
        if newline {
            machine.output.push(separator);
        }
    };
    'cycles: while cursor < total {
        if cursor % 1024 == 0 {
            shell.check_watch()?;
        }
        let (mut file_name, mut space, mut newline) = lines[cursor].clone();
        cursor += 1;
        machine.line_number += 1;
        let mut substituted = false;
        let mut pc = 0;
        loop {
            let action = 'exec: loop {
                if pc >= machine.program.len() {
                    break 'exec Action::EndCycle { print: true };
                }
                let index = pc;
                pc += 1;
                let is_last = cursor >= total;
                if !machine.selected(index, &space, is_last) {
                    if let Cmd::Block(end) = machine.program[index].cmd {
                        pc = end + 1;
                    }
                    continue;
                }
                match &machine.program[index].cmd {
                    Cmd::Block(_) | Cmd::EndBlock | Cmd::Label(_) | Cmd::Nop => {}
                    Cmd::Substitute {
                        regex,
                        replacement,
                        global,
                        nth,
                        print,
                        write,
                        eval,
                    } => {
                        let matcher = match regex {
                            Some(regex) => {
                                machine.last_regex = Some((**regex).clone());
                                (**regex).clone()
                            }
                            None => match &machine.last_regex {
                                Some(regex) => regex.clone(),
                                None => continue,
                            },
                        };
                        if let Some(result) =
                            substitute(&space, &matcher, replacement, *global, *nth)
                        {
                            space = result;
                            substituted = true;
                            if *eval {
                                let _ = eval;
                            }
                            for _ in 0..*print {
                                emit(machine, &space, true);
                            }
                            if let Some(file) = write {
                                let entry = machine.writes.entry(file.clone()).or_default();
                                entry.extend_from_slice(space.as_bytes());
                                entry.push(separator);
                            }
                        }
                    }
                    Cmd::Translate(from, to) => {
                        space = space
                            .chars()
                            .map(|c| from.iter().position(|f| *f == c).map_or(c, |i| to[i]))
                            .collect();
                    }
                    Cmd::Print => emit(machine, &space, true),
                    Cmd::PrintFirst => {
                        let first = space.split(sep).next().unwrap_or("").to_string();
                        emit(machine, &first, true);
                    }
                    Cmd::Delete => break 'exec Action::EndCycle { print: false },
                    Cmd::DeleteFirst => match space.find(sep) {
                        Some(position) => {
                            space = space[position + 1..].to_string();
                            break 'exec Action::Restart;
                        }
                        None => break 'exec Action::EndCycle { print: false },
                    },
                    Cmd::Next => {
                        if cursor >= total {
                            // GNU: print and exit without running the rest.
                            break 'exec Action::Quit {
                                code: 0,
                                print: !machine.quiet,
                            };
                        }
                        if !machine.quiet {
                            emit(machine, &space, newline);
                        }
                        flush_appends(machine);
                        (file_name, space, newline) = lines[cursor].clone();
                        cursor += 1;
                        machine.line_number += 1;
                    }
                    Cmd::AppendNext => {
                        if cursor >= total {
                            break 'exec Action::Quit {
                                code: 0,
                                print: !machine.quiet,
                            };
                        }
                        flush_appends(machine);
                        let (name, next, next_newline) = lines[cursor].clone();
                        cursor += 1;
                        machine.line_number += 1;
                        space.push(sep);
                        space.push_str(&next);
                        newline = next_newline;
                        file_name = name;
                    }
                    Cmd::Append(text) => machine.append_queue.push(format!("{text}\n")),
                    Cmd::Insert(text) => emit(machine, text, true),
                    Cmd::Change(text) => {
                        let selector = &machine.program[index].selector;
                        let in_range = selector.end.is_some()
                            && machine.range_active[index]
                            && !selector.negate;
                        if !in_range {
                            emit(machine, text, true);
                        }
                        break 'exec Action::EndCycle { print: false };
                    }
                    Cmd::LineNumber => {
                        let text = machine.line_number.to_string();
                        emit(machine, &text, true);
                    }
                    Cmd::List(width) => {
                        let text = list_escape(&space, *width);
                        emit(machine, &text, true);
                    }
                    Cmd::Quit(code, print) => {
                        break 'exec Action::Quit {
                            code: *code,
                            print: *print && !machine.quiet,
                        };
                    }
                    Cmd::Hold => machine.hold = space.clone(),
                    Cmd::HoldAppend => {
                        machine.hold.push(sep);
                        machine.hold.push_str(&space);
                    }
                    Cmd::Get => space = machine.hold.clone(),
                    Cmd::GetAppend => {
                        space.push(sep);
                        space.push_str(&machine.hold.clone());
                    }
                    Cmd::Exchange => std::mem::swap(&mut space, &mut machine.hold),
                    Cmd::Branch(label) => {
                        if label.is_empty() {
                            pc = machine.program.len();
                        } else {
                            pc = machine.labels[label];
                        }
                    }
                    Cmd::BranchIfSub(label) | Cmd::BranchUnlessSub(label) => {
                        let jump = matches!(machine.program[index].cmd, Cmd::BranchIfSub(_))
                            == substituted;
                        if jump {
                            substituted = false;
                            pc = if label.is_empty() {
                                machine.program.len()
                            } else {
                                machine.labels[label]
                            };
                        }
                    }
                    Cmd::ReadFile(file) => {
                        if let Ok(mut source) = open_quiet(shell, file)
                            && let Ok(data) = source.read_all()
                        {
                            let mut text = String::from_utf8_lossy(&data).into_owned();
                            if !text.is_empty() && !text.ends_with('\n') {
                                text.push('\n');
                            }
                            machine.append_queue.push(text);
                        }
                    }
                    Cmd::ReadLine(file) => {
                        if let Ok(mut source) = open_quiet(shell, file)
                            && let Ok(data) = source.read_all()
                        {
                            let text = String::from_utf8_lossy(&data).into_owned();
                            let consumed = machine
                                .writes
                                .get(&format!("\0R{file}"))
                                .map_or(0, |v| v.len());
                            if let Some(line) = text.lines().nth(consumed) {
                                machine.append_queue.push(format!("{line}\n"));
                                machine
                                    .writes
                                    .entry(format!("\0R{file}"))
                                    .or_default()
                                    .push(0);
                            }
                        }
                    }
                    Cmd::WriteFile(file) => {
                        let entry = machine.writes.entry(file.clone()).or_default();
                        entry.extend_from_slice(space.as_bytes());
                        entry.push(separator);
                    }
                    Cmd::WriteFirst(file) => {
                        let first = space.split(sep).next().unwrap_or("").to_string();
                        let entry = machine.writes.entry(file.clone()).or_default();
                        entry.extend_from_slice(first.as_bytes());
                        entry.push(separator);
                    }
                    Cmd::Zap => space.clear(),
                    Cmd::FileName => {
                        let name = if file_name == "-" {
                            "-".to_string()
                        } else {
                            file_name.clone()
                        };
                        emit(machine, &name, true);
                    }
                }
            };
            match action {
                Action::EndCycle { print } => {
                    if print && !machine.quiet {
                        emit(machine, &space, newline);
                    }
                    flush_appends(machine);
                    continue 'cycles;
                }
                Action::Quit { code, print } => {
                    if print {
                        emit(machine, &space, newline);
                    }
                    flush_appends(machine);
                    return Ok(Some(code));
                }
                Action::Restart => {
                    // `D`: the first line was deleted; the rest starts a new
                    // cycle without reading input and without auto-print.
                    flush_appends(machine);
                    pc = 0;
                    substituted = false;
                }
            }
        }
    }
    // The `\0R` bookkeeping entries are not files.
    machine.writes.retain(|k, _| !k.starts_with('\0'));
    Ok(None)
}

fn flush_appends(machine: &mut Machine<'_>) {
    for text in std::mem::take(&mut machine.append_queue) {
        machine.output.extend_from_slice(text.as_bytes());
    }
}
