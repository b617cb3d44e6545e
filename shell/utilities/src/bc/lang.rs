//! bc's language: a tokenizer and a recursive-descent parser into a small
//! syntax tree.

/// A syntax error, with what was found.
pub type ParseResult<T> = Result<T, String>;

#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    Number(String),
    Name(String),
    Str(String),
    Op(&'static str),
    Newline,
    Semicolon,
    End,
}

const OPERATORS: &[&str] = &[
    "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "==", "<=", ">=", "!=", "&&", "||", "+", "-",
    "*", "/", "%", "^", "=", "<", ">", "!", "(", ")", "{", "}", "[", "]", ",",
];

pub fn tokenize(source: &str) -> ParseResult<Vec<Token>> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' | '\r' => i += 1,
            '\\' if chars.get(i + 1) == Some(&'\n') => i += 2,
            '\n' => {
                tokens.push(Token::Newline);
                i += 1;
            }
            ';' => {
                tokens.push(Token::Semicolon);
                i += 1;
            }
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                let end = (i + 2..chars.len().saturating_sub(1))
                    .find(|&j| chars[j] == '*' && chars[j + 1] == '/')
                    .ok_or("unterminated comment")?;
                i = end + 2;
            }
            '"' => {
                let end = (i + 1..chars.len())
                    .find(|&j| chars[j] == '"')
                    .ok_or("unterminated string")?;
                tokens.push(Token::Str(chars[i + 1..end].iter().collect()));
                i = end + 1;
            }
            c if c.is_ascii_digit() || c.is_ascii_uppercase() || c == '.' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_ascii_digit()
                        || chars[i].is_ascii_uppercase()
                        || chars[i] == '.')
                {
                    i += 1;
                }
                tokens.push(Token::Number(chars[start..i].iter().collect()));
            }
            c if c.is_ascii_lowercase() || c == '_' => {
                let start = i;
                while i < chars.len()
                    && (chars[i].is_ascii_lowercase()
                        || chars[i].is_ascii_digit()
                        || chars[i] == '_')
                {
                    i += 1;
                }
                tokens.push(Token::Name(chars[start..i].iter().collect()));
            }
            _ => {
                let rest: String = chars[i..chars.len().min(i + 2)].iter().collect();
                let op = OPERATORS
                    .iter()
                    .find(|op| rest.starts_with(**op))
                    .ok_or_else(|| format!("illegal character: {c}"))?;
                tokens.push(Token::Op(op));
                i += op.len();
            }
        }
    }
    tokens.push(Token::End);
    Ok(tokens)
}

/// An assignable place: a variable or an array element.
#[derive(Clone, Debug)]
pub enum Place {
    Var(String),
    Element(String, Box<Expr>),
}

#[derive(Clone, Debug)]
pub enum Expr {
    Number(String),
    Place(Place),
    Assign(Place, Option<&'static str>, Box<Expr>),
    /// `++x` / `x++` (`prefix`, `delta`).
    Step(Place, bool, i64),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    Call(String, Vec<Expr>),
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Expr(Expr),
    Str(String),
    Print(Vec<Expr>, Vec<Option<String>>),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    For(Option<Expr>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    Quit,
    Define(Function),
    Empty,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub params: Vec<String>,
    pub locals: Vec<String>,
    pub body: Vec<Stmt>,
}

pub struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    /// Depth of the tree being built: nested constructs and links of
    /// operator chains (`1+1+...` is a left-deep tree). Bounded, so that
    /// evaluating and dropping the tree can never exhaust the stack.
    depth: usize,
}

/// The deepest expression or statement tree bc builds.
pub const MAX_TREE_DEPTH: usize = 2_000;

impl Parser {
    pub fn new(tokens: Vec<Token>) -> Self {
        Parser {
            tokens,
            pos: 0,
            depth: 0,
        }
    }

    /// One level deeper; refused past [`MAX_TREE_DEPTH`].
    fn deeper(&mut self) -> ParseResult<()> {
        self.depth += 1;
        if self.depth > MAX_TREE_DEPTH {
            return Err(format!(
                "expression nested too deeply (more than {MAX_TREE_DEPTH} levels)"
            ));
        }
        Ok(())
    }

    /// Parses `inner` one level deeper.
    fn nested<T>(&mut self, inner: impl FnOnce(&mut Self) -> ParseResult<T>) -> ParseResult<T> {
        self.deeper()?;
        let result = inner(self);
        self.depth -= 1;
        result
    }

    fn peek(&self) -> &Token {
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn next(&mut self) -> Token {
        let token = self.peek().clone();
        self.pos += 1;
        token
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Token::Op(o) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_op(&mut self, op: &str) -> ParseResult<()> {
        if self.eat_op(op) {
            Ok(())
        } else {
            Err(format!(
                "syntax error: expected `{op}`, found {:?}",
                self.peek()
            ))
        }
    }

    fn skip_newlines(&mut self) {
        while matches!(self.peek(), Token::Newline | Token::Semicolon) {
            self.pos += 1;
        }
    }

    /// The next top-level statement, `None` at the end.
    pub fn statement(&mut self) -> ParseResult<Option<Stmt>> {
        self.skip_newlines();
        if *self.peek() == Token::End {
            return Ok(None);
        }
        let stmt = self.stmt()?;
        match self.peek() {
            Token::Newline | Token::Semicolon | Token::End => {}
            Token::Op("}") => {}
            other => return Err(format!("syntax error near {other:?}")),
        }
        Ok(Some(stmt))
    }

    fn stmt(&mut self) -> ParseResult<Stmt> {
        self.nested(Self::stmt_inside)
    }

    fn stmt_inside(&mut self) -> ParseResult<Stmt> {
        match self.peek().clone() {
            Token::Str(text) => {
                self.pos += 1;
                Ok(Stmt::Str(text))
            }
            Token::Op("{") => {
                self.pos += 1;
                let mut body = Vec::new();
                loop {
                    self.skip_newlines();
                    if self.eat_op("}") {
                        return Ok(Stmt::Block(body));
                    }
                    if *self.peek() == Token::End {
                        return Err("syntax error: missing `}`".into());
                    }
                    body.push(self.stmt()?);
                }
            }
            Token::Semicolon | Token::Newline => Ok(Stmt::Empty),
            Token::Name(name) => match name.as_str() {
                "if" => {
                    self.pos += 1;
                    self.expect_op("(")?;
                    let cond = self.expr()?;
                    self.expect_op(")")?;
                    self.skip_newlines_once();
                    let then = Box::new(self.stmt()?);
                    let save = self.pos;
                    self.skip_newlines();
                    if matches!(self.peek(), Token::Name(n) if n == "else") {
                        self.pos += 1;
                        self.skip_newlines_once();
                        Ok(Stmt::If(cond, then, Some(Box::new(self.stmt()?))))
                    } else {
                        self.pos = save;
                        Ok(Stmt::If(cond, then, None))
                    }
                }
                "while" => {
                    self.pos += 1;
                    self.expect_op("(")?;
                    let cond = self.expr()?;
                    self.expect_op(")")?;
                    self.skip_newlines_once();
                    Ok(Stmt::While(cond, Box::new(self.stmt()?)))
                }
                "for" => {
                    self.pos += 1;
                    self.expect_op("(")?;
                    let init = self.optional_expr(&Token::Semicolon)?;
                    self.expect_token(&Token::Semicolon)?;
                    let cond = self.optional_expr(&Token::Semicolon)?;
                    self.expect_token(&Token::Semicolon)?;
                    let step = if *self.peek() == Token::Op(")") {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect_op(")")?;
                    self.skip_newlines_once();
                    Ok(Stmt::For(init, cond, step, Box::new(self.stmt()?)))
                }
                "break" => {
                    self.pos += 1;
                    Ok(Stmt::Break)
                }
                "continue" => {
                    self.pos += 1;
                    Ok(Stmt::Continue)
                }
                "quit" | "halt" => {
                    self.pos += 1;
                    Ok(Stmt::Quit)
                }
                "return" => {
                    self.pos += 1;
                    if matches!(
                        self.peek(),
                        Token::Newline | Token::Semicolon | Token::End | Token::Op("}")
                    ) {
                        return Ok(Stmt::Return(None));
                    }
                    Ok(Stmt::Return(Some(self.expr()?)))
                }
                "print" => {
                    self.pos += 1;
                    let mut exprs = Vec::new();
                    let mut strings = Vec::new();
                    loop {
                        match self.peek().clone() {
                            Token::Str(text) => {
                                self.pos += 1;
                                strings.push(Some(text));
                                exprs.push(Expr::Number("0".into()));
                            }
                            _ => {
                                strings.push(None);
                                exprs.push(self.expr()?);
                            }
                        }
                        if !self.eat_op(",") {
                            break;
                        }
                    }
                    Ok(Stmt::Print(exprs, strings))
                }
                "define" => self.define(),
                _ => Ok(Stmt::Expr(self.expr()?)),
            },
            _ => Ok(Stmt::Expr(self.expr()?)),
        }
    }

    fn skip_newlines_once(&mut self) {
        while *self.peek() == Token::Newline {
            self.pos += 1;
        }
    }

    fn expect_token(&mut self, token: &Token) -> ParseResult<()> {
        if self.peek() == token {
            self.pos += 1;
            Ok(())
        } else {
            Err(format!(
                "syntax error: expected {token:?}, found {:?}",
                self.peek()
            ))
        }
    }

    fn optional_expr(&mut self, end: &Token) -> ParseResult<Option<Expr>> {
        if self.peek() == end {
            Ok(None)
        } else {
            Ok(Some(self.expr()?))
        }
    }

    fn define(&mut self) -> ParseResult<Stmt> {
        self.pos += 1;
        let Token::Name(name) = self.next() else {
            return Err("syntax error: define needs a name".into());
        };
        self.expect_op("(")?;
        let mut params = Vec::new();
        while let Token::Name(param) = self.peek().clone() {
            self.pos += 1;
            if self.eat_op("[") {
                self.expect_op("]")?;
            }
            params.push(param);
            if !self.eat_op(",") {
                break;
            }
        }
        self.expect_op(")")?;
        self.skip_newlines_once();
        self.expect_op("{")?;
        let mut locals = Vec::new();
        let mut body = Vec::new();
        loop {
            self.skip_newlines();
            if self.eat_op("}") {
                break;
            }
            if *self.peek() == Token::End {
                return Err("syntax error: missing `}` in define".into());
            }
            if matches!(self.peek(), Token::Name(n) if n == "auto") {
                self.pos += 1;
                while let Token::Name(local) = self.peek().clone() {
                    self.pos += 1;
                    if self.eat_op("[") {
                        self.expect_op("]")?;
                    }
                    locals.push(local);
                    if !self.eat_op(",") {
                        break;
                    }
                }
                continue;
            }
            body.push(self.stmt()?);
        }
        Ok(Stmt::Define(Function {
            name,
            params,
            locals,
            body,
        }))
    }

    pub fn expr(&mut self) -> ParseResult<Expr> {
        self.assignment()
    }

    fn assignment(&mut self) -> ParseResult<Expr> {
        let start = self.pos;
        let left = self.or()?;
        let op = match self.peek() {
            Token::Op(op @ ("=" | "+=" | "-=" | "*=" | "/=" | "%=" | "^=")) => *op,
            _ => return Ok(left),
        };
        let Expr::Place(place) = left else {
            self.pos = start;
            return Err(format!("syntax error: cannot assign with `{op}` here"));
        };
        self.pos += 1;
        let value = self.nested(Self::assignment)?;
        let compound = (op != "=").then(|| static_operator(&op[..1]));
        Ok(Expr::Assign(place, compound, Box::new(value)))
    }

    fn or(&mut self) -> ParseResult<Expr> {
        self.left_associative(&["||"], Self::and)
    }

    fn and(&mut self) -> ParseResult<Expr> {
        self.left_associative(&["&&"], Self::not)
    }

    fn not(&mut self) -> ParseResult<Expr> {
        if self.eat_op("!") {
            return Ok(Expr::Not(Box::new(self.nested(Self::not)?)));
        }
        self.relation()
    }

    fn relation(&mut self) -> ParseResult<Expr> {
        let left = self.additive()?;
        for op in ["==", "!=", "<=", ">=", "<", ">"] {
            if self.eat_op(op) {
                return Ok(Expr::Binary(op, Box::new(left), Box::new(self.additive()?)));
            }
        }
        Ok(left)
    }

    fn additive(&mut self) -> ParseResult<Expr> {
        self.left_associative(&["+", "-"], Self::multiplicative)
    }

    fn multiplicative(&mut self) -> ParseResult<Expr> {
        self.left_associative(&["*", "/", "%"], Self::unary)
    }

    /// `operand (op operand)*` for one precedence level.
    fn left_associative(
        &mut self,
        ops: &[&'static str],
        operand: fn(&mut Self) -> ParseResult<Expr>,
    ) -> ParseResult<Expr> {
        let mut left = operand(self)?;
        let mut links = 0;
        let result = loop {
            let Some(op) = ops.iter().copied().find(|op| self.eat_op(op)) else {
                break Ok(left);
            };
            // Each link makes the tree one level deeper.
            if let Err(error) = self.deeper() {
                break Err(error);
            }
            links += 1;
            match operand(self) {
                Ok(right) => left = Expr::Binary(op, Box::new(left), Box::new(right)),
                Err(error) => break Err(error),
            }
        };
        self.depth -= links;
        result
    }

    fn unary(&mut self) -> ParseResult<Expr> {
        if self.eat_op("-") {
            return Ok(Expr::Neg(Box::new(self.nested(Self::unary)?)));
        }
        self.power()
    }

    /// `^` is right-associative and binds tighter than unary minus.
    fn power(&mut self) -> ParseResult<Expr> {
        let base = self.postfix()?;
        if self.eat_op("^") {
            let exponent = self.nested(Self::unary)?;
            return Ok(Expr::Binary("^", Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    fn postfix(&mut self) -> ParseResult<Expr> {
        for (op, delta) in [("++", 1), ("--", -1)] {
            if self.eat_op(op) {
                let place = self.place()?;
                return Ok(Expr::Step(place, true, delta));
            }
        }
        let primary = self.primary()?;
        if let Expr::Place(place) = &primary {
            for (op, delta) in [("++", 1), ("--", -1)] {
                if self.eat_op(op) {
                    return Ok(Expr::Step(place.clone(), false, delta));
                }
            }
        }
        Ok(primary)
    }

    fn place(&mut self) -> ParseResult<Place> {
        match self.primary()? {
            Expr::Place(place) => Ok(place),
            _ => Err("syntax error: `++`/`--` needs a variable".into()),
        }
    }

    fn primary(&mut self) -> ParseResult<Expr> {
        match self.next() {
            Token::Number(text) => Ok(Expr::Number(text)),
            Token::Op("(") => {
                let inner = self.nested(Self::expr)?;
                self.expect_op(")")?;
                Ok(inner)
            }
            Token::Name(name) => {
                if self.eat_op("(") {
                    let mut args = Vec::new();
                    if !self.eat_op(")") {
                        loop {
                            args.push(self.nested(Self::expr)?);
                            if self.eat_op(")") {
                                break;
                            }
                            self.expect_op(",")?;
                        }
                    }
                    return Ok(Expr::Call(name, args));
                }
                if self.eat_op("[") {
                    let index = self.nested(Self::expr)?;
                    self.expect_op("]")?;
                    return Ok(Expr::Place(Place::Element(name, Box::new(index))));
                }
                Ok(Expr::Place(Place::Var(name)))
            }
            Token::End => Err("syntax error: unexpected end of input".into()),
            other => Err(format!("syntax error near {other:?}")),
        }
    }
}

/// The `'static` spelling of an operator (they all come from
/// [`OPERATORS`]); nothing is leaked.
fn static_operator(op: &str) -> &'static str {
    OPERATORS.iter().find(|o| **o == op).copied().unwrap_or("?")
}
