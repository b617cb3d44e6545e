//! Programmable completion's specifications, as `complete` records them
//! and `compgen` reads them: the actions that generate candidates, the
//! `-o` options, the word list, glob, filter, prefix, suffix, function
//! and command, and the line `complete -p` prints for one. Pure data: the
//! builtins (`crate::builtins::complete`) read options into a spec and
//! generate candidates from it.

use std::collections::BTreeSet;

/// What generates candidates (`-A name`, or the letter when it has one).
/// Declared in the order bash prints them in `complete -p` (the lettered
/// ones first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Action {
    Alias,
    Builtin,
    Command,
    Directory,
    Export,
    File,
    Group,
    Job,
    Keyword,
    Service,
    User,
    Variable,
    ArrayVar,
    Binding,
    Disabled,
    Enabled,
    Function,
    HelpTopic,
    Hostname,
    Running,
    SetOpt,
    Shopt,
    Signal,
    Stopped,
}

/// Every action: its `-A` name and its letter.
const ACTIONS: &[(Action, &str, Option<char>)] = &[
    (Action::Alias, "alias", Some('a')),
    (Action::Builtin, "builtin", Some('b')),
    (Action::Command, "command", Some('c')),
    (Action::Directory, "directory", Some('d')),
    (Action::Export, "export", Some('e')),
    (Action::File, "file", Some('f')),
    (Action::Group, "group", Some('g')),
    (Action::Job, "job", Some('j')),
    (Action::Keyword, "keyword", Some('k')),
    (Action::Service, "service", Some('s')),
    (Action::User, "user", Some('u')),
    (Action::Variable, "variable", Some('v')),
    (Action::ArrayVar, "arrayvar", None),
    (Action::Binding, "binding", None),
    (Action::Disabled, "disabled", None),
    (Action::Enabled, "enabled", None),
    (Action::Function, "function", None),
    (Action::HelpTopic, "helptopic", None),
    (Action::Hostname, "hostname", None),
    (Action::Running, "running", None),
    (Action::SetOpt, "setopt", None),
    (Action::Shopt, "shopt", None),
    (Action::Signal, "signal", None),
    (Action::Stopped, "stopped", None),
];

/// The letters that name an action (`-abcdefgjksuv`).
pub(crate) const ACTION_LETTERS: &str = "abcdefgjksuv";

/// The order bash generates candidates in: the named lists first, then
/// commands, files, users, groups and services, directories last.
pub(crate) const GENERATION_ORDER: &[Action] = &[
    Action::Alias,
    Action::ArrayVar,
    Action::Binding,
    Action::Builtin,
    Action::Disabled,
    Action::Enabled,
    Action::Export,
    Action::Function,
    Action::HelpTopic,
    Action::Hostname,
    Action::Job,
    Action::Keyword,
    Action::Running,
    Action::SetOpt,
    Action::Shopt,
    Action::Signal,
    Action::Stopped,
    Action::Variable,
    Action::Command,
    Action::File,
    Action::User,
    Action::Group,
    Action::Service,
    Action::Directory,
];

impl Action {
    /// The action `-A name` names.
    pub(crate) fn named(name: &str) -> Option<Action> {
        ACTIONS
            .iter()
            .find(|(_, n, _)| *n == name)
            .map(|(action, _, _)| *action)
    }

    /// The action a letter (`-f`) names.
    pub(crate) fn lettered(letter: char) -> Option<Action> {
        ACTIONS
            .iter()
            .find(|(_, _, l)| *l == Some(letter))
            .map(|(action, _, _)| *action)
    }

    fn entry(self) -> &'static (Action, &'static str, Option<char>) {
        ACTIONS
            .iter()
            .find(|(action, _, _)| *action == self)
            .expect("every action is in the table")
    }
}

/// How the candidates are treated after they are generated (`-o name`),
/// in the order bash prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum CompOption {
    BashDefault,
    Default,
    DirNames,
    FileNames,
    NoQuote,
    NoSort,
    NoSpace,
    PlusDirs,
}

const OPTIONS: &[(CompOption, &str)] = &[
    (CompOption::BashDefault, "bashdefault"),
    (CompOption::Default, "default"),
    (CompOption::DirNames, "dirnames"),
    (CompOption::FileNames, "filenames"),
    (CompOption::NoQuote, "noquote"),
    (CompOption::NoSort, "nosort"),
    (CompOption::NoSpace, "nospace"),
    (CompOption::PlusDirs, "plusdirs"),
];

impl CompOption {
    /// The option `-o name` names.
    pub(crate) fn named(name: &str) -> Option<CompOption> {
        OPTIONS
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(option, _)| *option)
    }

    fn name(self) -> &'static str {
        OPTIONS
            .iter()
            .find(|(option, _)| *option == self)
            .map(|(_, name)| *name)
            .expect("every option is in the table")
    }
}

/// One completion specification.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct CompSpec {
    pub actions: BTreeSet<Action>,
    pub options: BTreeSet<CompOption>,
    /// `-G`: a glob whose matches are candidates.
    pub glob: Option<String>,
    /// `-W`: words, split at `$IFS` and expanded when used.
    pub words: Option<String>,
    /// `-P` / `-S`: put before / after every candidate.
    pub prefix: Option<String>,
    pub suffix: Option<String>,
    /// `-X`: candidates matching it are dropped (kept, after a `!`).
    pub filter: Option<String>,
    /// `-C`: a command whose output lines are candidates.
    pub command: Option<String>,
    /// `-F`: a function that leaves candidates in `COMPREPLY`.
    pub function: Option<String>,
}

impl CompSpec {
    /// The `complete` line that recreates this spec for `target`, as
    /// `complete -p` prints it.
    pub(crate) fn line(&self, target: &Target) -> String {
        let mut line = String::from("complete");
        for option in &self.options {
            line.push_str(" -o ");
            line.push_str(option.name());
        }
        for action in &self.actions {
            match action.entry() {
                (_, _, Some(letter)) => line.push_str(&format!(" -{letter}")),
                (_, name, None) => line.push_str(&format!(" -A {name}")),
            }
        }
        let quoted = [
            ("-G", &self.glob),
            ("-W", &self.words),
            ("-P", &self.prefix),
            ("-S", &self.suffix),
            ("-X", &self.filter),
            ("-C", &self.command),
        ];
        for (flag, value) in quoted {
            if let Some(value) = value {
                line.push_str(&format!(" {flag} {}", single_quoted(value)));
            }
        }
        if let Some(function) = &self.function {
            line.push_str(&format!(" -F {function}"));
        }
        match target {
            Target::Command(name) => {
                line.push(' ');
                line.push_str(name);
            }
            Target::Default => line.push_str(" -D"),
            Target::Empty => line.push_str(" -E"),
            Target::Initial => line.push_str(" -I"),
        }
        line
    }
}

/// `'text'` with each `'` written `'\''` (bash's quoting in listings).
fn single_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// What a spec completes: the arguments of a command, or (`-D`, `-E`,
/// `-I`) any command without one, an empty line, the command word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Command(String),
    Default,
    Empty,
    Initial,
}

/// The specs `complete` has recorded, in the order first recorded (bash
/// lists its hash table; a fixed order keeps listings reproducible).
#[derive(Clone, Debug, Default)]
pub(crate) struct Completions {
    specs: Vec<(Target, CompSpec)>,
}

impl Completions {
    /// Records `spec` for `target`, replacing the one it had.
    pub(crate) fn set(&mut self, target: Target, spec: CompSpec) {
        match self.specs.iter_mut().find(|(t, _)| *t == target) {
            Some(entry) => entry.1 = spec,
            None => self.specs.push((target, spec)),
        }
    }

    pub(crate) fn get(&self, target: &Target) -> Option<&CompSpec> {
        self.specs.iter().find(|(t, _)| t == target).map(|(_, s)| s)
    }

    pub(crate) fn get_mut(&mut self, target: &Target) -> Option<&mut CompSpec> {
        self.specs
            .iter_mut()
            .find(|(t, _)| t == target)
            .map(|(_, s)| s)
    }

    /// Forgets `target`'s spec; false when it had none.
    pub(crate) fn remove(&mut self, target: &Target) -> bool {
        let before = self.specs.len();
        self.specs.retain(|(t, _)| t != target);
        self.specs.len() != before
    }

    pub(crate) fn clear(&mut self) {
        self.specs.clear();
    }

    pub(crate) fn iter(&self) -> impl Iterator<Item = &(Target, CompSpec)> {
        self.specs.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_orders_options_letters_actions_and_arguments_as_bash() {
        let mut spec = CompSpec::default();
        spec.options.insert(CompOption::NoSpace);
        spec.options.insert(CompOption::Default);
        spec.actions.insert(Action::Signal);
        spec.actions.insert(Action::Function);
        spec.actions.insert(Action::Variable);
        spec.actions.insert(Action::Alias);
        spec.words = Some("it's here".to_string());
        spec.function = Some("_f".to_string());
        spec.filter = Some("!*.c".to_string());
        assert_eq!(
            spec.line(&Target::Command("git".to_string())),
            r"complete -o default -o nospace -a -v -A function -A signal -W 'it'\''s here' -X '!*.c' -F _f git"
        );
        assert_eq!(CompSpec::default().line(&Target::Default), "complete -D");
    }

    #[test]
    fn every_action_reads_back_by_name_and_letter() {
        for (action, name, letter) in ACTIONS {
            assert_eq!(Action::named(name), Some(*action));
            if let Some(letter) = letter {
                assert_eq!(Action::lettered(*letter), Some(*action));
                assert!(ACTION_LETTERS.contains(*letter));
            }
            assert!(GENERATION_ORDER.contains(action));
        }
        assert_eq!(GENERATION_ORDER.len(), ACTIONS.len());
    }

    #[test]
    fn replacing_a_spec_keeps_its_place() {
        let mut completions = Completions::default();
        let words = |w: &str| CompSpec {
            words: Some(w.to_string()),
            ..CompSpec::default()
        };
        completions.set(Target::Command("a".into()), words("1"));
        completions.set(Target::Command("b".into()), words("2"));
        completions.set(Target::Command("a".into()), words("3"));
        let order: Vec<_> = completions
            .iter()
            .map(|(t, s)| (t.clone(), s.words.clone()))
            .collect();
        assert_eq!(
            order,
            vec![
                (Target::Command("a".into()), Some("3".into())),
                (Target::Command("b".into()), Some("2".into()))
            ]
        );
        assert!(completions.remove(&Target::Command("a".into())));
        assert!(!completions.remove(&Target::Command("a".into())));
    }
}
