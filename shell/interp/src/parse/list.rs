//! Lists, pipelines and commands: `;`, `&&`/`||`, `|`, simple commands
//! with their assignments, arrays and aliases.

use super::{DECLARATION_COMMANDS, LIST_ENDS, PResult, Parser, RESERVED, is_name};
use crate::ast::*;

impl Parser {
    /// A list inside a compound command, up to one of `LIST_ENDS`, `)` or
    /// a case terminator.
    /// The body of a compound command: bash requires at least one command
    /// (`if true; then fi` is a syntax error at `fi`).
    pub(super) fn parse_compound_list(&mut self) -> PResult<List> {
        let list = self.parse_list()?;
        if list.items.is_empty() && !self.at_end() {
            return Err(self.unexpected());
        }
        Ok(list)
    }

    pub(super) fn parse_list(&mut self) -> PResult<List> {
        self.enter()?;
        let list = self.parse_list_inside();
        self.leave();
        list
    }

    fn parse_list_inside(&mut self) -> PResult<List> {
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

    pub(super) fn at_list_end(&self) -> bool {
        match self.peek() {
            Some(')') => true,
            Some(';') if matches!(self.peek_at(1), Some(';') | Some('&')) => true,
            _ => self.peek_reserved().is_some_and(|w| LIST_ENDS.contains(&w)),
        }
    }

    pub(super) fn parse_and_or(&mut self) -> PResult<AndOr> {
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

    pub(super) fn parse_pipeline(&mut self) -> PResult<Pipeline> {
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

    pub(super) fn parse_command(&mut self) -> PResult<Command> {
        self.skip_blank();
        self.expand_alias_here()?;
        if self.at_end() {
            return Err(self.unexpected());
        }
        if let Some(word) = self.peek_reserved() {
            let compound = match word {
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

    pub(super) fn parse_trailing_redirects(&mut self) -> PResult<Vec<Redirect>> {
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

    pub(super) fn parse_simple_command(&mut self) -> PResult<Command> {
        let mut command = SimpleCommand {
            line: self.line,
            ..SimpleCommand::default()
        };
        let mut decl_assignments = Vec::new();
        let mut declaration = false;
        let mut let_command = false;
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
            // In command position a subscript may hold blanks (`a[1 + 2]=x`);
            // an argument of `declare` is a word like any other, so there
            // `a[ 1 ]=x` is three words, as bash reads it.
            let blanks = command.words.is_empty();
            if (command.words.is_empty() || declaration)
                && let Some(assignment) = self.try_parse_assignment_with(blanks)?
            {
                if command.words.is_empty() {
                    command.assignments.push(assignment);
                } else {
                    decl_assignments.push((command.words.len(), assignment));
                    command.words.push(Word::default());
                }
                continue;
            }
            if command.words.is_empty()
                && let Some(word) = self.subscripted_command_word()?
            {
                command.words.push(word);
                continue;
            }
            if !command.words.is_empty() && self.expand_alias_after_blank()? {
                continue;
            }
            // The command word after prefix assignments and redirections
            // is in command position too (`FOO=1 alias_`, `>f alias_`).
            if command.words.is_empty()
                && (!command.assignments.is_empty() || !command.redirects.is_empty())
            {
                let expanded = self.alias_stack.len();
                self.expand_alias_here()?;
                if self.alias_stack.len() > expanded {
                    continue;
                }
            }
            if let_command && let Some(word) = self.try_let_array_word()? {
                command.words.push(word);
                continue;
            }
            let Some(word) = self.read_word()? else {
                return Err(self.unexpected());
            };
            if command.words.is_empty()
                && let Some(name) = word
                    .as_plain_str()
                    .map(std::borrow::Cow::Borrowed)
                    .or_else(|| word.as_plain().map(std::borrow::Cow::Owned))
            {
                declaration = DECLARATION_COMMANDS.contains(&name.as_ref());
                let_command = name == "let";
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

    /// Where an assignment could be, `name[` starts a subscript that runs
    /// to its matching `]` whatever it holds, as in bash: when that is not
    /// followed by `=` or `+=`, the text up to it is one word even with
    /// blanks inside (`a[5 + 3]` is a command of that name), and a `[`
    /// never closed is a syntax error. `None`: no such subscript here, or
    /// one without blanks (an ordinary word).
    fn subscripted_command_word(&mut self) -> PResult<Option<Word>> {
        let name_end = (self.pos..self.src.len())
            .find(|&i| !(self.src[i] == '_' || self.src[i].is_ascii_alphanumeric()))
            .unwrap_or(self.src.len());
        if name_end == self.pos
            || self.src[self.pos].is_ascii_digit()
            || self.src.get(name_end) != Some(&'[')
        {
            return Ok(None);
        }
        let mut depth = 0usize;
        let mut close = None;
        for i in name_end..self.src.len() {
            match self.src[i] {
                '[' => depth += 1,
                ']' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            self.pos = self.src.len();
            return Err(self.eof_error("matching `]'"));
        };
        let assigns = match self.src.get(close + 1) {
            Some('=') => true,
            Some('+') => self.src.get(close + 2) == Some(&'='),
            _ => false,
        };
        let blank = self.src[name_end..close]
            .iter()
            .any(|c| matches!(c, ' ' | '\t' | '\n'));
        if assigns || !blank {
            return Ok(None);
        }
        let text: String = self.src[self.pos..=close].iter().collect();
        self.line += text.matches('\n').count();
        self.pos = close + 1;
        let mut parts = vec![WordPart::SingleQuoted(text)];
        let word_goes_on = self.peek().is_some_and(|c| {
            !matches!(
                c,
                ' ' | '\t' | '\n' | ';' | '&' | '|' | '(' | ')' | '<' | '>'
            )
        });
        if word_goes_on && let Some(rest) = self.read_word()? {
            parts.extend(rest.parts);
        }
        Ok(Some(Word { parts }))
    }

    /// Expands an alias here when the alias just before ended in a blank
    /// and this is the word right after it (blanks and line continuations
    /// between); returns whether it looked
    /// (the word there is then read afresh).
    pub(super) fn expand_alias_after_blank(&mut self) -> PResult<bool> {
        let right_after = self.alias_next.is_some_and(|at| {
            at <= self.pos
                && self.src[at..self.pos]
                    .iter()
                    .all(|c| matches!(c, ' ' | '\t' | '\\' | '\n'))
        });
        if right_after {
            self.alias_next = None;
            self.expand_alias_here()?;
        }
        Ok(right_after)
    }

    /// Replaces an alias at the current position with its text.
    pub(super) fn expand_alias_here(&mut self) -> PResult<()> {
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

    /// `let x=( 1 + 2 )`: bash reads an argument of `let` written as an
    /// array assignment as one word, its elements joined by single spaces
    /// (`x=(1 + 2)`), which `let` then evaluates.
    fn try_let_array_word(&mut self) -> PResult<Option<Word>> {
        let save = (self.pos, self.line);
        let Some(assignment) = self.try_parse_assignment()? else {
            return Ok(None);
        };
        let (AssignValue::Array(elements), None) = (&assignment.value, &assignment.index) else {
            (self.pos, self.line) = save;
            return Ok(None);
        };
        let operator = if assignment.append { "+=(" } else { "=(" };
        let mut parts = vec![WordPart::Literal(format!("{}{operator}", assignment.name))];
        for (i, element) in elements.iter().enumerate() {
            if i > 0 {
                parts.push(WordPart::Literal(" ".to_string()));
            }
            parts.extend(element.as_word().parts);
        }
        parts.push(WordPart::Literal(")".to_string()));
        Ok(Some(Word { parts }))
    }

    pub(super) fn try_parse_assignment(&mut self) -> PResult<Option<Assignment>> {
        self.try_parse_assignment_with(true)
    }

    /// [`Self::try_parse_assignment`]; `blanks`: whether a subscript may
    /// hold blanks.
    fn try_parse_assignment_with(&mut self, blanks: bool) -> PResult<Option<Assignment>> {
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
                    Some(' ' | '\t') if !blanks => return Ok(None),
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

    pub(super) fn parse_array_literal(&mut self) -> PResult<Vec<ArrayElement>> {
        let outer = std::mem::replace(&mut self.array_elements, true);
        let elements = self.parse_array_elements().map_err(|mut error| {
            error.discard = !error.incomplete && error.stop.is_none();
            error
        });
        self.array_elements = outer;
        elements
    }

    fn parse_array_elements(&mut self) -> PResult<Vec<ArrayElement>> {
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

    pub(super) fn try_parse_keyed_element(&mut self) -> PResult<Option<ArrayElement>> {
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
        let value: Word = self.read_assignment_value()?;
        let _ = save;
        Ok(Some(ArrayElement {
            key: Some(key),
            value,
            append,
        }))
    }

    /// Parses `text` as a word on its own (array indices, arithmetic).
    pub(super) fn sub_word(&self, text: &str) -> PResult<Word> {
        self.sub_word_with(text, false)
    }

    fn sub_word_with(&self, text: &str, arithmetic: bool) -> PResult<Word> {
        let mut parser = self.nested(text);
        parser.arithmetic_text = arithmetic;
        let mut word = parser.read_word_until(&[], true)?.unwrap_or_default();
        // Here-documents of command substitutions inside the text.
        parser.read_pending_heredocs();
        super::heredoc::fill_word(&mut word, &mut parser.heredoc_bodies);
        Ok(word)
    }

    /// Arithmetic text as a word: expansions and double quotes are
    /// processed, everything else (single quotes too, which bash's
    /// arithmetic then refuses) is literal.
    pub(super) fn arith_word(&self, text: &str) -> PResult<Word> {
        self.sub_word_with(text, true)
    }
}
