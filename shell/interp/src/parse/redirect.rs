//! Redirections (`>`, `>>`, `<`, `<>`, `>&`, `&>`, `{fd}>`, ...) and the
//! here-documents and here-strings they introduce.

use std::sync::Arc;

use super::word::{Parts, without_quotes};
use super::{PResult, Parser, is_name};
use crate::ast::*;

impl Parser {
    pub(super) fn try_parse_redirect(&mut self) -> PResult<Option<Redirect>> {
        let save = (self.pos, self.line);
        let mut fd = RedirectFd::Default;
        let mut i = self.pos;
        while self.src.get(i).is_some_and(|c| c.is_ascii_digit()) {
            i += 1;
        }
        if i > self.pos && matches!(self.src.get(i), Some('<') | Some('>')) {
            let digits: String = self.src[self.pos..i].iter().collect();
            fd = RedirectFd::Number(digits.parse().unwrap_or(i32::MAX));
            self.pos = i;
        } else if self.peek() == Some('{') {
            let mut j = self.pos + 1;
            let mut name = String::new();
            while let Some(&c) = self
                .src
                .get(j)
                .filter(|c| **c == '_' || c.is_ascii_alphanumeric())
            {
                name.push(c);
                j += 1;
            }
            if is_name(&name)
                && self.src.get(j) == Some(&'}')
                && matches!(self.src.get(j + 1), Some('<') | Some('>'))
            {
                fd = RedirectFd::Variable(name);
                self.pos = j + 1;
            }
        }
        const OPS: &[(&str, RedirectOp)] = &[
            ("&>>", RedirectOp::AppendBoth),
            ("&>", RedirectOp::WriteBoth),
            ("<<<", RedirectOp::HereString),
            ("<<-", RedirectOp::HereDoc),
            ("<<", RedirectOp::HereDoc),
            ("<>", RedirectOp::ReadWrite),
            ("<&", RedirectOp::DupRead),
            (">&", RedirectOp::DupWrite),
            (">>", RedirectOp::Append),
            (">|", RedirectOp::Clobber),
            ("<", RedirectOp::Read),
            (">", RedirectOp::Write),
        ];
        let Some((text, op)) = OPS.iter().find(|(text, _)| self.starts_with(text)) else {
            (self.pos, self.line) = save;
            return Ok(None);
        };
        // `<(` and `>(` start a process substitution, even after digits
        // (`2>(x)` is the word `2/dev/fd/63`, as in bash).
        if matches!(op, RedirectOp::Read | RedirectOp::Write) && self.peek_at(1) == Some('(') {
            (self.pos, self.line) = save;
            return Ok(None);
        }
        if matches!(op, RedirectOp::WriteBoth | RedirectOp::AppendBoth) && fd != RedirectFd::Default
        {
            (self.pos, self.line) = save;
            return Ok(None);
        }
        let strip_tabs = *text == "<<-";
        self.pos += text.len();
        self.skip_blank();
        let start = self.pos;
        let target = self.read_word()?.ok_or_else(|| self.unexpected())?;
        let heredoc = if *op == RedirectOp::HereDoc {
            let raw: String = self.src[start..self.pos].iter().collect();
            Some(self.read_heredoc(&target, &raw, strip_tabs)?)
        } else {
            None
        };
        Ok(Some(Redirect {
            fd,
            op: *op,
            target,
            heredoc,
            line: save.1,
        }))
    }

    /// Registers a here-document whose body follows the current line; the
    /// body is read when that line's newline is consumed.
    /// The delimiter is the word's source text after quote removal, with
    /// no expansion: `<<${a}` ends at a line `${a}`.
    fn read_heredoc(&mut self, delimiter: &Word, raw: &str, strip_tabs: bool) -> PResult<HereDoc> {
        let id = self.next_heredoc_id;
        self.next_heredoc_id += 1;
        self.pending_heredocs.push(super::PendingHereDoc {
            id,
            delimiter: without_quotes(raw),
            strip_tabs,
            expand: !delimiter.has_quotes(),
        });
        Ok(super::heredoc::placeholder(id))
    }

    /// Reads the bodies of pending here-documents, starting at the current
    /// position (the start of a line).
    ///
    /// A here-document opened inside an alias's text takes its body from
    /// the input after the line the alias was used on, as bash reads it:
    /// the lines are cut out of the input there, and the alias's own
    /// remaining lines are read as commands.
    pub(super) fn read_pending_heredocs(&mut self) {
        if self.pending_heredocs.is_empty() {
            return;
        }
        let in_alias = self
            .alias_stack
            .iter()
            .map(|(_, end)| *end)
            .filter(|end| *end >= self.pos)
            .max();
        let Some(alias_end) = in_alias else {
            self.read_heredoc_bodies();
            return;
        };
        let mut after_line = alias_end;
        while self.src.get(after_line).is_some_and(|c| *c != '\n') {
            after_line += 1;
        }
        let after_line = (after_line + 1).min(self.src.len());
        let resume = self.pos;
        self.pos = after_line;
        self.read_heredoc_bodies();
        self.src.drain(after_line..self.pos);
        self.pos = resume;
    }

    fn read_heredoc_bodies(&mut self) {
        for pending in std::mem::take(&mut self.pending_heredocs) {
            let mut body = String::new();
            while self.pos < self.src.len() {
                let mut end = self.pos;
                while self.src.get(end).is_some_and(|c| *c != '\n') {
                    end += 1;
                }
                let line: String = self.src[self.pos..end].iter().collect();
                self.pos = (end + 1).min(self.src.len());
                self.line += 1;
                let content = if pending.strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    line.as_str()
                };
                if content == pending.delimiter {
                    break;
                }
                body.push_str(content);
                body.push('\n');
            }
            let word = if pending.expand {
                self.heredoc_word(&body)
                    .unwrap_or_else(|_| Word::quoted(&body))
            } else {
                Word::quoted(&body)
            };
            self.heredoc_bodies.insert(
                pending.id,
                HereDoc {
                    body: word,
                    expand: pending.expand,
                },
            );
        }
    }

    /// A here-document body: `$` expansions and backticks, with `\` quoting
    /// only `$`, `` ` ``, `\` and newline.
    pub(super) fn heredoc_word(&self, text: &str) -> PResult<Word> {
        let mut parser = self.nested(text);
        let mut parts = Parts::default();
        while let Some(c) = parser.peek() {
            match c {
                '\\' => {
                    parser.pos += 1;
                    match parser.bump() {
                        Some('\n') => {}
                        Some(c @ ('$' | '`' | '\\')) => {
                            parts.push(WordPart::SingleQuoted(c.to_string()))
                        }
                        Some(c) => {
                            parts.push_char('\\');
                            parts.push_char(c);
                        }
                        None => parts.push_char('\\'),
                    }
                }
                '$' => match parser.parse_dollar(true)? {
                    Some(part) => parts.push(part),
                    None => parts.push_char('$'),
                },
                '`' => {
                    parser.pos += 1;
                    let list = parser.read_backticks(true)?;
                    parts.push(WordPart::CommandSub(Arc::new(list)));
                }
                _ => {
                    parser.bump();
                    parts.push_char(c);
                }
            }
        }
        // Quoted as a whole: no splitting or globbing of a here-document.
        let mut word = Word {
            parts: vec![WordPart::DoubleQuoted(parts.finish().parts)],
        };
        // Here-documents of command substitutions inside this one.
        parser.read_pending_heredocs();
        super::heredoc::fill_word(&mut word, &mut parser.heredoc_bodies);
        Ok(word)
    }
}
