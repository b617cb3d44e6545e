//! The candidates a completion spec generates for a word, in bash's
//! order: the actions (named lists, then commands, files, users, groups,
//! services, directories), the `-G` glob's matches, the `-W` words that
//! start with the word, what a `-F` function leaves in `COMPREPLY`, the
//! lines a `-C` command prints; then `-X` drops what matches its pattern,
//! `-P`/`-S` wrap each candidate, and `-o dirnames`/`-o plusdirs` add
//! folders.
//!
//! What the sandbox answers where bash asks the system: users and groups
//! are the sandbox's user (`whoami`), host names are `goccia` and
//! `localhost`, there are no services, no key bindings (no line editor)
//! and no disabled builtins; jobs are the shell's table.

use std::sync::Arc;

use goccia_vfs::NodeType;

use crate::builtins::lookup::KEYWORDS;
use crate::completion::{Action, CompOption, CompSpec, GENERATION_ORDER};
use crate::interp::options::{SET_OPTIONS, SHOPT_OPTIONS};
use crate::interp::{CommandKind, Flow, HOST_NAME, Shell};
use crate::parse::{Parser, command_word};
use crate::pattern::{Pattern, escape};
use crate::vars::Value;

/// The topics `help` knows in bash 5.2, as `compgen -A helptopic` lists
/// them.
const HELP_TOPICS: &[&str] = &[
    "%",
    "(( ... ))",
    ".",
    ":",
    "[",
    "[[ ... ]]",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "case",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "coproc",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "for",
    "for ((",
    "function",
    "getopts",
    "hash",
    "help",
    "history",
    "if",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "select",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "time",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "until",
    "variables",
    "wait",
    "while",
    "{ ... }",
];

/// Every candidate `spec` generates for `word` (see the module's text).
pub(super) fn candidates(
    shell: &mut Shell,
    spec: &CompSpec,
    word: &str,
) -> Result<Vec<String>, Flow> {
    let mut out = Vec::new();
    for action in GENERATION_ORDER {
        if spec.actions.contains(action) {
            out.extend(action_candidates(shell, *action, word));
        }
    }
    if let Some(glob) = &spec.glob {
        let extglob = shell.opts.extglob;
        if crate::pattern::has_magic(glob, extglob) {
            out.extend(shell.glob(glob, false));
        }
    }
    if let Some(words) = &spec.words {
        let words = expand_word_list(shell, words)?;
        out.extend(words.into_iter().filter(|w| w.starts_with(word)));
    }
    if let Some(function) = &spec.function {
        out.extend(run_function(shell, function, word)?);
    }
    if let Some(command) = &spec.command {
        out.extend(run_command(shell, command, word)?);
    }
    if let Some(filter) = &spec.filter {
        let (keep_matching, pattern) = match filter.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, filter.as_str()),
        };
        // `&` in the pattern stands for the word (`\&` for itself).
        let pattern = pattern
            .replace(r"\&", "\u{0}")
            .replace('&', &escape(word))
            .replace('\u{0}', "&");
        let pattern = Pattern::new(&pattern, shell.opts.extglob);
        out.retain(|candidate| pattern.matches(candidate) == keep_matching);
    }
    if spec.prefix.is_some() || spec.suffix.is_some() {
        let prefix = spec.prefix.as_deref().unwrap_or("");
        let suffix = spec.suffix.as_deref().unwrap_or("");
        for candidate in &mut out {
            *candidate = format!("{prefix}{candidate}{suffix}");
        }
    }
    let dirnames = spec.options.contains(&CompOption::DirNames) && out.is_empty();
    if dirnames || spec.options.contains(&CompOption::PlusDirs) {
        out.extend(files(shell, word, true));
    }
    Ok(out)
}

/// One action's candidates that start with `word`.
fn action_candidates(shell: &mut Shell, action: Action, word: &str) -> Vec<String> {
    let names: Vec<String> = match action {
        Action::Alias => sorted(shell.aliases.keys().cloned()),
        Action::ArrayVar => sorted(
            shell
                .vars
                .visible()
                .into_iter()
                .filter(|(_, var)| {
                    matches!(var.value, Some(Value::Indexed(_)) | Some(Value::Assoc(_)))
                })
                .map(|(name, _)| name),
        ),
        Action::Builtin | Action::Enabled => builtins(shell),
        Action::Export => sorted(
            shell
                .vars
                .visible()
                .into_iter()
                .filter(|(_, var)| var.attrs.exported && var.value.is_some())
                .map(|(name, _)| name),
        ),
        Action::Function => sorted(shell.functions.keys().cloned()),
        Action::HelpTopic => HELP_TOPICS.iter().map(|t| t.to_string()).collect(),
        Action::Hostname => vec![HOST_NAME.to_string(), "localhost".to_string()],
        Action::Job => shell
            .jobs
            .active()
            .iter()
            .filter_map(|job| job.command.split_whitespace().next().map(str::to_string))
            .collect(),
        Action::Keyword => KEYWORDS.iter().map(|k| k.to_string()).collect(),
        Action::SetOpt => SET_OPTIONS.iter().map(|o| o.name.to_string()).collect(),
        Action::Shopt => SHOPT_OPTIONS.iter().map(|o| o.name.to_string()).collect(),
        Action::Signal => signals(),
        Action::Variable => sorted(
            shell
                .vars
                .visible()
                .into_iter()
                .filter(|(_, var)| var.value.is_some())
                .map(|(name, _)| name),
        ),
        Action::Command => commands(shell),
        Action::File => return files(shell, word, false),
        Action::Directory => return files(shell, word, true),
        Action::User | Action::Group => vec![shell.user_name()],
        // Nothing of these in a sandbox: no line editor, no disabled
        // builtins, no services, no job still running or stopped.
        Action::Binding
        | Action::Disabled
        | Action::Service
        | Action::Running
        | Action::Stopped => Vec::new(),
    };
    let mut names = names;
    names.retain(|name| name.starts_with(word));
    names
}

fn sorted(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut names: Vec<String> = names.collect();
    names.sort();
    names
}

fn builtins(shell: &Shell) -> Vec<String> {
    shell
        .ctx
        .table
        .names()
        .filter(|name| shell.ctx.table.kind(name) == Some(CommandKind::Builtin))
        .map(|name| name.to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect()
}

/// Signal names as `trap` takes them: `EXIT`, `SIG...`, then the shell's
/// own `DEBUG`, `ERR`, `RETURN`.
fn signals() -> Vec<String> {
    let mut names = vec!["EXIT".to_string()];
    names.extend((1..=64).filter_map(|n| crate::signals::name(n).map(|name| format!("SIG{name}"))));
    names.extend(["DEBUG", "ERR", "RETURN"].map(str::to_string));
    names
}

/// What a command word can be, in bash's order: aliases, keywords,
/// functions, builtins, then the programs on `PATH` (goccia's utilities
/// and host commands, and executable files in `PATH`'s folders). A name
/// given twice is listed once.
fn commands(shell: &mut Shell) -> Vec<String> {
    let mut names = sorted(shell.aliases.keys().cloned());
    names.extend(KEYWORDS.iter().map(|k| k.to_string()));
    names.extend(sorted(shell.functions.keys().cloned()));
    names.extend(builtins(shell));
    let mut programs: Vec<String> = shell
        .ctx
        .table
        .names()
        .filter(|name| shell.ctx.table.kind(name) == Some(CommandKind::Utility))
        .map(|name| name.to_string())
        .collect();
    if let Some(host) = &shell.ctx.host {
        programs.extend(host.names());
    }
    programs.extend(shell.path_programs());
    programs.sort();
    names.extend(programs);
    let mut seen = std::collections::HashSet::new();
    names.retain(|name| seen.insert(name.clone()));
    names
}

/// The files (or only the folders) whose path starts with `word`, as
/// readline completes a file name: the entries of the word's folder whose
/// name starts with the rest, shown with the folder as typed; `.` and
/// `..` only when the word's last part starts with a dot, other hidden
/// entries always.
pub(super) fn files(shell: &mut Shell, word: &str, folders_only: bool) -> Vec<String> {
    let (folder, start) = match word.rfind('/') {
        Some(slash) => (&word[..=slash], &word[slash + 1..]),
        None => ("", word),
    };
    let Ok(path) = shell
        .cwd()
        .resolve(if folder.is_empty() { "." } else { folder })
    else {
        return Vec::new();
    };
    let vfs = shell.context().vfs.clone();
    let vfs = vfs.lock();
    let Ok(entries) = vfs.read_dir(&path) else {
        return Vec::new();
    };
    let mut names: Vec<String> = Vec::new();
    if start.starts_with('.') {
        names.extend([".".to_string(), "..".to_string()]);
    }
    for entry in entries {
        let is_folder = match entry.node_type {
            NodeType::Directory => true,
            NodeType::Symlink => vfs
                .stat(&path.join(&entry.name))
                .is_ok_and(|meta| meta.node_type == NodeType::Directory),
            _ => false,
        };
        if !folders_only || is_folder {
            names.push(entry.name.to_string());
        }
    }
    names.retain(|name| name.starts_with(start));
    names.sort();
    names
        .into_iter()
        .map(|name| format!("{folder}{name}"))
        .collect()
}

/// `-W`'s text as bash reads it when completing: split at `$IFS` where
/// unquoted (a backslash keeps a delimiter), then each part expanded as
/// a word is (no globbing), which may split it again.
fn expand_word_list(shell: &mut Shell, text: &str) -> Result<Vec<String>, Flow> {
    let ifs = shell.ifs();
    let mut words = Vec::new();
    for part in split_unquoted(text, &ifs) {
        let word = match command_word(&part) {
            Ok(word) => word,
            Err(error) => {
                if let Some(stop) = error.stop {
                    return Err(Flow::Stop(stop));
                }
                shell.report_at_line(&format!("{part}: bad substitution"));
                shell.status = 1;
                return Err(Flow::Abandon(1));
            }
        };
        let noglob = std::mem::replace(&mut shell.opts.noglob, true);
        let expanded = shell.expand_words(std::slice::from_ref(&word));
        shell.opts.noglob = noglob;
        words.extend(expanded?);
    }
    Ok(words)
}

/// What ends a word on a command line.
const WORD_ENDERS: &str = " \t\n;|&<>()";

/// `text` cut at the characters of `ifs` that stand outside quotes,
/// `$(...)`, `${...}` and backquotes and are not escaped; empty parts
/// are dropped, and characters that would end a word are escaped.
fn split_unquoted(text: &str, ifs: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        match c {
            '\\' => i += 2,
            '\'' => i = closing(&chars, i + 1, '\'') + 1,
            '"' => i = closing(&chars, i + 1, '"') + 1,
            '`' => i = closing(&chars, i + 1, '`') + 1,
            '$' if matches!(chars.get(i + 1), Some('(') | Some('{')) => {
                let (open, close) = if chars[i + 1] == '(' {
                    ('(', ')')
                } else {
                    ('{', '}')
                };
                i = balanced(&chars, i + 2, open, close) + 1;
            }
            c if ifs.contains(c) => {
                if !current.is_empty() {
                    parts.push(std::mem::take(&mut current));
                }
                i += 1;
                continue;
            }
            // Kept in the word (it is read as one word of a command line).
            c if WORD_ENDERS.contains(c) => {
                current.push('\\');
                i += 1;
            }
            _ => i += 1,
        }
        let end = i.min(chars.len());
        current.extend(&chars[start..end]);
    }
    if !current.is_empty() {
        parts.push(current);
    }
    parts
}

/// The index of the `quote` that closes a quoted run starting at `from`
/// (a backslash escapes inside double quotes and backquotes), or the end.
fn closing(chars: &[char], from: usize, quote: char) -> usize {
    let mut i = from;
    while i < chars.len() {
        if chars[i] == '\\' && quote != '\'' {
            i += 2;
            continue;
        }
        if chars[i] == quote {
            return i;
        }
        i += 1;
    }
    chars.len()
}

/// The index of the `close` that balances an `open` already read.
fn balanced(chars: &[char], from: usize, open: char, close: char) -> usize {
    let mut depth = 1;
    let mut i = from;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '\'' | '"' | '`' => i = closing(chars, i + 1, chars[i]),
            c if c == open => depth += 1,
            c if c == close => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
        i += 1;
    }
    chars.len()
}

/// Runs a `-F` function as bash does for `compgen`: arguments the
/// command (`compgen`), the word and the word before it (none), with
/// `COMP_WORDS`, `COMP_CWORD`, `COMP_LINE` and `COMP_POINT` describing
/// an empty line; its candidates are `COMPREPLY`'s values, unfiltered.
fn run_function(shell: &mut Shell, name: &str, word: &str) -> Result<Vec<String>, Flow> {
    let Some(function) = shell.functions.get(name).cloned() else {
        shell.fail("compgen", &format!("{name}: function not found"), 1);
        return Ok(Vec::new());
    };
    describe_empty_line(shell);
    let words = [name, "compgen", word, ""].map(str::to_string);
    let result = shell.call_function(&Arc::clone(&function), &words);
    forget_line(shell);
    result?;
    let reply = shell.get_value("COMPREPLY");
    shell.vars.unset("COMPREPLY");
    Ok(reply.map(|value| value.values()).unwrap_or_default())
}

/// Runs a `-C` command line with the command, the word and the word
/// before it as arguments; each line it prints is a candidate.
fn run_command(shell: &mut Shell, command: &str, word: &str) -> Result<Vec<String>, Flow> {
    let quote = crate::interp::quote;
    let line = format!("{command} compgen {} ''", quote(word));
    let list = match Parser::parse_all(&line) {
        Ok(list) => list,
        Err(error) => {
            if let Some(stop) = error.stop {
                return Err(Flow::Stop(stop));
            }
            shell.report_syntax_error(&error);
            return Ok(Vec::new());
        }
    };
    describe_empty_line(shell);
    let output = shell.command_substitution(&list);
    forget_line(shell);
    Ok(output?.lines().map(str::to_string).collect())
}

fn describe_empty_line(shell: &mut Shell) {
    let _ = shell.set_array("COMP_WORDS", Value::Indexed(Default::default()));
    let _ = shell.set_var("COMP_CWORD", "-1");
    let _ = shell.set_var("COMP_LINE", "");
    let _ = shell.set_var("COMP_POINT", "0");
}

fn forget_line(shell: &mut Shell) {
    for name in ["COMP_WORDS", "COMP_CWORD", "COMP_LINE", "COMP_POINT"] {
        shell.vars.unset(name);
    }
}

#[cfg(test)]
mod tests {
    use super::split_unquoted;

    #[test]
    fn the_word_list_splits_outside_quotes_and_substitutions() {
        assert_eq!(
            split_unquoted(r"spam:eggs%ham cheese\:colon", ":%"),
            vec!["spam", "eggs", r"ham\ cheese\:colon"]
        );
        assert_eq!(
            split_unquoted(r#"$(echo "a:b") 'c d':e"#, ": "),
            vec![r#"$(echo "a:b")"#, "'c d'", "e"]
        );
        assert_eq!(split_unquoted("  a  b ", " "), vec!["a", "b"]);
        assert_eq!(split_unquoted("${x:-a b}", " "), vec!["${x:-a b}"]);
    }
}
