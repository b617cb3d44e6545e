//! Compound commands: groups, subshells, `if`, loops, `case`, `select`,
//! `(( ))`, `[[ ]]`, `coproc`.

use super::test_expr;
use super::{ExecResult, Flow, Shell};
use crate::arith::{self, ArithError};
use crate::ast::*;
use crate::io::{BytesReader, CaptureWriter, Fd};
use crate::parse::is_name;
use crate::pattern::Pattern;

/// What a loop body's flow means for the loop.
enum LoopControl {
    Next,
    Stop,
}

impl Shell {
    pub(crate) fn run_compound(&mut self, compound: &CompoundCommand) -> ExecResult {
        match compound {
            CompoundCommand::Brace(list) => self.run_list(list),
            CompoundCommand::Subshell(list) => self.run_subshell(list),
            CompoundCommand::If {
                branches,
                otherwise,
            } => {
                for (cond, body) in branches {
                    if self.run_condition(cond)? == 0 {
                        return self.run_list(body);
                    }
                }
                match otherwise {
                    Some(body) => self.run_list(body),
                    None => Ok(0),
                }
            }
            CompoundCommand::While { cond, body, until } => self.run_while(cond, body, *until),
            CompoundCommand::For {
                var,
                words,
                body,
                line,
            } => {
                self.line = *line;
                if !is_name(var) {
                    return Ok(self.not_an_identifier(var));
                }
                let items = match words {
                    Some(words) => self.expand_words(words)?,
                    None => self.positional.to_vec(),
                };
                self.run_for(var, items, body, *line)
            }
            CompoundCommand::ArithFor {
                init,
                cond,
                step,
                body,
                line,
            } => self.run_arith_for(init, cond, step, body, *line),
            CompoundCommand::Case { word, arms, line } => {
                self.line = *line;
                self.run_debug_trap()?;
                self.run_case(word, arms)
            }
            CompoundCommand::Select { var, words, body } => {
                if !is_name(var) {
                    return Ok(self.not_an_identifier(var));
                }
                let items = match words {
                    Some(words) => self.expand_words(words)?,
                    None => self.positional.to_vec(),
                };
                self.run_select(var, items, body)
            }
            CompoundCommand::Arith(word, line) => {
                self.line = *line;
                self.run_debug_trap()?;
                let text = self.expand_string(word)?;
                match arith::eval(&text, self) {
                    Ok(value) => Ok(i32::from(value == 0)),
                    Err(ArithError::Unbound(name)) => Err(self.unbound(&name)),
                    Err(error) => {
                        self.report_at_line(&format!("((: {error}"));
                        Ok(1)
                    }
                }
            }
            CompoundCommand::Cond(expr, line) => {
                self.line = *line;
                self.tick_command()?;
                self.run_debug_trap()?;
                if self.opts.xtrace {
                    let prefix = self.trace_prefix()?;
                    self.write_stderr(format!("{prefix}[[ ... ]]\n").as_bytes());
                }
                self.eval_cond(expr)
            }
            CompoundCommand::Coproc { name, body } => self.run_coproc(name, body),
        }
    }

    /// A loop variable that is no name (`for i.j in ...`): status 1.
    fn not_an_identifier(&mut self, var: &str) -> i32 {
        self.report_at_line(&format!("`{var}': not a valid identifier"));
        1
    }

    /// A condition (`if`, `while`): `set -e` does not apply inside.
    fn run_condition(&mut self, list: &List) -> ExecResult {
        self.errexit_off += 1;
        let result = self.run_list(list);
        self.errexit_off -= 1;
        result
    }

    fn run_subshell(&mut self, list: &List) -> ExecResult {
        let mut sub = self.subshell();
        let result = sub.run_list(list);
        let status = match result {
            Ok(status)
            | Err(Flow::Exit(status))
            | Err(Flow::Return(status))
            | Err(Flow::Abandon(status))
            | Err(Flow::Discard(status)) => status,
            Err(Flow::Stop(stopped)) => return Err(Flow::Stop(stopped)),
            Err(_) => sub.status,
        };
        sub.status = status;
        if let Err(stopped) = sub.run_exit_trap_public() {
            return Err(Flow::Stop(stopped));
        }
        Ok(sub.status)
    }

    /// Applies a loop body's flow: `break`/`continue` of this loop are
    /// consumed, outer ones propagate.
    fn loop_flow(&mut self, result: ExecResult, status: &mut i32) -> Result<LoopControl, Flow> {
        match result {
            Ok(s) => {
                *status = s;
                Ok(LoopControl::Next)
            }
            Err(Flow::Break { levels, status: s }) => {
                *status = s;
                if levels > 1 {
                    return Err(Flow::Break {
                        levels: levels - 1,
                        status: s,
                    });
                }
                Ok(LoopControl::Stop)
            }
            Err(Flow::Continue { levels, status: s }) => {
                *status = s;
                if levels > 1 {
                    return Err(Flow::Continue {
                        levels: levels - 1,
                        status: s,
                    });
                }
                Ok(LoopControl::Next)
            }
            Err(other) => Err(other),
        }
    }

    fn run_while(&mut self, cond: &List, body: &List, until: bool) -> ExecResult {
        let mut status = 0;
        self.loop_depth += 1;
        let result = (|| {
            loop {
                self.tick_loop()?;
                let test = match self.run_condition(cond) {
                    Ok(s) => s,
                    Err(flow @ (Flow::Break { .. } | Flow::Continue { .. })) => {
                        match self.loop_flow(Err(flow), &mut status)? {
                            LoopControl::Stop => break,
                            LoopControl::Next => continue,
                        }
                    }
                    Err(flow) => return Err(flow),
                };
                if (test == 0) == until {
                    break;
                }
                let result = self.run_list(body);
                if let LoopControl::Stop = self.loop_flow(result, &mut status)? {
                    break;
                }
            }
            Ok(status)
        })();
        self.loop_depth -= 1;
        result
    }

    fn run_for(&mut self, var: &str, items: Vec<String>, body: &List, line: usize) -> ExecResult {
        let mut status = 0;
        self.loop_depth += 1;
        let result = (|| {
            for item in items {
                self.tick_loop()?;
                self.line = line;
                self.run_debug_trap()?;
                if let Err(message) = self.set_var(var, item) {
                    return Err(self.assignment_failed(&message));
                }
                let result = self.run_list(body);
                if let LoopControl::Stop = self.loop_flow(result, &mut status)? {
                    break;
                }
            }
            Ok(status)
        })();
        self.loop_depth -= 1;
        result
    }

    /// A `for ((...))` header's value (`None` when empty); an arithmetic
    /// error is reported and fails the loop (status 1) without
    /// abandoning the command line or the function it is in.
    fn arith_value(&mut self, word: &Word) -> Result<Result<Option<i64>, HeaderFailed>, Flow> {
        let text = self.expand_string(word)?;
        if text.trim().is_empty() {
            return Ok(Ok(None));
        }
        // bash's message shows the expression without its leading blanks.
        match arith::eval(text.trim_start(), self) {
            Ok(value) => Ok(Ok(Some(value))),
            Err(ArithError::Unbound(name)) => Err(self.unbound(&name)),
            Err(error) => {
                self.report_at_line(&format!("((: {error}"));
                Ok(Err(HeaderFailed))
            }
        }
    }

    fn run_arith_for(
        &mut self,
        init: &Word,
        cond: &Word,
        step: &Word,
        body: &List,
        line: usize,
    ) -> ExecResult {
        let mut status = 0;
        self.loop_depth += 1;
        let result = (|| {
            self.line = line;
            self.run_debug_trap()?;
            if self.arith_value(init)?.is_err() {
                return Ok(1);
            }
            loop {
                self.tick_loop()?;
                self.line = line;
                self.run_debug_trap()?;
                match self.arith_value(cond)? {
                    Ok(Some(0)) => break,
                    Ok(_) => {}
                    Err(HeaderFailed) => return Ok(1),
                }
                let result = self.run_list(body);
                if let LoopControl::Stop = self.loop_flow(result, &mut status)? {
                    break;
                }
                self.line = line;
                self.run_debug_trap()?;
                if self.arith_value(step)?.is_err() {
                    return Ok(1);
                }
            }
            Ok(status)
        })();
        self.loop_depth -= 1;
        result
    }

    fn run_case(&mut self, word: &Word, arms: &[CaseArm]) -> ExecResult {
        let subject = self.expand_string(word)?;
        let mut status = 0;
        let mut index = 0;
        let mut fall_through = false;
        while index < arms.len() {
            let arm = &arms[index];
            let mut matched = fall_through;
            if !matched {
                for pattern in &arm.patterns {
                    let pattern = self.expand_pattern(pattern)?;
                    if Pattern::new(&self.locale_chars(&pattern), self.opts.extglob)
                        .nocase(self.opts.nocasematch)
                        .matches(&self.locale_chars(&subject))
                    {
                        matched = true;
                        break;
                    }
                }
            }
            if matched {
                status = self.run_list(&arm.body)?;
                match arm.terminator {
                    CaseTerminator::Break => return Ok(status),
                    CaseTerminator::FallThrough => fall_through = true,
                    CaseTerminator::TestNext => fall_through = false,
                }
            }
            index += 1;
        }
        Ok(status)
    }

    fn run_select(&mut self, var: &str, items: Vec<String>, body: &List) -> ExecResult {
        let mut status = 0;
        if items.is_empty() {
            // No menu and no prompt, as bash.
            return Ok(0);
        }
        loop {
            self.tick_loop()?;
            let mut menu = String::new();
            for (i, item) in items.iter().enumerate() {
                menu.push_str(&format!("{}) {item}\n", i + 1));
            }
            let prompt = self.get_var("PS3").unwrap_or_else(|| "#? ".to_string());
            menu.push_str(&prompt);
            self.write_stderr(menu.as_bytes());
            let Some(line) = self.read_line_from_stdin() else {
                // At end of input bash ends the menu line and the loop.
                let _ = self.write_stdout(b"\n");
                return Ok(1);
            };
            let choice = line.trim().to_string();
            let _ = self.set_var("REPLY", choice.clone());
            let selected = choice
                .parse::<usize>()
                .ok()
                .and_then(|n| items.get(n.wrapping_sub(1)))
                .cloned()
                .unwrap_or_default();
            if let Err(message) = self.set_var(var, selected) {
                return Err(self.assignment_failed(&message));
            }
            self.loop_depth += 1;
            let result = self.run_list(body);
            self.loop_depth -= 1;
            if let LoopControl::Stop = self.loop_flow(result, &mut status)? {
                return Ok(status);
            }
        }
    }

    /// A line from stdin without its newline (`None` at end of input).
    pub(crate) fn read_line_from_stdin(&mut self) -> Option<String> {
        let reader = self.fds.input(0)?;
        let mut reader = reader.lock();
        let mut bytes = Vec::new();
        match std::io::BufRead::read_until(&mut *reader, b'\n', &mut bytes) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                if bytes.last() == Some(&b'\n') {
                    bytes.pop();
                }
                Some(crate::raw::decode_vec(bytes))
            }
        }
    }

    fn run_coproc(&mut self, name: &str, body: &Command) -> ExecResult {
        let capture = CaptureWriter::new(self.ctx.limits.max_substitution_bytes);
        let mut sub = self.subshell();
        sub.fds.set(1, Fd::writer(capture.clone()));
        if let Err(Flow::Stop(stopped)) = sub.run_command(body) {
            return Err(Flow::Stop(stopped));
        }
        drop(sub);
        let read_fd = self.fds.free_from(60);
        self.fds
            .set(read_fd, Fd::reader(BytesReader::new(capture.take())));
        let write_fd = self.fds.free_from(read_fd + 1);
        self.fds.set(write_fd, Fd::null_output());
        let _ = self.set_indexed(name, vec![read_fd.to_string(), write_fd.to_string()]);
        self.last_bg = Some(self.ctx.new_pid());
        Ok(0)
    }

    // ----- [[ ]] -----

    fn eval_cond(&mut self, expr: &CondExpr) -> ExecResult {
        Ok(match expr {
            CondExpr::Not(inner) => {
                let status = self.eval_cond(inner)?;
                if status == 2 {
                    2
                } else {
                    i32::from(status == 0)
                }
            }
            CondExpr::And(a, b) => {
                let left = self.eval_cond(a)?;
                if left != 0 { left } else { self.eval_cond(b)? }
            }
            CondExpr::Or(a, b) => {
                let left = self.eval_cond(a)?;
                if left == 0 { 0 } else { self.eval_cond(b)? }
            }
            CondExpr::Word(word) => {
                let text = self.expand_string(word)?;
                i32::from(text.is_empty())
            }
            CondExpr::Unary(op, word) => {
                let operand = self.expand_string(word)?;
                match test_expr::unary(self, op, &operand) {
                    Some(result) => i32::from(!result),
                    None => 2,
                }
            }
            CondExpr::Binary(left, op, right) => {
                let left_text = self.expand_string(left)?;
                match op.as_str() {
                    "==" | "=" | "!=" => {
                        let pattern = self.expand_pattern(right)?;
                        let matched = Pattern::new(&self.locale_chars(&pattern), true)
                            .nocase(self.opts.nocasematch)
                            .matches(&self.locale_chars(&left_text));
                        i32::from(matched == (op == "!="))
                    }
                    "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" => {
                        let right_text = self.expand_string(right)?;
                        let (a, b) = match (
                            arith::eval(&left_text, self),
                            arith::eval(&right_text, self),
                        ) {
                            (Ok(a), Ok(b)) => (a, b),
                            (Err(ArithError::Unbound(name)), _)
                            | (_, Err(ArithError::Unbound(name))) => {
                                return Err(self.unbound(&name));
                            }
                            (Err(error), _) | (_, Err(error)) => {
                                let message = format!("{}: {}\n", self.arg0, error);
                                self.write_stderr(message.as_bytes());
                                return Ok(2);
                            }
                        };
                        i32::from(!test_expr::compare_numbers(op, a, b))
                    }
                    _ => {
                        let right_text = self.expand_string(right)?;
                        match test_expr::binary(self, &left_text, op, &right_text) {
                            Ok(result) => i32::from(!result),
                            Err(message) => {
                                let text = format!("{}: {message}\n", self.arg0);
                                self.write_stderr(text.as_bytes());
                                2
                            }
                        }
                    }
                }
            }
            CondExpr::Regex(left, right) => {
                let text = self.expand_string(left)?;
                let regex = self.expand_regex(right)?;
                self.regex_match(&text, &regex)
            }
        })
    }

    /// The right side of `=~`: quoted parts match literally.
    fn expand_regex(&mut self, word: &Word) -> Result<String, Flow> {
        let mut out = String::new();
        for part in &word.parts {
            match part {
                WordPart::Literal(text) => out.push_str(text),
                WordPart::SingleQuoted(text) | WordPart::Escaped(text) => {
                    out.push_str(&regex::escape(text))
                }
                // A tilde's home matches as written.
                WordPart::Tilde(user) => {
                    let home = self.tilde(user);
                    out.push_str(&regex::escape(&home));
                }
                WordPart::DoubleQuoted(_) => {
                    let text = self.expand_string(&Word {
                        parts: vec![part.clone()],
                    })?;
                    out.push_str(&regex::escape(&text));
                }
                other => {
                    let text = self.expand_string(&Word {
                        parts: vec![other.clone()],
                    })?;
                    out.push_str(&text);
                }
            }
        }
        Ok(out)
    }

    fn regex_match(&mut self, text: &str, pattern: &str) -> i32 {
        if crate::regex_compat::regcomp_rejects_ere(pattern) {
            return 2;
        }
        let translated = crate::regex_compat::ere_to_rust(pattern);
        let built = regex::RegexBuilder::new(&translated)
            .case_insensitive(self.opts.nocasematch)
            .size_limit(1 << 22)
            .build();
        let Ok(regex) = built else {
            return 2;
        };
        match regex.captures(text) {
            Some(captures) => {
                let groups: Vec<String> = captures
                    .iter()
                    .map(|m| m.map(|m| m.as_str().to_string()).unwrap_or_default())
                    .collect();
                let _ = self.set_indexed("BASH_REMATCH", groups);
                0
            }
            None => {
                let _ = self.set_indexed("BASH_REMATCH", Vec::new());
                1
            }
        }
    }

    pub(crate) fn run_exit_trap_public(&mut self) -> Result<(), goccia_core::Stop> {
        self.run_exit_trap()
    }
}

/// A `for ((...))` header whose arithmetic failed (already reported).
struct HeaderFailed;
