//! Compound commands: `if`, `while`/`until`, `for`/`select`, `case`,
//! `(( ))`, and function definitions.

use std::sync::Arc;

use super::{PResult, Parser, is_name, split_arith_for};
use crate::ast::*;

impl Parser {
    pub(super) fn parse_if(&mut self) -> PResult<CompoundCommand> {
        self.pos += 2;
        let mut branches = Vec::new();
        let mut otherwise = None;
        loop {
            let cond = self.parse_compound_list()?;
            self.expect_reserved("then")?;
            let body = self.parse_compound_list()?;
            branches.push((cond, body));
            self.skip_blank_and_newlines();
            if self.at_reserved("elif") {
                self.pos += 4;
                continue;
            }
            if self.at_reserved("else") {
                self.pos += 4;
                otherwise = Some(self.parse_compound_list()?);
            }
            self.expect_reserved("fi")?;
            break;
        }
        Ok(CompoundCommand::If {
            branches,
            otherwise,
        })
    }

    pub(super) fn parse_while(&mut self, until: bool) -> PResult<CompoundCommand> {
        // `while` and `until` are both five characters long.
        self.pos += 5;
        let cond = self.parse_compound_list()?;
        let body = self.parse_do_group()?;
        Ok(CompoundCommand::While { cond, body, until })
    }

    pub(super) fn parse_do_group(&mut self) -> PResult<List> {
        self.skip_blank_and_newlines();
        if self.at_reserved("{") {
            self.pos += 1;
            let body = self.parse_compound_list()?;
            self.expect_reserved("}")?;
            return Ok(body);
        }
        self.expect_reserved("do")?;
        let body = self.parse_compound_list()?;
        self.expect_reserved("done")?;
        Ok(body)
    }

    pub(super) fn parse_for(&mut self) -> PResult<CompoundCommand> {
        let line = self.line;
        self.pos += 3;
        self.skip_blank();
        if self.starts_with("((") {
            self.pos += 2;
            let text = self.read_arith_until_close()?;
            let parts = split_arith_for(&text);
            let [init, cond, step] = parts.map(|p| self.arith_word(&p));
            let (init, cond, step) = (init?, cond?, step?);
            self.skip_blank();
            self.eat(";");
            let body = self.parse_do_group()?;
            return Ok(CompoundCommand::ArithFor {
                init,
                cond,
                step,
                body,
                line,
            });
        }
        let (var, words) = self.parse_for_head()?;
        let body = self.parse_do_group()?;
        Ok(CompoundCommand::For {
            var,
            words,
            body,
            line,
        })
    }

    pub(super) fn parse_select(&mut self) -> PResult<CompoundCommand> {
        self.pos += 6;
        self.skip_blank();
        let (var, words) = self.parse_for_head()?;
        let body = self.parse_do_group()?;
        Ok(CompoundCommand::Select { var, words, body })
    }

    /// The loop variable and the words after `in`. The variable is any
    /// word, kept as its source text: as in bash, one that is no name
    /// (`for i.j in ...`) fails when the loop runs, not when it parses.
    pub(super) fn parse_for_head(&mut self) -> PResult<(String, Option<Vec<Word>>)> {
        // Each word right after an alias ending in a blank is looked up as
        // an alias too (`alias FOR='for ' I='i ' IN='in '`).
        self.expand_alias_after_blank()?;
        let start = self.pos;
        if self.read_word()?.is_none() {
            return Err(self.unexpected());
        }
        let var: String = self.src[start..self.pos].iter().collect();
        self.skip_blank();
        self.expand_alias_after_blank()?;
        let mut words = None;
        let save = self.pos;
        self.skip_blank_and_newlines();
        if self.at_reserved("in") {
            self.pos += 2;
            let mut list = Vec::new();
            loop {
                self.skip_blank();
                self.expand_alias_after_blank()?;
                match self.peek() {
                    None | Some('\n') | Some(';') => break,
                    _ => {}
                }
                let word = self.read_word()?.ok_or_else(|| self.unexpected())?;
                list.push(word);
            }
            words = Some(list);
        } else {
            self.pos = save;
        }
        self.skip_blank();
        if self.peek() == Some(';') {
            self.pos += 1;
        }
        Ok((var, words))
    }

    pub(super) fn parse_case(&mut self) -> PResult<CompoundCommand> {
        let line = self.line;
        self.pos += 4;
        self.skip_blank();
        let word = self.read_word()?.ok_or_else(|| self.unexpected())?;
        self.expect_reserved("in")?;
        let mut arms = Vec::new();
        loop {
            self.skip_blank_and_newlines();
            if self.at_reserved("esac") {
                self.pos += 4;
                break;
            }
            if self.at_end() {
                return Err(self.eof_error("`esac'"));
            }
            self.eat("(");
            let mut patterns = Vec::new();
            loop {
                self.skip_blank();
                let pattern = self.read_word()?.ok_or_else(|| self.unexpected())?;
                patterns.push(pattern);
                self.skip_blank();
                if self.eat("|") {
                    continue;
                }
                if self.eat(")") {
                    break;
                }
                return Err(self.unexpected());
            }
            let body = self.parse_list()?;
            self.skip_blank_and_newlines();
            let terminator = if self.eat(";;&") {
                CaseTerminator::TestNext
            } else if self.eat(";;") {
                CaseTerminator::Break
            } else if self.eat(";&") {
                CaseTerminator::FallThrough
            } else if self.at_reserved("esac") {
                CaseTerminator::Break
            } else {
                return Err(if self.at_end() {
                    self.eof_error("`esac'")
                } else {
                    self.unexpected()
                });
            };
            arms.push(CaseArm {
                patterns,
                body,
                terminator,
            });
        }
        Ok(CompoundCommand::Case { word, arms, line })
    }

    /// `((...))` as a command; `None` when it is really `( (...) )`.
    pub(super) fn try_parse_arith_command(&mut self) -> PResult<Option<CompoundCommand>> {
        let save = (self.pos, self.line);
        let line = self.line;
        self.pos += 2;
        match self.read_arith_until_close() {
            Ok(text) => Ok(Some(CompoundCommand::Arith(self.arith_word(&text)?, line))),
            Err(_) => {
                (self.pos, self.line) = save;
                Ok(None)
            }
        }
    }

    /// Reads arithmetic text up to the matching `))`.
    pub(super) fn read_arith_until_close(&mut self) -> PResult<String> {
        let mut depth = 0usize;
        let mut text = String::new();
        loop {
            match self.peek() {
                None => return Err(self.eof_error("`))'")),
                Some('(') => depth += 1,
                Some(')') if depth == 0 => {
                    if self.peek_at(1) == Some(')') {
                        self.pos += 2;
                        return Ok(text);
                    }
                    return Err(self.error("syntax error: `))' expected"));
                }
                Some(')') => depth -= 1,
                _ => {}
            }
            text.push(self.bump().expect("peeked"));
        }
    }

    pub(super) fn parse_function_keyword(&mut self) -> PResult<Command> {
        self.pos += 8;
        self.skip_blank();
        let name = self.peek_word_text().ok_or_else(|| self.unexpected())?;
        let name = name.trim_end_matches("()").to_string();
        self.pos += name.chars().count();
        self.skip_blank();
        if self.starts_with("()") {
            self.pos += 2;
        } else if self.peek() == Some('(') {
            self.pos += 1;
            self.skip_blank();
            if !self.eat(")") {
                return Err(self.unexpected());
            }
        }
        self.function_body(name)
    }

    /// `name () compound-command`. The name is any word but an
    /// assignment (`a=b()` is a syntax error, `func-name=x()` a function),
    /// kept as its source text; one with expansions or quotes is refused
    /// when the definition runs, as bash does.
    pub(super) fn try_parse_function_def(&mut self) -> PResult<Option<Command>> {
        // Asked before every simple command: the name is only copied out
        // once a `(` and `)` follow it.
        let Some(after) = self.peek_word_end().filter(|end| *end > self.pos) else {
            return Ok(None);
        };
        let mut i = after;
        while matches!(self.src.get(i), Some(' ') | Some('\t')) {
            i += 1;
        }
        if self.src.get(i) != Some(&'(') {
            return Ok(None);
        }
        let mut j = i + 1;
        while matches!(self.src.get(j), Some(' ') | Some('\t')) {
            j += 1;
        }
        if self.src.get(j) != Some(&')') {
            return Ok(None);
        }
        let name: String = self.src[self.pos..after].iter().collect();
        // `a=()` and `a+=()` are assignments of an empty list.
        if name.split_once('=').is_some_and(|(target, _)| {
            let target = target.strip_suffix('+').unwrap_or(target);
            is_name(target.split('[').next().unwrap_or(""))
        }) {
            return Ok(None);
        }
        self.pos = j + 1;
        self.function_body(name).map(Some)
    }

    /// The source text of the word at the cursor (quotes and expansions
    /// as written), without reading it: the plain fast path first.
    fn peek_word_text(&self) -> Option<String> {
        let end = self.peek_word_end()?;
        Some(self.src[self.pos..end].iter().collect())
    }

    /// Where the word at the cursor ends ([`Parser::peek_word_text`]).
    fn peek_word_end(&self) -> Option<usize> {
        match self.peek_plain_chars() {
            Some(word) => Some(self.pos + word.len()),
            None => self.scan_word_end(self.pos),
        }
    }

    /// Where the word at `start` ends, stepping over quotes, escapes and
    /// `$( )`, `${ }` and backquotes; `None` when it does not end on this
    /// text or is empty. Only a look ahead: nothing is parsed.
    fn scan_word_end(&self, start: usize) -> Option<usize> {
        let mut i = start;
        while let Some(&c) = self.src.get(i) {
            match c {
                ' ' | '\t' | '\n' | ';' | '&' | '|' | '<' | '>' | '(' | ')' => break,
                '\\' => i += 2,
                '\'' => i = self.closing(i + 1, '\'')? + 1,
                '"' => i = self.closing(i + 1, '"')? + 1,
                '`' => i = self.closing(i + 1, '`')? + 1,
                '$' if matches!(self.src.get(i + 1), Some('(') | Some('{')) => {
                    let (open, close) = if self.src[i + 1] == '(' {
                        ('(', ')')
                    } else {
                        ('{', '}')
                    };
                    let mut depth = 0usize;
                    let mut j = i + 1;
                    loop {
                        match self.src.get(j)? {
                            ch if *ch == open => depth += 1,
                            ch if *ch == close => {
                                depth -= 1;
                                if depth == 0 {
                                    break;
                                }
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                    i = j + 1;
                }
                _ => i += 1,
            }
        }
        (i > start).then_some(i.min(self.src.len()))
    }

    /// The position of the next `quote` from `from` (a backslash escapes
    /// in double quotes and backquotes).
    fn closing(&self, from: usize, quote: char) -> Option<usize> {
        let mut i = from;
        loop {
            match *self.src.get(i)? {
                '\\' if quote != '\'' => i += 2,
                c if c == quote => return Some(i),
                _ => i += 1,
            }
        }
    }

    pub(super) fn function_body(&mut self, name: String) -> PResult<Command> {
        let line = self.line;
        self.skip_blank_and_newlines();
        let body = self.parse_command()?;
        if !matches!(body, Command::Compound(..)) {
            return Err(self.error(format!(
                "syntax error: `{name}': function body must be a compound command"
            )));
        }
        Ok(Command::FunctionDef(Arc::new(FunctionDef {
            name,
            body,
            line,
        })))
    }
}
