//! Reading an arithmetic expression into a tree: bash's precedence
//! levels, assignments and steps, subscripts kept as text and as an
//! expression, and integer literals in every base bash reads.

use super::ArithError;

#[derive(Clone, Debug)]
pub(super) enum Expr {
    Num(i64),
    Var(String, Option<Box<Subscript>>),
    Unary(&'static str, Box<Expr>),
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// A left-associative chain of one precedence level (`1+2-3`): kept
    /// flat, so a chain of a million terms is a loop, not a million nested
    /// nodes to recurse through (and to drop).
    Chain(Box<Expr>, Vec<(&'static str, Expr)>),
    /// `++x`, `--x` (pre) and `x++`, `x--` (post)
    Step {
        target: Box<Expr>,
        delta: i64,
        post: bool,
    },
    Assign(&'static str, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a, b, c`: each evaluated, the last is the value (flat, as a chain).
    Comma(Vec<Expr>),
}

/// `name[...]`: the text between the brackets (an associative array's
/// key) and that text as an expression (an indexed array's index; an
/// error only if the array turns out to be indexed).
#[derive(Clone, Debug)]
pub(super) struct Subscript {
    pub(super) text: String,
    pub(super) expr: Result<Expr, ArithError>,
}

pub(super) fn parse(text: &str) -> Result<Expr, ArithError> {
    let mut parser = ArithParser {
        chars: text.chars().collect(),
        pos: 0,
        text,
        nesting: 0,
        last_token: 0,
    };
    let expr = parser.comma()?;
    parser.skip_ws();
    if parser.pos < parser.chars.len() {
        return Err(parser.error("syntax error in expression", parser.rest()));
    }
    Ok(expr)
}

struct ArithParser<'a> {
    chars: Vec<char>,
    pos: usize,
    text: &'a str,
    /// Parentheses, subscripts and unary operators entered: bounded, as in
    /// bash, so the parser's recursion (and the tree's) stays shallow.
    nesting: usize,
    /// Where the most recently read token starts: bash names the text from
    /// there as the error token when the expression ends too early.
    last_token: usize,
}

/// bash's limit on expression recursion.
const MAX_EXPR_NESTING: usize = 1024;

const ASSIGN_OPS: &[&str] = &[
    "<<=", ">>=", "**=", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "=",
];

impl ArithParser<'_> {
    /// Parses `inner` one level deeper; refused past the limit.
    fn nested<T>(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Result<T, ArithError>,
    ) -> Result<T, ArithError> {
        if self.nesting >= MAX_EXPR_NESTING {
            return Err(self.error("expression recursion level exceeded", self.rest()));
        }
        self.nesting += 1;
        let result = inner(self);
        self.nesting -= 1;
        result
    }

    fn error(&self, message: &str, token: String) -> ArithError {
        ArithError::Invalid {
            expr: self.text.trim_start().to_string(),
            message: message.to_string(),
            token,
        }
    }

    fn rest(&self) -> String {
        self.chars[self.pos.min(self.chars.len())..]
            .iter()
            .collect()
    }

    /// The error token: the rest of the text, or at its end the last token
    /// read (`1 +` names `+`), as bash reports it.
    fn error_token(&mut self) -> String {
        self.skip_ws();
        if self.pos < self.chars.len() {
            return self.rest();
        }
        self.chars[self.last_token.min(self.chars.len())..]
            .iter()
            .collect()
    }

    fn skip_ws(&mut self) {
        while self.chars.get(self.pos).is_some_and(|c| c.is_whitespace()) {
            self.pos += 1;
        }
    }

    fn peek_op(&mut self, op: &str) -> bool {
        self.skip_ws();
        op.chars()
            .enumerate()
            .all(|(i, c)| self.chars.get(self.pos + i) == Some(&c))
    }

    fn eat_op(&mut self, op: &str) -> bool {
        if self.peek_op(op) {
            self.last_token = self.pos;
            self.pos += op.chars().count();
            true
        } else {
            false
        }
    }

    fn comma(&mut self) -> Result<Expr, ArithError> {
        let first = self.assign()?;
        if !self.peek_op(",") {
            return Ok(first);
        }
        let mut items = vec![first];
        while self.eat_op(",") {
            items.push(self.assign()?);
        }
        Ok(Expr::Comma(items))
    }

    fn assign(&mut self) -> Result<Expr, ArithError> {
        let start = self.pos;
        let left = self.ternary()?;
        if matches!(left, Expr::Var(..)) {
            self.skip_ws();
            for op in ASSIGN_OPS {
                if self.peek_op(op) && !(*op == "=" && self.peek_op("==")) {
                    self.last_token = self.pos;
                    self.pos += op.len();
                    let right = self.assign()?;
                    return Ok(Expr::Assign(op, Box::new(left), Box::new(right)));
                }
            }
        } else {
            self.skip_ws();
            if ASSIGN_OPS.iter().any(|op| self.peek_op(op)) && !self.peek_op("==") {
                let _ = start;
                return Err(self.error("attempted assignment to non-variable", self.rest()));
            }
        }
        Ok(left)
    }

    fn ternary(&mut self) -> Result<Expr, ArithError> {
        let cond = self.binary(0)?;
        if self.eat_op("?") {
            let yes = self.comma_free()?;
            if !self.eat_op(":") {
                let token = self.error_token();
                return Err(self.error("`:' expected for conditional expression", token));
            }
            let no = self.comma_free()?;
            return Ok(Expr::Ternary(Box::new(cond), Box::new(yes), Box::new(no)));
        }
        Ok(cond)
    }

    fn comma_free(&mut self) -> Result<Expr, ArithError> {
        self.assign()
    }

    /// Binary operators by precedence level (loosest first).
    fn binary(&mut self, level: usize) -> Result<Expr, ArithError> {
        const LEVELS: &[&[&str]] = &[
            &["||"],
            &["&&"],
            &["|"],
            &["^"],
            &["&"],
            &["==", "!="],
            &["<=", ">=", "<", ">"],
            &["<<", ">>"],
            &["+", "-"],
            &["*", "/", "%"],
        ];
        if level == LEVELS.len() {
            return self.power();
        }
        let first = self.binary(level + 1)?;
        let mut rest = Vec::new();
        'outer: loop {
            for op in LEVELS[level] {
                if self.peek_op(op) && !self.is_longer_op(op) {
                    self.last_token = self.pos;
                    self.pos += op.len();
                    rest.push((*op, self.binary(level + 1)?));
                    continue 'outer;
                }
            }
            break;
        }
        Ok(if rest.is_empty() {
            first
        } else {
            Expr::Chain(Box::new(first), rest)
        })
    }

    /// `op` is really the start of a longer operator (`|` of `||`, `<` of
    /// `<<=`, `*` of `**`, an assignment).
    fn is_longer_op(&self, op: &str) -> bool {
        let next = self.chars.get(self.pos + op.len()).copied();
        match op {
            "|" => matches!(next, Some('|') | Some('=')),
            "&" => matches!(next, Some('&') | Some('=')),
            "<" => matches!(next, Some('<') | Some('=')),
            ">" => matches!(next, Some('>') | Some('=')),
            "<<" | ">>" => next == Some('='),
            "*" => matches!(next, Some('*') | Some('=')),
            "+" | "-" | "/" | "%" | "^" => next == Some('='),
            _ => false,
        }
    }

    fn power(&mut self) -> Result<Expr, ArithError> {
        let base = self.unary()?;
        if self.peek_op("**") && self.chars.get(self.pos + 2) != Some(&'=') {
            self.last_token = self.pos;
            self.pos += 2;
            let exponent = self.power()?;
            return Ok(Expr::Binary("**", Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    fn unary(&mut self) -> Result<Expr, ArithError> {
        self.skip_ws();
        if self.eat_op("++") {
            let target = self.nested(Self::unary)?;
            return Ok(Expr::Step {
                target: Box::new(target),
                delta: 1,
                post: false,
            });
        }
        if self.eat_op("--") {
            let target = self.nested(Self::unary)?;
            return Ok(Expr::Step {
                target: Box::new(target),
                delta: -1,
                post: false,
            });
        }
        for op in ["-", "+", "!", "~"] {
            if self.peek_op(op) {
                self.pos += 1;
                let operand = self.nested(Self::unary)?;
                return Ok(Expr::Unary(op, Box::new(operand)));
            }
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, ArithError> {
        let operand = self.primary()?;
        if matches!(operand, Expr::Var(..)) {
            if self.eat_op("++") {
                return Ok(Expr::Step {
                    target: Box::new(operand),
                    delta: 1,
                    post: true,
                });
            }
            if self.eat_op("--") {
                return Ok(Expr::Step {
                    target: Box::new(operand),
                    delta: -1,
                    post: true,
                });
            }
        }
        Ok(operand)
    }

    fn primary(&mut self) -> Result<Expr, ArithError> {
        self.skip_ws();
        let Some(&c) = self.chars.get(self.pos) else {
            let token = self.error_token();
            return Err(self.error("syntax error: operand expected", token));
        };
        if c == '(' {
            self.pos += 1;
            let inner = self.nested(Self::comma)?;
            if !self.eat_op(")") {
                return Err(self.error("missing `)'", self.rest()));
            }
            return Ok(inner);
        }
        self.last_token = self.pos;
        if c.is_ascii_digit() {
            return self.number();
        }
        if c == '_' || c.is_ascii_alphabetic() {
            let mut name = String::new();
            while let Some(&c) = self
                .chars
                .get(self.pos)
                .filter(|c| **c == '_' || c.is_ascii_alphanumeric())
            {
                name.push(c);
                self.pos += 1;
            }
            let mut index = None;
            if self.chars.get(self.pos) == Some(&'[') {
                index = Some(Box::new(self.subscript()?));
            }
            return Ok(Expr::Var(name, index));
        }
        Err(self.error("syntax error: operand expected", self.rest()))
    }

    /// At `[`: the subscript up to its `]`. Text that is no expression
    /// is kept with its error (it may be an associative array's key);
    /// without a matching `]` it is an error here.
    fn subscript(&mut self) -> Result<Subscript, ArithError> {
        self.pos += 1;
        let start = self.pos;
        let parsed = self
            .nested(Self::comma)
            .and_then(|expr| match self.eat_op("]") {
                true => Ok(expr),
                false => Err(self.error("missing `]'", self.rest())),
            });
        let end = match &parsed {
            Ok(_) => self.pos - 1,
            Err(error) => {
                let mut depth = 0usize;
                let close = (start..self.chars.len()).find(|&i| match self.chars[i] {
                    '[' => {
                        depth += 1;
                        false
                    }
                    ']' if depth == 0 => true,
                    ']' => {
                        depth -= 1;
                        false
                    }
                    _ => false,
                });
                let Some(close) = close else {
                    return Err(error.clone());
                };
                self.pos = close + 1;
                close
            }
        };
        Ok(Subscript {
            text: self.chars[start..end].iter().collect(),
            expr: parsed,
        })
    }

    fn number(&mut self) -> Result<Expr, ArithError> {
        let start = self.pos;
        let mut text = String::new();
        while let Some(&c) = self
            .chars
            .get(self.pos)
            .filter(|c| c.is_ascii_alphanumeric() || **c == '#' || **c == '_' || **c == '@')
        {
            text.push(c);
            self.pos += 1;
        }
        parse_number(&text).map(Expr::Num).ok_or_else(|| {
            let token: String = self.chars[start..].iter().collect();
            self.error(number_error(&text), token)
        })
    }
}

fn number_error(text: &str) -> &'static str {
    if text.contains('#') {
        "invalid number"
    } else {
        "value too great for base"
    }
}

/// Parses an integer literal: decimal, `0x..`, octal `0..`, `base#digits`.
pub fn parse_number(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Some((base, digits)) = text.split_once('#') {
        // A base written with a leading 0 (`02#1`) reads as octal or hex
        // in bash, and then `#` is an invalid number.
        if base.starts_with('0') {
            return None;
        }
        let base: u32 = base.parse().ok()?;
        if !(2..=64).contains(&base) || digits.is_empty() {
            return None;
        }
        let mut value: i64 = 0;
        for c in digits.chars() {
            let digit = match c {
                '0'..='9' => c as u32 - '0' as u32,
                'a'..='z' => c as u32 - 'a' as u32 + 10,
                'A'..='Z' if base <= 36 => c as u32 - 'A' as u32 + 10,
                'A'..='Z' => c as u32 - 'A' as u32 + 36,
                '@' => 62,
                '_' => 63,
                _ => return None,
            };
            if digit >= base {
                return None;
            }
            value = value.wrapping_mul(base as i64).wrapping_add(digit as i64);
        }
        return Some(value);
    }
    if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        return u64::from_str_radix(hex, 16).ok().map(|v| v as i64);
    }
    if text.len() > 1 && text.starts_with('0') {
        return u64::from_str_radix(&text[1..], 8).ok().map(|v| v as i64);
    }
    if text.chars().all(|c| c.is_ascii_digit()) && !text.is_empty() {
        return Some(text.parse::<u64>().map(|v| v as i64).unwrap_or_else(|_| {
            text.bytes().fold(0i64, |acc, b| {
                acc.wrapping_mul(10).wrapping_add((b - b'0') as i64)
            })
        }));
    }
    None
}
