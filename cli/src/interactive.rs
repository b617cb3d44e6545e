//! The interactive `goccia shell`: line editing and in-memory history
//! (rustyline), completion of command names and VFS paths, a prompt with
//! the working directory, Ctrl-C cancelling the running command (not the
//! session), Ctrl-D or `exit` ending it.

use std::borrow::Cow;
use std::sync::Arc;

use goccia::{CancelToken, NodeType, Sandbox, ShellRun, ShellSession};
use parking_lot::Mutex;
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Config, Context, Editor, Helper};

/// Runs the session until `exit` or end of input; its final status.
pub fn run(mut session: ShellSession, sandbox: Arc<Sandbox>) -> ShellRun {
    let cancel = Arc::new(Mutex::new(session.cancel_token()));
    install_interrupt_handler(cancel.clone());
    let helper = ShellHelper {
        sandbox,
        cwd: "/".to_string(),
        commands: Vec::new(),
    };
    let config = Config::builder().auto_add_history(true).build();
    let mut editor = match Editor::with_config(config) {
        Ok(editor) => editor,
        Err(error) => {
            eprintln!("goccia: cannot start line editing: {error}");
            return session.finish();
        }
    };
    editor.set_helper(Some(helper));
    let mut last_status = 0;
    let mut pending = String::new();
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.cwd = session.cwd();
            helper.commands = session.known_commands();
        }
        let prompt = if pending.is_empty() {
            format!("goccia:{}$ ", session.cwd())
        } else {
            "> ".to_string()
        };
        match editor.readline(&prompt) {
            Ok(line) => {
                pending.push_str(&line);
                pending.push('\n');
                if ShellSession::is_incomplete(&pending) {
                    continue;
                }
                let source = std::mem::take(&mut pending);
                let (run, exited) = session.run_line(&source);
                if run.cancelled() {
                    eprintln!("^C");
                } else if let Some(failure) = &run.failure {
                    eprintln!("goccia: command stopped: {}", failure.message);
                }
                last_status = run.exit_code;
                if exited {
                    let mut end = session.finish();
                    if end.stop.is_none() && end.exit_code == 0 {
                        end.exit_code = last_status;
                    }
                    return end;
                }
            }
            Err(ReadlineError::Interrupted) => {
                // Ctrl-C at the prompt drops the line being typed.
                pending.clear();
            }
            Err(ReadlineError::Eof) => break,
            Err(error) => {
                eprintln!("goccia: cannot read the command line: {error}");
                break;
            }
        }
    }
    let end = session.finish();
    if end.stop.is_some() {
        return end;
    }
    ShellRun {
        exit_code: last_status,
        stop: None,
        failure: None,
    }
}

/// While a command runs the terminal is in cooked mode and Ctrl-C is a
/// signal: it cancels the running command through its token. (At the
/// prompt rustyline reads Ctrl-C as a key.)
fn install_interrupt_handler(cancel: Arc<Mutex<CancelToken>>) {
    let handler = move || cancel.lock().cancel();
    if let Err(error) = ctrlc::set_handler(handler) {
        eprintln!("goccia: Ctrl-C will end the session (no handler: {error})");
    }
}

/// Completion of command names (first word) and VFS paths (other words).
struct ShellHelper {
    sandbox: Arc<Sandbox>,
    /// The session's working directory, as of the last prompt.
    cwd: String,
    commands: Vec<String>,
}

impl Completer for ShellHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _context: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        let start = before
            .rfind(|c: char| c.is_whitespace() || "|&;(<>".contains(c))
            .map_or(0, |i| i + 1);
        let word = &before[start..];
        let first_word = before[..start]
            .trim_end()
            .chars()
            .last()
            .is_none_or(|c| "|&;(".contains(c));
        let candidates = if first_word && !word.contains('/') {
            self.command_candidates(word)
        } else {
            self.path_candidates(word)
        };
        Ok((start, candidates))
    }
}

impl ShellHelper {
    fn command_candidates(&self, prefix: &str) -> Vec<Pair> {
        self.commands
            .iter()
            .filter(|name| name.starts_with(prefix))
            .map(|name| Pair {
                display: name.clone(),
                replacement: format!("{name} "),
            })
            .collect()
    }

    /// Entries of the word's folder (relative to the cwd) that start with
    /// its last part; folders end in `/`.
    fn path_candidates(&self, word: &str) -> Vec<Pair> {
        let (folder, prefix) = match word.rfind('/') {
            Some(i) => (&word[..=i], &word[i + 1..]),
            None => ("", word),
        };
        let dir = if folder.starts_with('/') {
            folder.to_string()
        } else {
            format!("{}/{folder}", self.cwd)
        };
        let Ok(entries) = self.sandbox.list(&dir) else {
            return Vec::new();
        };
        entries
            .into_iter()
            .filter(|entry| entry.name.starts_with(prefix))
            .filter(|entry| !prefix.is_empty() || !entry.name.starts_with('.'))
            .map(|entry| {
                let name = &entry.name;
                let suffix = if entry.node_type == NodeType::Directory {
                    "/"
                } else {
                    " "
                };
                Pair {
                    display: format!("{name}{}", suffix.trim()),
                    replacement: format!("{folder}{name}{suffix}"),
                }
            })
            .collect()
    }
}

impl Hinter for ShellHelper {
    type Hint = String;
}

impl Highlighter for ShellHelper {
    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        Cow::Borrowed(prompt)
    }
}

impl Validator for ShellHelper {}

impl Helper for ShellHelper {}
