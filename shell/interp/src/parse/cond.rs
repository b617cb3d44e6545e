//! `[[ ... ]]` conditional expressions.

use super::{PResult, Parser};
use crate::ast::*;

const UNARY: &[&str] = &[
    "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-t", "-u", "-w", "-x",
    "-G", "-L", "-N", "-O", "-S", "-z", "-n", "-o", "-v", "-R",
];
const BINARY: &[&str] = &[
    "==", "=", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef", "=~",
];

impl Parser {
    /// After `[[`: the expression up to and including `]]`.
    pub(super) fn parse_cond(&mut self) -> PResult<CondExpr> {
        let expr = self.cond_or()?;
        self.cond_blank();
        if !self.eat("]]") {
            return Err(if self.at_end() {
                self.eof_error("`]]'")
            } else {
                self.unexpected()
            });
        }
        Ok(expr)
    }

    fn cond_blank(&mut self) {
        self.skip_blank_and_newlines();
    }

    fn cond_or(&mut self) -> PResult<CondExpr> {
        let mut left = self.cond_and()?;
        loop {
            self.cond_blank();
            if !self.eat("||") {
                return Ok(left);
            }
            let right = self.cond_and()?;
            left = CondExpr::Or(Box::new(left), Box::new(right));
        }
    }

    fn cond_and(&mut self) -> PResult<CondExpr> {
        let mut left = self.cond_not()?;
        loop {
            self.cond_blank();
            if !self.eat("&&") {
                return Ok(left);
            }
            let right = self.cond_not()?;
            left = CondExpr::And(Box::new(left), Box::new(right));
        }
    }

    fn cond_not(&mut self) -> PResult<CondExpr> {
        self.cond_blank();
        let operand = match self.peek_at(1) {
            Some(' ' | '\t') => true,
            // With extglob, `!(x)` is a pattern word, as in bash.
            Some('(') => !self.extglob,
            _ => false,
        };
        if self.peek() == Some('!') && operand {
            self.pos += 1;
            return Ok(CondExpr::Not(Box::new(self.cond_not()?)));
        }
        self.cond_primary()
    }

    fn cond_primary(&mut self) -> PResult<CondExpr> {
        self.cond_blank();
        if self.peek() == Some('(') {
            self.pos += 1;
            let inner = self.cond_or()?;
            self.cond_blank();
            if !self.eat(")") {
                return Err(self.unexpected());
            }
            return Ok(inner);
        }
        if self.starts_with("]]") {
            return Err(self.unexpected());
        }
        let first = self.cond_word()?;
        if let Some(op) = first.as_plain().filter(|w| UNARY.contains(&w.as_str())) {
            self.skip_blank();
            if !self.starts_with("]]")
                && !self.starts_with("&&")
                && !self.starts_with("||")
                && self.peek() != Some(')')
            {
                let save = (self.pos, self.line);
                let binary_has_operand = self.peek_binary_op().is_some_and(|binary| {
                    self.pos += binary.len();
                    self.skip_blank();
                    let ends = self.starts_with("]]")
                        || self.starts_with("&&")
                        || self.starts_with("||")
                        || self.peek() == Some(')');
                    (self.pos, self.line) = save;
                    !ends
                });
                // `-n = x`: the "unary operator" is really an operand; in
                // `-f ==` the operator is the operand.
                if !binary_has_operand {
                    let operand = self.cond_word()?;
                    return Ok(CondExpr::Unary(op, operand));
                }
            }
        }
        self.skip_blank();
        if let Some(op) = self.peek_binary_op() {
            self.pos += op.len();
            self.skip_blank();
            if op == "=~" {
                let regex = self.read_regex_word()?;
                return Ok(CondExpr::Regex(first, regex));
            }
            let second = self.cond_word()?;
            return Ok(CondExpr::Binary(first, op, second));
        }
        Ok(CondExpr::Word(first))
    }

    fn peek_binary_op(&self) -> Option<String> {
        for op in BINARY {
            if self.starts_with(op) {
                let after = self.peek_at(op.len());
                // `<(` and `>(` begin a process substitution operand.
                if matches!(*op, "<" | ">") && after == Some('(') {
                    continue;
                }
                let word_op = op.starts_with('-');
                let ends = matches!(after, None | Some(' ') | Some('\t') | Some('\n'))
                    || (!word_op && !matches!(after, Some('=') | Some('~')));
                if ends {
                    return Some(op.to_string());
                }
            }
        }
        None
    }

    fn cond_word(&mut self) -> PResult<Word> {
        self.skip_blank();
        self.read_word()?.ok_or_else(|| self.unexpected())
    }

    /// The right side of `=~`: up to a blank outside parentheses; `(`, `)`
    /// and `|` are part of the regex.
    fn read_regex_word(&mut self) -> PResult<Word> {
        let mut parts: Vec<WordPart> = Vec::new();
        let mut literal = String::new();
        let mut depth = 0usize;
        let flush = |literal: &mut String, parts: &mut Vec<WordPart>| {
            if !literal.is_empty() {
                parts.push(WordPart::Literal(std::mem::take(literal)));
            }
        };
        if let Some(user) = self.regex_tilde_prefix() {
            parts.push(WordPart::Tilde(user));
        }
        while let Some(c) = self.peek() {
            match c {
                ' ' | '\t' | '\n' if depth == 0 => break,
                '(' => {
                    depth += 1;
                    literal.push(c);
                    self.pos += 1;
                }
                ')' if depth > 0 => {
                    depth -= 1;
                    literal.push(c);
                    self.pos += 1;
                }
                ')' => break,
                '&' | '<' | '>' if depth == 0 => break,
                '|' if depth == 0 && self.peek_at(1) == Some('|') => break,
                '\'' | '"' | '$' | '`' | '\\' => {
                    flush(&mut literal, &mut parts);
                    let word = self.read_word_piece()?;
                    parts.extend(word.parts);
                }
                _ => {
                    literal.push(c);
                    self.pos += 1;
                }
            }
        }
        flush(&mut literal, &mut parts);
        if parts.is_empty() {
            return Err(self.unexpected());
        }
        Ok(Word { parts })
    }

    /// `~` or `~user` opening the regex, up to `/` or the word's end: a
    /// tilde prefix, as in any word.
    fn regex_tilde_prefix(&mut self) -> Option<String> {
        if self.peek() != Some('~') {
            return None;
        }
        let mut end = self.pos + 1;
        while self.src.get(end).copied().is_some_and(super::is_login_char) {
            end += 1;
        }
        if !matches!(self.src.get(end), None | Some('/' | ' ' | '\t' | '\n')) {
            return None;
        }
        let user = self.src[self.pos + 1..end].iter().collect();
        self.pos = end;
        Some(user)
    }

    /// One quoted piece or expansion, for the regex reader.
    fn read_word_piece(&mut self) -> PResult<Word> {
        let start = self.pos;
        let c = self.peek().expect("caller peeked");
        let end = match c {
            '\'' => {
                let mut i = self.pos + 1;
                while self.src.get(i).is_some_and(|c| *c != '\'') {
                    i += 1;
                }
                i + 1
            }
            '\\' => self.pos + 2,
            _ => {
                // Let the word reader take one quoted string or expansion
                // (in place: a copy of the rest of the script per piece
                // made long scripts quadratic).
                return self.read_single_piece();
            }
        };
        let text: String = self.src[start..end.min(self.src.len())].iter().collect();
        self.pos = end.min(self.src.len());
        let mut probe = self.nested(&text);
        Ok(probe.read_word()?.unwrap_or_default())
    }
}
