//! `fmt`, as GNU coreutils fills paragraphs: not greedily but by the
//! least total cost over the whole paragraph (lines short of the goal
//! width, ragged neighbours, breaks after sentence ends and punctuation
//! preferred, widows and orphans avoided), with GNU's constants, its
//! paragraph rules (a change of indentation starts a paragraph; `-c`
//! crown and `-t` tagged indents; `-s` splits only; `-p` formats only
//! lines with the prefix and copies the others), sentence ends (a period
//! before two spaces or a line end) followed by two spaces, `-u` uniform
//! spacing, tabs kept in indentation once the input used them, and the
//! flush of a paragraph too long to hold (1,000 words or 5,000 bytes) at
//! its cheapest break.

use std::io::Write;

use crate::args::{buffered, finish, parse_options, usage};
use crate::text::lines::operands_or_stdin;
use goccia_interp::input::{ByteStream, open_source};
use goccia_interp::interp::{ExecResult, ShellView};

type Cost = i64;

const MAX_WORDS: usize = 1000;
const MAX_CHARS: usize = 5000;
const TAB_WIDTH: usize = 8;
const DEFAULT_INDENT: usize = 3;
const LEEWAY: usize = 7;
const MAX_COST: Cost = Cost::MAX;

const fn equiv(n: Cost) -> Cost {
    n * n
}
const fn short_cost(n: Cost) -> Cost {
    equiv(n * 10)
}
const fn ragged_cost(n: Cost) -> Cost {
    short_cost(n) / 2
}
const LINE_COST: Cost = equiv(70);
const SENTENCE_BONUS: Cost = equiv(50);
const NOBREAK_COST: Cost = equiv(600);
const PAREN_BONUS: Cost = equiv(40);
const PUNCT_BONUS: Cost = equiv(40);
/// Credit for splitting a paragraph too long to hold one line later.
const LINE_CREDIT: Cost = equiv(3);
const fn widow_cost(n: usize) -> Cost {
    equiv(200) / (n as Cost + 2)
}
const fn orphan_cost(n: usize) -> Cost {
    equiv(150) / (n as Cost + 2)
}

#[derive(Clone, Default)]
struct Word {
    text: Vec<u8>,
    /// The space after it.
    space: usize,
    paren: bool,
    period: bool,
    punct: bool,
    /// Ends a sentence.
    last: bool,
    /// The best line starting here: its length, cost, and where it breaks.
    line_length: usize,
    best_cost: Cost,
    next_break: usize,
}

impl Word {
    fn length(&self) -> usize {
        self.text.len()
    }

    fn check_punctuation(&mut self) {
        let text = &self.text;
        let first = text[0];
        let end = text[text.len() - 1];
        // GNU tests these with strchr, which also finds a NUL byte.
        self.paren = matches!(first, b'(' | b'[' | b'`' | b'\'' | b'"' | 0);
        self.punct = end.is_ascii_punctuation();
        let mut finish = text.len() - 1;
        while finish > 0 && matches!(text[finish], b')' | b']' | b'\'' | b'"' | 0) {
            finish -= 1;
        }
        self.period = matches!(text[finish], b'.' | b'?' | b'!' | 0);
    }
}

struct Settings {
    max_width: usize,
    goal_width: usize,
    uniform: bool,
    split: bool,
    crown: bool,
    tagged: bool,
    /// The prefix without its leading blanks, and those blanks.
    prefix: Vec<u8>,
    prefix_lead_space: usize,
    /// The prefix's length with its trailing blanks (only the part
    /// before them is printed).
    prefix_full_length: usize,
}

/// One input's formatting state (GNU's globals).
struct Formatter<'a> {
    settings: &'a Settings,
    input: ByteStream,
    out: Vec<u8>,
    in_column: usize,
    out_column: usize,
    tabs: bool,
    prefix_indent: usize,
    next_prefix_indent: usize,
    first_indent: usize,
    other_indent: usize,
    last_line_length: usize,
    next_char: Option<u8>,
    words: Vec<Word>,
    chars: usize,
}

impl Formatter<'_> {
    fn getc(&mut self) -> Option<u8> {
        self.input.next()
    }

    fn get_space(&mut self, mut c: Option<u8>) -> Option<u8> {
        loop {
            match c {
                Some(b' ') => self.in_column += 1,
                Some(b'\t') => {
                    self.tabs = true;
                    self.in_column = (self.in_column / TAB_WIDTH + 1) * TAB_WIDTH;
                }
                _ => return c,
            }
            c = self.getc();
        }
    }

    fn get_prefix(&mut self) -> Option<u8> {
        self.in_column = 0;
        let first = self.getc();
        let mut c = self.get_space(first);
        let settings = self.settings;
        let prefix_length = settings.prefix.len();
        if prefix_length == 0 {
            self.next_prefix_indent = settings.prefix_lead_space.min(self.in_column);
        } else {
            self.next_prefix_indent = self.in_column;
            for &expected in &settings.prefix {
                if c != Some(expected) {
                    return c;
                }
                self.in_column += 1;
                c = self.getc();
            }
            c = self.get_space(c);
        }
        c
    }

    fn same_paragraph(&self, c: Option<u8>) -> bool {
        self.next_prefix_indent == self.prefix_indent
            && self.in_column >= self.next_prefix_indent + self.settings.prefix_full_length
            && c.is_some_and(|c| c != b'\n')
    }

    fn set_other_indent(&mut self, same: bool) {
        let settings = self.settings;
        if settings.split {
            self.other_indent = self.first_indent;
        } else if settings.crown {
            self.other_indent = if same {
                self.in_column
            } else {
                self.first_indent
            };
        } else if settings.tagged {
            if same && self.in_column != self.first_indent {
                self.other_indent = self.in_column;
            } else if self.other_indent == self.first_indent {
                self.other_indent = if self.first_indent == 0 {
                    DEFAULT_INDENT
                } else {
                    0
                };
            }
        } else {
            self.other_indent = self.first_indent;
        }
    }

    /// Copies a line without the prefix (or blank after it).
    fn copy_rest(&mut self, mut c: Option<u8>) -> Option<u8> {
        self.out_column = 0;
        if self.in_column > self.next_prefix_indent || c.is_some_and(|c| c != b'\n') {
            self.put_space(self.next_prefix_indent);
            let prefix = &self.settings.prefix;
            let mut index = 0;
            while self.out_column != self.in_column && index < prefix.len() {
                self.out.push(prefix[index]);
                index += 1;
                self.out_column += 1;
            }
            if c.is_some_and(|c| c != b'\n') {
                self.put_space(self.in_column.saturating_sub(self.out_column));
            }
            // A blank last line without its newline still ends with one.
            if c.is_none() && self.in_column >= self.next_prefix_indent + prefix.len() {
                self.out.push(b'\n');
            }
        }
        while let Some(byte) = c.filter(|c| *c != b'\n') {
            self.out.push(byte);
            c = self.getc();
        }
        c
    }

    fn get_paragraph(&mut self) -> bool {
        self.last_line_length = 0;
        let mut c = self.next_char;
        let settings = self.settings;
        while c.is_none_or(|c| c == b'\n')
            || self.next_prefix_indent < settings.prefix_lead_space
            || self.in_column < self.next_prefix_indent + settings.prefix_full_length
        {
            c = self.copy_rest(c);
            if c.is_none() {
                self.next_char = None;
                return false;
            }
            self.out.push(b'\n');
            c = self.get_prefix();
        }
        self.prefix_indent = self.next_prefix_indent;
        self.first_indent = self.in_column;
        self.words.clear();
        self.chars = 0;
        c = self.get_line(c);
        let same = self.same_paragraph(c);
        self.set_other_indent(same);
        if settings.split {
        } else if settings.crown {
            if self.same_paragraph(c) {
                loop {
                    c = self.get_line(c);
                    if !(self.same_paragraph(c) && self.in_column == self.other_indent) {
                        break;
                    }
                }
            }
        } else if settings.tagged {
            if self.same_paragraph(c) && self.in_column != self.first_indent {
                loop {
                    c = self.get_line(c);
                    if !(self.same_paragraph(c) && self.in_column == self.other_indent) {
                        break;
                    }
                }
            }
        } else {
            while self.same_paragraph(c) && self.in_column == self.other_indent {
                c = self.get_line(c);
            }
        }
        if let Some(last) = self.words.last_mut() {
            last.period = true;
            last.last = true;
        }
        self.next_char = c;
        true
    }

    /// Reads one line's words (`c` is its first byte after the indent).
    fn get_line(&mut self, mut c: Option<u8>) -> Option<u8> {
        loop {
            let mut word = Word::default();
            loop {
                if self.chars == MAX_CHARS {
                    self.set_other_indent(true);
                    self.flush_paragraph(Some(&mut word));
                }
                word.text.push(c.unwrap_or(0));
                self.chars += 1;
                c = self.getc();
                if c.is_none_or(|c| c.is_ascii_whitespace() || c == 0x0b) {
                    break;
                }
            }
            self.in_column += word.length();
            word.check_punctuation();
            let start = self.in_column;
            c = self.get_space(c);
            word.space = self.in_column - start;
            word.last = c.is_none() || (word.period && (c == Some(b'\n') || word.space > 1));
            if c.is_none_or(|c| c == b'\n') || self.settings.uniform {
                word.space = if word.last { 2 } else { 1 };
            }
            // GNU flushes when this word fills its next-to-last slot; the
            // word itself stays for the rest.
            if self.words.len() == MAX_WORDS - 2 {
                self.set_other_indent(true);
                self.flush_paragraph(Some(&mut word));
            }
            self.words.push(word);
            if c.is_none_or(|c| c == b'\n') {
                break;
            }
        }
        self.get_prefix()
    }

    /// Chooses every line break of the paragraph (GNU's dynamic
    /// programming, from the last word back).
    fn fmt_paragraph(&mut self) {
        let limit = self.words.len();
        let max_width = self.settings.max_width;
        // The sentinel after the last word.
        self.words.push(Word {
            text: Vec::new(),
            best_cost: 0,
            ..Word::default()
        });
        for start in (0..limit).rev() {
            let mut best = MAX_COST;
            let mut len = if start == 0 {
                self.first_indent
            } else {
                self.other_indent
            };
            let mut w = start;
            len += self.words[w].length();
            loop {
                w += 1;
                let mut cost = self
                    .line_cost(w, len, limit)
                    .saturating_add(self.words[w].best_cost);
                if start == 0 && self.last_line_length > 0 {
                    cost = cost
                        .saturating_add(ragged_cost(len as Cost - self.last_line_length as Cost));
                }
                if cost < best {
                    best = cost;
                    self.words[start].next_break = w;
                    self.words[start].line_length = len;
                }
                if w == limit {
                    break;
                }
                len += self.words[w - 1].space + self.words[w].length();
                if len >= max_width {
                    break;
                }
            }
            self.words[start].best_cost = best.saturating_add(self.base_cost(start));
        }
        self.words.pop();
    }

    fn line_cost(&self, next: usize, len: usize, limit: usize) -> Cost {
        if next == limit {
            return 0;
        }
        let n = self.settings.goal_width as Cost - len as Cost;
        let mut cost = short_cost(n);
        if self.words[next].next_break != limit {
            cost += ragged_cost(len as Cost - self.words[next].line_length as Cost);
        }
        cost
    }

    fn base_cost(&self, this: usize) -> Cost {
        let words = &self.words;
        let mut cost = LINE_COST;
        if this > 0 {
            let before = &words[this - 1];
            if before.period {
                if before.last {
                    cost -= SENTENCE_BONUS;
                } else {
                    cost += NOBREAK_COST;
                }
            } else if before.punct {
                cost -= PUNCT_BONUS;
            } else if this > 1 && words[this - 2].last {
                cost += widow_cost(before.length());
            }
        }
        if words[this].paren {
            cost -= PAREN_BONUS;
        } else if words[this].last {
            cost += orphan_cost(words[this].length());
        }
        cost
    }

    /// Prints the paragraph's lines up to (not including) word `finish`.
    fn put_paragraph(&mut self, finish: usize) {
        self.put_line(0, self.first_indent);
        let mut w = self.words[0].next_break;
        while w != finish {
            self.put_line(w, self.other_indent);
            w = self.words[w].next_break;
        }
    }

    fn put_line(&mut self, first: usize, indent: usize) {
        self.out_column = 0;
        self.put_space(self.prefix_indent);
        let settings = self.settings;
        self.out.extend(&settings.prefix);
        self.out_column += settings.prefix.len();
        self.put_space(indent.saturating_sub(self.out_column));
        let end = self.words[first].next_break - 1;
        for w in first..end {
            self.put_word(w);
            self.put_space(self.words[w].space);
        }
        self.put_word(end);
        self.last_line_length = self.out_column;
        self.out.push(b'\n');
    }

    fn put_word(&mut self, w: usize) {
        let text = std::mem::take(&mut self.words[w].text);
        self.out.extend(&text);
        self.out_column += text.len();
        self.words[w].text = text;
    }

    fn put_space(&mut self, space: usize) {
        let target = self.out_column + space;
        if self.tabs {
            let tab_target = target / TAB_WIDTH * TAB_WIDTH;
            if self.out_column + 1 < tab_target {
                while self.out_column < tab_target {
                    self.out.push(b'\t');
                    self.out_column = (self.out_column / TAB_WIDTH + 1) * TAB_WIDTH;
                }
            }
        }
        while self.out_column < target {
            self.out.push(b' ');
            self.out_column += 1;
        }
    }

    /// A paragraph too long to hold: print it up to its cheapest break
    /// near the end and keep the rest (`partial` is the word being read,
    /// which stays with the rest).
    fn flush_paragraph(&mut self, partial: Option<&mut Word>) {
        if self.words.is_empty() {
            if let Some(word) = partial {
                self.out.append(&mut word.text);
            }
            self.chars = 0;
            return;
        }
        self.fmt_paragraph();
        let limit = self.words.len();
        let mut split_point = limit;
        let mut best_break = MAX_COST;
        let mut w = self.words[0].next_break;
        while w != limit {
            let next = self.words[w].next_break;
            let next_cost = if next == limit {
                0
            } else {
                self.words[next].best_cost
            };
            let gain = self.words[w].best_cost - next_cost;
            if gain < best_break {
                split_point = w;
                best_break = gain;
            }
            if best_break <= MAX_COST - LINE_CREDIT {
                best_break += LINE_CREDIT;
            }
            w = next;
        }
        self.put_paragraph(split_point);
        self.words.drain(..split_point);
        for word in &mut self.words {
            if word.next_break >= split_point {
                word.next_break -= split_point;
            }
        }
        self.chars = self.words.iter().map(Word::length).sum::<usize>()
            + partial.map_or(0, |word| word.text.len());
    }
}

/// A width up to `most` (GNU's messages for a bad one and a large one).
fn parse_width(shell: &mut ShellView, text: &str, most: usize) -> Result<usize, i32> {
    match text.parse::<usize>() {
        Ok(n) if n <= most => Ok(n),
        Ok(_) => {
            let message = format!("invalid width: '{text}': Numerical result out of range");
            Err(shell.fail_command("fmt", &message, 1))
        }
        Err(_) => Err(shell.fail_command("fmt", &format!("invalid width: '{text}'"), 1)),
    }
}

pub fn fmt(shell: &mut ShellView, args: &[String]) -> ExecResult {
    // The obsolete `-72` means `-w 72`.
    let args: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, arg)| {
            if i > 0
                && arg.len() > 1
                && arg[1..].bytes().all(|b| b.is_ascii_digit())
                && arg.starts_with('-')
            {
                format!("-w{}", &arg[1..])
            } else {
                arg.clone()
            }
        })
        .collect();
    let parsed = parse_options!(
        shell,
        &args,
        "wgp",
        &[
            ("width", 'w', true),
            ("goal", 'g', true),
            ("prefix", 'p', true),
            ("crown-margin", 'c', false),
            ("tagged-paragraph", 't', false),
            ("split-only", 's', false),
            ("uniform-spacing", 'u', false),
        ]
    );
    if let Some(flag) = parsed.flags.iter().find(|f| !"ctsu".contains(**f)) {
        return usage(shell, "fmt", &format!("invalid option -- '{flag}'"), 1);
    }
    let mut max_width = 75;
    if let Some(text) = parsed.value('w') {
        match parse_width(shell, text, MAX_CHARS / 2) {
            Ok(width) => max_width = width,
            Err(status) => return Ok(status),
        }
    }
    let goal_width = match parsed.value('g') {
        Some(text) => match parse_width(shell, text, max_width) {
            Ok(goal) => {
                if parsed.value('w').is_none() {
                    max_width = goal + 10;
                }
                goal
            }
            Err(status) => return Ok(status),
        },
        None => max_width * (2 * (100 - LEEWAY) + 1) / 200,
    };
    let raw_prefix = parsed.value('p').unwrap_or("").as_bytes();
    let lead = raw_prefix.iter().take_while(|b| **b == b' ').count();
    let full = &raw_prefix[lead..];
    let trimmed = full.len() - full.iter().rev().take_while(|b| **b == b' ').count();
    let settings = Settings {
        max_width,
        goal_width,
        uniform: parsed.has('u'),
        split: parsed.has('s'),
        crown: parsed.has('c'),
        tagged: parsed.has('t'),
        prefix: full[..trimmed].to_vec(),
        prefix_lead_space: lead,
        prefix_full_length: full.len(),
    };
    let mut out = buffered(shell);
    let mut status = 0;
    for operand in operands_or_stdin(&parsed.operands) {
        let Ok(source) = open_source(shell, "fmt", &operand) else {
            status = 1;
            continue;
        };
        let mut formatter = Formatter {
            settings: &settings,
            input: ByteStream::new(source),
            out: Vec::new(),
            in_column: 0,
            out_column: 0,
            tabs: false,
            prefix_indent: 0,
            next_prefix_indent: 0,
            first_indent: 0,
            other_indent: 0,
            last_line_length: 0,
            next_char: None,
            words: Vec::new(),
            chars: 0,
        };
        formatter.next_char = formatter.get_prefix();
        while formatter.get_paragraph() {
            formatter.fmt_paragraph();
            let limit = formatter.words.len();
            formatter.put_paragraph(limit);
            if formatter.out.len() > 16 << 10 {
                if out.write_all(&formatter.out).is_err() {
                    break;
                }
                formatter.out.clear();
            }
            if goccia_interp::interrupt::stopped() {
                break;
            }
        }
        if out.write_all(&formatter.out).is_err() {
            break;
        }
    }
    finish(shell, "fmt", out, status)
}
