//! Evaluating an expression tree against the shell's variables: wrapping
//! 64-bit integers, short-circuit operators that skip the side effects of
//! the branch not taken, and values of variables read as expressions in
//! their turn (bounded in depth).

use super::parse::{Expr, Subscript, parse_number};
use super::{ArithEnv, ArithError, Index, MAX_RECURSION, Unbound, eval_depth};

pub(super) struct Evaluator<'a> {
    pub(super) env: &'a mut dyn ArithEnv,
    pub(super) text: &'a str,
    pub(super) depth: usize,
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

    pub(super) fn eval(&mut self, expr: &Expr) -> Result<i64, ArithError> {
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
