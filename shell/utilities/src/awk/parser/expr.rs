//! awk expressions, by precedence from the ternary down to primaries
//! (concatenation, `in`, regex matching, getline pipes, increments).

use super::super::lexer::Token;
use super::{Expr, GetlineSource, Links, PResult, ParseError, Parser};

impl Parser {
    pub(super) fn concat_no_gt(&mut self) -> PResult<Expr> {
        let saved = self.no_gt;
        self.no_gt = true;
        let result = self.concatenation();
        self.no_gt = saved;
        result
    }

    pub fn expr(&mut self) -> PResult<Expr> {
        self.ternary()
    }

    pub(super) fn is_lvalue(expr: &Expr) -> bool {
        matches!(expr, Expr::Var(_) | Expr::Field(_) | Expr::Index(..))
    }

    pub(super) fn ternary(&mut self) -> PResult<Expr> {
        self.nested(Self::ternary_inside)
    }

    fn ternary_inside(&mut self) -> PResult<Expr> {
        let cond = self.or()?;
        if self.eat_op("?") {
            self.skip_newlines();
            let yes = self.ternary()?;
            // A newline may follow `?` and `:`, not come before `:` (gawk).
            self.expect_op(":")?;
            self.skip_newlines();
            let no = self.ternary()?;
            return Ok(Expr::Cond(Box::new(cond), Box::new(yes), Box::new(no)));
        }
        if Self::is_lvalue(&cond) {
            for op in ["=", "+=", "-=", "*=", "/=", "%=", "^=", "**="] {
                if self.is_op(op) {
                    // No newline after an assignment's operator (gawk:
                    // "unexpected newline or end of string").
                    self.pos += 1;
                    let value = self.ternary()?;
                    let op = match op {
                        "=" => None,
                        "+=" => Some("+"),
                        "-=" => Some("-"),
                        "*=" => Some("*"),
                        "/=" => Some("/"),
                        "%=" => Some("%"),
                        _ => Some("^"),
                    };
                    return Ok(Expr::Assign {
                        op,
                        target: Box::new(cond),
                        value: Box::new(value),
                    });
                }
            }
        }
        Ok(cond)
    }

    pub(super) fn or(&mut self) -> PResult<Expr> {
        let mut left = self.and()?;
        let mut links = Links::default();
        while self.eat_op("||") {
            links.add(self)?;
            self.skip_newlines();
            let right = self.and()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        links.release(self);
        Ok(left)
    }

    pub(super) fn and(&mut self) -> PResult<Expr> {
        let mut left = self.in_expr()?;
        let mut links = Links::default();
        while self.eat_op("&&") {
            links.add(self)?;
            self.skip_newlines();
            let right = self.in_expr()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
        links.release(self);
        Ok(left)
    }

    pub(super) fn in_expr(&mut self) -> PResult<Expr> {
        let mut left = self.matching()?;
        let mut links = Links::default();
        while !self.no_in && self.is_keyword("in") {
            links.add(self)?;
            self.pos += 1;
            let array = match self.advance() {
                Token::Name(name) => name,
                _ => return Err(self.syntax_error()),
            };
            left = Expr::In(vec![left], array);
        }
        links.release(self);
        Ok(left)
    }

    pub(super) fn matching(&mut self) -> PResult<Expr> {
        let mut left = self.relational()?;
        let mut links = Links::default();
        loop {
            let negate = if self.eat_op("~") {
                false
            } else if self.eat_op("!~") {
                true
            } else {
                links.release(self);
                return Ok(left);
            };
            links.add(self)?;
            let right = self.relational()?;
            left = Expr::Match {
                negate,
                left: Box::new(left),
                right: Box::new(right),
            };
        }
    }

    pub(super) fn relational(&mut self) -> PResult<Expr> {
        let left = self.concatenation()?;
        for op in ["<=", ">=", "!=", "==", "<", ">"] {
            if self.is_op(op) {
                if op == ">" && self.no_gt {
                    return Ok(left);
                }
                self.pos += 1;
                let right = self.concatenation()?;
                return Ok(Expr::Compare(op, Box::new(left), Box::new(right)));
            }
        }
        Ok(left)
    }

    /// Can the next token start a concatenated operand?
    pub(super) fn starts_operand(&self) -> bool {
        match self.peek() {
            Token::Number(_)
            | Token::Str(_)
            | Token::Regex(_)
            | Token::Name(_)
            | Token::FuncName(_)
            | Token::Builtin(_) => true,
            Token::Op(op) => matches!(*op, "$" | "(" | "++" | "--"),
            Token::Keyword("getline") => false,
            _ => false,
        }
    }

    pub(super) fn concatenation(&mut self) -> PResult<Expr> {
        let mut left = self.pipe_getline()?;
        let mut links = Links::default();
        while self.starts_operand() {
            if self.is_keyword("in") {
                break;
            }
            links.add(self)?;
            let right = self.pipe_getline()?;
            left = Expr::Concat(Box::new(left), Box::new(right));
        }
        links.release(self);
        Ok(left)
    }

    /// `command | getline [var]`.
    pub(super) fn pipe_getline(&mut self) -> PResult<Expr> {
        let mut left = self.additive()?;
        let mut links = Links::default();
        while self.is_op("|") && matches!(self.peek_at(1), Token::Keyword("getline")) {
            links.add(self)?;
            self.pos += 2;
            let target = self.optional_lvalue()?;
            left = Expr::Getline {
                source: GetlineSource::Command(Box::new(left)),
                target: target.map(Box::new),
            };
        }
        links.release(self);
        Ok(left)
    }

    pub(super) fn additive(&mut self) -> PResult<Expr> {
        self.left_associative(&["+", "-"], Self::multiplicative)
    }

    pub(super) fn multiplicative(&mut self) -> PResult<Expr> {
        self.left_associative(&["*", "/", "%"], Self::unary)
    }

    /// `operand (op operand)*` for one precedence level.
    pub(super) fn left_associative(
        &mut self,
        ops: &[&'static str],
        operand: fn(&mut Self) -> PResult<Expr>,
    ) -> PResult<Expr> {
        let mut left = operand(self)?;
        let mut links = Links::default();
        while let Some(op) = ops.iter().copied().find(|op| self.is_op(op)) {
            let line = self.line();
            self.pos += 1;
            links.add(self)?;
            let right = operand(self)?;
            // gawk refuses a division by a constant zero as it reads it.
            if matches!(op, "/" | "%") && is_constant_zero(&right) {
                let what = if op == "%" { " in `%'" } else { "" };
                return Err(ParseError {
                    line,
                    message: format!("error: division by zero attempted{what}"),
                    caret: None,
                    end_of_file: false,
                    next_line: false,
                });
            }
            left = Expr::Binary(op, Box::new(left), Box::new(right));
        }
        links.release(self);
        Ok(left)
    }

    pub(super) fn unary(&mut self) -> PResult<Expr> {
        self.nested(Self::unary_inside)
    }

    fn unary_inside(&mut self) -> PResult<Expr> {
        if self.eat_op("!") {
            return Ok(Expr::Not(Box::new(self.unary()?)));
        }
        if self.eat_op("-") {
            return Ok(Expr::Neg(Box::new(self.unary()?)));
        }
        if self.eat_op("+") {
            return Ok(Expr::Plus(Box::new(self.unary()?)));
        }
        self.power()
    }

    pub(super) fn power(&mut self) -> PResult<Expr> {
        self.nested(Self::power_inside)
    }

    fn power_inside(&mut self) -> PResult<Expr> {
        let base = self.increment()?;
        if self.eat_op("^") || self.eat_op("**") {
            // Right-associative; binds tighter than unary minus on its left.
            let exponent = self.unary_power()?;
            return Ok(Expr::Binary("^", Box::new(base), Box::new(exponent)));
        }
        Ok(base)
    }

    pub(super) fn unary_power(&mut self) -> PResult<Expr> {
        self.nested(Self::unary_power_inside)
    }

    fn unary_power_inside(&mut self) -> PResult<Expr> {
        if self.eat_op("-") {
            return Ok(Expr::Neg(Box::new(self.unary_power()?)));
        }
        if self.eat_op("+") {
            return self.unary_power();
        }
        if self.eat_op("!") {
            return Ok(Expr::Not(Box::new(self.unary_power()?)));
        }
        self.power()
    }

    pub(super) fn increment(&mut self) -> PResult<Expr> {
        self.nested(Self::increment_inside)
    }

    fn increment_inside(&mut self) -> PResult<Expr> {
        if self.is_op("++") || self.is_op("--") {
            let delta = if self.is_op("++") { 1.0 } else { -1.0 };
            self.pos += 1;
            let target = self.increment()?;
            if !Self::is_lvalue(&target) {
                return Err(self.syntax_error());
            }
            return Ok(Expr::Incr {
                target: Box::new(target),
                delta,
                post: false,
            });
        }
        let operand = self.primary()?;
        if Self::is_lvalue(&operand) && (self.is_op("++") || self.is_op("--")) {
            let delta = if self.is_op("++") { 1.0 } else { -1.0 };
            self.pos += 1;
            return Ok(Expr::Incr {
                target: Box::new(operand),
                delta,
                post: true,
            });
        }
        Ok(operand)
    }

    pub(super) fn optional_lvalue(&mut self) -> PResult<Option<Expr>> {
        match self.peek() {
            Token::Name(_) | Token::Op("$") => {
                let saved = (self.no_gt, self.no_in);
                self.no_gt = true;
                let target = self.lvalue_primary()?;
                (self.no_gt, self.no_in) = saved;
                Ok(Some(target))
            }
            _ => Ok(None),
        }
    }

    pub(super) fn lvalue_primary(&mut self) -> PResult<Expr> {
        if self.eat_op("$") {
            return Ok(Expr::Field(Box::new(self.field_operand()?)));
        }
        match self.advance() {
            Token::Name(name) => {
                if self.eat_op("[") {
                    let subscripts = self.expr_list()?;
                    self.expect_op("]")?;
                    return Ok(Expr::Index(name, subscripts));
                }
                Ok(Expr::Var(name))
            }
            _ => Err(self.syntax_error()),
        }
    }

    /// The operand of `$`: a primary with increments (`$NF`, `$(i+1)`,
    /// `$i++` is `($i)++`).
    pub(super) fn field_operand(&mut self) -> PResult<Expr> {
        if self.eat_op("-") {
            return Ok(Expr::Neg(Box::new(self.field_operand()?)));
        }
        if self.is_op("++") || self.is_op("--") {
            let delta = if self.is_op("++") { 1.0 } else { -1.0 };
            self.pos += 1;
            let target = self.primary()?;
            return Ok(Expr::Incr {
                target: Box::new(target),
                delta,
                post: false,
            });
        }
        self.primary()
    }

    pub(super) fn primary(&mut self) -> PResult<Expr> {
        match self.advance() {
            Token::Number(n) => Ok(Expr::Num(n)),
            Token::Str(s) => Ok(Expr::Str(s)),
            Token::Regex(r) => Ok(Expr::Regex(r)),
            Token::Op("$") => Ok(Expr::Field(Box::new(self.field_operand()?))),
            Token::Op("(") => {
                let saved = (self.no_gt, self.no_in);
                self.no_gt = false;
                self.no_in = false;
                let first = self.expr()?;
                if self.eat_op(",") {
                    // `(a, b) in array`
                    let mut list = vec![first];
                    self.skip_newlines();
                    list.extend(self.expr_list()?);
                    self.expect_op(")")?;
                    (self.no_gt, self.no_in) = saved;
                    if !self.is_keyword("in") {
                        return Err(self.syntax_error());
                    }
                    self.pos += 1;
                    let array = match self.advance() {
                        Token::Name(name) => name,
                        _ => return Err(self.syntax_error()),
                    };
                    return Ok(Expr::In(list, array));
                }
                self.expect_op(")")?;
                (self.no_gt, self.no_in) = saved;
                Ok(Expr::Group(Box::new(first)))
            }
            Token::Op("-") => Ok(Expr::Neg(Box::new(self.unary()?))),
            Token::Op("+") => Ok(Expr::Plus(Box::new(self.unary()?))),
            Token::Op("!") => Ok(Expr::Not(Box::new(self.unary()?))),
            Token::Keyword("getline") => {
                let target = self.optional_lvalue()?;
                if self.eat_op("<") {
                    let file = self.primary_no_concat()?;
                    return Ok(Expr::Getline {
                        source: GetlineSource::File(Box::new(file)),
                        target: target.map(Box::new),
                    });
                }
                Ok(Expr::Getline {
                    source: GetlineSource::Main,
                    target: target.map(Box::new),
                })
            }
            Token::Name(name) => {
                if self.eat_op("[") {
                    let subscripts = self.expr_list()?;
                    self.expect_op("]")?;
                    return Ok(Expr::Index(name, subscripts));
                }
                Ok(Expr::Var(name))
            }
            Token::FuncName(name) => {
                self.expect_op("(")?;
                let args = if self.is_op(")") {
                    Vec::new()
                } else {
                    self.expr_list()?
                };
                // Nor before a call's `)`.
                self.expect_op(")")?;
                Ok(Expr::Call(name, args))
            }
            Token::Builtin(name) => {
                if self.eat_op("(") {
                    let args = if self.is_op(")") {
                        Vec::new()
                    } else {
                        self.expr_list()?
                    };
                    self.expect_op(")")?;
                    return Ok(Expr::Builtin(name, args));
                }
                if name == "length" {
                    return Ok(Expr::Builtin(name, Vec::new()));
                }
                Err(self.syntax_error())
            }
            _ => {
                self.pos -= 1;
                Err(self.syntax_error())
            }
        }
    }

    /// A getline file operand: no concatenation (`getline < "a" "b"` reads "a").
    pub(super) fn primary_no_concat(&mut self) -> PResult<Expr> {
        self.increment()
    }
}

/// A number written in the program that is zero (`0`, `-0`, `0.0`), not
/// one in parentheses or a string.
fn is_constant_zero(expr: &Expr) -> bool {
    match expr {
        Expr::Num(n) => *n == 0.0,
        Expr::Neg(inner) => matches!(**inner, Expr::Num(n) if n == 0.0),
        _ => false,
    }
}
