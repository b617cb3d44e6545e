//! `bc`: the POSIX calculator language with GNU's common extensions
//! (`print`, `&&`/`||`/`!`, `-l`), arbitrary precision, `scale`,
//! `ibase`/`obase` (2 to 16), arrays, functions. Loops and recursion draw
//! from the shell's limits and stop at the deadline.

mod lang;
mod number;

use std::collections::HashMap;
use std::io::Write;

use lang::{Expr, Function, Parser, Place, Stmt, tokenize};
use number::Number;

use crate::args::getopt;
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, Flow, ShellView};

/// bc's line length: longer numbers continue after a `\`.
const LINE_LENGTH: usize = 70;

/// Nested calls of user functions.
const MAX_CALL_DEPTH: usize = 1000;

pub fn bc(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = match getopt(
        args,
        "",
        &[
            ("mathlib", 'l', false),
            ("quiet", 'q', false),
            ("standard", 's', false),
            ("warn", 'w', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return Ok(shell.fail_command("bc", &message, 1)),
    };
    let mut text = String::new();
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        let mut all = parsed.operands.clone();
        all.push("-".to_string());
        all
    };
    for operand in &operands {
        let Ok(mut source) = open_source(shell, "bc", operand) else {
            return Ok(2);
        };
        match source.read_all() {
            Ok(bytes) => {
                text.push_str(&String::from_utf8_lossy(&bytes));
                text.push('\n');
            }
            Err(error) => return shell.io_status("bc", error),
        }
    }
    let mut machine = Machine::new(shell, parsed.has('l'));
    machine.run(&text)?;
    let Machine { out, .. } = machine;
    match shell.out().write_all(&out) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("bc", error),
    }
}

/// Why evaluation left the normal path.
enum Jump {
    Break,
    Continue,
    Return(Number),
    Quit,
    /// A runtime error: reported, and the statement abandoned.
    Error(String),
    /// The shell must stop (deadline, limits).
    Stop(Flow),
}

type Eval<T> = Result<T, Jump>;

struct Frame {
    saved: Vec<(String, Option<Number>)>,
}

pub(crate) struct Machine<'a> {
    shell: &'a mut ShellView,
    vars: HashMap<String, Number>,
    arrays: HashMap<String, HashMap<i64, Number>>,
    functions: HashMap<String, Function>,
    scale: usize,
    ibase: u32,
    obase: u32,
    mathlib: bool,
    out: Vec<u8>,
    depth: usize,
}

impl<'a> Machine<'a> {
    fn new(shell: &'a mut ShellView, mathlib: bool) -> Self {
        Machine {
            shell,
            vars: HashMap::new(),
            arrays: HashMap::new(),
            functions: HashMap::new(),
            scale: if mathlib { 20 } else { 0 },
            ibase: 10,
            obase: 10,
            mathlib,
            out: Vec::new(),
            depth: 0,
        }
    }

    /// Runs the program statement by statement; a syntax error skips to
    /// the next line, as bc does.
    fn run(&mut self, source: &str) -> Result<(), Flow> {
        for (index, line_group) in split_statements(source).into_iter().enumerate() {
            let tokens = match tokenize(&line_group) {
                Ok(tokens) => tokens,
                Err(message) => {
                    self.report(&format!("(standard_in) {}: {message}", index + 1));
                    continue;
                }
            };
            let mut parser = Parser::new(tokens);
            loop {
                match parser.statement() {
                    Ok(Some(stmt)) => match self.exec_top(&stmt) {
                        Ok(()) => {}
                        Err(Jump::Quit) => return Ok(()),
                        Err(Jump::Stop(flow)) => return Err(flow),
                        Err(Jump::Error(message)) => {
                            self.report(&format!("Runtime error (func=(main), adr=0): {message}"))
                        }
                        Err(_) => {}
                    },
                    Ok(None) => break,
                    Err(message) => {
                        self.report(&format!("(standard_in) {}: {message}", index + 1));
                        break;
                    }
                }
            }
        }
        Ok(())
    }

    fn report(&mut self, message: &str) {
        // What was printed so far comes first, as with bc's own streams.
        if let Err(error) = self.shell.out().write_all(&std::mem::take(&mut self.out)) {
            let _ = error;
        }
        self.shell.write_stderr(format!("{message}\n").as_bytes());
    }

    fn exec_top(&mut self, stmt: &Stmt) -> Eval<()> {
        if let Stmt::Define(function) = stmt {
            self.functions
                .insert(function.name.clone(), function.clone());
            return Ok(());
        }
        self.exec(stmt)
    }

    fn exec(&mut self, stmt: &Stmt) -> Eval<()> {
        match stmt {
            Stmt::Expr(expr) => {
                let value = self.eval(expr)?;
                if !matches!(expr, Expr::Assign(..)) {
                    self.emit_number(&value);
                    self.out.push(b'\n');
                    self.vars.insert("last".into(), value);
                }
            }
            Stmt::Str(text) => self.out.extend_from_slice(text.as_bytes()),
            Stmt::Print(exprs, strings) => {
                for (expr, string) in exprs.iter().zip(strings) {
                    match string {
                        Some(text) => {
                            let text = print_escapes(text);
                            self.out.extend_from_slice(text.as_bytes());
                        }
                        None => {
                            let value = self.eval(expr)?;
                            self.emit_number(&value);
                        }
                    }
                }
            }
            Stmt::Block(body) => {
                for stmt in body {
                    self.exec(stmt)?;
                }
            }
            Stmt::If(cond, then, otherwise) => {
                if !self.eval(cond)?.is_zero() {
                    self.exec(then)?;
                } else if let Some(otherwise) = otherwise {
                    self.exec(otherwise)?;
                }
            }
            Stmt::While(cond, body) => {
                while !self.eval(cond)?.is_zero() {
                    self.tick()?;
                    match self.exec(body) {
                        Err(Jump::Break) => break,
                        Err(Jump::Continue) | Ok(()) => {}
                        Err(other) => return Err(other),
                    }
                }
            }
            Stmt::For(init, cond, step, body) => {
                if let Some(init) = init {
                    self.eval(init)?;
                }
                loop {
                    if let Some(cond) = cond
                        && self.eval(cond)?.is_zero()
                    {
                        break;
                    }
                    self.tick()?;
                    match self.exec(body) {
                        Err(Jump::Break) => break,
                        Err(Jump::Continue) | Ok(()) => {}
                        Err(other) => return Err(other),
                    }
                    if let Some(step) = step {
                        self.eval(step)?;
                    }
                }
            }
            Stmt::Break => return Err(Jump::Break),
            Stmt::Continue => return Err(Jump::Continue),
            Stmt::Return(value) => {
                let value = match value {
                    Some(expr) => self.eval(expr)?,
                    None => Number::zero(),
                };
                return Err(Jump::Return(value));
            }
            Stmt::Quit => return Err(Jump::Quit),
            Stmt::Define(function) => {
                self.functions
                    .insert(function.name.clone(), function.clone());
            }
            Stmt::Empty => {}
        }
        Ok(())
    }

    fn tick(&mut self) -> Eval<()> {
        self.shell.tick_loop().map_err(Jump::Stop)
    }

    fn emit_number(&mut self, value: &Number) {
        let text = value.render(self.obase);
        let chars: Vec<char> = text.chars().collect();
        // A line is LINE_LENGTH - 1 characters, the `\` included.
        for (i, chunk) in chars.chunks(LINE_LENGTH - 2).enumerate() {
            if i > 0 {
                self.out.extend_from_slice(b"\\\n");
            }
            self.out.extend(chunk.iter().collect::<String>().bytes());
        }
    }

    fn eval(&mut self, expr: &Expr) -> Eval<Number> {
        match expr {
            Expr::Number(text) => {
                let base = if text.len() == 1 { 16 } else { self.ibase };
                Number::parse(text, base.max(self.ibase))
                    .ok_or_else(|| Jump::Error(format!("bad number {text}")))
            }
            Expr::Place(place) => self.load(place),
            Expr::Assign(place, op, value) => {
                let value = self.eval(value)?;
                let value = match op {
                    Some(op) => {
                        let current = self.load(place)?;
                        self.binary(op, &current, &value)?
                    }
                    None => value,
                };
                self.store(place, value.clone())?;
                Ok(value)
            }
            Expr::Step(place, prefix, delta) => {
                let current = self.load(place)?;
                let next = current.add(&Number::from_i64(*delta));
                self.store(place, next.clone())?;
                Ok(if *prefix { next } else { current })
            }
            Expr::Neg(inner) => Ok(self.eval(inner)?.neg()),
            Expr::Not(inner) => Ok(Number::from_bool(self.eval(inner)?.is_zero())),
            Expr::Binary("&&", left, right) => {
                let left = !self.eval(left)?.is_zero();
                Ok(Number::from_bool(left && !self.eval(right)?.is_zero()))
            }
            Expr::Binary("||", left, right) => {
                let left = !self.eval(left)?.is_zero();
                Ok(Number::from_bool(left || !self.eval(right)?.is_zero()))
            }
            Expr::Binary(op, left, right) => {
                let left = self.eval(left)?;
                let right = self.eval(right)?;
                self.binary(op, &left, &right)
            }
            Expr::Call(name, args) => self.call(name, args),
        }
    }

    fn binary(&self, op: &str, left: &Number, right: &Number) -> Eval<Number> {
        use std::cmp::Ordering::*;
        let divide_by_zero = || Jump::Error("Divide by zero".into());
        Ok(match op {
            "+" => left.add(right),
            "-" => left.sub(right),
            "*" => left.mul(right, self.scale),
            "/" => left.div(right, self.scale).ok_or_else(divide_by_zero)?,
            "%" => left.rem(right, self.scale).ok_or_else(divide_by_zero)?,
            "^" => left
                .pow(right, self.scale)
                .ok_or_else(|| Jump::Error("exponent too large or divide by zero".into()))?,
            "==" => Number::from_bool(left.compare(right) == Equal),
            "!=" => Number::from_bool(left.compare(right) != Equal),
            "<" => Number::from_bool(left.compare(right) == Less),
            "<=" => Number::from_bool(left.compare(right) != Greater),
            ">" => Number::from_bool(left.compare(right) == Greater),
            ">=" => Number::from_bool(left.compare(right) != Less),
            other => return Err(Jump::Error(format!("unknown operator {other}"))),
        })
    }

    fn load(&mut self, place: &Place) -> Eval<Number> {
        Ok(match place {
            Place::Var(name) => match name.as_str() {
                "scale" => Number::from_i64(self.scale as i64),
                "ibase" => Number::from_i64(i64::from(self.ibase)),
                "obase" => Number::from_i64(i64::from(self.obase)),
                _ => self.vars.get(name).cloned().unwrap_or_default(),
            },
            Place::Element(name, index) => {
                let index = self.index(index)?;
                self.arrays
                    .get(name)
                    .and_then(|a| a.get(&index))
                    .cloned()
                    .unwrap_or_default()
            }
        })
    }

    fn store(&mut self, place: &Place, value: Number) -> Eval<()> {
        match place {
            Place::Var(name) => match name.as_str() {
                "scale" => self.scale = small(&value, 0, 100_000, "scale")?,
                "ibase" => self.ibase = small(&value, 2, 16, "ibase")? as u32,
                "obase" => self.obase = small(&value, 2, 16, "obase")? as u32,
                _ => {
                    self.vars.insert(name.clone(), value);
                }
            },
            Place::Element(name, index) => {
                let index = self.index(index)?;
                self.arrays
                    .entry(name.clone())
                    .or_default()
                    .insert(index, value);
            }
        }
        Ok(())
    }

    fn index(&mut self, index: &Expr) -> Eval<i64> {
        let value = self.eval(index)?;
        small(&value, 0, 16_777_215, "array index").map(|i| i as i64)
    }

    fn call(&mut self, name: &str, args: &[Expr]) -> Eval<Number> {
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            values.push(self.eval(arg)?);
        }
        let one = |values: &[Number]| -> Eval<Number> {
            values
                .first()
                .cloned()
                .ok_or_else(|| Jump::Error(format!("{name}() needs an argument")))
        };
        match name {
            "sqrt" => one(&values)?
                .sqrt(self.scale)
                .ok_or_else(|| Jump::Error("Square root of a negative number".into())),
            "length" => Ok(Number::from_i64(one(&values)?.length() as i64)),
            "scale" => Ok(Number::from_i64(one(&values)?.scale() as i64)),
            "s" | "c" | "a" | "l" | "e" if self.mathlib && !self.functions.contains_key(name) => {
                let x = one(&values)?.to_f64();
                let y = match name {
                    "s" => x.sin(),
                    "c" => x.cos(),
                    "a" => x.atan(),
                    "l" if x <= 0.0 => {
                        return Err(Jump::Error("log of a non-positive number".into()));
                    }
                    "l" => x.ln(),
                    _ => x.exp(),
                };
                Ok(Number::from_f64(y, self.scale))
            }
            _ => self.call_user(name, values),
        }
    }

    fn call_user(&mut self, name: &str, values: Vec<Number>) -> Eval<Number> {
        let Some(function) = self.functions.get(name).cloned() else {
            return Err(Jump::Error(format!("Function {name} not defined.")));
        };
        if values.len() != function.params.len() {
            return Err(Jump::Error(format!(
                "Parameter number mismatch calling {name}"
            )));
        }
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Jump::Error(format!(
                "function nesting deeper than {MAX_CALL_DEPTH} calls"
            )));
        }
        self.shell.tick_command().map_err(Jump::Stop)?;
        let mut frame = Frame { saved: Vec::new() };
        for (param, value) in function.params.iter().zip(values) {
            frame
                .saved
                .push((param.clone(), self.vars.insert(param.clone(), value)));
        }
        for local in &function.locals {
            frame.saved.push((
                local.clone(),
                self.vars.insert(local.clone(), Number::zero()),
            ));
        }
        self.depth += 1;
        let mut result = Ok(Number::zero());
        for stmt in &function.body {
            match self.exec(stmt) {
                Ok(()) => {}
                Err(Jump::Return(value)) => {
                    result = Ok(value);
                    break;
                }
                Err(other) => {
                    result = Err(other);
                    break;
                }
            }
        }
        self.depth -= 1;
        for (name, old) in frame.saved.into_iter().rev() {
            match old {
                Some(old) => {
                    self.vars.insert(name, old);
                }
                None => {
                    self.vars.remove(&name);
                }
            }
        }
        result
    }
}

/// `value` as an integer within `low..=high`, for `scale`, bases, indices.
fn small(value: &Number, low: i64, high: i64, what: &str) -> Eval<usize> {
    let integer = num_traits::ToPrimitive::to_i64(&value.integer_part());
    match integer {
        Some(n) if (low..=high).contains(&n) => Ok(n as usize),
        _ => Err(Jump::Error(format!(
            "{what} out of range ({low} to {high})"
        ))),
    }
}

/// `print` strings take C escapes.
fn print_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some('a') => out.push('\x07'),
            Some('q') => out.push('"'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// Splits the program into chunks that parse on their own: lines, joined
/// while braces or parentheses are open.
fn split_statements(source: &str) -> Vec<String> {
    let mut chunks = Vec::new();
    let mut current = String::new();
    let mut depth = 0i32;
    let mut in_string = false;
    for line in source.lines() {
        for c in line.chars() {
            match c {
                '"' => in_string = !in_string,
                '{' | '(' if !in_string => depth += 1,
                '}' | ')' if !in_string => depth -= 1,
                _ => {}
            }
        }
        current.push_str(line);
        current.push('\n');
        if depth <= 0 && !in_string && !line.trim_end().ends_with('\\') {
            chunks.push(std::mem::take(&mut current));
            depth = 0;
        }
    }
    if !current.trim().is_empty() {
        chunks.push(current);
    }
    chunks
}
