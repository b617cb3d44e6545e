//! The shell's syntax tree.

use std::sync::Arc;

/// A sequence of and-or lists separated by `;`, `&` or newlines.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct List {
    pub items: Vec<ListItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ListItem {
    pub and_or: AndOr,
    /// Ended by `&` (run "in the background": goccia runs it to completion
    /// before going on, there is no real concurrency).
    pub background: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AndOrOp {
    And,
    Or,
}

#[derive(Clone, Debug, PartialEq)]
pub struct AndOr {
    pub first: Pipeline,
    pub rest: Vec<(AndOrOp, Pipeline)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Pipeline {
    pub negated: bool,
    pub timed: bool,
    pub commands: Vec<Command>,
    /// `|&` after command `i` (its stderr goes down the pipe too).
    pub pipe_stderr: Vec<bool>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Simple(SimpleCommand),
    Compound(Box<CompoundCommand>, Vec<Redirect>),
    FunctionDef(Arc<FunctionDef>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDef {
    pub name: String,
    pub body: Command,
    /// The line the definition starts on (`$LINENO` of the DEBUG trap
    /// as the function is entered under `set -T`).
    pub line: usize,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimpleCommand {
    /// `name=value` before the command name.
    pub assignments: Vec<Assignment>,
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    /// Arguments of declaration commands (`declare a=(1 2)`, `local x=$y`)
    /// that are assignments: the index of their (empty) slot in `words`.
    pub arg_assignments: Vec<(usize, Assignment)>,
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Assignment {
    pub name: String,
    /// `name[index]=...`: the index text, expanded at run time.
    pub index: Option<Word>,
    pub append: bool,
    pub value: AssignValue,
}

#[derive(Clone, Debug, PartialEq)]
pub enum AssignValue {
    Scalar(Word),
    /// `name=(a b [k]=v)`
    Array(Vec<ArrayElement>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ArrayElement {
    pub key: Option<Word>,
    pub value: Word,
    /// `[k]+=v`
    pub append: bool,
}

impl ArrayElement {
    /// The element as the one word it was written as (`[k]=v` keeps its
    /// subscript as text), for places where bash reads it as a word.
    pub fn as_word(&self) -> Word {
        let Some(key) = &self.key else {
            return self.value.clone();
        };
        let mut parts = vec![WordPart::Literal("[".to_string())];
        parts.extend(key.parts.iter().cloned());
        let equals = if self.append { "]+=" } else { "]=" };
        parts.push(WordPart::Literal(equals.to_string()));
        parts.extend(self.value.parts.iter().cloned());
        Word { parts }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum CompoundCommand {
    Brace(List),
    Subshell(List),
    If {
        branches: Vec<(List, List)>,
        otherwise: Option<List>,
    },
    For {
        var: String,
        words: Option<Vec<Word>>,
        body: List,
        line: usize,
    },
    ArithFor {
        init: Word,
        cond: Word,
        step: Word,
        body: List,
        /// The line of `for`, `$LINENO` in the three expressions.
        line: usize,
    },
    While {
        cond: List,
        body: List,
        until: bool,
    },
    Case {
        word: Word,
        arms: Vec<CaseArm>,
        /// The line of `case`, `$LINENO` in its word.
        line: usize,
    },
    Select {
        var: String,
        words: Option<Vec<Word>>,
        body: List,
    },
    /// `coproc [NAME] command`: goccia runs the command to completion and
    /// keeps its output readable through `${NAME[0]}` (default `COPROC`).
    Coproc {
        name: String,
        body: Command,
    },
    /// `(( expr ))`
    Arith(Word, usize),
    /// `[[ expr ]]`
    Cond(CondExpr, usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CaseTerminator {
    /// `;;`
    Break,
    /// `;&`
    FallThrough,
    /// `;;&`
    TestNext,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CaseArm {
    pub patterns: Vec<Word>,
    pub body: List,
    pub terminator: CaseTerminator,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CondExpr {
    Unary(String, Word),
    Binary(Word, String, Word),
    /// `word =~ regex`
    Regex(Word, Word),
    Word(Word),
    Not(Box<CondExpr>),
    And(Box<CondExpr>, Box<CondExpr>),
    Or(Box<CondExpr>, Box<CondExpr>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RedirectOp {
    /// `<`
    Read,
    /// `>`
    Write,
    /// `>|`
    Clobber,
    /// `>>`
    Append,
    /// `<>`
    ReadWrite,
    /// `<&`
    DupRead,
    /// `>&`
    DupWrite,
    /// `&>` (stdout and stderr)
    WriteBoth,
    /// `&>>`
    AppendBoth,
    /// `<<` / `<<-`
    HereDoc,
    /// `<<<`
    HereString,
}

#[derive(Clone, Debug, PartialEq)]
pub enum RedirectFd {
    Default,
    Number(i32),
    /// `{name}>file`: the shell picks a descriptor and stores it in `name`.
    Variable(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Redirect {
    pub fd: RedirectFd,
    pub op: RedirectOp,
    pub target: Word,
    /// The body of a here-document (expanded unless its delimiter was
    /// quoted).
    pub heredoc: Option<HereDoc>,
    /// The line of its operator: where a compound command's redirection
    /// that fails is reported, as bash reports it (`} > /x` on line 4 is
    /// `line 4`, whatever ran last).
    pub line: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct HereDoc {
    pub body: Word,
    pub expand: bool,
}

/// A shell word: parts concatenated, each with its own quoting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Word {
    pub parts: Vec<WordPart>,
}

impl Word {
    pub fn literal(text: &str) -> Self {
        Word {
            parts: vec![WordPart::Literal(text.to_string())],
        }
    }

    pub fn quoted(text: &str) -> Self {
        Word {
            parts: vec![WordPart::SingleQuoted(text.to_string())],
        }
    }

    /// The word's text when it has no expansions and no quotes.
    pub fn as_plain(&self) -> Option<String> {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                WordPart::Literal(text) => out.push_str(text),
                _ => return None,
            }
        }
        Some(out)
    }

    /// [`Word::as_plain`] without a copy, for a word of one literal part
    /// (what the parser compares command names against).
    pub fn as_plain_str(&self) -> Option<&str> {
        match self.parts.as_slice() {
            [WordPart::Literal(text)] => Some(text),
            _ => None,
        }
    }

    /// True when some part is quoted (`"..."`, `'...'`, `\x`, `$'...'`).
    pub fn has_quotes(&self) -> bool {
        self.parts.iter().any(|p| {
            matches!(
                p,
                WordPart::SingleQuoted(_) | WordPart::DoubleQuoted(_) | WordPart::Escaped(_)
            )
        })
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum WordPart {
    /// Unquoted text: split, globbed.
    Literal(String),
    /// `'...'` and `$'...'` (already decoded).
    SingleQuoted(String),
    /// `\c` outside quotes.
    Escaped(String),
    DoubleQuoted(Vec<WordPart>),
    Param(Box<ParamExpansion>),
    CommandSub(Arc<List>),
    ArithSub(Word),
    /// `~` or `~user` at the start of a word (or after `=`/`:` in
    /// assignments).
    Tilde(String),
    /// `<(list)` / `>(list)`
    ProcessSub {
        input: bool,
        list: Arc<List>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct ParamExpansion {
    pub name: String,
    /// `name[index]`: `@`, `*` or an expression.
    pub index: Option<Word>,
    /// `${!name...}`
    pub indirect: bool,
    /// `${#name}`
    pub length: bool,
    pub op: ParamOp,
    /// Written in braces (`${a}`), not bare (`$a`): brace expansion can
    /// make name characters follow a bare one, which then join its name
    /// as they would in the text bash expands (`{$a,b}_c` reads `$a_c`).
    pub braced: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplaceMode {
    First,
    All,
    Prefix,
    Suffix,
}

#[derive(Clone, Debug, PartialEq)]
pub enum ParamOp {
    None,
    /// Text bash cannot make sense of (`${%}`): an error when expanded,
    /// not when parsed, as in bash.
    Bad(String),
    /// `-`, `:-` (the operand shared: expanding it hands it on without a
    /// copy, so nested defaults cost linear time, not quadratic)
    Default {
        colon: bool,
        word: std::sync::Arc<Word>,
    },
    /// `=`, `:=`
    Assign {
        colon: bool,
        word: Word,
    },
    /// `?`, `:?`
    Error {
        colon: bool,
        word: Word,
    },
    /// `+`, `:+` (shared, as for `Default`)
    Alternate {
        colon: bool,
        word: std::sync::Arc<Word>,
    },
    /// `#`, `##`
    RemovePrefix {
        longest: bool,
        pattern: Word,
    },
    /// `%`, `%%`
    RemoveSuffix {
        longest: bool,
        pattern: Word,
    },
    /// `/`, `//`, `/#`, `/%`
    Replace {
        mode: ReplaceMode,
        pattern: Word,
        replacement: Word,
    },
    /// `:offset[:length]`
    Substring {
        offset: Word,
        length: Option<Word>,
    },
    /// `^`, `^^`, `,`, `,,`
    Case {
        upper: bool,
        all: bool,
        pattern: Word,
    },
    /// `@Q`, `@E`, ...
    Transform(char),
    /// `${!prefix*}`, `${!prefix@}`
    Names {
        at: bool,
    },
}
