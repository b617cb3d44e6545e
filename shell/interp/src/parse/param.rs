//! Parameter expansions in braces: `${name}`, `${#name}`, `${!name}`,
//! `${name[i]}` and their operators (`:-`, `#`, `%`, `/`, `:offset`,
//! `^`, `,`, `@op`), or the bad substitution bash reports when it runs.

use std::sync::Arc;

use super::word::{Mode, count_literal};
use super::{PResult, Parser};
use crate::ast::*;

impl Parser {
    /// `${...}` that does not parse: its text up to the matching `}`.
    pub(super) fn bad_param(&mut self) -> PResult<ParamExpansion> {
        let mut text = String::from("${");
        let mut depth = 1;
        loop {
            let c = self.bump().ok_or_else(|| self.eof_error("`}'"))?;
            text.push(c);
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        Ok(ParamExpansion {
            name: String::new(),
            index: None,
            indirect: false,
            length: false,
            op: ParamOp::Bad(text),
            braced: true,
        })
    }

    pub(super) fn parse_braced_param(&mut self) -> PResult<ParamExpansion> {
        let mut length = false;
        let mut indirect = false;
        // `${#name}`, `${#1}`, `${#-}` are lengths; `$#` itself takes an
        // operator when a special character follows `#` and is not the
        // whole name (`${#-x}`, `${###}`, `${#%5}`).
        let length_of = match self.peek_at(1) {
            Some(c) if c == '_' || c.is_ascii_alphanumeric() => true,
            Some(c) if "#-?@*$!".contains(c) => self.peek_at(2) == Some('}'),
            _ => false,
        };
        if self.peek() == Some('#') && length_of {
            length = true;
            self.pos += 1;
        } else if self.peek() == Some('!') && !matches!(self.peek_at(1), Some('}')) {
            indirect = true;
            self.pos += 1;
        }
        let name = self.read_param_name()?;
        let mut index = None;
        if self.peek() == Some('[') {
            self.pos += 1;
            let mut depth = 1;
            let mut text = String::new();
            loop {
                let c = self.bump().ok_or_else(|| self.eof_error("`]'"))?;
                match c {
                    '[' => depth += 1,
                    ']' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                text.push(c);
            }
            index = Some(if text == "@" || text == "*" {
                Word::literal(&text)
            } else {
                self.sub_word(&text)?
            });
        }
        if indirect
            && index.is_none()
            && matches!(self.peek(), Some('*') | Some('@'))
            && self.peek_at(1) == Some('}')
        {
            let at = self.peek() == Some('@');
            self.pos += 2;
            return Ok(ParamExpansion {
                name,
                index: None,
                indirect: false,
                length: false,
                op: ParamOp::Names { at },
                braced: true,
            });
        }
        let op = if length {
            ParamOp::None
        } else {
            self.parse_param_op()?
        };
        if !self.eat("}") {
            return Err(if self.at_end() {
                self.eof_error("`}'")
            } else {
                self.error(format!("${{{name}...}}: bad substitution"))
            });
        }
        Ok(ParamExpansion {
            name,
            index,
            indirect,
            length,
            op,
            braced: true,
        })
    }

    fn read_param_name(&mut self) -> PResult<String> {
        let mut name = String::new();
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                while let Some(c) = self.peek().filter(|c| c.is_ascii_digit()) {
                    name.push(c);
                    self.pos += 1;
                }
            }
            Some(c) if "@*#?-$!".contains(c) => {
                name.push(c);
                self.pos += 1;
            }
            _ => {
                while let Some(c) = self
                    .peek()
                    .filter(|c| *c == '_' || c.is_ascii_alphanumeric())
                {
                    name.push(c);
                    self.pos += 1;
                }
            }
        }
        if name.is_empty() {
            return Err(self.error("bad substitution"));
        }
        Ok(name)
    }

    fn parse_param_op(&mut self) -> PResult<ParamOp> {
        let Some(c) = self.peek() else {
            return Err(self.eof_error("`}'"));
        };
        let word = |parser: &mut Parser, stops: &[char]| -> PResult<Word> {
            let outer = std::mem::replace(&mut parser.literal_single_quotes, false);
            let parts = parser.read_parts(Mode::Param, stops, true);
            parser.literal_single_quotes = outer;
            Ok(parts?.finish())
        };
        // The operand of `-`, `=`, `?`, `+`: inside double quotes it is
        // quoted text, so `~` is no tilde prefix there (a pattern's is).
        let default_word = |parser: &mut Parser| -> PResult<Word> {
            let literal = parser.param_in_dquotes;
            let outer = std::mem::replace(&mut parser.literal_single_quotes, literal);
            let parts = parser.read_parts(Mode::Param, &['}'], !literal);
            parser.literal_single_quotes = outer;
            Ok(parts?.finish())
        };
        Ok(match c {
            '}' => ParamOp::None,
            ':' => {
                self.pos += 1;
                match self.peek() {
                    Some(op @ ('-' | '=' | '?' | '+')) => {
                        self.pos += 1;
                        let w = default_word(self)?;
                        default_op(op, true, w)
                    }
                    _ => {
                        // A `:` that closes a `?` belongs to the offset's
                        // conditional expression: `${s: 1 ? 2 : 0 : 1}`.
                        let mut offset = word(self, &[':', '}'])?;
                        let mut open_conditionals = count_literal(&offset, '?');
                        while open_conditionals > 0 && self.peek() == Some(':') {
                            self.pos += 1;
                            open_conditionals -= 1;
                            offset.parts.push(WordPart::Literal(":".to_string()));
                            let more = word(self, &[':', '}'])?;
                            open_conditionals += count_literal(&more, '?');
                            offset.parts.extend(more.parts);
                        }
                        let length = if self.eat(":") {
                            Some(word(self, &['}'])?)
                        } else {
                            None
                        };
                        ParamOp::Substring { offset, length }
                    }
                }
            }
            '-' | '=' | '?' | '+' => {
                self.pos += 1;
                let w = default_word(self)?;
                default_op(c, false, w)
            }
            '#' | '%' => {
                self.pos += 1;
                let longest = self.eat(&c.to_string());
                let pattern = word(self, &['}'])?;
                if c == '#' {
                    ParamOp::RemovePrefix { longest, pattern }
                } else {
                    ParamOp::RemoveSuffix { longest, pattern }
                }
            }
            '/' => {
                self.pos += 1;
                let mode = if self.eat("/") {
                    ReplaceMode::All
                } else if self.eat("#") {
                    ReplaceMode::Prefix
                } else if self.eat("%") {
                    ReplaceMode::Suffix
                } else {
                    ReplaceMode::First
                };
                // A pattern may start with `/` (`${x////c}` replaces each
                // `/`): the delimiter is looked for after its first
                // character, as bash does.
                let leading_slash = matches!(mode, ReplaceMode::All) && self.eat("/");
                let mut pattern = word(self, &['/', '}'])?;
                if leading_slash {
                    pattern.parts.insert(0, WordPart::Literal("/".to_string()));
                }
                let replacement = if self.eat("/") {
                    word(self, &['}'])?
                } else {
                    Word::default()
                };
                ParamOp::Replace {
                    mode,
                    pattern,
                    replacement,
                }
            }
            '^' | ',' => {
                self.pos += 1;
                let all = self.eat(&c.to_string());
                let pattern = word(self, &['}'])?;
                ParamOp::Case {
                    upper: c == '^',
                    all,
                    pattern,
                }
            }
            '@' => {
                self.pos += 1;
                let op = self.bump().ok_or_else(|| self.eof_error("`}'"))?;
                ParamOp::Transform(op)
            }
            _ => return Err(self.error("bad substitution")),
        })
    }
}

fn default_op(op: char, colon: bool, word: Word) -> ParamOp {
    match op {
        '-' => ParamOp::Default {
            colon,
            word: Arc::new(word),
        },
        '=' => ParamOp::Assign { colon, word },
        '?' => ParamOp::Error { colon, word },
        _ => ParamOp::Alternate {
            colon,
            word: Arc::new(word),
        },
    }
}
