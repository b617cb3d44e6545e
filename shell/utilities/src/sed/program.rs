//! A sed script compiled: addresses, ranges and commands (the
//! [`Compiler`] reads the script text, GNU extensions included).

use crate::matcher::{Found, Matcher, Syntax};
use goccia_interp::interp::ShellView;
use std::borrow::Cow;

/// A compiled sed regex. GNU sed's `\xHH` (`\oNNN`, `\dNNN`) is a byte,
/// and a byte past ASCII may be half a character: a regex with one
/// matches the pattern space byte by byte ([`goccia_interp::raw::bytewise`]), so
/// `s/\xce//` takes the first byte out of `μ` as GNU sed does.
#[derive(Clone, Debug)]
pub(super) struct Regex {
    matcher: Matcher,
    bytewise: bool,
}

impl Regex {
    /// The text this regex reads: the pattern space itself, or spelled
    /// byte by byte (see [`Regex::settle`] for the way back).
    pub(super) fn view<'a>(&self, space: &'a str) -> Cow<'a, str> {
        if self.bytewise {
            goccia_interp::raw::bytewise(space)
        } else {
            Cow::Borrowed(space)
        }
    }

    /// Text made from [`Regex::view`]'s, back in the usual form.
    pub(super) fn settle(&self, text: String) -> String {
        if self.bytewise {
            goccia_interp::raw::regroup(&text).into_owned()
        } else {
            text
        }
    }

    pub(super) fn is_match(&self, space: &str) -> bool {
        self.matcher.is_match(&self.view(space))
    }

    /// Every match in `view` (a [`Regex::view`] of the pattern space).
    pub(super) fn matches<'a>(&'a self, view: &'a str) -> impl Iterator<Item = Found> + 'a {
        self.matcher.matches(view)
    }
}

#[derive(Clone, Debug)]
pub(super) enum Address {
    Line(usize),
    Last,
    Regex(Option<Box<Regex>>),
    Step(usize, usize),
    /// `0,/re/`
    Zero,
}

#[derive(Clone, Debug)]
pub(super) enum RangeEnd {
    Address(Address),
    Relative(usize),
    Multiple(usize),
}

#[derive(Clone, Debug)]
pub(super) struct Selector {
    pub(super) start: Option<Address>,
    pub(super) end: Option<RangeEnd>,
    pub(super) negate: bool,
}

#[derive(Clone, Debug)]
pub(super) enum Replace {
    Literal(String),
    Group(usize),
    Whole,
    Case(char),
}

#[derive(Clone, Debug)]
pub(super) enum Cmd {
    Block(usize),
    EndBlock,
    Substitute {
        regex: Option<Box<Regex>>,
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
pub(super) struct Instruction {
    pub(super) selector: Selector,
    pub(super) cmd: Cmd,
}

pub(super) struct Compiler<'a> {
    pub(super) chars: Vec<char>,
    pub(super) pos: usize,
    pub(super) extended: bool,
    pub(super) instructions: Vec<Instruction>,
    pub(super) blocks: Vec<usize>,
    pub(super) shell: &'a mut ShellView,
}

pub(super) type CResult<T> = Result<T, String>;

impl Compiler<'_> {
    pub(super) fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    pub(super) fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(' ') | Some('\t')) {
            self.pos += 1;
        }
    }

    pub(super) fn skip_separators(&mut self) {
        while matches!(self.peek(), Some(' ') | Some('\t') | Some('\n') | Some(';')) {
            self.pos += 1;
        }
    }

    pub(super) fn regex(&self, pattern: &str, flags: &str) -> CResult<Option<Box<Regex>>> {
        if pattern.is_empty() {
            return Ok(None);
        }
        let (pattern, bytewise) = byte_escapes(pattern);
        let syntax = if self.extended {
            Syntax::Extended
        } else {
            Syntax::Basic
        };
        let pattern = bracket_escapes(&pattern);
        let translated = match syntax {
            Syntax::Extended => goccia_interp::regex_compat::ere_to_rust(&pattern),
            _ => goccia_interp::regex_compat::bre_to_rust(&pattern),
        };
        let multiline = flags.contains('M') || flags.contains('m');
        let rust = format!("(?s{}){translated}", if multiline { "m" } else { "" });
        let ignore_case = flags.contains('I') || flags.contains('i');
        Matcher::from_rust(&rust, ignore_case)
            .map(|matcher| Some(Box::new(Regex { matcher, bytewise })))
            .map_err(|e| format!("-e expression #1, char {}: {e}", self.pos))
    }

    /// Text up to an unescaped `delimiter`; `\n` becomes a newline, `\delim`
    /// the delimiter.
    pub(super) fn delimited(&mut self, delimiter: char, keep_escapes: bool) -> CResult<String> {
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

    pub(super) fn number(&mut self) -> Option<usize> {
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

    pub(super) fn address(&mut self) -> CResult<Option<Address>> {
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

    pub(super) fn selector(&mut self) -> CResult<Selector> {
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
    /// The text of `a`, `i` or `c`, with the newline that ends it. A bare
    /// `a\` at the very end of the script is text without even that
    /// newline (GNU: `sed '$a\'` ends a last line that lacks its newline,
    /// and adds nothing else).
    pub(super) fn text_argument(&mut self) -> String {
        self.skip_spaces();
        if self.peek() == Some('\\') {
            self.pos += 1;
            match self.peek() {
                None => return String::new(),
                Some('\n') => self.pos += 1,
                Some(_) => {}
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
        out.push('\n');
        out
    }

    pub(super) fn word_argument(&mut self) -> String {
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

    pub(super) fn filename_argument(&mut self) -> String {
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

    pub(super) fn replacement(&self, text: &str) -> Vec<Replace> {
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
                    Some('a') => literal.push('\u{7}'),
                    Some('f') => literal.push('\u{c}'),
                    Some('v') => literal.push('\u{b}'),
                    Some('&') => literal.push('&'),
                    Some('c') => match chars.clone().next() {
                        Some(letter) if letter.is_ascii() => {
                            chars.next();
                            literal.push(char::from(letter.to_ascii_uppercase() as u8 ^ 0x40));
                        }
                        _ => literal.push('c'),
                    },
                    Some(kind @ ('x' | 'o' | 'd')) => {
                        let (radix, most) = match kind {
                            'x' => (16, 2),
                            'o' => (8, 3),
                            _ => (10, 3),
                        };
                        let digits: String = chars
                            .clone()
                            .take(most)
                            .take_while(|c| c.is_digit(radix))
                            .collect();
                        match u32::from_str_radix(&digits, radix) {
                            Ok(value @ 0..=0xff) => {
                                for _ in 0..digits.len() {
                                    chars.next();
                                }
                                literal.push(if value < 0x80 {
                                    char::from(value as u8)
                                } else {
                                    goccia_interp::raw::byte_char(value as u8)
                                });
                            }
                            _ => literal.push(kind),
                        }
                    }
                    Some(other) => literal.push(other),
                    None => literal.push('\\'),
                },
                c => literal.push(c),
            }
        }
        flush(&mut literal, &mut parts);
        parts
    }

    pub(super) fn compile(&mut self) -> CResult<()> {
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
                        goccia_interp::escape::printf_format(&self.delimited(delimiter, true)?)
                            .0
                            .chars()
                            .collect();
                    let to: Vec<char> =
                        goccia_interp::escape::printf_format(&self.delimited(delimiter, true)?)
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

/// GNU sed's escapes that name a character, turned into it before the
/// regex is compiled: `\a` `\f` `\v` `\r` (`\t` and `\n` are left to the
/// regex translation, which knows them), `\cX` (control-X), and the
/// numeric `\xHH`, `\oNNN`, `\dNNN`. A numeric escape below 0x80 is the
/// character itself, special to the regex as GNU sed 4.9 makes it
/// (`\x2e` matches any character; `\x5c` is a literal backslash); past
/// ASCII it is the byte, and then the rest of the pattern is spelled byte
/// by byte too, as the pattern space will be (the `bool`).
fn byte_escapes(pattern: &str) -> (Cow<'_, str>, bool) {
    if !pattern.contains('\\') {
        return (Cow::Borrowed(pattern), false);
    }
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut found = false;
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '\\' || i + 1 >= chars.len() {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let named = match chars[i + 1] {
            'a' => Some('\u{7}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            'r' => Some('\r'),
            _ => None,
        };
        if let Some(c) = named {
            out.push(c);
            i += 2;
            continue;
        }
        if chars[i + 1] == 'c'
            && let Some(&letter) = chars.get(i + 2)
            && letter.is_ascii()
        {
            out.push(char::from(letter.to_ascii_uppercase() as u8 ^ 0x40));
            i += 3;
            continue;
        }
        let (radix, most) = match chars[i + 1] {
            'x' => (16, 2),
            'o' => (8, 3),
            'd' => (10, 3),
            other => {
                out.push('\\');
                out.push(other);
                i += 2;
                continue;
            }
        };
        let digits: String = chars[i + 2..]
            .iter()
            .take(most)
            .take_while(|c| c.is_digit(radix))
            .collect();
        match u32::from_str_radix(&digits, radix) {
            Ok(0x5c) => {
                out.push_str("\\\\");
                i += 2 + digits.len();
            }
            Ok(value @ 1..=0x7f) => {
                out.push(char::from(value as u8));
                i += 2 + digits.len();
            }
            Ok(value @ 0x80..=0xff) => {
                out.push(goccia_interp::raw::byte_char(value as u8));
                found = true;
                i += 2 + digits.len();
            }
            _ => {
                out.push('\\');
                out.push(chars[i + 1]);
                i += 2;
            }
        }
    }
    if found {
        out = goccia_interp::raw::bytewise(&out).into_owned();
    }
    (Cow::Owned(out), found)
}

/// GNU sed turns `\t` and `\n` into a tab and a newline before it
/// compiles a regex, so inside a bracket expression (where POSIX keeps a
/// backslash literal) `[ \t]` is a blank and a tab.
fn bracket_escapes(pattern: &str) -> std::borrow::Cow<'_, str> {
    if !pattern.contains('[') || !pattern.contains('\\') {
        return pattern.into();
    }
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len());
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                out.extend(chars.get(i..i + 2).unwrap_or(&chars[i..]));
                i += 2;
            }
            '[' => {
                out.push('[');
                i += 1;
                // `^` and a `]` right after the opening are members.
                for lead in ['^', ']'] {
                    if chars.get(i) == Some(&lead) {
                        out.push(lead);
                        i += 1;
                    }
                }
                while let Some(&c) = chars.get(i) {
                    match (c, chars.get(i + 1)) {
                        (']', _) => break,
                        ('[', Some(kind @ (':' | '=' | '.'))) => {
                            let close = (i + 2..chars.len().saturating_sub(1))
                                .find(|&j| chars[j] == *kind && chars[j + 1] == ']')
                                .map_or(chars.len(), |j| j + 2);
                            out.extend(&chars[i..close]);
                            i = close;
                        }
                        ('\\', Some('t')) => {
                            out.push('\t');
                            i += 2;
                        }
                        ('\\', Some('n')) => {
                            out.push('\n');
                            i += 2;
                        }
                        _ => {
                            out.push(c);
                            i += 1;
                        }
                    }
                }
                if i < chars.len() {
                    out.push(']');
                    i += 1;
                }
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out.into()
}

#[cfg(test)]
mod tests {
    use super::{bracket_escapes, byte_escapes};

    #[test]
    fn byte_escapes_past_ascii_are_bytes_and_make_the_regex_bytewise() {
        let (pattern, bytewise) = byte_escapes(r"\xceμ\o377");
        assert!(bytewise);
        assert_eq!(&*goccia_interp::raw::encode(&pattern), b"\xce\xce\xbc\xff");
        assert_eq!(pattern.chars().count(), 4);
        // Below 0x80 the character itself, special as GNU sed 4.9 keeps
        // it; a backslash stays literal; named escapes are characters.
        assert_eq!(byte_escapes(r"\x41\x2e\.").0, r"A.\.");
        assert_eq!(byte_escapes(r"\x5c").0, r"\\");
        assert!(!byte_escapes(r"\x41").1);
        assert_eq!(byte_escapes(r"\r\a\f\v\cI\t").0, "\r\u{7}\u{c}\u{b}\t\\t");
    }

    #[test]
    fn tab_and_newline_escapes_in_brackets_become_characters() {
        assert_eq!(bracket_escapes(r"[ \t]\+"), " [ \t]\\+".trim_start());
        assert_eq!(bracket_escapes(r"[^\n]*"), "[^\n]*");
        // Elsewhere the regex translation handles them; classes stay.
        assert_eq!(bracket_escapes(r"\t[[:space:]\t]"), "\\t[[:space:]\t]");
        assert_eq!(bracket_escapes(r"[]\t]"), "[]\t]");
        assert_eq!(bracket_escapes(r"[\]"), r"[\]");
    }
}
