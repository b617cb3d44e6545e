//! A recursive-descent parser for the bash language, reading characters
//! directly (bash's grammar is too context-sensitive for a separate lexer:
//! reserved words, assignments, `[[ ]]`, here-documents and aliases all
//! depend on where a word appears).
//!
//! [`Parser::next_command`] returns one complete command (a logical line)
//! at a time, so that aliases defined by one line apply to the next, as in
//! bash.
//!
//! - `list`: lists, pipelines, simple commands and aliases; `compound`:
//!   the compound commands; `cond`: `[[ ]]`.
//! - `word`: words and quoting; `param`: `${...}`; `redirect`:
//!   redirections; `heredoc`: here-document bodies, filled in late.

mod compound;
mod cond;
mod heredoc;
mod list;
mod param;
mod redirect;
mod word;

use heredoc::PendingHereDoc;

use std::collections::HashMap;
use std::sync::Arc;

use thiserror::Error;

use goccia_core::{Stop, Watch};

use crate::ast::*;

/// A syntax error, with the line it is on.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// The line (1-based) the problem is on.
    pub line: usize,
    /// What is wrong, as bash words it.
    pub message: String,
    /// The input ended inside a construct (an interactive session reads
    /// another line instead of failing).
    pub incomplete: bool,
    /// Parsing stopped for the run's deadline or a limit, not for the
    /// script's syntax.
    pub stop: Option<Stop>,
    /// An error bash recovers from by dropping the rest of the line and
    /// reading on, with status 1 (one inside an array literal: `a=( b=() )`),
    /// rather than ending the script.
    pub discard: bool,
}

/// How deeply constructs may nest (`${...}` in `${...}`, `$(...)`,
/// quotes, subshells, compound commands): the parser recurses once per
/// level, and re-reads some nested text (subscripts, arithmetic), so a
/// bound keeps both its stack and its time linear in the script.
pub const MAX_NESTING: usize = 256;

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
    aliases: Arc<HashMap<String, String>>,
    expand_aliases: bool,
    /// `shopt -s extglob` when the text is read: `[[ !(x) ]]` is then a
    /// pattern, not `!` before a group.
    extglob: bool,
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
    /// Reading the operand of `${x-...}` (and `:-`, `=`, `?`, `+`) inside
    /// double quotes: `'` is an ordinary character there, though the
    /// text between two of them is still one piece (a `}` in it does not
    /// end the expansion), as bash reads it.
    literal_single_quotes: bool,
    /// Reading the value of an assignment (or of an array element):
    /// `~` expands after every `:` too.
    assignment_value: bool,
    /// Reading the text of `$(( ))`, `(( ))` or `for (( ))`: a single
    /// quote is an ordinary character there.
    arithmetic_text: bool,
    /// Reading an array literal's elements (`x=~` there is no assignment).
    array_elements: bool,
    /// Constructs entered and not yet left (bounded by [`MAX_NESTING`]).
    nesting: usize,
    /// The run's deadline, checked as words are read.
    watch: Option<Watch>,
    /// Words read since the deadline was last checked.
    ticks: u32,
}

type PResult<T> = Result<T, ParseError>;

/// A word's text with quotes removed, for messages.
pub fn word_text(word: &Word) -> String {
    word::unquoted_text(word)
}

/// A subscript given as text (`unset 'a[$k]'`, `declare -n r='A["K"]'`,
/// `${!ref}`): read as a word whose quotes and expansions apply.
pub(crate) fn subscript_word(text: &str) -> PResult<Word> {
    Parser::new(text)
        .read_word_until(&[], true)
        .map(|w| w.unwrap_or_default())
}

/// Text read as one word of a command line (quotes, backslashes and
/// expansions as there): `compgen -W`'s words. Characters that would end
/// the word must come escaped or quoted.
pub(crate) fn command_word(text: &str) -> PResult<Word> {
    let mut parser = Parser::new(text);
    let word = parser.read_word_until(&[], false)?.unwrap_or_default();
    if parser.pos < parser.src.len() {
        return Err(parser.error("unexpected text after a word"));
    }
    Ok(word)
}

/// Text expanded as a here-document body is (`${PS1@P}`, `PS4`): `$`
/// expansions and backticks, `\` quoting only `$`, `` ` ``, `\` and a
/// newline, no splitting or globbing.
pub(crate) fn expandable_text_word(text: &str) -> PResult<Word> {
    Parser::new(text).heredoc_word(text)
}

/// The commands of backquotes holding `text` (a syntax error in them
/// is the substitution's, when it runs).
pub(crate) fn backquoted(text: &str) -> List {
    word::backquoted_list(Parser::new(text), text).unwrap_or_default()
}

/// A character of a login name after `~` (the tilde prefix).
pub(crate) use word::is_login_char;

/// Whether `text` is a shell variable name: a letter or `_`, then
/// letters, digits and `_`.
pub fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

impl Parser {
    /// A parser over `source`. NUL characters are dropped, as bash's reader
    /// drops them.
    pub fn new(source: &str) -> Self {
        Parser {
            src: {
                // One allocation (a filtered iterator gives no size hint).
                let mut src = Vec::with_capacity(source.len());
                src.extend(source.chars().filter(|&c| c != '\0'));
                src
            },
            pos: 0,
            line: 1,
            pending_heredocs: Vec::new(),
            heredoc_bodies: HashMap::new(),
            next_heredoc_id: 0,
            aliases: Arc::default(),
            expand_aliases: false,
            extglob: false,
            alias_stack: Vec::new(),
            alias_next: None,
            depth: 0,
            param_in_dquotes: false,
            literal_single_quotes: false,
            assignment_value: false,
            arithmetic_text: false,
            array_elements: false,
            nesting: 0,
            watch: None,
            ticks: 0,
        }
    }

    /// Checks `watch` while parsing: a huge script stops at the deadline
    /// like any work of the run.
    /// Numbers the text's lines from `line` (`eval` text goes on from
    /// the line of the `eval`).
    pub fn set_first_line(&mut self, line: usize) {
        self.line = line;
    }

    pub fn set_watch(&mut self, watch: Watch) {
        self.watch = Some(watch);
    }

    /// A parser for text nested inside this one's (a subscript, an
    /// arithmetic expression, backquotes, a here-document): it continues
    /// this one's nesting count, line, deadline and aliases.
    pub(super) fn nested(&self, source: &str) -> Parser {
        let mut parser = Parser::new(source);
        parser.line = self.line;
        parser.nesting = self.nesting;
        parser.watch = self.watch.clone();
        parser.aliases = Arc::clone(&self.aliases);
        parser.expand_aliases = self.expand_aliases;
        parser.extglob = self.extglob;
        parser
    }

    /// Enters a nested construct; refused past [`MAX_NESTING`] levels.
    /// Also where the deadline is checked, every 256 entries.
    pub(super) fn enter(&mut self) -> PResult<()> {
        self.nesting += 1;
        if self.nesting > MAX_NESTING {
            return Err(self.error(format!(
                "syntax error: constructs nested more than {MAX_NESTING} levels deep"
            )));
        }
        self.tick()
    }

    /// Leaves a nested construct.
    pub(super) fn leave(&mut self) {
        self.nesting -= 1;
    }

    /// Checks the deadline every 256 calls.
    pub(super) fn tick(&mut self) -> PResult<()> {
        self.ticks += 1;
        if self.ticks < 256 {
            return Ok(());
        }
        self.ticks = 0;
        match self.watch.as_ref().map(Watch::check) {
            Some(Err(stop)) => Err(ParseError {
                line: self.line,
                message: stop.to_string(),
                incomplete: false,
                stop: Some(stop),
                discard: false,
            }),
            _ => Ok(()),
        }
    }

    /// How many characters of the source have been read (a command's
    /// text is the source between two offsets).
    pub fn offset(&self) -> usize {
        self.pos
    }

    /// Aliases to expand (when `expand_aliases` is set), here and in the
    /// command substitutions and here-documents inside.
    pub fn set_aliases(&mut self, aliases: HashMap<String, String>, expand: bool) {
        // With nothing to expand the table is never read: the one held
        // stays, and nothing is allocated (this runs before every command).
        self.expand_aliases = expand && !aliases.is_empty();
        if self.expand_aliases {
            self.aliases = Arc::new(aliases);
        }
    }

    /// Whether `extglob` is on for the commands read from here.
    pub fn set_extglob(&mut self, extglob: bool) {
        self.extglob = extglob;
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

    /// After a [`ParseError::discard`] error: drops what is left of the
    /// line the reader is on and any construct half read, so the next
    /// command starts on the next line.
    pub fn skip_line(&mut self) {
        self.array_elements = false;
        self.pending_heredocs.clear();
        self.heredoc_bodies.clear();
        while let Some(c) = self.peek() {
            self.pos += 1;
            if c == '\n' {
                self.line += 1;
                break;
            }
        }
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
            stop: None,
            discard: false,
        }
    }

    fn eof_error(&self, what: &str) -> ParseError {
        ParseError {
            line: self.line,
            message: format!("syntax error: unexpected end of file (expecting {what})"),
            incomplete: true,
            stop: None,
            discard: false,
        }
    }

    fn unexpected(&self) -> ParseError {
        if self.at_end() {
            return ParseError {
                line: self.line,
                message: "syntax error: unexpected end of file".to_string(),
                incomplete: true,
                stop: None,
                discard: false,
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
                Some(' ') | Some('\t') => self.pos += 1,
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
        self.peek_plain_chars().map(|word| word.iter().collect())
    }

    /// [`Parser::peek_plain_word`] as the source's characters: what the
    /// reserved-word checks, made before every command, compare without
    /// building a string.
    pub(super) fn peek_plain_chars(&self) -> Option<&[char]> {
        let rest = self.src.get(self.pos..)?;
        let end = rest
            .iter()
            .position(|c| " \t\n;&|()<>".contains(*c))
            .unwrap_or(rest.len());
        let word = &rest[..end];
        let quoted = word.iter().any(|c| "'\"\\$`".contains(*c));
        (!word.is_empty() && !quoted).then_some(word)
    }

    fn peek_reserved(&self) -> Option<&'static str> {
        let word = self.peek_plain_chars()?;
        RESERVED
            .iter()
            .copied()
            .find(|reserved| reserved.chars().eq(word.iter().copied()))
    }

    fn at_reserved(&self, word: &str) -> bool {
        self.peek_reserved() == Some(word)
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

    // ----- commands -----
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
