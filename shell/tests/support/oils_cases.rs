//! Reading the Oils spec-test corpus (`tests/spec/oils-spec`): its case
//! format and what bash is expected to do in each case, by the rules its
//! README states (Oils' `sh_spec.py`): `####` starts a case; `## key:
//! value` lines are metadata, `## STDOUT:`/`## STDERR:` open a block that
//! `## END` (or the next metadata line or case) closes; a line whose first
//! non-blank character is `#` is a comment and is dropped everywhere;
//! blank lines are dropped between cases and kept inside a script (after
//! its first line) and inside blocks; `## SKIP` and other `##` lines are
//! ignored. For bash, a variant line (`OK`, `BUG`, `N-I`, `OK-2`, ...)
//! naming exactly `bash` replaces the default of its key; a case giving
//! bash two qualifiers has two acceptable outcomes.

#![allow(dead_code)]

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};

/// One acceptable outcome: the stdout values it must equal (none: not
/// checked) and the status.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub variant: Option<String>,
    pub stdout: Vec<Vec<u8>>,
    pub status: i32,
}

#[derive(Clone, Debug)]
pub struct Case {
    /// `<file-stem>::<index>::<name>`.
    pub id: String,
    pub file: String,
    pub script: String,
    pub legacy_tmp_dir: bool,
    /// What bash does (several when bash has two qualifiers).
    pub bash: Vec<Outcome>,
}

pub fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/spec/oils-spec")
}

pub fn bash_verified() -> HashSet<String> {
    let text = std::fs::read_to_string(corpus().join("bash-verified.txt")).expect("verified list");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

pub fn all_cases() -> Vec<Case> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus().join("cases"))
        .expect("the corpus")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".test.sh"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|path| {
            let bytes = std::fs::read(path).expect("a case file");
            let stem = path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .trim_end_matches(".test.sh")
                .to_string();
            parse_file(&stem, &String::from_utf8_lossy(&bytes))
        })
        .collect()
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    CaseBegin(String),
    /// (qualifier, shells, key, value)
    KeyValue(Option<String>, Option<String>, String, String),
    /// The opening line of a STDOUT/STDERR block.
    Block(Option<String>, Option<String>, String),
    End,
    Plain(String),
    Eof,
}

/// Blank lines are dropped outside scripts and blocks.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Outer,
    Raw,
}

struct Tokens<'a> {
    lines: Vec<&'a str>,
    next_line: usize,
    current: Token,
}

/// `## [QUALIFIER SHELLS ]KEY: VALUE`.
fn metadata(body: &str) -> Option<(Option<String>, Option<String>, String, String)> {
    let rest = body.strip_prefix("##")?;
    if !rest.starts_with(char::is_whitespace) {
        return None;
    }
    let rest = rest.trim_start();
    let mut words = rest.splitn(3, char::is_whitespace);
    let first = words.next()?;
    let is_qualifier = |w: &str| {
        w == "N-I"
            || ["OK", "BUG"].iter().any(|q| {
                w == *q
                    || w.strip_prefix(q)
                        .and_then(|r| r.strip_prefix('-'))
                        .is_some_and(|d| d.len() == 1 && d.chars().all(|c| c.is_ascii_digit()))
            })
    };
    let key_value = |text: &str| -> Option<(String, String)> {
        let colon = text.find(':')?;
        let key = &text[..colon];
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
        {
            return None;
        }
        Some((key.to_string(), text[colon + 1..].trim_start().to_string()))
    };
    if is_qualifier(first) {
        let after = rest[first.len()..].trim_start();
        let shells_end = after.find(char::is_whitespace)?;
        let shells = &after[..shells_end];
        if !shells
            .chars()
            .all(|c| c.is_alphanumeric() || "_+/.-".contains(c))
        {
            return None;
        }
        if let Some((key, value)) = key_value(after[shells_end..].trim_start()) {
            return Some((
                Some(first.to_string()),
                Some(shells.to_string()),
                key,
                value,
            ));
        }
    }
    let (key, value) = key_value(rest)?;
    Some((None, None, key, value))
}

impl<'a> Tokens<'a> {
    fn new(text: &'a str) -> Tokens<'a> {
        let mut tokens = Tokens {
            lines: text.split_inclusive('\n').collect(),
            next_line: 0,
            current: Token::Eof,
        };
        tokens.advance(Mode::Outer);
        tokens
    }

    fn classify(line: &str, mode: Mode) -> Option<Token> {
        let body = line.trim_end_matches('\n');
        if let Some(name) = line.strip_prefix("####") {
            return Some(Token::CaseBegin(name.trim().to_string()));
        }
        if body.starts_with("##")
            && body[2..].trim_start().starts_with("SKIP")
            && body[2..].starts_with(char::is_whitespace)
        {
            let after = &body[2..].trim_start()[4..];
            if after.is_empty() || !after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
                return None;
            }
        }
        if let Some((qualifier, shells, key, mut value)) = metadata(body) {
            if key == "END" && qualifier.is_none() {
                return Some(Token::End);
            }
            if key == "stdout" || key == "stderr" {
                value.push('\n');
            }
            if key == "STDOUT" || key == "STDERR" {
                return Some(Token::Block(qualifier, shells, key.to_lowercase()));
            }
            return Some(Token::KeyValue(qualifier, shells, key, value));
        }
        if body.starts_with("##")
            && body[2..].starts_with(char::is_whitespace)
            && body[2..].trim_start().starts_with("END")
        {
            return Some(Token::End);
        }
        if mode == Mode::Outer && line.trim().is_empty() {
            return None;
        }
        if line.starts_with("##") {
            return None;
        }
        if line.trim_start().starts_with('#') {
            return None;
        }
        Some(Token::Plain(line.to_string()))
    }

    fn advance(&mut self, mode: Mode) {
        loop {
            let Some(line) = self.lines.get(self.next_line) else {
                self.current = Token::Eof;
                return;
            };
            self.next_line += 1;
            if let Some(token) = Tokens::classify(line, mode) {
                self.current = token;
                return;
            }
        }
    }
}

/// Metadata values by key.
type Values = BTreeMap<String, String>;

/// A case's metadata as read: defaults and, per shell, qualified groups.
#[derive(Default)]
struct Metadata {
    default: Values,
    /// shell -> [(qualifier, its values)]
    by_shell: BTreeMap<String, Vec<(String, Values)>>,
}

impl Metadata {
    fn store(
        &mut self,
        qualifier: Option<String>,
        shells: Option<String>,
        key: String,
        value: String,
    ) {
        match (qualifier, shells) {
            (Some(qualifier), Some(shells)) => {
                for shell in shells.split('/') {
                    let groups = self.by_shell.entry(shell.to_string()).or_default();
                    match groups.iter_mut().find(|(q, _)| *q == qualifier) {
                        Some((_, values)) => {
                            values.insert(key.clone(), value.clone());
                        }
                        None => groups.push((
                            qualifier.clone(),
                            BTreeMap::from([(key.clone(), value.clone())]),
                        )),
                    }
                }
            }
            _ => {
                self.default.insert(key, value);
            }
        }
    }

    fn read(&mut self, tokens: &mut Tokens<'_>) {
        loop {
            match tokens.current.clone() {
                Token::Block(qualifier, shells, key) => {
                    let mut value = String::new();
                    loop {
                        tokens.advance(Mode::Raw);
                        match &tokens.current {
                            Token::Plain(line) => value.push_str(line),
                            _ => break,
                        }
                    }
                    self.store(qualifier, shells, key, value);
                    if tokens.current == Token::End {
                        tokens.advance(Mode::Outer);
                    }
                }
                Token::KeyValue(qualifier, shells, key, value) => {
                    self.store(qualifier, shells, key, value);
                    tokens.advance(Mode::Outer);
                }
                _ => return,
            }
        }
    }

    fn values(map: &BTreeMap<String, String>, key: &str) -> Vec<Vec<u8>> {
        let mut values = Vec::new();
        if let Some(value) = map.get(key) {
            values.push(value.as_bytes().to_vec());
        }
        if let Some(json) = map.get(&format!("{key}-json")) {
            let decoded: String = serde_json::from_str(json).expect("a JSON string");
            values.push(decoded.into_bytes());
        }
        values
    }

    fn outcomes(&self, shell: &str) -> Vec<Outcome> {
        let none = vec![(String::new(), BTreeMap::new())];
        let groups = self
            .by_shell
            .get(shell)
            .filter(|g| !g.is_empty())
            .unwrap_or(&none);
        groups
            .iter()
            .map(|(qualifier, values)| {
                let mut stdout = Metadata::values(values, "stdout");
                if stdout.is_empty() {
                    stdout = Metadata::values(&self.default, "stdout");
                }
                let status = values
                    .get("status")
                    .or_else(|| self.default.get("status"))
                    .map_or(0, |s| s.trim().parse().expect("a status"));
                Outcome {
                    variant: (!qualifier.is_empty()).then(|| qualifier.clone()),
                    stdout,
                    status,
                }
            })
            .collect()
    }
}

pub fn parse_file(stem: &str, text: &str) -> Vec<Case> {
    let mut tokens = Tokens::new(text);
    let mut header = BTreeMap::new();
    loop {
        match tokens.current.clone() {
            Token::CaseBegin(_) | Token::Eof => break,
            Token::KeyValue(None, None, key, value) => {
                header.insert(key, value);
            }
            _ => {}
        }
        tokens.advance(Mode::Outer);
    }
    let legacy_tmp_dir = header
        .get("legacy_tmp_dir")
        .is_some_and(|v| matches!(v.trim(), "yes" | "true" | "1"));
    let mut cases = Vec::new();
    let mut index = 0;
    loop {
        let name = match tokens.current.clone() {
            Token::Eof => break,
            Token::CaseBegin(name) => name,
            _ => {
                tokens.advance(Mode::Outer);
                continue;
            }
        };
        index += 1;
        tokens.advance(Mode::Outer);
        let mut metadata = Metadata::default();
        metadata.read(&mut tokens);
        let script = if let Some(code) = metadata.default.remove("code") {
            code
        } else {
            let mut script = String::new();
            while let Token::Plain(line) = &tokens.current {
                script.push_str(line);
                tokens.advance(Mode::Raw);
            }
            metadata.read(&mut tokens);
            script
        };
        cases.push(Case {
            id: format!("{stem}::{index}::{name}"),
            file: stem.to_string(),
            script,
            legacy_tmp_dir,
            bash: metadata.outcomes("bash"),
        });
    }
    cases
}
