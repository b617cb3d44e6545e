//! Simple commands: expanding their words, the assignments before them,
//! `set -x` traces, and finding what a name runs (function, builtin,
//! utility, script).

use super::exec::FunctionFrame;
use super::{ExecResult, Flow, Shell};
use crate::ast::*;
use crate::vars::FrameKind;
use std::sync::Arc;

/// Declaration-builtin assignments (`declare x=1`) with their argument positions.
type PositionedAssignments = Vec<(usize, Assignment)>;

/// POSIX's special builtins: in POSIX mode assignments before them
/// persist (exported), they are found before functions, and no function
/// may take their names.
const SPECIAL_BUILTINS: &[&str] = &[
    ":", ".", "break", "continue", "eval", "exec", "exit", "export", "readonly", "return", "set",
    "shift", "times", "trap", "unset", "source",
];

/// The builtins whose temporary bindings are a scope for the commands
/// they run (bash's `VC_BLTNENV`): a `local` inside `v=x eval '...'`
/// claims the binding, `unset` in it removes the binding alone.
const SCOPE_BUILTINS: &[&str] = &["eval", "source", ".", "unset", "mapfile", "readarray"];

impl Shell {
    /// Runs one command; the process substitutions its words started end
    /// with it (see `procsub`).
    pub(crate) fn run_command(&mut self, command: &Command) -> ExecResult {
        let mark = self.substitutions_mark();
        let result = self.run_command_alone(command);
        self.finish_substitutions(mark)?;
        // A signal another shell sent this one while it waited (`sh -c
        // "kill -USR1 $$"`) is taken once the command has ended.
        for number in self.ctx.processes.take_signals(self.bashpid) {
            crate::builtins::trap::deliver_to_self(self, number)?;
        }
        result
    }

    fn run_command_alone(&mut self, command: &Command) -> ExecResult {
        match command {
            Command::Simple(simple) => {
                let result = self.run_simple(simple);
                // After a function call, `$LINENO` is the call's line.
                self.line = simple.line;
                result
            }
            Command::Compound(compound, redirects) => {
                // A failure is reported at the redirection's own line.
                let line = self.line;
                if let Some(first) = redirects.first() {
                    self.line = first.line;
                }
                let applied = self.apply_redirects(redirects);
                self.line = line;
                let saved = match applied {
                    Ok(saved) => saved,
                    Err(status) => {
                        self.compound_redirect_failed = true;
                        return Ok(status);
                    }
                };
                let result = self.run_compound(compound);
                let landed = self.restore_redirects(saved);
                let result = match result {
                    Ok(0) if !landed => Ok(1),
                    other => other,
                };
                // Only this command's own redirections count (not one
                // inside its body).
                self.compound_redirect_failed = false;
                result
            }
            Command::FunctionDef(function) => {
                if SPECIAL_BUILTINS.contains(&function.name.as_str()) && self.opts.is_set("posix") {
                    // POSIX: no function may take a special builtin's name;
                    // the error ends a shell that is not interactive.
                    self.line = function.line;
                    let message = format!("`{}': is a special builtin", function.name);
                    self.report_at_line(&message);
                    return if self.interactive {
                        Ok(2)
                    } else {
                        Err(Flow::Exit(2))
                    };
                }
                if function.name.contains(['$', '\'', '"', '\\', '`']) {
                    self.line = function.line;
                    let message = format!("`{}': not a valid identifier", function.name);
                    self.report_at_line(&message);
                    return Ok(1);
                }
                self.functions
                    .insert(function.name.clone(), function.clone());
                Ok(0)
            }
        }
    }

    /// Expands a simple command's words; declaration assignments are
    /// returned separately with their argument positions.
    fn expand_command_words(
        &mut self,
        command: &SimpleCommand,
    ) -> Result<(Vec<String>, PositionedAssignments), Flow> {
        if command.arg_assignments.is_empty() {
            return Ok((self.expand_words(&command.words)?, Vec::new()));
        }
        let mut words = Vec::new();
        let mut assignments = Vec::new();
        for (index, word) in command.words.iter().enumerate() {
            if let Some((_, assignment)) = command
                .arg_assignments
                .iter()
                .find(|(slot, _)| *slot == index)
            {
                assignments.push((words.len(), assignment.clone()));
                words.push(String::new());
            } else {
                words.extend(self.expand_words(std::slice::from_ref(word))?);
            }
        }
        Ok((words, assignments))
    }

    fn run_simple(&mut self, command: &SimpleCommand) -> ExecResult {
        self.line = command.line;
        self.tick_command()?;
        // Before the words are expanded, as bash does.
        self.run_debug_trap()?;
        self.subst_status = None;
        let (words, decl_assignments) = self.expand_command_words(command)?;
        let decl_assignments = self.expand_declaration_values(decl_assignments)?;
        if words.is_empty() {
            return self.run_assignments_only(command);
        }
        let name = words[0].clone();
        // Named by its command word only: its arguments may hold a file's
        // contents (docs/telemetry.md). A disabled span costs a branch.
        let span = tracing::info_span!(
            "goccia.shell.command",
            process.command = %name,
            process.exit.code = tracing::field::Empty,
        );
        let _entered = span.enter();
        let result = self.run_simple_named(command, words, decl_assignments, name);
        if let Ok(status) = &result {
            span.record("process.exit.code", status);
        }
        result
    }

    /// [`Self::run_simple`] once the words are expanded and the command
    /// has its span.
    fn run_simple_named(
        &mut self,
        command: &SimpleCommand,
        words: Vec<String>,
        decl_assignments: PositionedAssignments,
        name: String,
    ) -> ExecResult {
        if name == "exec" && (words.len() == 1 || words.len() == 2 && words[1] == "--") {
            // `exec` with only redirections: they stay.
            for assignment in &command.assignments {
                self.assign(assignment, false)?;
            }
            return match self.apply_redirects(&command.redirects) {
                Ok(_) => Ok(0),
                Err(status) => Ok(status),
            };
        }
        // The assignments before the command bind in a frame of their own
        // (see `vars::FrameKind`); in POSIX mode those before a special
        // builtin stay afterwards, exported, unless it unset them.
        let special = self.opts.is_set("posix") && SPECIAL_BUILTINS.contains(&name.as_str());
        self.traced_assignments.clear();
        let depth = self.vars.depth();
        let binds = !command.assignments.is_empty();
        if binds {
            let kind = if special || SCOPE_BUILTINS.contains(&name.as_str()) {
                FrameKind::Builtin
            } else {
                FrameKind::Command
            };
            self.vars.push_temporary(kind);
            if let Err(flow) = self.bind_for_command(&command.assignments) {
                self.vars.truncate(depth);
                return Err(flow);
            }
        }
        if self.opts.xtrace {
            let mut shown = words.clone();
            for (slot, assignment) in &decl_assignments {
                if let (AssignValue::Scalar(word), None) = (&assignment.value, &assignment.index)
                    && let [WordPart::SingleQuoted(value)] = word.parts.as_slice()
                {
                    let operator = if assignment.append { "+=" } else { "=" };
                    shown[*slot] = format!("{}{operator}{value}", assignment.name);
                }
            }
            if let Err(flow) = self.trace(&shown) {
                self.vars.truncate(depth);
                return Err(flow);
            }
        }
        let saved = match self.apply_redirects(&command.redirects) {
            Ok(saved) => saved,
            Err(status) => {
                self.vars.truncate(depth);
                return Ok(status);
            }
        };
        let result = if !decl_assignments.is_empty() {
            super::declare::run_with_assignments(self, &words, &decl_assignments)
        } else if binds && let Some(function) = self.function_named(&name) {
            self.call_function_in(&function, &words, FunctionFrame::Adopt)
        } else {
            self.dispatch(&words)
        };
        let landed = self.restore_redirects(saved);
        let result = match result {
            Ok(0) if !landed => Ok(1),
            other => other,
        };
        if binds {
            self.end_bindings(depth, &name, &words, special);
        }
        // `$_`: the last word; when that is an assignment given to
        // `declare` and the like, `name=value` (just `name` for an array).
        let last_index = words.len().saturating_sub(1);
        match decl_assignments
            .iter()
            .find(|(index, _)| *index == last_index)
        {
            Some((_, assignment)) => {
                self.last_arg = match &assignment.value {
                    AssignValue::Scalar(_) if assignment.index.is_none() => {
                        let value = self.get_var(&assignment.name).unwrap_or_default();
                        format!("{}={value}", assignment.name)
                    }
                    _ => assignment.name.clone(),
                };
            }
            None => {
                if let Some(last) = words.last() {
                    self.last_arg.clone_from(last);
                }
            }
        }
        result
    }

    /// The values of `declare a=... b=...` expanded now, with the other
    /// words and before the assignments in front of the command, as bash
    /// does: `local x=1 y=$x` gives `y` the outer `x`, and
    /// `FOO=1 readonly v=$FOO` does not see `FOO`. A command with an
    /// array value (`declare -a a=(...)`) keeps expanding each value as it
    /// assigns it, which is also what bash shows for those.
    fn expand_declaration_values(
        &mut self,
        assignments: PositionedAssignments,
    ) -> Result<PositionedAssignments, Flow> {
        if assignments
            .iter()
            .any(|(_, assignment)| matches!(assignment.value, AssignValue::Array(_)))
        {
            return Ok(assignments);
        }
        let mut expanded = Vec::with_capacity(assignments.len());
        for (slot, mut assignment) in assignments {
            if let AssignValue::Scalar(word) = &assignment.value {
                let text = self.expand_string(word)?;
                assignment.value = AssignValue::Scalar(Word {
                    parts: vec![WordPart::SingleQuoted(text)],
                });
            }
            expanded.push((slot, assignment));
        }
        Ok(expanded)
    }

    /// Binds the assignments before a command in the temporary frame on
    /// top, each seeing the ones before it.
    fn bind_for_command(&mut self, assignments: &[Assignment]) -> Result<(), Flow> {
        for assignment in assignments {
            let resolved = self.resolve_name(&assignment.name);
            // A read-only name is refused and the command still runs.
            if self
                .vars
                .get_raw(&resolved)
                .is_some_and(|v| v.attrs.readonly)
            {
                self.report_at_line(&format!("{resolved}: readonly variable"));
                continue;
            }
            self.vars.bind_temporary(&resolved);
            // A binding for one command is a string: `B=(b b) cmd` gives
            // `cmd` the text `(b b)`, as bash does.
            let text_binding;
            let assignment = match &assignment.value {
                AssignValue::Array(elements) if assignment.index.is_none() => {
                    let text = super::print::array_literal_text(elements);
                    text_binding = Assignment {
                        value: AssignValue::Scalar(Word {
                            parts: vec![WordPart::SingleQuoted(text)],
                        }),
                        ..assignment.clone()
                    };
                    &text_binding
                }
                _ => assignment,
            };
            self.assign(assignment, false)?;
            if let Some(var) = self.vars.get_mut(&resolved) {
                var.attrs.exported = true;
            }
        }
        Ok(())
    }

    /// Drops the temporary frame (and any above it) after the command.
    /// What `export` or `readonly` named (`x=1 export x`), and in POSIX
    /// mode every binding before a special builtin, becomes the shell's:
    /// it moves to where an assignment would put it.
    fn end_bindings(&mut self, depth: usize, name: &str, words: &[String], special: bool) {
        let mut kept = Vec::new();
        if self.vars.depth() == depth + 1 {
            let named: Vec<String> = if special {
                self.vars.names_on_top()
            } else if matches!(name, "export" | "readonly") {
                words[1..]
                    .iter()
                    .map(|word| word.split_once('=').map_or(word.as_str(), |(name, _)| name))
                    .map(str::to_string)
                    .collect()
            } else {
                Vec::new()
            };
            for variable in named {
                if let Some(var) = self.vars.take_temporary(&variable) {
                    kept.push((variable, var));
                }
            }
        }
        self.vars.truncate(depth);
        for (variable, var) in kept {
            *self.vars.entry(&variable) = var;
        }
    }

    /// A command of assignments (or of expansions that left no word):
    /// its status is the last command substitution's, else 0.
    fn run_assignments_only(&mut self, command: &SimpleCommand) -> ExecResult {
        // `$?` in the values is the previous command's status until a
        // command substitution in them sets it; the assignments' own
        // status (the last substitution's, or 0) comes after.
        self.traced_assignments.clear();
        for assignment in &command.assignments {
            self.assign(assignment, false)?;
        }
        if self.opts.xtrace && !command.assignments.is_empty() {
            self.trace(&[])?;
        }
        if !command.assignments.is_empty() {
            self.last_arg.clear();
        }
        self.status = self.subst_status.unwrap_or(0);
        let status = self.status;
        match self.apply_redirects(&command.redirects) {
            Ok(saved) => {
                let landed = self.restore_redirects(saved);
                Ok(if landed { status } else { 1 })
            }
            Err(status) => Ok(status),
        }
    }

    /// Keeps an assignment for the `set -x` line of its command.
    pub(crate) fn record_traced_assignment(&mut self, assignment: &Assignment, value: &str) {
        let index = assignment
            .index
            .as_ref()
            .map(|index| format!("[{}]", super::print::word_text(index)))
            .unwrap_or_default();
        let operator = if assignment.append { "+=" } else { "=" };
        // An empty value shows as nothing (`x=`), not as `''`.
        let shown = if value.is_empty() {
            String::new()
        } else {
            trace_quote(value)
        };
        self.traced_assignments
            .push(format!("{}{index}{operator}{shown}", assignment.name));
    }

    /// `set -x`'s lines: one per assignment as it was made (taken from
    /// [`Shell::traced_assignments`], never expanded a second time), then
    /// the words.
    fn trace(&mut self, words: &[String]) -> Result<(), Flow> {
        let assignments = std::mem::take(&mut self.traced_assignments);
        let ps4 = self.trace_prefix()?;
        let mut text = String::new();
        for assignment in assignments {
            text.push_str(&format!("{ps4}{assignment}\n"));
        }
        if !words.is_empty() {
            let words: Vec<String> = words.iter().map(|w| trace_quote(w)).collect();
            text.push_str(&format!("{ps4}{}\n", words.join(" ")));
        }
        self.write_stderr(text.as_bytes());
        Ok(())
    }

    /// Runs a command by name: function, builtin or utility, script path.
    pub(crate) fn dispatch(&mut self, words: &[String]) -> ExecResult {
        if let Some(function) = self.function_named(&words[0]) {
            return self.call_function(&function, words);
        }
        self.dispatch_command(words)
    }

    /// The function `name` runs, if it names one (in POSIX mode a special
    /// builtin is found first).
    fn function_named(&self, name: &str) -> Option<Arc<FunctionDef>> {
        let posix_special = SPECIAL_BUILTINS.contains(&name) && self.opts.is_set("posix");
        if posix_special {
            return None;
        }
        self.functions.get(name).cloned()
    }

    /// Runs a builtin, utility or script (skipping functions: `command`).
    pub(crate) fn dispatch_command(&mut self, words: &[String]) -> ExecResult {
        let name = words[0].as_str();
        if let Some(host) = self.ctx.host.clone()
            && host.has(name)
        {
            return host.run(self, words);
        }
        if let Some((run, kind)) = self.ctx.table.lookup(name) {
            // A program earlier on PATH shadows a utility (not a builtin).
            if kind == super::CommandKind::Utility
                && let Some(path) = self.hashed_command_path(name).and_then(|hit| hit.file)
            {
                let mut words = words.to_vec();
                words[0] = path.to_string();
                return self.run_script_file(&words);
            }
            // A utility is a process of its own for `ps`; a builtin runs
            // inside the shell.
            let _listed = (kind == super::CommandKind::Utility).then(|| {
                self.ctx.processes.enter(super::Process {
                    pid: self.ctx.new_pid(),
                    ppid: self.bashpid,
                    argv: words.to_vec(),
                    started: std::time::SystemTime::now(),
                })
            });
            return run.call(self, words);
        }
        if name.contains('/') {
            if let Some(program) = self.system_program_at(name) {
                let mut words = words.to_vec();
                words[0] = program;
                return self.dispatch_command(&words);
            }
            return self.run_script_file(words);
        }
        if let Some(path) = self.hashed_command_path(name).and_then(|hit| hit.file) {
            let mut words = words.to_vec();
            words[0] = path.to_string();
            return self.run_script_file(&words);
        }
        let message = format!(
            "{}: line {}: {name}: command not found\n",
            self.arg0, self.line
        );
        self.write_stderr(message.as_bytes());
        Ok(127)
    }
}

/// Quoting for `set -x` traces.
fn trace_quote(word: &str) -> String {
    if !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_alphanumeric() || "-_./=:,+@%^".contains(c))
    {
        word.to_string()
    } else {
        super::param::quote(word)
    }
}
