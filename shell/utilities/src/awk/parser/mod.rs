//! The awk grammar: the syntax tree, rules, functions and statements
//! (print redirections included); expressions are in `expr.rs`.

use std::collections::HashMap;

mod expr;

use super::lexer::Token;

#[derive(Clone, Debug)]
pub enum Expr {
    Num(f64),
    Str(String),
    /// `/re/` as an expression: `$0 ~ /re/`.
    Regex(String),
    Var(String),
    Field(Box<Expr>),
    Index(String, Vec<Expr>),
    Assign {
        op: Option<&'static str>,
        target: Box<Expr>,
        value: Box<Expr>,
    },
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    Neg(Box<Expr>),
    Plus(Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Compare(&'static str, Box<Expr>, Box<Expr>),
    Concat(Box<Expr>, Box<Expr>),
    Match {
        negate: bool,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    In(Vec<Expr>, String),
    Incr {
        target: Box<Expr>,
        delta: f64,
        post: bool,
    },
    Call(String, Vec<Expr>),
    Builtin(String, Vec<Expr>),
    Getline {
        source: GetlineSource,
        target: Option<Box<Expr>>,
    },
    Group(Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum GetlineSource {
    Main,
    File(Box<Expr>),
    Command(Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum Dest {
    File(Expr),
    Append(Expr),
    Pipe(Expr),
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Print {
        args: Vec<Expr>,
        dest: Option<Dest>,
    },
    Printf {
        args: Vec<Expr>,
        dest: Option<Dest>,
    },
    Expr(Expr),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(
        Option<Box<Stmt>>,
        Option<Expr>,
        Option<Box<Stmt>>,
        Box<Stmt>,
    ),
    ForIn(String, String, Box<Stmt>),
    Block(Vec<Stmt>),
    Next,
    NextFile,
    Exit(Option<Expr>),
    Return(Option<Expr>),
    Break,
    Continue,
    Delete(String, Option<Vec<Expr>>),
    /// The statements after it start on this source line (a fatal error
    /// names it).
    Line(u32),
}

#[derive(Clone, Debug)]
pub enum Pattern {
    All,
    Expr(Expr),
    Range(Expr, Expr),
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub pattern: Pattern,
    pub action: Option<Vec<Stmt>>,
    /// The line its pattern is on.
    pub line: u32,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub params: Vec<String>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub begin: Vec<Vec<Stmt>>,
    pub end: Vec<Vec<Stmt>>,
    /// gawk's `BEGINFILE` and `ENDFILE`: before each input file's first
    /// record, after its last.
    pub begin_file: Vec<Vec<Stmt>>,
    pub end_file: Vec<Vec<Stmt>>,
    pub rules: Vec<Rule>,
    pub functions: HashMap<String, Function>,
}

pub struct Parser {
    tokens: Vec<Token>,
    /// The source line each token starts on.
    lines: Vec<u32>,
    /// The index of each token's first character.
    starts: Vec<usize>,
    /// Where a comment began that ran to the end of the program.
    comment_at_end: Option<usize>,
    /// Where each comment began.
    comments: Vec<usize>,
    /// The newlines that stand for the ends of `-f` files that had none.
    open_ends: Vec<OpenEnd>,
    pos: usize,
    /// Inside `print` arguments: an unparenthesized `>` is a redirection.
    no_gt: bool,
    /// Inside `for (... in ...)` heads and the like: `in` is not an operator.
    no_in: bool,
    /// Depth of the tree being built: nested constructs and links of
    /// operator chains (`1+1+...` is a left-deep tree). Bounded, so that
    /// running and dropping the program can never exhaust the stack.
    depth: usize,
}

/// The deepest expression or statement tree awk builds.
pub const MAX_TREE_DEPTH: usize = 2_000;

/// The links an operator chain added to the parser's depth, given back
/// when the chain ends.
#[derive(Default)]
pub(super) struct Links(usize);

impl Links {
    /// One more link: the tree is one level deeper.
    pub(super) fn add(&mut self, parser: &mut Parser) -> PResult<()> {
        self.0 += 1;
        parser.deeper()
    }

    /// The chain ended.
    pub(super) fn release(self, parser: &mut Parser) {
        parser.depth -= self.0;
    }
}

type PResult<T> = Result<T, ParseError>;

/// Why the program cannot be read, and the source line where that was
/// found.
#[derive(Debug)]
pub struct ParseError {
    pub line: u32,
    pub message: String,
    /// For a syntax error, the index of the character gawk points its
    /// caret at: the token where the program stopped making sense.
    pub caret: Option<usize>,
    /// The program ended, in a comment, inside a rule: gawk shows
    /// `(END OF FILE)` in place of the line.
    pub end_of_file: bool,
    /// The line to name is the one after the caret's (gawk counts the
    /// newline that a file's end stands for before it reports).
    pub next_line: bool,
}

/// Where a `-f` file without a final newline ends in the program as read
/// (the newline put there), and whether its last character is a blank.
#[derive(Clone, Copy, Debug)]
pub struct OpenEnd {
    pub at: usize,
    pub blank_before: bool,
}

/// gawk's words for a program that ends inside a rule.
const INCOMPLETE: &str =
    "source files / command-line arguments must contain complete functions or rules";

impl Parser {
    /// One level deeper; refused past [`MAX_TREE_DEPTH`].
    pub(super) fn deeper(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_TREE_DEPTH {
            return Err(self.error(format!(
                "syntax error: nested too deeply (more than {MAX_TREE_DEPTH} levels)"
            )));
        }
        Ok(())
    }

    /// Parses `inner` one level deeper.
    pub(super) fn nested<T>(&mut self, inner: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.deeper()?;
        let result = inner(self);
        self.depth -= 1;
        result
    }

    pub fn new(lexed: super::lexer::Lexed) -> Self {
        let super::lexer::Lexed {
            tokens,
            lines,
            starts,
            comment_at_end,
            comments,
        } = lexed;
        Parser {
            tokens,
            lines,
            starts,
            comment_at_end,
            comments,
            open_ends: Vec::new(),
            pos: 0,
            no_gt: false,
            no_in: false,
            depth: 0,
        }
    }

    /// Tells where `-f` files without a final newline end ([`OpenEnd`]).
    pub fn with_open_ends(mut self, open_ends: Vec<OpenEnd>) -> Self {
        self.open_ends = open_ends;
        self
    }

    /// The source line of the next token.
    fn line(&self) -> u32 {
        self.lines
            .get(self.pos)
            .or(self.lines.last())
            .copied()
            .unwrap_or(1)
    }

    fn peek(&self) -> &Token {
        self.tokens.get(self.pos).unwrap_or(&Token::Eof)
    }

    fn peek_at(&self, offset: usize) -> &Token {
        self.tokens.get(self.pos + offset).unwrap_or(&Token::Eof)
    }

    fn advance(&mut self) -> Token {
        let token = self.peek().clone();
        self.pos += 1;
        token
    }

    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Token::Op(o) if *o == op)
    }

    fn is_keyword(&self, word: &str) -> bool {
        matches!(self.peek(), Token::Keyword(k) if *k == word)
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if self.is_op(op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_op(&mut self, op: &str) -> PResult<()> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err(self.syntax_error())
        }
    }

    /// An error found at the next token.
    fn error(&self, message: String) -> ParseError {
        ParseError {
            line: self.line(),
            message,
            caret: None,
            end_of_file: false,
            next_line: false,
        }
    }

    /// gawk's words for a token the grammar does not allow here.
    fn syntax_error(&self) -> ParseError {
        if let Some(report) = self.at_open_end() {
            return report;
        }
        if let (Token::Eof, Some(comment)) = (self.peek(), self.comment_at_end) {
            return ParseError {
                caret: Some(comment),
                end_of_file: true,
                ..self.error(INCOMPLETE.to_string())
            };
        }
        // A newline that ends a comment: gawk stops at the comment, calls
        // it a syntax error, and names the line after it (it has read the
        // newline).
        if let Some(comment) = self.comment_ending_here() {
            return ParseError {
                caret: Some(comment),
                next_line: true,
                ..self.error("syntax error".to_string())
            };
        }
        let message = match self.peek() {
            Token::Eof | Token::Newline => "unexpected newline or end of string",
            _ => "syntax error",
        };
        ParseError {
            caret: self.starts.get(self.pos).or(self.starts.last()).copied(),
            ..self.error(message.to_string())
        }
    }

    /// gawk's report when reading stopped at the end of a `-f` file that
    /// has no final newline (at the newline that stands for it, or at the
    /// program's end just after): `(END OF FILE)`, the caret under a
    /// comment that ran to the end, else under the file's last character
    /// when that is a blank, else under its last token; the line after
    /// that one when reading stopped at the newline.
    fn at_open_end(&self) -> Option<ParseError> {
        let here = self.starts.get(self.pos).copied()?;
        let at_newline = matches!(self.peek(), Token::Newline);
        let end = self.open_ends.iter().find(|end| match self.peek() {
            Token::Newline => end.at == here,
            Token::Eof => end.at + 1 == here,
            _ => false,
        })?;
        let last_token = || {
            (0..self.pos)
                .rev()
                .find(|index| self.starts[*index] < end.at && self.tokens[*index] != Token::Newline)
                .map(|index| self.starts[index])
        };
        let caret = self
            .comment_at_end
            .or_else(|| end.blank_before.then(|| end.at - 1))
            .or_else(last_token)?;
        Some(ParseError {
            caret: Some(caret),
            end_of_file: true,
            next_line: at_newline,
            ..self.error(INCOMPLETE.to_string())
        })
    }

    /// Where the comment began that the next token (a newline) ends.
    fn comment_ending_here(&self) -> Option<usize> {
        if !matches!(self.peek(), Token::Newline) {
            return None;
        }
        let newline = *self.starts.get(self.pos)?;
        let after = self
            .pos
            .checked_sub(1)
            .map_or(0, |before| self.starts[before] + 1);
        self.comments
            .iter()
            .copied()
            .find(|comment| (after..newline).contains(comment))
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Token::Newline) {
            self.pos += 1;
        }
    }

    fn skip_terminators(&mut self) {
        while matches!(self.peek(), Token::Newline) || self.is_op(";") {
            self.pos += 1;
        }
    }

    pub fn program(mut self) -> PResult<Program> {
        let mut program = Program::default();
        loop {
            self.skip_terminators();
            match self.peek().clone() {
                Token::Eof => return Ok(program),
                Token::Keyword(special @ ("BEGIN" | "END" | "BEGINFILE" | "ENDFILE")) => {
                    self.pos += 1;
                    self.skip_newlines();
                    let block = self.block()?;
                    match special {
                        "BEGIN" => program.begin.push(block),
                        "END" => program.end.push(block),
                        "BEGINFILE" => program.begin_file.push(block),
                        _ => program.end_file.push(block),
                    }
                }
                Token::Keyword("function") | Token::Keyword("func") => {
                    self.pos += 1;
                    // A token out of place is reported where it stands.
                    let name = match self.peek().clone() {
                        Token::FuncName(name) | Token::Name(name) => name,
                        _ => return Err(self.syntax_error()),
                    };
                    self.pos += 1;
                    self.expect_op("(")?;
                    let mut params = Vec::new();
                    while !self.is_op(")") {
                        match self.peek().clone() {
                            Token::Name(param) => params.push(param),
                            _ => return Err(self.syntax_error()),
                        }
                        self.pos += 1;
                        self.skip_newlines();
                        if !self.eat_op(",") {
                            break;
                        }
                        self.skip_newlines();
                    }
                    self.expect_op(")")?;
                    self.skip_newlines();
                    let body = self.block()?;
                    program.functions.insert(name, Function { params, body });
                }
                _ => {
                    let line = self.line();
                    let pattern = if self.is_op("{") {
                        Pattern::All
                    } else {
                        let first = self.expr()?;
                        if self.eat_op(",") {
                            self.skip_newlines();
                            Pattern::Range(first, self.expr()?)
                        } else {
                            Pattern::Expr(first)
                        }
                    };
                    let action = if self.is_op("{") {
                        Some(self.block()?)
                    } else {
                        None
                    };
                    program.rules.push(Rule {
                        pattern,
                        action,
                        line,
                    });
                }
            }
        }
    }

    fn block(&mut self) -> PResult<Vec<Stmt>> {
        self.expect_op("{")?;
        let mut statements = Vec::new();
        let mut marked = None;
        loop {
            self.skip_terminators();
            if self.eat_op("}") {
                return Ok(statements);
            }
            if matches!(self.peek(), Token::Eof) {
                return Err(self.syntax_error());
            }
            let line = self.line();
            if marked != Some(line) {
                statements.push(Stmt::Line(line));
                marked = Some(line);
            }
            statements.push(self.statement()?);
        }
    }

    /// A statement's end: `;`, newline, or before `}`.
    fn end_simple(&mut self) -> PResult<()> {
        if self.eat_op(";") || matches!(self.peek(), Token::Newline) {
            self.skip_newlines();
            return Ok(());
        }
        if self.is_op("}") || matches!(self.peek(), Token::Eof) {
            return Ok(());
        }
        Err(self.syntax_error())
    }

    fn body(&mut self) -> PResult<Stmt> {
        self.skip_newlines();
        if self.eat_op(";") {
            return Ok(Stmt::Block(Vec::new()));
        }
        let line = self.line();
        let statement = self.statement()?;
        Ok(match statement {
            Stmt::Block(_) => statement,
            single => Stmt::Block(vec![Stmt::Line(line), single]),
        })
    }

    fn statement(&mut self) -> PResult<Stmt> {
        self.nested(Self::statement_inside)
    }

    fn statement_inside(&mut self) -> PResult<Stmt> {
        if self.is_op("{") {
            return Ok(Stmt::Block(self.block()?));
        }
        match self.peek().clone() {
            Token::Keyword("if") => {
                self.pos += 1;
                self.expect_op("(")?;
                let cond = self.expr()?;
                self.expect_op(")")?;
                let then = self.body()?;
                let save = self.pos;
                self.skip_terminators();
                if self.is_keyword("else") {
                    self.pos += 1;
                    let otherwise = self.body()?;
                    return Ok(Stmt::If(cond, Box::new(then), Some(Box::new(otherwise))));
                }
                self.pos = save;
                Ok(Stmt::If(cond, Box::new(then), None))
            }
            Token::Keyword("while") => {
                self.pos += 1;
                self.expect_op("(")?;
                let cond = self.expr()?;
                self.expect_op(")")?;
                if self.eat_op(";") {
                    return Ok(Stmt::While(cond, Box::new(Stmt::Block(Vec::new()))));
                }
                Ok(Stmt::While(cond, Box::new(self.body()?)))
            }
            Token::Keyword("do") => {
                self.pos += 1;
                let body = self.body()?;
                self.skip_terminators();
                if !self.is_keyword("while") {
                    return Err(self.syntax_error());
                }
                self.pos += 1;
                self.expect_op("(")?;
                let cond = self.expr()?;
                self.expect_op(")")?;
                self.end_simple()?;
                Ok(Stmt::DoWhile(Box::new(body), cond))
            }
            Token::Keyword("for") => {
                self.pos += 1;
                self.expect_op("(")?;
                if let (
                    Token::Name(var),
                    Token::Keyword("in"),
                    Token::Name(array),
                    Token::Op(")"),
                ) = (
                    self.peek().clone(),
                    self.peek_at(1).clone(),
                    self.peek_at(2).clone(),
                    self.peek_at(3).clone(),
                ) {
                    self.pos += 4;
                    return Ok(Stmt::ForIn(var, array, Box::new(self.body()?)));
                }
                if let (
                    Token::Op("("),
                    Token::Name(var),
                    Token::Keyword("in"),
                    Token::Name(array),
                    Token::Op(")"),
                    Token::Op(")"),
                ) = (
                    self.peek().clone(),
                    self.peek_at(1).clone(),
                    self.peek_at(2).clone(),
                    self.peek_at(3).clone(),
                    self.peek_at(4).clone(),
                    self.peek_at(5).clone(),
                ) {
                    self.pos += 6;
                    return Ok(Stmt::ForIn(var, array, Box::new(self.body()?)));
                }
                let init = if self.is_op(";") {
                    None
                } else {
                    Some(Box::new(self.simple_statement()?))
                };
                self.expect_op(";")?;
                self.skip_newlines();
                let cond = if self.is_op(";") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect_op(";")?;
                self.skip_newlines();
                let step = if self.is_op(")") {
                    None
                } else {
                    Some(Box::new(self.simple_statement()?))
                };
                self.expect_op(")")?;
                if self.eat_op(";") {
                    return Ok(Stmt::For(
                        init,
                        cond,
                        step,
                        Box::new(Stmt::Block(Vec::new())),
                    ));
                }
                Ok(Stmt::For(init, cond, step, Box::new(self.body()?)))
            }
            Token::Op(";") => {
                self.pos += 1;
                Ok(Stmt::Block(Vec::new()))
            }
            _ => {
                let statement = self.simple_statement()?;
                self.end_simple()?;
                Ok(statement)
            }
        }
    }

    fn simple_statement(&mut self) -> PResult<Stmt> {
        match self.peek().clone() {
            Token::Keyword("print") | Token::Keyword("printf") => {
                let printf = self.is_keyword("printf");
                self.pos += 1;
                let args = self.print_args()?;
                let dest = if self.eat_op(">") {
                    Some(Dest::File(self.concat_no_gt()?))
                } else if self.eat_op(">>") {
                    Some(Dest::Append(self.concat_no_gt()?))
                } else if self.eat_op("|") {
                    Some(Dest::Pipe(self.concat_no_gt()?))
                } else {
                    None
                };
                Ok(if printf {
                    Stmt::Printf { args, dest }
                } else {
                    Stmt::Print { args, dest }
                })
            }
            Token::Keyword("next") => {
                self.pos += 1;
                Ok(Stmt::Next)
            }
            Token::Keyword("nextfile") => {
                self.pos += 1;
                Ok(Stmt::NextFile)
            }
            Token::Keyword("break") => {
                self.pos += 1;
                Ok(Stmt::Break)
            }
            Token::Keyword("continue") => {
                self.pos += 1;
                Ok(Stmt::Continue)
            }
            Token::Keyword("exit") | Token::Keyword("return") => {
                let exit = self.is_keyword("exit");
                self.pos += 1;
                let value = if self.is_op(";")
                    || self.is_op("}")
                    || matches!(self.peek(), Token::Newline | Token::Eof)
                {
                    None
                } else {
                    Some(self.expr()?)
                };
                Ok(if exit {
                    Stmt::Exit(value)
                } else {
                    Stmt::Return(value)
                })
            }
            Token::Keyword("delete") => {
                self.pos += 1;
                let name = match self.advance() {
                    Token::Name(name) => name,
                    _ => return Err(self.syntax_error()),
                };
                if self.eat_op("[") {
                    let subscripts = self.expr_list()?;
                    self.expect_op("]")?;
                    return Ok(Stmt::Delete(name, Some(subscripts)));
                }
                Ok(Stmt::Delete(name, None))
            }
            _ => Ok(Stmt::Expr(self.expr()?)),
        }
    }

    fn print_args(&mut self) -> PResult<Vec<Expr>> {
        if self.is_op(";")
            || self.is_op("}")
            || self.is_op(">")
            || self.is_op(">>")
            || self.is_op("|")
            || matches!(self.peek(), Token::Newline | Token::Eof)
        {
            return Ok(Vec::new());
        }
        // `print (a, b) > "f"`: a parenthesized list.
        if self.is_op("(") {
            let save = self.pos;
            self.pos += 1;
            if let Ok(list) = self.expr_list()
                && self.eat_op(")")
                && (self.is_op(";")
                    || self.is_op("}")
                    || self.is_op(">")
                    || self.is_op(">>")
                    || self.is_op("|")
                    || matches!(self.peek(), Token::Newline | Token::Eof))
            {
                return Ok(list);
            }
            self.pos = save;
        }
        let saved = self.no_gt;
        self.no_gt = true;
        let result = self.expr_list();
        self.no_gt = saved;
        result
    }

    fn expr_list(&mut self) -> PResult<Vec<Expr>> {
        let mut list = vec![self.expr()?];
        while self.eat_op(",") {
            self.skip_newlines();
            list.push(self.expr()?);
        }
        Ok(list)
    }
}
