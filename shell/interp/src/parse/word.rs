//! Words: quoting, escapes, and where expansions start (`$`, backquotes,
//! extended globs); `${...}` itself is `param`, redirections `redirect`.

use std::sync::Arc;

use super::{PResult, Parser};
use crate::ast::*;

/// Accumulates the parts of a word.
#[derive(Default)]
pub(super) struct Parts {
    parts: Vec<WordPart>,
    literal: String,
}

impl Parts {
    pub(super) fn push_char(&mut self, c: char) {
        self.literal.push(c);
    }

    pub(super) fn push(&mut self, part: WordPart) {
        self.flush();
        self.parts.push(part);
    }

    fn flush(&mut self) {
        if !self.literal.is_empty() {
            self.parts
                .push(WordPart::Literal(std::mem::take(&mut self.literal)));
        }
    }

    fn is_empty(&self) -> bool {
        self.parts.is_empty() && self.literal.is_empty()
    }

    /// The word so far begins `NAME=` or `NAME+=` (an assignment, or an
    /// argument of `export`/`declare` that is one).
    fn assignment_like(&self) -> bool {
        let first = match self.parts.first() {
            Some(WordPart::Literal(text)) => text.as_str(),
            Some(_) => return false,
            None => self.literal.as_str(),
        };
        let Some(equals) = first.find('=') else {
            return false;
        };
        let name = first[..equals]
            .strip_suffix('+')
            .unwrap_or(&first[..equals]);
        crate::parse::is_name(name)
    }

    pub(super) fn finish(mut self) -> Word {
        self.flush();
        Word { parts: self.parts }
    }
}

/// Where a word is being read: what ends it and what is special.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    /// A command word: ends at blanks and metacharacters.
    Command,
    /// A whole string (array index, arithmetic): ends only at the end.
    Whole,
    /// An operand inside `${...}`: ends at one of the stop characters.
    Param,
}

/// Characters that end a word. A carriage return is not one: as in bash,
/// `echo\rTEST` is one word (a script saved with CRLF line ends fails).
fn is_meta(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t' | '\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')'
    )
}

impl Parser {
    /// A command word, or `None` when the next token is not a word.
    pub(super) fn read_word(&mut self) -> PResult<Option<Word>> {
        self.read_word_until(&[], false)
    }

    /// Reads a word. With `whole`, reads to the end of the input.
    pub(super) fn read_word_until(&mut self, stops: &[char], whole: bool) -> PResult<Option<Word>> {
        let mode = if whole { Mode::Whole } else { Mode::Command };
        let word = self.read_parts(mode, stops, true)?;
        Ok(if word.is_empty() {
            None
        } else {
            Some(word.finish())
        })
    }

    /// The value of `name=value` (may be empty; `~` expands after `:`).
    pub(super) fn read_assignment_value(&mut self) -> PResult<Word> {
        let outer = std::mem::replace(&mut self.assignment_value, true);
        let elements = std::mem::replace(&mut self.array_elements, false);
        let parts = self.read_parts(Mode::Command, &[], true);
        self.assignment_value = outer;
        self.array_elements = elements;
        Ok(parts?.finish())
    }

    pub(super) fn read_parts(
        &mut self,
        mode: Mode,
        stops: &[char],
        tilde_ok: bool,
    ) -> PResult<Parts> {
        self.enter()?;
        let parts = self.read_parts_inside(mode, stops, tilde_ok);
        self.leave();
        parts
    }

    fn read_parts_inside(&mut self, mode: Mode, stops: &[char], tilde_ok: bool) -> PResult<Parts> {
        // Arithmetic and subscripts are not tilde-expanded (`$((~0))`).
        let tilde_ok = tilde_ok && mode != Mode::Whole;
        let mut parts = Parts::default();
        let start = self.pos;
        while let Some(c) = self.peek() {
            match mode {
                // `<(list)` and `>(list)` anywhere in a word, as bash
                // reads them (`a<(x)b` is one word).
                Mode::Command if matches!(c, '<' | '>') && self.peek_at(1) == Some('(') => {
                    self.pos += 2;
                    let list = self.parse_nested_list()?;
                    parts.push(WordPart::ProcessSub {
                        input: c == '<',
                        list: Arc::new(list),
                    });
                    continue;
                }
                Mode::Command if is_meta(c) => {
                    if c == '(' && self.extglob_open(&parts) {
                        self.read_extglob(&mut parts)?;
                        continue;
                    }
                    break;
                }
                Mode::Param if stops.contains(&c) => break,
                _ => {}
            }
            match c {
                '\\' => {
                    self.pos += 1;
                    match self.bump() {
                        Some('\n') => self.line += 0,
                        Some(next) => {
                            let kept = match mode {
                                Mode::Whole => !matches!(next, '$' | '`' | '"' | '\\' | '\''),
                                Mode::Param if self.param_in_dquotes => {
                                    !matches!(next, '$' | '`' | '"' | '\\' | '}')
                                }
                                _ => false,
                            };
                            if kept {
                                parts.push_char('\\');
                                parts.push_char(next);
                            } else {
                                parts.push(WordPart::Escaped(next.to_string()));
                            }
                        }
                        None => parts.push_char('\\'),
                    }
                }
                '\'' if mode == Mode::Param && self.literal_single_quotes => {
                    self.pos += 1;
                    parts.push_char('\'');
                    let inner = self.read_parts(Mode::Param, &['\''], false)?.finish();
                    for part in inner.parts {
                        parts.push(part);
                    }
                    if self.eat("'") {
                        parts.push_char('\'');
                    }
                }
                // A `${...}` nested in an operand inside double quotes
                // is inside them too (`"${u-${v-'x'}}"`).
                '$' if mode == Mode::Param
                    && self.param_in_dquotes
                    && self.peek_at(1) == Some('{') =>
                {
                    if let Some(part) = self.parse_dollar(true)? {
                        parts.push(part);
                    }
                }
                '\'' | '"' | '$' | '`' => self.read_quote_or_expansion(c, &mut parts)?,
                '~' if tilde_ok && (self.pos == start || self.tilde_after_assignment(&parts)) => {
                    let tilde_at = self.pos;
                    self.pos += 1;
                    let mut user = String::new();
                    let mut is_prefix = true;
                    while let Some(c) = self.peek() {
                        if c == '/'
                            || c == ':'
                            || is_meta(c)
                            || (mode == Mode::Param && stops.contains(&c))
                        {
                            break;
                        }
                        if !is_login_char(c) {
                            // `~{a,b}`, `~"x"`: not a tilde prefix here (brace
                            // expansion may still make one).
                            is_prefix = false;
                            break;
                        }
                        user.push(c);
                        self.pos += 1;
                    }
                    if is_prefix {
                        parts.push(WordPart::Tilde(user));
                    } else {
                        self.pos = tilde_at + 1;
                        parts.push_char('~');
                    }
                }
                _ => {
                    self.bump();
                    parts.push_char(c);
                }
            }
        }
        Ok(parts)
    }

    /// `~` after `=` or `:` in an assignment-looking word.
    fn tilde_after_assignment(&self, parts: &Parts) -> bool {
        let prev = self
            .pos
            .checked_sub(1)
            .and_then(|i| self.src.get(i))
            .copied();
        // An array literal's plain elements are not assignments.
        let like = parts.assignment_like() && !self.array_elements;
        match prev {
            Some(':') => self.assignment_value || like,
            Some('=') => parts.parts.is_empty() && like,
            _ => false,
        }
    }

    fn extglob_open(&self, parts: &Parts) -> bool {
        matches!(
            parts.literal.chars().last(),
            Some('?' | '*' | '+' | '@' | '!')
        )
    }

    /// An extended glob group `@(...)` up to its matching `)`: `(`, `|`
    /// and `)` stay pattern characters; quotes, escapes and expansions
    /// inside work as elsewhere in a word (`@('a*'|$x)`).
    fn read_extglob(&mut self, parts: &mut Parts) -> PResult<()> {
        let mut depth = 0;
        loop {
            let c = self.peek().ok_or_else(|| self.eof_error("`)'"))?;
            match c {
                '(' | ')' => {
                    self.pos += 1;
                    parts.push_char(c);
                    depth += if c == '(' { 1 } else { -1 };
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '\\' => {
                    self.pos += 1;
                    match self.bump() {
                        Some(next) => parts.push(WordPart::Escaped(next.to_string())),
                        None => parts.push_char('\\'),
                    }
                }
                '\'' | '"' | '$' | '`' => self.read_quote_or_expansion(c, parts)?,
                _ => {
                    self.pos += 1;
                    parts.push_char(c);
                }
            }
        }
    }

    /// At `'`, `"`, `$` or `` ` `` outside double quotes: the quoted text
    /// or expansion it starts, read the same wherever a word has one.
    fn read_quote_or_expansion(&mut self, c: char, parts: &mut Parts) -> PResult<()> {
        match c {
            '\'' if self.arithmetic_text => {
                self.pos += 1;
                parts.push_char('\'');
            }
            '\'' => {
                self.pos += 1;
                let text = self.read_single_quoted()?;
                parts.push(WordPart::SingleQuoted(text));
            }
            '"' => {
                self.pos += 1;
                let inner = self.read_double_quoted()?;
                parts.push(WordPart::DoubleQuoted(inner));
            }
            '$' => match self.parse_dollar(false)? {
                Some(part) => parts.push(part),
                None => parts.push_char('$'),
            },
            _ => {
                self.pos += 1;
                let list = self.read_backticks(false)?;
                parts.push(WordPart::CommandSub(Arc::new(list)));
            }
        }
        Ok(())
    }

    fn read_single_quoted(&mut self) -> PResult<String> {
        let mut text = String::new();
        loop {
            match self.bump() {
                None => return Err(self.eof_error("matching `''")),
                Some('\'') => return Ok(text),
                Some(c) => text.push(c),
            }
        }
    }

    fn read_double_quoted(&mut self) -> PResult<Vec<WordPart>> {
        let mut parts = Parts::default();
        loop {
            match self.peek() {
                None => return Err(self.eof_error("matching `\"'")),
                Some('"') => {
                    self.pos += 1;
                    break;
                }
                Some('\\') => {
                    self.pos += 1;
                    match self.bump() {
                        Some('\n') => {}
                        Some(c @ ('$' | '`' | '"' | '\\')) => {
                            parts.push(WordPart::Escaped(c.to_string()))
                        }
                        Some(c) => {
                            parts.push_char('\\');
                            parts.push_char(c);
                        }
                        None => return Err(self.eof_error("matching `\"'")),
                    }
                }
                Some('$') => match self.parse_dollar(true)? {
                    Some(part) => parts.push(part),
                    None => parts.push_char('$'),
                },
                Some('`') => {
                    self.pos += 1;
                    let list = self.read_backticks(true)?;
                    parts.push(WordPart::CommandSub(Arc::new(list)));
                }
                Some(c) => {
                    self.bump();
                    parts.push_char(c);
                }
            }
        }
        Ok(parts.finish().parts)
    }

    /// Reads `` `...` `` (after the opening backtick) and parses it.
    pub(super) fn read_backticks(&mut self, in_double_quotes: bool) -> PResult<List> {
        let mut text = String::new();
        loop {
            match self.bump() {
                None => return Err(self.eof_error("matching ``'")),
                Some('`') => break,
                Some('\\') => match self.bump() {
                    Some(c @ ('$' | '`' | '\\')) => text.push(c),
                    Some('"') if in_double_quotes => text.push('"'),
                    Some(c) => {
                        text.push('\\');
                        text.push(c);
                    }
                    None => return Err(self.eof_error("matching ``'")),
                },
                Some(c) => text.push(c),
            }
        }
        backquoted_list(self.nested(&text), &text)
    }

    /// A list up to the matching `)` (for `$(...)`, `<(...)`).
    pub(super) fn parse_nested_list(&mut self) -> PResult<List> {
        self.depth += 1;
        // The list inside is commands again, whatever word it sits in: an
        // arithmetic text's literal quotes, a double-quoted parameter's or
        // an assignment's rules do not reach into it (`$(( $(echo '2') ))`).
        let context = (
            std::mem::take(&mut self.arithmetic_text),
            std::mem::take(&mut self.literal_single_quotes),
            std::mem::take(&mut self.param_in_dquotes),
            std::mem::take(&mut self.assignment_value),
            std::mem::take(&mut self.array_elements),
        );
        let list = self.parse_list();
        (
            self.arithmetic_text,
            self.literal_single_quotes,
            self.param_in_dquotes,
            self.assignment_value,
            self.array_elements,
        ) = context;
        self.depth -= 1;
        let list = list?;
        self.skip_blank_and_newlines();
        if !self.eat(")") {
            return Err(if self.at_end() {
                self.eof_error("`)'")
            } else {
                self.unexpected()
            });
        }
        Ok(list)
    }

    /// The text of `$[...]` up to its matching `]`.
    fn read_old_arith(&mut self) -> PResult<String> {
        let mut depth = 0usize;
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(self.eof_error("`]'")),
                Some(']') if depth == 0 => {
                    self.pos += 1;
                    return Ok(text);
                }
                Some('[') => depth += 1,
                Some(']') => depth -= 1,
                _ => {}
            }
            text.push(self.bump().expect("peeked"));
        }
    }

    /// At `$`: an expansion, or `None` when the `$` is literal.
    /// Line continuations right after the `prefix` characters at the
    /// reader join what follows them (`$\<newline>?` is `$?`, `${\<newline>x}`
    /// is `${x}`): the prefix moves forward over them, which keeps every
    /// offset into the source where it was.
    fn join_continuations(&mut self, prefix: usize) {
        while self.peek_at(prefix) == Some('\\') && self.peek_at(prefix + 1) == Some('\n') {
            for i in (0..prefix).rev() {
                self.src[self.pos + 2 + i] = self.src[self.pos + i];
            }
            self.pos += 2;
            self.line += 1;
        }
    }

    pub(super) fn parse_dollar(&mut self, in_double_quotes: bool) -> PResult<Option<WordPart>> {
        self.join_continuations(1);
        if self.peek_at(1) == Some('{') {
            self.join_continuations(2);
        }
        let next = self.peek_at(1);
        match next {
            Some('(') if self.peek_at(2) == Some('(') => {
                let save = (self.pos, self.line);
                self.pos += 3;
                if let Ok(text) = self.read_arith_until_close() {
                    return Ok(Some(WordPart::ArithSub(self.arith_word(&text)?)));
                }
                (self.pos, self.line) = save;
                self.pos += 2;
                let list = self.parse_nested_list()?;
                Ok(Some(WordPart::CommandSub(Arc::new(list))))
            }
            Some('(') => {
                self.pos += 2;
                let list = self.parse_nested_list()?;
                Ok(Some(WordPart::CommandSub(Arc::new(list))))
            }
            // `$[expr]`: bash's old spelling of `$((expr))`.
            Some('[') => {
                self.pos += 2;
                let text = self.read_old_arith()?;
                Ok(Some(WordPart::ArithSub(self.arith_word(&text)?)))
            }
            Some('{') => {
                self.pos += 2;
                let start = self.pos;
                let outer = std::mem::replace(&mut self.param_in_dquotes, in_double_quotes);
                let parsed = self.parse_braced_param();
                self.param_in_dquotes = outer;
                match parsed {
                    Ok(param) => Ok(Some(WordPart::Param(Box::new(param)))),
                    Err(error)
                        if !error.incomplete && error.message.contains("bad substitution") =>
                    {
                        self.pos = start;
                        Ok(Some(WordPart::Param(Box::new(self.bad_param()?))))
                    }
                    Err(error) => Err(error),
                }
            }
            Some('\'') if !in_double_quotes => {
                self.pos += 2;
                Ok(Some(WordPart::SingleQuoted(self.read_ansi_c()?)))
            }
            Some('"') if !in_double_quotes => {
                self.pos += 2;
                Ok(Some(WordPart::DoubleQuoted(self.read_double_quoted()?)))
            }
            Some(c) if c == '_' || c.is_ascii_alphabetic() => {
                self.pos += 1;
                let mut name = String::new();
                while let Some(c) = self.peek() {
                    if c == '_' || c.is_ascii_alphanumeric() {
                        name.push(c);
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                Ok(Some(simple_param(name)))
            }
            Some(c) if c.is_ascii_digit() || "@*#?-$!".contains(c) => {
                self.pos += 2;
                Ok(Some(simple_param(c.to_string())))
            }
            _ => {
                self.pos += 1;
                Ok(None)
            }
        }
    }

    /// `$'...'` with ANSI-C escapes (after the opening quote).
    fn read_ansi_c(&mut self) -> PResult<String> {
        let mut raw = String::new();
        loop {
            match self.bump() {
                None => return Err(self.eof_error("matching `''")),
                Some('\'') => break,
                Some('\\') => {
                    raw.push('\\');
                    match self.bump() {
                        Some(c) => raw.push(c),
                        None => return Err(self.eof_error("matching `''")),
                    }
                }
                Some(c) => raw.push(c),
            }
        }
        Ok(crate::escape::ansi_c(&raw))
    }
}

/// A character of a login name after `~`.
pub(crate) fn is_login_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '-' || c == '.' || c == '+'
}

fn simple_param(name: String) -> WordPart {
    WordPart::Param(Box::new(ParamExpansion {
        name,
        index: None,
        indirect: false,
        length: false,
        op: ParamOp::None,
        braced: false,
    }))
}

/// A word's text with quotes removed (here-document delimiters).
/// `text` after quote removal: quotes go, a backslash keeps the
/// character after it (in double quotes only before `$`, `` ` ``, `"`,
/// `\`).
pub(super) fn without_quotes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.extend(chars.next()),
            '\'' => out.extend(chars.by_ref().take_while(|c| *c != '\'')),
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if chars.peek().is_some_and(|n| "$`\"\\".contains(*n)) => {
                            out.extend(chars.next())
                        }
                        c => out.push(c),
                    }
                }
            }
            c => out.push(c),
        }
    }
    out
}

pub(crate) fn unquoted_text(word: &Word) -> String {
    let mut out = String::new();
    for part in &word.parts {
        match part {
            WordPart::Literal(text) | WordPart::SingleQuoted(text) | WordPart::Escaped(text) => {
                out.push_str(text)
            }
            WordPart::DoubleQuoted(inner) => out.push_str(&unquoted_text(&Word {
                parts: inner.clone(),
            })),
            WordPart::Param(param) => {
                out.push('$');
                out.push_str(&param.name);
            }
            WordPart::Tilde(user) => {
                out.push('~');
                out.push_str(user);
            }
            _ => {}
        }
    }
    out
}

impl Parser {
    /// Exactly one `"..."`, `$...` or `` `...` `` piece.
    pub(super) fn read_single_piece(&mut self) -> PResult<Word> {
        let mut parts = Parts::default();
        match self.peek() {
            Some('"') => {
                self.pos += 1;
                let inner = self.read_double_quoted()?;
                parts.push(WordPart::DoubleQuoted(inner));
            }
            Some('$') => match self.parse_dollar(false)? {
                Some(part) => parts.push(part),
                None => parts.push_char('$'),
            },
            Some('`') => {
                self.pos += 1;
                let list = self.read_backticks(false)?;
                parts.push(WordPart::CommandSub(Arc::new(list)));
            }
            _ => {}
        }
        Ok(parts.finish())
    }
}

/// How often `c` occurs in the unquoted text of `word`.
pub(super) fn count_literal(word: &Word, c: char) -> usize {
    word.parts
        .iter()
        .map(|part| match part {
            WordPart::Literal(text) => text.matches(c).count(),
            _ => 0,
        })
        .sum()
}

/// A list that, when run, reads `text` again and fails on its syntax
/// error as a command substitution's child does.
/// The commands of backquotes' `text`, read by `parser`.
pub(super) fn backquoted_list(mut parser: Parser, text: &str) -> PResult<List> {
    let mut list = List::default();
    loop {
        match parser.next_command() {
            Ok(Some(command)) => list.items.extend(command.items),
            Ok(None) => return Ok(list),
            // bash parses backquotes only when the substitution runs:
            // their syntax error is the substitution's (reported, status
            // 2, empty output), not the script's. `builtin eval` of the
            // text reproduces that when it runs.
            Err(error) if error.stop.is_none() => return Ok(deferred_syntax_error(text)),
            Err(error) => return Err(error),
        }
    }
}

fn deferred_syntax_error(text: &str) -> List {
    Parser::parse_all(&format!("builtin eval {}", crate::interp::quote(text))).unwrap_or_default()
}
