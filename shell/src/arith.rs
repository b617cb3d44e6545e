//! Shell arithmetic (`$(( ))`, `(( ))`, `let`, array indices): 64-bit
//! integers with bash's operators and precedence. Expressions are parsed to
//! a tree first so that `&&`, `||` and `?:` skip the side effects of the
//! branch they do not take.

use thiserror::Error;

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ArithError {
    /// The expression does not parse or cannot be evaluated (`1 +`,
    /// `1/0`): bash reports it and abandons the command.
    #[error("{expr}: {message} (error token is \"{token}\")")]
    Invalid {
        expr: String,
        message: String,
        token: String,
    },
    /// `set -u` and the expression reads a variable that is not set: as
    /// fatal as `$name` would be.
    #[error("{0}: unbound variable")]
    Unbound(String),
}

/// How deep a variable's value may name another expression to evaluate
/// (`loop='i<=100&&(s+=i,i++,loop)'`): bash's limit, well inside the
/// native stack of a pipeline stage.
const MAX_RECURSION: usize = 1024;

/// `set -u` refuses to read an unset variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unbound;

/// An element of an array: a number for an indexed array, the
/// subscript's text for an associative one (`A[K]` is the key `K`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Index<'a> {
    Number(i64),
    Key(std::borrow::Cow<'a, str>),
}

/// Variables as arithmetic sees them.
pub trait ArithEnv {
    /// The text of `name` or `name[index]` (`None` when unset).
    fn get_var(&mut self, name: &str, index: Option<Index>) -> Result<Option<String>, Unbound>;
    fn set_var(&mut self, name: &str, index: Option<Index>, value: i64) -> Result<(), String>;
    /// Whether `name` is an associative array, whose subscripts are keys
    /// rather than expressions.
    fn is_assoc(&self, _name: &str) -> bool {
        false
    }
    /// A subscript's text with its expansions applied: a variable's
    /// value evaluated as arithmetic may hold `a[$i]`, which bash expands
    /// when it evaluates the subscript.
    fn expand_subscript(&mut self, text: &str) -> String {
        text.to_string()
    }
    /// Where parsed expressions are kept for the next evaluation, if
    /// anywhere.
    fn parsed(&self) -> Option<&Parsed> {
        None
    }
}

/// Expressions already parsed, by their text: a loop's `i < n`, `i++`
/// and `x + i % 7` are parsed once, not on every iteration. Bounded: past
/// [`Parsed::ENTRIES`] it starts over.
#[derive(Default)]
pub struct Parsed {
    trees: parking_lot::Mutex<std::collections::HashMap<Box<str>, std::sync::Arc<Expr>>>,
}

impl Parsed {
    /// Most expressions kept.
    const ENTRIES: usize = 512;
    /// Longest text kept (longer ones are rarely evaluated twice).
    const LONGEST: usize = 256;

    fn get(&self, text: &str) -> Option<std::sync::Arc<Expr>> {
        self.trees.lock().get(text).cloned()
    }

    fn keep(&self, text: &str, tree: std::sync::Arc<Expr>) {
        if text.len() > Self::LONGEST {
            return;
        }
        let mut trees = self.trees.lock();
        if trees.len() >= Self::ENTRIES {
            trees.clear();
        }
        trees.insert(text.into(), tree);
    }
}

#[derive(Clone, Debug)]
enum Expr {
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
struct Subscript {
    text: String,
    expr: Result<Expr, ArithError>,
}

/// Evaluates `text`; the empty expression is 0.
pub fn eval(text: &str, env: &mut dyn ArithEnv) -> Result<i64, ArithError> {
    eval_depth(text, env, 0)
}

fn eval_depth(text: &str, env: &mut dyn ArithEnv, depth: usize) -> Result<i64, ArithError> {
    if text.trim().is_empty() {
        return Ok(0);
    }
    let cached = env.parsed().and_then(|parsed| parsed.get(text));
    let expr = match cached {
        Some(expr) => expr,
        None => {
            let expr = std::sync::Arc::new(parse(text)?);
            if let Some(parsed) = env.parsed() {
                parsed.keep(text, expr.clone());
            }
            expr
        }
    };
    let mut evaluator = Evaluator { env, text, depth };
    evaluator.eval(&expr)
}

fn parse(text: &str) -> Result<Expr, ArithError> {
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

struct Evaluator<'a> {
    env: &'a mut dyn ArithEnv,
    text: &'a str,
    depth: usize,
}

impl Evaluator<'_> {
    fn error(&self, message: &str, token: &str) -> ArithError {
        ArithError::Invalid {
            expr: self.text.trim_start().to_string(),
            message: message.to_string(),
            token: token.to_string(),
        }
    }

    fn index<'s>(
        &mut self,
        name: &str,
        index: &'s Option<Box<Subscript>>,
    ) -> Result<Option<Index<'s>>, ArithError> {
        let Some(subscript) = index else {
            return Ok(None);
        };
        let expandable = subscript.text.contains(['$', '`']);
        if self.env.is_assoc(name) {
            if expandable {
                return Ok(Some(Index::Key(
                    self.env.expand_subscript(&subscript.text).into(),
                )));
            }
            // Single quotes stay in arithmetic text; a key drops them
            // (`A['k']` is the key `k`).
            let key = if subscript.text.contains('\'') {
                subscript.text.replace('\'', "").into()
            } else {
                subscript.text.as_str().into()
            };
            return Ok(Some(Index::Key(key)));
        }
        match &subscript.expr {
            Ok(expr) => Ok(Some(Index::Number(self.eval(expr)?))),
            Err(_) if expandable => {
                let text = self.env.expand_subscript(&subscript.text);
                Ok(Some(Index::Number(eval_depth(
                    &text,
                    self.env,
                    self.depth + 1,
                )?)))
            }
            // Evaluated on its own, the text fails with bash's message,
            // which names the subscript rather than the whole expression.
            Err(_) => Ok(Some(Index::Number(eval_depth(
                &subscript.text,
                self.env,
                self.depth + 1,
            )?))),
        }
    }

    fn read_var(&mut self, name: &str, index: Option<Index>) -> Result<i64, ArithError> {
        let text = self
            .env
            .get_var(name, index)
            .map_err(|Unbound| ArithError::Unbound(name.to_string()))?;
        let Some(text) = text else { return Ok(0) };
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(0);
        }
        if let Some(value) = parse_number(trimmed) {
            return Ok(value);
        }
        if self.depth > MAX_RECURSION {
            return Err(self.error("expression recursion level exceeded", trimmed));
        }
        eval_depth(trimmed, self.env, self.depth + 1)
    }

    fn eval(&mut self, expr: &Expr) -> Result<i64, ArithError> {
        Ok(match expr {
            Expr::Num(n) => *n,
            Expr::Var(name, index) => {
                let index = self.index(name, index)?;
                self.read_var(name, index)?
            }
            Expr::Unary(op, operand) => {
                let v = self.eval(operand)?;
                match *op {
                    "-" => v.wrapping_neg(),
                    "+" => v,
                    "!" => i64::from(v == 0),
                    _ => !v,
                }
            }
            Expr::Binary("&&", a, b) => i64::from(self.eval(a)? != 0 && self.eval(b)? != 0),
            Expr::Binary("||", a, b) => i64::from(self.eval(a)? != 0 || self.eval(b)? != 0),
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                self.binary(op, a, b)?
            }
            Expr::Chain(first, rest) => {
                let mut value = self.eval(first)?;
                for (op, operand) in rest {
                    value = match *op {
                        "&&" if value == 0 => 0,
                        "&&" => i64::from(self.eval(operand)? != 0),
                        "||" if value != 0 => 1,
                        "||" => i64::from(self.eval(operand)? != 0),
                        _ => {
                            let right = self.eval(operand)?;
                            self.binary(op, value, right)?
                        }
                    };
                }
                value
            }
            Expr::Ternary(cond, yes, no) => {
                if self.eval(cond)? != 0 {
                    self.eval(yes)?
                } else {
                    self.eval(no)?
                }
            }
            Expr::Comma(items) => {
                let mut value = 0;
                for item in items {
                    value = self.eval(item)?;
                }
                value
            }
            Expr::Step {
                target,
                delta,
                post,
            } => {
                let Expr::Var(name, index) = &**target else {
                    return Err(self.error("syntax error: operand expected", ""));
                };
                let index = self.index(name, index)?;
                let old = self.read_var(name, index.clone())?;
                let new = old.wrapping_add(*delta);
                self.env
                    .set_var(name, index, new)
                    .map_err(|m| self.error(&m, name))?;
                if *post { old } else { new }
            }
            Expr::Assign(op, target, value) => {
                let Expr::Var(name, index) = &**target else {
                    return Err(self.error("attempted assignment to non-variable", ""));
                };
                let index = self.index(name, index)?;
                let right = self.eval(value)?;
                let new = if *op == "=" {
                    right
                } else {
                    let old = self.read_var(name, index.clone())?;
                    self.binary(&op[..op.len() - 1], old, right)?
                };
                self.env
                    .set_var(name, index, new)
                    .map_err(|m| self.error(&m, name))?;
                new
            }
        })
    }

    fn binary(&self, op: &str, a: i64, b: i64) -> Result<i64, ArithError> {
        Ok(match op {
            "+" => a.wrapping_add(b),
            "-" => a.wrapping_sub(b),
            "*" => a.wrapping_mul(b),
            "/" | "%" => {
                if b == 0 {
                    return Err(self.error("division by 0", &b.to_string()));
                }
                if op == "/" {
                    a.wrapping_div(b)
                } else {
                    a.wrapping_rem(b)
                }
            }
            "**" => {
                if b < 0 {
                    return Err(self.error("exponent less than 0", &b.to_string()));
                }
                a.wrapping_pow(b.min(u32::MAX as i64) as u32)
            }
            "<<" => a.wrapping_shl(b as u32),
            ">>" => a.wrapping_shr(b as u32),
            "<" => i64::from(a < b),
            ">" => i64::from(a > b),
            "<=" => i64::from(a <= b),
            ">=" => i64::from(a >= b),
            "==" => i64::from(a == b),
            "!=" => i64::from(a != b),
            "&" => a & b,
            "|" => a | b,
            "^" => a ^ b,
            _ => return Err(self.error("unknown operator", op)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[derive(Default)]
    struct Vars(HashMap<String, String>);

    impl ArithEnv for Vars {
        fn get_var(&mut self, name: &str, index: Option<Index>) -> Result<Option<String>, Unbound> {
            let key = match index {
                Some(Index::Number(i)) => format!("{name}[{i}]"),
                Some(Index::Key(k)) => format!("{name}[{k}]"),
                None => name.to_string(),
            };
            Ok(self.0.get(&key).cloned())
        }
        fn set_var(&mut self, name: &str, index: Option<Index>, value: i64) -> Result<(), String> {
            let key = match index {
                Some(Index::Number(i)) => format!("{name}[{i}]"),
                Some(Index::Key(k)) => format!("{name}[{k}]"),
                None => name.to_string(),
            };
            self.0.insert(key, value.to_string());
            Ok(())
        }
        /// Names starting with `A` are associative arrays here.
        fn is_assoc(&self, name: &str) -> bool {
            name.starts_with('A')
        }
    }

    fn calc(text: &str) -> i64 {
        eval(text, &mut Vars::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn precedence_and_operators() {
        assert_eq!(calc("1 + 2 * 3"), 7);
        assert_eq!(calc("(1 + 2) * 3"), 9);
        assert_eq!(calc("2 ** 3 ** 2"), 512);
        assert_eq!(calc("-2 ** 2"), 4);
        assert_eq!(calc("7 / 2"), 3);
        assert_eq!(calc("-7 % 3"), -1);
        assert_eq!(calc("1 << 4 | 1"), 17);
        assert_eq!(calc("5 > 3 && 2 > 1"), 1);
        assert_eq!(calc("0 || 0"), 0);
        assert_eq!(calc("!5"), 0);
        assert_eq!(calc("~0"), -1);
        assert_eq!(calc("1 ? 2 : 3"), 2);
        assert_eq!(calc("0x1F + 010 + 2#101"), 31 + 8 + 5);
        assert_eq!(calc("16#ff"), 255);
        assert_eq!(calc(""), 0);
    }

    #[test]
    fn variables_assignments_and_steps() {
        let mut vars = Vars::default();
        vars.0.insert("x".into(), "5".into());
        vars.0.insert("expr".into(), "x * 2".into());
        assert_eq!(eval("x++ + ++x", &mut vars).unwrap(), 5 + 7);
        assert_eq!(vars.0["x"], "7");
        assert_eq!(eval("y = x += 3, y", &mut vars).unwrap(), 10);
        assert_eq!(eval("expr + 1", &mut vars).unwrap(), 21);
        assert_eq!(eval("a[2] = 4, a[1+1] * 2", &mut vars).unwrap(), 8);
        assert_eq!(eval("unset_var + 1", &mut vars).unwrap(), 1);
        assert_eq!(eval("0 && (z = 1)", &mut vars).unwrap(), 0);
        assert!(
            !vars.0.contains_key("z"),
            "short-circuit skips side effects"
        );
    }

    #[test]
    fn associative_subscripts_are_keys() {
        let mut vars = Vars::default();
        vars.0.insert("K".to_string(), "5".to_string());
        assert_eq!(eval("A[K] = 7, A[x y] += 2, b[K] = 1", &mut vars), Ok(1));
        assert_eq!(vars.0.get("A[K]").map(String::as_str), Some("7"));
        assert_eq!(vars.0.get("A[x y]").map(String::as_str), Some("2"));
        assert_eq!(vars.0.get("b[5]").map(String::as_str), Some("1"));
        // a subscript that is no expression fails only for an indexed array,
        // with bash's message naming the subscript
        let error = eval("b[x y]", &mut vars).unwrap_err();
        assert_eq!(
            error.to_string(),
            "x y: syntax error in expression (error token is \"y\")"
        );
        assert!(eval("A[x", &mut vars).is_err(), "no closing bracket");
    }

    fn token_of(error: &ArithError) -> &str {
        match error {
            ArithError::Invalid { token, .. } => token,
            ArithError::Unbound(_) => panic!("{error} is no syntax error"),
        }
    }

    #[test]
    fn errors_name_the_token() {
        let error = eval("1/0", &mut Vars::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "1/0: division by 0 (error token is \"0\")"
        );
        // at the end of the text the token is the last one read, as in bash
        for (text, token) in [("1 +", "+"), ("b*", "*"), ("2 ** ", "** "), ("1 ? 2", "2")] {
            let error = eval(text, &mut Vars::default()).unwrap_err();
            assert_eq!(token_of(&error), token, "{text}");
        }
        let error = eval("1 + * 2", &mut Vars::default()).unwrap_err();
        assert_eq!(
            token_of(&error),
            "* 2",
            "in the middle it is the rest of the text"
        );
        assert!(eval("2 3", &mut Vars::default()).is_err());
        assert!(eval("08", &mut Vars::default()).is_err());
    }
}
