//! Evaluating awk expressions: values, assignment, comparison, calls.

use super::*;

impl<'a> Awk<'a> {
    pub(super) fn assign(&mut self, target: &Expr, value: Value) -> R<Value> {
        match target {
            Expr::Var(name) => self.set_var(name, value.clone()),
            Expr::Field(index) => {
                let index = self.eval(index)?.num();
                if index < 0.0 {
                    return Err(Jump::Error(format!(
                        "trying to access out of range field {}",
                        index as i64
                    )));
                }
                let text = value.string(&self.convfmt());
                self.set_field(index as usize, text);
            }
            Expr::Index(name, subscripts) => {
                let key = self.subscript(subscripts)?;
                let id = self.array_id(name);
                self.arrays[id].insert(key, value.clone());
            }
            Expr::Group(inner) => return self.assign(inner, value),
            _ => return Err(Jump::Error("assignment to a non-variable".to_string())),
        }
        Ok(value)
    }

    pub(super) fn compare(&self, left: &Value, right: &Value) -> std::cmp::Ordering {
        if left.is_numeric() && right.is_numeric() {
            left.num()
                .partial_cmp(&right.num())
                .unwrap_or(std::cmp::Ordering::Equal)
        } else {
            let convfmt = self.convfmt();
            left.string(&convfmt).cmp(&right.string(&convfmt))
        }
    }

    pub fn eval(&mut self, expr: &Expr) -> R<Value> {
        Ok(match expr {
            Expr::Num(n) => Value::Num(*n),
            Expr::Str(s) => Value::Str(s.clone()),
            Expr::Regex(pattern) => {
                let matcher = self
                    .regex(pattern, false)
                    .ok_or_else(|| Jump::Error(format!("invalid regex /{pattern}/")))?;
                Value::Num(f64::from(u8::from(matcher.is_match(&self.record))))
            }
            Expr::Var(name) => self.get_var(name),
            Expr::Group(inner) => self.eval(inner)?,
            Expr::Field(index) => {
                let index = self.eval(index)?.num();
                if index < 0.0 {
                    return Err(Jump::Error(format!(
                        "trying to access out of range field {}",
                        index as i64
                    )));
                }
                self.get_field(index as usize)
            }
            Expr::Index(name, subscripts) => {
                let key = self.subscript(subscripts)?;
                let id = self.array_id(name);
                self.arrays[id].entry(key).or_default().clone()
            }
            Expr::Assign { op, target, value } => {
                let right = self.eval(value)?;
                let new = match op {
                    None => match right {
                        Value::Uninit => Value::Uninit,
                        other => other,
                    },
                    Some(op) => {
                        let left = self.eval(target)?.num();
                        if matches!(*op, "/" | "%") && right.num() == 0.0 {
                            return Err(Jump::Error(format!(
                                "division by zero attempted in `{op}='"
                            )));
                        }
                        Value::Num(arithmetic(op, left, right.num())?)
                    }
                };
                self.assign(target, new)?
            }
            Expr::Cond(cond, yes, no) => {
                if self.eval(cond)?.truthy() {
                    self.eval(yes)?
                } else {
                    self.eval(no)?
                }
            }
            Expr::And(a, b) => Value::Num(f64::from(u8::from(
                self.eval(a)?.truthy() && self.eval(b)?.truthy(),
            ))),
            Expr::Or(a, b) => Value::Num(f64::from(u8::from(
                self.eval(a)?.truthy() || self.eval(b)?.truthy(),
            ))),
            Expr::Not(inner) => Value::Num(f64::from(u8::from(!self.eval(inner)?.truthy()))),
            Expr::Neg(inner) => Value::Num(-self.eval(inner)?.num()),
            Expr::Plus(inner) => Value::Num(self.eval(inner)?.num()),
            Expr::Binary(op, a, b) => {
                let (a, b) = (self.eval(a)?.num(), self.eval(b)?.num());
                Value::Num(arithmetic(op, a, b)?)
            }
            Expr::Compare(op, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                let ordering = self.compare(&a, &b);
                let result = match *op {
                    "<" => ordering.is_lt(),
                    "<=" => ordering.is_le(),
                    ">" => ordering.is_gt(),
                    ">=" => ordering.is_ge(),
                    "==" => ordering.is_eq(),
                    _ => ordering.is_ne(),
                };
                Value::Num(f64::from(u8::from(result)))
            }
            Expr::Concat(a, b) => {
                let convfmt = self.convfmt();
                let left = self.eval(a)?.string(&convfmt);
                let right = self.eval(b)?.string(&convfmt);
                Value::Str(left + &right)
            }
            Expr::Match {
                negate,
                left,
                right,
            } => {
                let text = self.eval(left)?.string(&self.convfmt());
                let matcher = self.regex_of(right)?;
                Value::Num(f64::from(u8::from(matcher.is_match(&text) != *negate)))
            }
            Expr::In(subscripts, array) => {
                let key = self.subscript(subscripts)?;
                let id = self.array_id(array);
                Value::Num(f64::from(u8::from(self.arrays[id].contains_key(&key))))
            }
            Expr::Incr {
                target,
                delta,
                post,
            } => {
                let old = self.eval(target)?.num();
                let new = old + delta;
                self.assign(target, Value::Num(new))?;
                Value::Num(if *post { old } else { new })
            }
            Expr::Call(name, args) => self.call(name, args)?,
            Expr::Builtin(name, args) => self.builtin(name, args)?,
            Expr::Getline { source, target } => self.getline(source, target.as_deref())?,
        })
    }

    pub(super) fn call(&mut self, name: &str, args: &[Expr]) -> R<Value> {
        let program = self.program;
        let Some(function) = program.functions.get(name) else {
            return Err(Jump::Error(format!("function `{name}' not defined")));
        };
        if self.frames.len() > 1000 {
            return Err(Jump::Error("function call nesting too deep".to_string()));
        }
        let mut frame = HashMap::new();
        for (i, param) in function.params.iter().enumerate() {
            let cell = match args.get(i) {
                // An array argument is passed by reference.
                Some(Expr::Var(var)) if self.is_array_name(var) => Cell::Array(self.array_id(var)),
                Some(expr) => Cell::Scalar(self.eval(expr)?),
                None => Cell::Scalar(Value::Uninit),
            };
            frame.insert(param.clone(), cell);
        }
        self.frames.push(frame);
        let caller_line = self.line;
        let result = self.block(&function.body);
        self.frames.pop();
        // A fatal error inside names the function's line; after the call,
        // the caller's.
        if !matches!(result, Err(Jump::Error(_))) {
            self.line = caller_line;
        }
        match result {
            Ok(()) => Ok(Value::Uninit),
            Err(Jump::Return(value)) => Ok(value),
            Err(other) => Err(other),
        }
    }

    pub(super) fn is_array_name(&self, name: &str) -> bool {
        if let Some(frame) = self.frames.last()
            && let Some(cell) = frame.get(name)
        {
            return matches!(cell, Cell::Array(_));
        }
        matches!(self.globals.get(name), Some(Cell::Array(_))) || self.used_as_array(name)
    }

    /// A global the program uses as an array somewhere (so that passing
    /// it before first use still passes by reference).
    pub(super) fn used_as_array(&self, name: &str) -> bool {
        fn in_expr(expr: &Expr, name: &str) -> bool {
            match expr {
                Expr::Index(n, subs) => n == name || subs.iter().any(|e| in_expr(e, name)),
                Expr::In(subs, n) => n == name || subs.iter().any(|e| in_expr(e, name)),
                Expr::Builtin(b, args) if b == "split" => {
                    matches!(args.get(1), Some(Expr::Var(n)) if n == name)
                        || args.iter().any(|e| in_expr(e, name))
                }
                Expr::Assign { target, value, .. } => in_expr(target, name) || in_expr(value, name),
                Expr::Cond(a, b, c) => in_expr(a, name) || in_expr(b, name) || in_expr(c, name),
                Expr::And(a, b)
                | Expr::Or(a, b)
                | Expr::Binary(_, a, b)
                | Expr::Compare(_, a, b)
                | Expr::Concat(a, b) => in_expr(a, name) || in_expr(b, name),
                Expr::Match { left, right, .. } => in_expr(left, name) || in_expr(right, name),
                Expr::Not(a) | Expr::Neg(a) | Expr::Plus(a) | Expr::Field(a) | Expr::Group(a) => {
                    in_expr(a, name)
                }
                Expr::Incr { target, .. } => in_expr(target, name),
                Expr::Call(_, args) | Expr::Builtin(_, args) => {
                    args.iter().any(|e| in_expr(e, name))
                }
                _ => false,
            }
        }
        fn in_stmts(stmts: &[Stmt], name: &str) -> bool {
            stmts.iter().any(|s| match s {
                Stmt::Expr(e) => in_expr(e, name),
                Stmt::Print { args, .. } | Stmt::Printf { args, .. } => {
                    args.iter().any(|e| in_expr(e, name))
                }
                Stmt::If(c, a, b) => {
                    in_expr(c, name)
                        || in_stmts(std::slice::from_ref(a), name)
                        || b.as_ref()
                            .is_some_and(|b| in_stmts(std::slice::from_ref(b), name))
                }
                Stmt::While(c, b) | Stmt::DoWhile(b, c) => {
                    in_expr(c, name) || in_stmts(std::slice::from_ref(b), name)
                }
                Stmt::For(i, c, st, b) => {
                    i.as_ref()
                        .is_some_and(|i| in_stmts(std::slice::from_ref(i), name))
                        || c.as_ref().is_some_and(|c| in_expr(c, name))
                        || st
                            .as_ref()
                            .is_some_and(|s| in_stmts(std::slice::from_ref(s), name))
                        || in_stmts(std::slice::from_ref(b), name)
                }
                Stmt::ForIn(_, array, b) => {
                    array == name || in_stmts(std::slice::from_ref(b), name)
                }
                Stmt::Block(b) => in_stmts(b, name),
                Stmt::Delete(n, _) => n == name,
                Stmt::Exit(Some(e)) | Stmt::Return(Some(e)) => in_expr(e, name),
                _ => false,
            })
        }
        let program = self.program;
        program
            .begin
            .iter()
            .chain(&program.end)
            .any(|b| in_stmts(b, name))
            || program
                .rules
                .iter()
                .any(|r| r.action.as_ref().is_some_and(|a| in_stmts(a, name)))
            || program.functions.values().any(|f| in_stmts(&f.body, name))
    }
}

fn arithmetic(op: &str, a: f64, b: f64) -> R<f64> {
    Ok(match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" => {
            if b == 0.0 {
                return Err(Jump::Error("division by zero attempted".to_string()));
            }
            a / b
        }
        "%" => {
            if b == 0.0 {
                return Err(Jump::Error("division by zero attempted in `%'".to_string()));
            }
            a % b
        }
        _ => a.powf(b),
    })
}
