//! A recursive-descent parser for the bash language, reading characters
//! directly (bash's grammar is too context-sensitive for a separate lexer:
//! reserved words, assignments, `[[ ]]`, here-documents and aliases all
//! depend on where a word appears).
//!
//! [`Parser::next_command`] returns one complete command (a logical line)
//! at a time, so that aliases defined by one line apply to the next, as in
//! bash.

mod cond;
mod heredoc;
mod word;

use heredoc::PendingHereDoc;

use std::collections::HashMap;
use std::sync::Arc;

use thiserror::Error;

use crate::ast::*;

/// A syntax error, with the line it is on.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct ParseError {
    pub line: usize,
    pub message: String,
    /// The input ended inside a construct (an interactive session reads
    /// another line instead of failing).
    pub incomplete: bool,
}

const RESERVED: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "case", "esac", "while", "until", "for",
    "in", "function", "select", "time", "{", "}", "!", "[[", "]]", "coproc",
];

/// Words that end a list inside a compound command.
const LIST_ENDS: &[&str] = &["then", "else", "elif", "fi", "do", "done", "esac", "}"];

/// Names that take assignment arguments (`declare a=(1 2)`).
pub const DECLARATION_COMMANDS: &[&str] = &["declare", "typeset", "local", "export", "readonly"];

pub struct Parser {
    src: Vec<char>,
    pos: usize,
    line: usize,
    /// Here-documents whose bodies start after the current line.
    pending_heredocs: Vec<PendingHereDoc>,
    /// Bodies read, by placeholder id, to fill in once the command is parsed.
    heredoc_bodies: HashMap<usize, HereDoc>,
    next_heredoc_id: usize,
    aliases: HashMap<String, String>,
    expand_aliases: bool,
    /// Aliases being expanded, with the position their text ends at.
    alias_stack: Vec<(String, usize)>,
    /// An alias whose text ended in a blank: the word after that text (at
    /// this position or later) is checked for an alias too.
    alias_next: Option<usize>,
    /// Nesting of `$(...)` / `(...)`: a `)` ends a list there.
    depth: usize,
    /// Parsing the operand of a `${...}` inside double quotes: a backslash
    /// escapes only `$`, `` ` ``, `"`, `\` and `}` there.
    param_in_dquotes: bool,
}

type PResult<T> = Result<T, ParseError>;

/// A word's text with quotes removed, for messages.
pub fn word_text(word: &Word) -> String {
    word::unquoted_text(word)
}

pub(crate) fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

impl Parser {
    pub fn new(source: &str) -> Self {
        Parser {
            src: source.chars().collect(),
            pos: 0,
            line: 1,
            pending_heredocs: Vec::new(),
            heredoc_bodies: HashMap::new(),
            next_heredoc_id: 0,
            aliases: HashMap::new(),
            expand_aliases: false,
            alias_stack: Vec::new(),
            alias_next: None,
            depth: 0,
            param_in_dquotes: false,
        }
    }

    /// Aliases to expand (when `expand_aliases` is set).
    pub fn set_aliases(&mut self, aliases: HashMap<String, String>, expand: bool) {
        self.aliases = aliases;
        self.expand_aliases = expand;
    }

    pub fn line(&self) -> usize {
        self.line
    }

    /// Parses a whole script.
    pub fn parse_all(source: &str) -> PResult<List> {
        let mut parser = Parser::new(source);
        let mut list = List::default();
        while let Some(command) = parser.next_command()? {
            list.items.extend(command.items);
        }
        Ok(list)
    }

    /// The next complete command (one logical line), or `None` at the end.
    pub fn next_command(&mut self) -> PResult<Option<List>> {
        let mut list = match self.next_command_raw()? {
            Some(list) => list,
            None => return Ok(None),
        };
        self.read_pending_heredocs();
        if !self.heredoc_bodies.is_empty() {
            let mut bodies = std::mem::take(&mut self.heredoc_bodies);
            heredoc::fill(&mut list, &mut bodies);
        }
        Ok(Some(list))
    }

    fn next_command_raw(&mut self) -> PResult<Option<List>> {
        loop {
            self.skip_blank();
            match self.peek() {
                None => return Ok(None),
                Some('\n') => {
                    self.newline();
                }
                Some(';') if self.peek_at(1) != Some(';') => {
                    return Err(self.error("syntax error near unexpected token `;'"));
                }
                _ => break,
            }
        }
        let mut list = List::default();
        loop {
            let and_or = self.parse_and_or()?;
            self.skip_blank();
            let background = match self.peek() {
                Some('&') if self.peek_at(1) != Some('&') && self.peek_at(1) != Some('>') => {
                    self.pos += 1;
                    true
                }
                Some(';') if !matches!(self.peek_at(1), Some(';') | Some('&')) => {
                    self.pos += 1;
                    false
                }
                _ => false,
            };
            list.items.push(ListItem { and_or, background });
            self.skip_blank();
            match self.peek() {
                None => break,
                Some('\n') => {
                    self.newline();
                    break;
                }
                Some(_) if background || self.prev_is_separator() => continue,
                Some(_) => return Err(self.unexpected()),
            }
        }
        Ok(Some(list))
    }

    fn prev_is_separator(&self) -> bool {
        let mut i = self.pos;
        while i > 0 {
            i -= 1;
            match self.src[i] {
                ' ' | '\t' => continue,
                ';' | '&' => return true,
                _ => return false,
            }
        }
        false
    }

    // ----- characters -----

    fn peek(&self) -> Option<char> {
        self.src.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.src.get(self.pos + offset).copied()
    }

    fn starts_with(&self, text: &str) -> bool {
        text.chars()
            .enumerate()
            .all(|(i, c)| self.peek_at(i) == Some(c))
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_end(&self) -> bool {
        self.pos >= self.src.len()
    }

    pub(crate) fn error(&self, message: impl Into<String>) -> ParseError {
        ParseError {
            line: self.line,
            message: message.into(),
            incomplete: false,
        }
    }

    fn eof_error(&self, what: &str) -> ParseError {
        ParseError {
            line: self.line,
            message: format!("syntax error: unexpected end of file (expecting {what})"),
            incomplete: true,
        }
    }

    fn unexpected(&self) -> ParseError {
        if self.at_end() {
            return ParseError {
                line: self.line,
                message: "syntax error: unexpected end of file".to_string(),
                incomplete: true,
            };
        }
        let token = self.peek_token_text();
        let shown = if token == "\n" {
            "newline".to_string()
        } else {
            token
        };
        self.error(format!("syntax error near unexpected token `{shown}'"))
    }

    fn peek_token_text(&self) -> String {
        for op in [
            "&&", "||", ";;&", ";;", ";&", "|&", "<<<", "<<-", "<<", ">>", "&>>", "&>", "<&", ">&",
            "<>", ">|",
        ] {
            if self.starts_with(op) {
                return op.to_string();
            }
        }
        match self.peek() {
            Some(c) if "|&;()<>\n".contains(c) => c.to_string(),
            _ => self.peek_plain_word().unwrap_or_default(),
        }
    }

    /// Consumes a newline and any here-document bodies that follow it.
    fn newline(&mut self) {
        self.bump();
        self.read_pending_heredocs();
    }

    /// Skips spaces, tabs, line continuations and comments.
    fn skip_blank(&mut self) {
        loop {
            match self.peek() {
                Some(' ') | Some('\t') | Some('\r') => self.pos += 1,
                Some('\\') if self.peek_at(1) == Some('\n') => {
                    self.pos += 2;
                    self.line += 1;
                }
                Some('#') => {
                    while !matches!(self.peek(), None | Some('\n')) {
                        self.pos += 1;
                    }
                }
                _ => break,
            }
            self.pop_finished_aliases();
        }
    }

    fn skip_blank_and_newlines(&mut self) {
        loop {
            self.skip_blank();
            if self.peek() == Some('\n') {
                self.newline();
            } else {
                break;
            }
        }
    }

    fn pop_finished_aliases(&mut self) {
        while let Some((_, end)) = self.alias_stack.last() {
            if self.pos >= *end {
                self.alias_stack.pop();
            } else {
                break;
            }
        }
    }

    /// The next word if it is plain text (for reserved-word checks), not
    /// consuming it.
    fn peek_plain_word(&self) -> Option<String> {
        let mut i = self.pos;
        let mut out = String::new();
        while let Some(&c) = self.src.get(i) {
            if " \t\r\n;&|()<>".contains(c) {
                break;
            }
            if "'\"\\$`".contains(c) {
                return None;
            }
            out.push(c);
            i += 1;
        }
        if out.is_empty() { None } else { Some(out) }
    }

    fn peek_reserved(&self) -> Option<String> {
        let word = self.peek_plain_word()?;
        RESERVED.contains(&word.as_str()).then_some(word)
    }

    fn at_reserved(&self, word: &str) -> bool {
        self.peek_reserved().as_deref() == Some(word)
    }

    fn expect_reserved(&mut self, word: &str) -> PResult<()> {
        self.skip_blank_and_newlines();
        if self.at_reserved(word) {
            self.pos += word.chars().count();
            Ok(())
        } else if self.at_end() {
            Err(self.eof_error(&format!("`{word}'")))
        } else {
            Err(self.unexpected())
        }
    }

    fn eat(&mut self, text: &str) -> bool {
        if self.starts_with(text) {
            for _ in text.chars() {
                self.bump();
            }
            true
        } else {
            false
        }
    }

    // ----- lists -----

    /// A list inside a compound command, up to one of `LIST_ENDS`, `)` or
    /// a case terminator.
    /// The body of a compound command: bash requires at least one command
    /// (`if true; then fi` is a syntax error at `fi`).
    fn parse_compound_list(&mut self) -> PResult<List> {
        let list = self.parse_list()?;
        if list.items.is_empty() && !self.at_end() {
            return Err(self.unexpected());
        }
        Ok(list)
    }

    fn parse_list(&mut self) -> PResult<List> {
        let mut list = List::default();
        loop {
            self.skip_blank_and_newlines();
            if self.at_end() || self.at_list_end() {
                break;
            }
            let and_or = self.parse_and_or()?;
            self.skip_blank();
            let mut background = false;
            let mut separated = false;
            match self.peek() {
                Some('&') if !matches!(self.peek_at(1), Some('&') | Some('>')) => {
                    self.pos += 1;
                    background = true;
                    separated = true;
                }
                Some(';') if !matches!(self.peek_at(1), Some(';') | Some('&')) => {
                    self.pos += 1;
                    separated = true;
                }
                Some('\n') => {
                    self.newline();
                    separated = true;
                }
                _ => {}
            }
            list.items.push(ListItem { and_or, background });
            if !separated {
                self.skip_blank();
                if !(self.at_end() || self.at_list_end()) {
                    return Err(self.unexpected());
                }
                break;
            }
        }
        Ok(list)
    }

    fn at_list_end(&self) -> bool {
        match self.peek() {
            Some(')') => true,
            Some(';') if matches!(self.peek_at(1), Some(';') | Some('&')) => true,
            _ => self
                .peek_reserved()
                .is_some_and(|w| LIST_ENDS.contains(&w.as_str())),
        }
    }

    fn parse_and_or(&mut self) -> PResult<AndOr> {
        let first = self.parse_pipeline()?;
        let mut rest = Vec::new();
        loop {
            self.skip_blank();
            let op = if self.starts_with("&&") {
                AndOrOp::And
            } else if self.starts_with("||") {
                AndOrOp::Or
            } else {
                break;
            };
            self.pos += 2;
            self.skip_blank_and_newlines();
            rest.push((op, self.parse_pipeline()?));
        }
        Ok(AndOr { first, rest })
    }

    fn parse_pipeline(&mut self) -> PResult<Pipeline> {
        self.skip_blank();
        let mut negated = false;
        let mut timed = false;
        loop {
            if self.at_reserved("!") {
                self.pos += 1;
                negated = !negated;
                self.skip_blank();
            } else if self.at_reserved("time") {
                self.pos += 4;
                timed = true;
                self.skip_blank();
                if self.starts_with("-p ") {
                    self.pos += 3;
                }
            } else {
                break;
            }
        }
        self.skip_blank();
        if timed && matches!(self.peek(), None | Some('\n') | Some(';')) {
            return Ok(Pipeline {
                negated,
                timed,
                commands: vec![Command::Simple(SimpleCommand {
                    line: self.line,
                    ..SimpleCommand::default()
                })],
                pipe_stderr: vec![false],
            });
        }
        let mut commands = vec![self.parse_command()?];
        let mut pipe_stderr = Vec::new();
        loop {
            self.skip_blank();
            if self.starts_with("||") || !self.starts_with("|") {
                break;
            }
            let both = self.starts_with("|&");
            self.pos += if both { 2 } else { 1 };
            pipe_stderr.push(both);
            self.skip_blank_and_newlines();
            commands.push(self.parse_command()?);
        }
        pipe_stderr.push(false);
        Ok(Pipeline {
            negated,
            timed,
            commands,
            pipe_stderr,
        })
    }

    // ----- commands -----

    fn parse_command(&mut self) -> PResult<Command> {
        self.skip_blank();
        self.expand_alias_here()?;
        if self.at_end() {
            return Err(self.unexpected());
        }
        if let Some(word) = self.peek_reserved() {
            let compound = match word.as_str() {
                "{" => {
                    self.pos += 1;
                    let body = self.parse_compound_list()?;
                    self.expect_reserved("}")?;
                    Some(CompoundCommand::Brace(body))
                }
                "if" => Some(self.parse_if()?),
                "while" | "until" => Some(self.parse_while(word == "until")?),
                "for" => Some(self.parse_for()?),
                "select" => Some(self.parse_select()?),
                "case" => Some(self.parse_case()?),
                "[[" => {
                    let line = self.line;
                    self.pos += 2;
                    let expr = self.parse_cond()?;
                    Some(CompoundCommand::Cond(expr, line))
                }
                "function" => return self.parse_function_keyword(),
                "coproc" => {
                    self.pos += 6;
                    self.skip_blank();
                    let mut name = "COPROC".to_string();
                    if let Some(word) = self.peek_plain_word().filter(|w| is_name(w)) {
                        let after = self.pos + word.chars().count();
                        let mut i = after;
                        while matches!(self.src.get(i), Some(' ') | Some('\t')) {
                            i += 1;
                        }
                        if matches!(self.src.get(i), Some('{') | Some('('))
                            && !RESERVED.contains(&word.as_str())
                        {
                            name = word;
                            self.pos = i;
                        }
                    }
                    let body = self.parse_command()?;
                    Some(CompoundCommand::Coproc { name, body })
                }
                "}" | "]]" | "then" | "else" | "elif" | "fi" | "do" | "done" | "esac" | "in" => {
                    return Err(self.unexpected());
                }
                _ => None,
            };
            if let Some(compound) = compound {
                let redirects = self.parse_trailing_redirects()?;
                return Ok(Command::Compound(Box::new(compound), redirects));
            }
        }
        if self.starts_with("((")
            && let Some(arith) = self.try_parse_arith_command()?
        {
            let redirects = self.parse_trailing_redirects()?;
            return Ok(Command::Compound(Box::new(arith), redirects));
        }
        if self.peek() == Some('(') {
            self.pos += 1;
            self.depth += 1;
            let body = self.parse_compound_list()?;
            self.depth -= 1;
            self.skip_blank_and_newlines();
            if !self.eat(")") {
                return Err(if self.at_end() {
                    self.eof_error("`)'")
                } else {
                    self.unexpected()
                });
            }
            let redirects = self.parse_trailing_redirects()?;
            return Ok(Command::Compound(
                Box::new(CompoundCommand::Subshell(body)),
                redirects,
            ));
        }
        if let Some(function) = self.try_parse_function_def()? {
            return Ok(function);
        }
        self.parse_simple_command()
    }

    fn parse_trailing_redirects(&mut self) -> PResult<Vec<Redirect>> {
        let mut redirects = Vec::new();
        loop {
            self.skip_blank();
            match self.try_parse_redirect()? {
                Some(redirect) => redirects.push(redirect),
                None => break,
            }
        }
        Ok(redirects)
    }

    fn parse_if(&mut self) -> PResult<CompoundCommand> {
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

    fn parse_while(&mut self, until: bool) -> PResult<CompoundCommand> {
        // `while` and `until` are both five characters long.
        self.pos += 5;
        let cond = self.parse_compound_list()?;
        let body = self.parse_do_group()?;
        Ok(CompoundCommand::While { cond, body, until })
    }

    fn parse_do_group(&mut self) -> PResult<List> {
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

    fn parse_for(&mut self) -> PResult<CompoundCommand> {
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

    fn parse_select(&mut self) -> PResult<CompoundCommand> {
        self.pos += 6;
        self.skip_blank();
        let (var, words) = self.parse_for_head()?;
        let body = self.parse_do_group()?;
        Ok(CompoundCommand::Select { var, words, body })
    }

    fn parse_for_head(&mut self) -> PResult<(String, Option<Vec<Word>>)> {
        let var = self
            .peek_plain_word()
            .filter(|w| is_name(w))
            .ok_or_else(|| self.unexpected())?;
        self.pos += var.chars().count();
        self.skip_blank();
        let mut words = None;
        let save = self.pos;
        self.skip_blank_and_newlines();
        if self.at_reserved("in") {
            self.pos += 2;
            let mut list = Vec::new();
            loop {
                self.skip_blank();
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

    fn parse_case(&mut self) -> PResult<CompoundCommand> {
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
        Ok(CompoundCommand::Case { word, arms })
    }

    /// `((...))` as a command; `None` when it is really `( (...) )`.
    fn try_parse_arith_command(&mut self) -> PResult<Option<CompoundCommand>> {
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
    fn read_arith_until_close(&mut self) -> PResult<String> {
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

    fn parse_function_keyword(&mut self) -> PResult<Command> {
        self.pos += 8;
        self.skip_blank();
        let name = self.peek_plain_word().ok_or_else(|| self.unexpected())?;
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

    fn try_parse_function_def(&mut self) -> PResult<Option<Command>> {
        let Some(name) = self.peek_plain_word() else {
            return Ok(None);
        };
        let after = self.pos + name.chars().count();
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
        if name.contains('=') || name.contains('$') {
            return Ok(None);
        }
        self.pos = j + 1;
        self.function_body(name).map(Some)
    }

    fn function_body(&mut self, name: String) -> PResult<Command> {
        self.skip_blank_and_newlines();
        let body = self.parse_command()?;
        if !matches!(body, Command::Compound(..)) {
            return Err(self.error(format!(
                "syntax error: `{name}': function body must be a compound command"
            )));
        }
        Ok(Command::FunctionDef(Arc::new(FunctionDef { name, body })))
    }

    fn parse_simple_command(&mut self) -> PResult<Command> {
        let mut command = SimpleCommand {
            line: self.line,
            ..SimpleCommand::default()
        };
        let mut decl_assignments = Vec::new();
        let mut declaration = false;
        loop {
            self.skip_blank();
            if let Some(redirect) = self.try_parse_redirect()? {
                command.redirects.push(redirect);
                continue;
            }
            match self.peek() {
                None | Some('\n') | Some(';') | Some('&') | Some('|') | Some(')') => break,
                Some('(') => {
                    if command.words.is_empty() && command.assignments.is_empty() {
                        return Err(self.unexpected());
                    }
                    return Err(self.unexpected());
                }
                _ => {}
            }
            if (command.words.is_empty() || declaration)
                && let Some(assignment) = self.try_parse_assignment()?
            {
                if command.words.is_empty() {
                    command.assignments.push(assignment);
                } else {
                    decl_assignments.push((command.words.len(), assignment));
                    command.words.push(Word::default());
                }
                continue;
            }
            if !command.words.is_empty()
                && let Some(at) = self.alias_next
                && self.pos >= at
            {
                self.alias_next = None;
                self.expand_alias_here()?;
                continue;
            }
            let Some(word) = self.read_word()? else {
                return Err(self.unexpected());
            };
            if command.words.is_empty()
                && let Some(name) = word.as_plain()
            {
                declaration = DECLARATION_COMMANDS.contains(&name.as_str());
            }
            command.words.push(word);
        }
        if command.words.is_empty()
            && command.assignments.is_empty()
            && command.redirects.is_empty()
        {
            return Err(self.unexpected());
        }
        command.arg_assignments = decl_assignments;
        Ok(Command::Simple(command))
    }

    /// Replaces an alias at the current position with its text.
    fn expand_alias_here(&mut self) -> PResult<()> {
        if !self.expand_aliases || self.aliases.is_empty() {
            return Ok(());
        }
        let Some(word) = self.peek_plain_word() else {
            return Ok(());
        };
        if self.alias_stack.iter().any(|(name, _)| *name == word) {
            return Ok(());
        }
        let Some(text) = self.aliases.get(&word).cloned() else {
            return Ok(());
        };
        let len = word.chars().count();
        let replacement: Vec<char> = text.chars().collect();
        let end = self.pos + replacement.len();
        self.src.splice(self.pos..self.pos + len, replacement);
        for (_, alias_end) in self.alias_stack.iter_mut() {
            *alias_end = *alias_end + text.chars().count() - len.min(*alias_end);
        }
        self.alias_stack.push((word, end));
        self.alias_next = (text.ends_with(' ') || text.ends_with('\t')).then_some(end);
        self.skip_blank();
        self.expand_alias_here()
    }

    fn try_parse_assignment(&mut self) -> PResult<Option<Assignment>> {
        let start = self.pos;
        let mut i = self.pos;
        let mut name = String::new();
        while let Some(&c) = self.src.get(i) {
            if c == '_' || c.is_ascii_alphanumeric() {
                name.push(c);
                i += 1;
            } else {
                break;
            }
        }
        if !is_name(&name) {
            return Ok(None);
        }
        let mut index = None;
        if self.src.get(i) == Some(&'[') {
            let mut depth = 0;
            let mut j = i;
            loop {
                match self.src.get(j) {
                    None | Some('\n') => return Ok(None),
                    Some('[') => depth += 1,
                    Some(']') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            let text: String = self.src[i + 1..j].iter().collect();
            index = Some(text);
            i = j + 1;
        }
        let append = self.src.get(i) == Some(&'+');
        if append {
            i += 1;
        }
        if self.src.get(i) != Some(&'=') {
            return Ok(None);
        }
        self.pos = i + 1;
        let index = match index {
            Some(text) => Some(self.sub_word(&text)?),
            None => None,
        };
        let value = if self.peek() == Some('(') {
            self.pos += 1;
            AssignValue::Array(self.parse_array_literal()?)
        } else {
            AssignValue::Scalar(self.read_assignment_value()?)
        };
        let _ = start;
        Ok(Some(Assignment {
            name,
            index,
            append,
            value,
        }))
    }

    fn parse_array_literal(&mut self) -> PResult<Vec<ArrayElement>> {
        let mut elements = Vec::new();
        loop {
            self.skip_blank_and_newlines();
            match self.peek() {
                None => return Err(self.eof_error("`)'")),
                Some(')') => {
                    self.pos += 1;
                    break;
                }
                _ => {}
            }
            if self.peek() == Some('[')
                && let Some(element) = self.try_parse_keyed_element()?
            {
                elements.push(element);
                continue;
            }
            let value = self.read_word()?.ok_or_else(|| self.unexpected())?;
            elements.push(ArrayElement {
                key: None,
                value,
                append: false,
            });
        }
        Ok(elements)
    }

    fn try_parse_keyed_element(&mut self) -> PResult<Option<ArrayElement>> {
        let save = (self.pos, self.line);
        let mut depth = 0;
        let mut j = self.pos;
        loop {
            match self.src.get(j) {
                None | Some('\n') => return Ok(None),
                Some('[') => depth += 1,
                Some(']') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        let append = self.src.get(j + 1) == Some(&'+') && self.src.get(j + 2) == Some(&'=');
        if self.src.get(j + 1) != Some(&'=') && !append {
            return Ok(None);
        }
        let key_text: String = self.src[self.pos + 1..j].iter().collect();
        self.pos = j + if append { 3 } else { 2 };
        let key = self.sub_word(&key_text)?;
        let value: Word = self.read_word()?.unwrap_or_default();
        let _ = save;
        Ok(Some(ArrayElement {
            key: Some(key),
            value,
            append,
        }))
    }

    /// Parses `text` as a word on its own (array indices, arithmetic).
    fn sub_word(&self, text: &str) -> PResult<Word> {
        let mut parser = Parser::new(text);
        parser.line = self.line;
        parser
            .read_word_until(&[], true)
            .map(|w| w.unwrap_or_default())
    }

    /// Arithmetic text as a word: expansions and quotes are processed,
    /// everything else is literal.
    fn arith_word(&self, text: &str) -> PResult<Word> {
        self.sub_word(text)
    }
}

/// Splits `init; cond; step` of an arithmetic for, ignoring `;` inside
/// parentheses.
fn split_arith_for(text: &str) -> [String; 3] {
    let mut parts = vec![String::new()];
    let mut depth = 0;
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ';' if depth == 0 && parts.len() < 3 => {
                parts.push(String::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut().expect("non-empty").push(c);
    }
    parts.resize(3, String::new());
    [parts[0].clone(), parts[1].clone(), parts[2].clone()]
}

#[cfg(test)]
mod tests;
