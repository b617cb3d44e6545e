//! Running an awk program: records and fields, variables and arrays
//! (passed to functions by reference), builtins, getline, redirections.

use std::collections::HashMap;

use indexmap::IndexMap;

use super::parser::{Dest, Expr, GetlineSource, Pattern, Program, Stmt};
use super::value::{Value, leading_number, number_to_string};
use crate::matcher::Matcher;
use goccia_interp::interp::{Flow, ShellView};
use goccia_interp::io::SharedReader;

mod builtins;
mod eval;
mod io;

use super::format::format_values;
use builtins::split_regex;

type Array = IndexMap<String, Value>;

/// A variable's storage: a scalar, or a reference to an array.
#[derive(Clone, Debug)]
enum Cell {
    Scalar(Value),
    Array(usize),
}

/// Why execution leaves the normal flow.
pub enum Jump {
    Next,
    NextFile,
    Exit,
    Return(Value),
    Break,
    Continue,
    Error(String),
    /// The write policy refused a file: `awk: <file>: <denial>`, status 1.
    Denied(String),
    Stop(Flow),
}

type R<T> = Result<T, Jump>;

/// Where records come from.
enum RecordSource {
    Data { data: Vec<u8>, pos: usize },
    Stream(SharedReader),
}

pub struct Awk<'a> {
    pub shell: &'a mut ShellView,
    program: &'a Program,
    globals: HashMap<String, Cell>,
    arrays: Vec<Array>,
    frames: Vec<HashMap<String, Cell>>,
    record: String,
    fields: Vec<String>,
    split_done: bool,
    output: Vec<u8>,
    files: HashMap<String, (bool, Vec<u8>)>,
    pipes: IndexMap<String, Vec<u8>>,
    readers: HashMap<String, RecordSource>,
    operand_index: usize,
    main: Option<RecordSource>,
    main_done: bool,
    stdin_used: bool,
    /// An input file is open for the main loop (its ENDFILE is owed).
    in_file: bool,
    range_active: Vec<bool>,
    regex_cache: HashMap<String, Matcher>,
    random_state: u64,
    seed: f64,
    pub exit_code: i32,
    exiting: bool,
    /// The source line of the statement running (for gawk's `cmd.
    /// line:N:` before a fatal error).
    pub line: u32,
}

fn rust_regex(pattern: &str) -> String {
    goccia_interp::regex_compat::ere_to_rust(pattern)
}

impl<'a> Awk<'a> {
    pub fn new(
        shell: &'a mut ShellView,
        program: &'a Program,
        operands: Vec<String>,
        assignments: &[(String, String)],
        field_separator: Option<String>,
    ) -> Self {
        let mut awk = Awk {
            line: 1,
            shell,
            program,
            globals: HashMap::new(),
            arrays: Vec::new(),
            frames: Vec::new(),
            record: String::new(),
            fields: Vec::new(),
            split_done: true,
            output: Vec::new(),
            files: HashMap::new(),
            pipes: IndexMap::new(),
            readers: HashMap::new(),
            operand_index: 0,
            main: None,
            main_done: false,
            in_file: false,
            stdin_used: false,
            range_active: vec![false; program.rules.len()],
            regex_cache: HashMap::new(),
            random_state: 0x853c_49e6_748f_ea9b,
            seed: 0.0,
            exit_code: 0,
            exiting: false,
        };
        for (name, value) in [
            ("FS", " "),
            ("OFS", " "),
            ("ORS", "\n"),
            ("RS", "\n"),
            ("SUBSEP", "\x1c"),
            ("CONVFMT", "%.6g"),
            ("OFMT", "%.6g"),
            ("FILENAME", ""),
        ] {
            awk.set_global(name, Value::Str(value.to_string()));
        }
        awk.set_global("NR", Value::Num(0.0));
        awk.set_global("FNR", Value::Num(0.0));
        awk.set_global("NF", Value::Num(0.0));
        awk.set_global("RSTART", Value::Num(0.0));
        awk.set_global("RLENGTH", Value::Num(-1.0));
        if let Some(fs) = field_separator {
            awk.set_global("FS", Value::Str(fs));
        }
        let argv = awk.array_id_for_global("ARGV");
        awk.arrays[argv].insert("0".to_string(), Value::Str("awk".to_string()));
        for (i, operand) in operands.iter().enumerate() {
            awk.arrays[argv].insert((i + 1).to_string(), Value::StrNum(operand.clone()));
        }
        awk.set_global("ARGC", Value::Num((operands.len() + 1) as f64));
        let environ = awk.array_id_for_global("ENVIRON");
        for (name, value) in awk.shell.exported() {
            awk.arrays[environ].insert(name, Value::StrNum(value));
        }
        for (name, value) in assignments {
            awk.set_global(name, Value::StrNum(process_escapes(value)));
        }
        awk
    }

    // ----- variables -----

    fn convfmt(&self) -> String {
        self.global_string("CONVFMT")
    }

    fn global_string(&self, name: &str) -> String {
        match self.globals.get(name) {
            Some(Cell::Scalar(value)) => value.string("%.6g"),
            _ => String::new(),
        }
    }

    fn set_global(&mut self, name: &str, value: Value) {
        self.globals.insert(name.to_string(), Cell::Scalar(value));
    }

    fn array_id_for_global(&mut self, name: &str) -> usize {
        if let Some(Cell::Array(id)) = self.globals.get(name) {
            return *id;
        }
        self.arrays.push(Array::new());
        let id = self.arrays.len() - 1;
        self.globals.insert(name.to_string(), Cell::Array(id));
        id
    }

    /// The array a name refers to (creating it).
    fn array_id(&mut self, name: &str) -> usize {
        if let Some(frame) = self.frames.last_mut()
            && let Some(cell) = frame.get(name)
        {
            match cell {
                Cell::Array(id) => return *id,
                Cell::Scalar(Value::Uninit) => {
                    self.arrays.push(Array::new());
                    let id = self.arrays.len() - 1;
                    self.frames
                        .last_mut()
                        .expect("frame")
                        .insert(name.to_string(), Cell::Array(id));
                    return id;
                }
                Cell::Scalar(_) => {}
            }
        }
        self.array_id_for_global(name)
    }

    fn get_var(&mut self, name: &str) -> Value {
        if name == "NF" {
            self.ensure_split();
            return Value::Num(self.fields.len() as f64);
        }
        if let Some(frame) = self.frames.last()
            && let Some(Cell::Scalar(value)) = frame.get(name)
        {
            return value.clone();
        }
        match self.globals.get(name) {
            Some(Cell::Scalar(value)) => value.clone(),
            _ => Value::Uninit,
        }
    }

    fn set_var(&mut self, name: &str, value: Value) {
        if name == "NF" {
            self.ensure_split();
            let n = value.num().max(0.0) as usize;
            self.fields.resize(n, String::new());
            self.rebuild_record();
            return;
        }
        if let Some(frame) = self.frames.last_mut()
            && let Some(cell) = frame.get_mut(name)
        {
            *cell = Cell::Scalar(value);
            return;
        }
        self.globals.insert(name.to_string(), Cell::Scalar(value));
    }

    fn subscript(&mut self, subscripts: &[Expr]) -> R<String> {
        if subscripts.len() == 1 {
            let value = self.eval(&subscripts[0])?;
            return Ok(self.key_string(&value));
        }
        let separator = self.global_string("SUBSEP");
        let mut parts = Vec::new();
        for expr in subscripts {
            let value = self.eval(expr)?;
            parts.push(self.key_string(&value));
        }
        Ok(parts.join(&separator))
    }

    fn key_string(&self, value: &Value) -> String {
        match value {
            Value::Num(n) if *n == n.trunc() && n.abs() < 1e16 => format!("{}", *n as i64),
            other => other.string(&self.convfmt()),
        }
    }

    // ----- records and fields -----

    fn set_record(&mut self, text: String) {
        self.record = text;
        self.split_done = false;
    }

    fn ensure_split(&mut self) {
        if self.split_done {
            return;
        }
        self.split_done = true;
        let fs = self.global_string("FS");
        let paragraph = self.global_string("RS").is_empty();
        self.fields = self.split_with(&self.record.clone(), &fs, paragraph);
    }

    fn split_with(&mut self, text: &str, fs: &str, paragraph: bool) -> Vec<String> {
        if text.is_empty() {
            return Vec::new();
        }
        if fs == " " {
            return text
                .split([' ', '\t', '\n'])
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
        }
        let mut pieces: Vec<String> = if fs.is_empty() {
            text.chars().map(String::from).collect()
        } else if fs.chars().count() == 1 && fs != "\\" {
            let c = fs.chars().next().unwrap_or(' ');
            if c == '\t' || !"^$.[]|()*+?{}".contains(c) {
                text.split(c).map(str::to_string).collect()
            } else {
                let matcher = self.regex(&regex::escape(fs), true);
                split_regex(text, matcher.as_ref())
            }
        } else {
            let matcher = self.regex(fs, false);
            split_regex(text, matcher.as_ref())
        };
        if paragraph {
            pieces = pieces
                .into_iter()
                .flat_map(|p| p.split('\n').map(str::to_string).collect::<Vec<_>>())
                .collect();
        }
        pieces
    }

    fn rebuild_record(&mut self) {
        let ofs = self.global_string("OFS");
        self.record = self.fields.join(&ofs);
    }

    fn get_field(&mut self, index: usize) -> Value {
        if index == 0 {
            return Value::StrNum(self.record.clone());
        }
        self.ensure_split();
        match self.fields.get(index - 1) {
            Some(field) => Value::StrNum(field.clone()),
            None => Value::Uninit,
        }
    }

    fn set_field(&mut self, index: usize, value: String) {
        if index == 0 {
            self.set_record(value);
            return;
        }
        self.ensure_split();
        if self.fields.len() < index {
            self.fields.resize(index, String::new());
        }
        self.fields[index - 1] = value;
        self.rebuild_record();
    }

    // ----- regexes -----

    fn regex(&mut self, pattern: &str, already_rust: bool) -> Option<Matcher> {
        let key = format!("{}{pattern}", if already_rust { "r" } else { "e" });
        if let Some(matcher) = self.regex_cache.get(&key) {
            return Some(matcher.clone());
        }
        let translated = if already_rust {
            pattern.to_string()
        } else {
            rust_regex(pattern)
        };
        let matcher = Matcher::from_rust(&translated, false).ok()?;
        self.regex_cache.insert(key, matcher.clone());
        Some(matcher)
    }

    /// The regex an expression denotes (`/re/` or a dynamic string).
    fn regex_of(&mut self, expr: &Expr) -> R<Matcher> {
        let pattern = match expr {
            Expr::Regex(pattern) => pattern.clone(),
            other => {
                let value = self.eval(other)?;
                value.string(&self.convfmt())
            }
        };
        self.regex(&pattern, false)
            .ok_or_else(|| Jump::Error(format!("invalid regular expression: /{pattern}/")))
    }

    // ----- running -----

    pub fn run(&mut self) -> Result<(), Jump> {
        let program = self.program;
        for block in &program.begin {
            match self.block(block) {
                Ok(()) => {}
                Err(Jump::Exit) => {
                    self.run_end()?;
                    return Ok(());
                }
                Err(Jump::Next) | Err(Jump::NextFile) => {}
                Err(other) => return Err(other),
            }
        }
        let reads_input = !program.rules.is_empty()
            || !program.end.is_empty()
            || !program.begin_file.is_empty()
            || !program.end_file.is_empty();
        if reads_input {
            while let Some(record) = self.next_main_record()? {
                self.set_record(record);
                self.increment_counters();
                match self.run_rules() {
                    Ok(()) | Err(Jump::Next) => {}
                    Err(Jump::NextFile) => self.main = None,
                    Err(Jump::Exit) => break,
                    Err(other) => return Err(other),
                }
            }
        }
        self.run_end()
    }

    fn run_end(&mut self) -> Result<(), Jump> {
        if self.exiting && self.end_already_ran() {
            return Ok(());
        }
        let program = self.program;
        for block in &program.end {
            match self.block(block) {
                Ok(()) | Err(Jump::Next) | Err(Jump::NextFile) => {}
                Err(Jump::Exit) => break,
                Err(other) => return Err(other),
            }
        }
        Ok(())
    }

    fn end_already_ran(&self) -> bool {
        false
    }

    fn increment_counters(&mut self) {
        let nr = self.get_var("NR").num() + 1.0;
        self.set_var("NR", Value::Num(nr));
        let fnr = self.get_var("FNR").num() + 1.0;
        self.set_var("FNR", Value::Num(fnr));
    }

    /// gawk's note of the input being read, before a fatal error's words:
    /// `(FILENAME=NAME FNR=N) `, once a record was read.
    pub fn input_context(&mut self) -> String {
        let fnr = self.get_var("FNR").num();
        if fnr <= 0.0 {
            return String::new();
        }
        let name = self.global_string("FILENAME");
        let name = if name.is_empty() {
            "-".to_string()
        } else {
            name
        };
        format!("(FILENAME={name} FNR={fnr}) ")
    }

    fn run_rules(&mut self) -> R<()> {
        let program = self.program;
        for (index, rule) in program.rules.iter().enumerate() {
            self.line = rule.line;
            let selected = match &rule.pattern {
                Pattern::All => true,
                Pattern::Expr(expr) => self.eval(expr)?.truthy(),
                Pattern::Range(start, end) => {
                    if self.range_active[index] {
                        if self.eval(end)?.truthy() {
                            self.range_active[index] = false;
                        }
                        true
                    } else if self.eval(start)?.truthy() {
                        self.range_active[index] = !self.eval(end)?.truthy();
                        true
                    } else {
                        false
                    }
                }
            };
            if !selected {
                continue;
            }
            match &rule.action {
                Some(action) => self.block(action)?,
                None => {
                    let text = format!("{}{}", self.record, self.global_string("ORS"));
                    self.emit(&goccia_interp::raw::encode(&text))?;
                }
            }
        }
        Ok(())
    }

    fn block(&mut self, statements: &[Stmt]) -> R<()> {
        for statement in statements {
            self.statement(statement)?;
        }
        Ok(())
    }

    fn statement(&mut self, statement: &Stmt) -> R<()> {
        match statement {
            Stmt::Expr(expr) => {
                self.eval(expr)?;
            }
            Stmt::Print { args, dest } => {
                let ofs = self.global_string("OFS");
                let ors = self.global_string("ORS");
                let ofmt = self.global_string("OFMT");
                let text = if args.is_empty() {
                    format!("{}{ors}", self.record)
                } else {
                    let mut parts = Vec::with_capacity(args.len());
                    for arg in args {
                        let value = self.eval(arg)?;
                        parts.push(match value {
                            Value::Num(n) => number_to_string(n, &ofmt),
                            other => other.string(&ofmt),
                        });
                    }
                    format!("{}{ors}", parts.join(&ofs))
                };
                self.write_to(dest, goccia_interp::raw::encode_string(text))?;
            }
            Stmt::Printf { args, dest } => {
                if args.is_empty() {
                    return Ok(());
                }
                let format = self.eval(&args[0])?.string(&self.convfmt());
                let mut values = Vec::new();
                for arg in &args[1..] {
                    values.push(self.eval(arg)?);
                }
                let text = format_values(&format, &values, &self.convfmt()).map_err(Jump::Error)?;
                self.write_to(dest, goccia_interp::raw::encode_string(text))?;
            }
            Stmt::If(cond, then, otherwise) => {
                if self.eval(cond)?.truthy() {
                    self.statement(then)?;
                } else if let Some(otherwise) = otherwise {
                    self.statement(otherwise)?;
                }
            }
            Stmt::While(cond, body) => {
                while self.eval(cond)?.truthy() {
                    self.tick()?;
                    match self.statement(body) {
                        Ok(()) | Err(Jump::Continue) => {}
                        Err(Jump::Break) => break,
                        Err(other) => return Err(other),
                    }
                }
            }
            Stmt::DoWhile(body, cond) => loop {
                self.tick()?;
                match self.statement(body) {
                    Ok(()) | Err(Jump::Continue) => {}
                    Err(Jump::Break) => break,
                    Err(other) => return Err(other),
                }
                if !self.eval(cond)?.truthy() {
                    break;
                }
            },
            Stmt::For(init, cond, step, body) => {
                if let Some(init) = init {
                    self.statement(init)?;
                }
                loop {
                    self.tick()?;
                    if let Some(cond) = cond
                        && !self.eval(cond)?.truthy()
                    {
                        break;
                    }
                    match self.statement(body) {
                        Ok(()) | Err(Jump::Continue) => {}
                        Err(Jump::Break) => break,
                        Err(other) => return Err(other),
                    }
                    if let Some(step) = step {
                        self.statement(step)?;
                    }
                }
            }
            Stmt::ForIn(var, array, body) => {
                let id = self.array_id(array);
                let keys = sorted_keys(&self.arrays[id]);
                for key in keys {
                    self.tick()?;
                    if !self.arrays[id].contains_key(&key) {
                        continue;
                    }
                    self.set_var(var, Value::StrNum(key));
                    match self.statement(body) {
                        Ok(()) | Err(Jump::Continue) => {}
                        Err(Jump::Break) => break,
                        Err(other) => return Err(other),
                    }
                }
            }
            Stmt::Block(statements) => self.block(statements)?,
            Stmt::Line(line) => self.line = *line,
            Stmt::Next => return Err(Jump::Next),
            Stmt::NextFile => return Err(Jump::NextFile),
            Stmt::Exit(code) => {
                if let Some(code) = code {
                    self.exit_code = self.eval(code)?.num() as i32;
                }
                self.exiting = true;
                return Err(Jump::Exit);
            }
            Stmt::Return(value) => {
                let value = match value {
                    Some(expr) => self.eval(expr)?,
                    None => Value::Uninit,
                };
                return Err(Jump::Return(value));
            }
            Stmt::Break => return Err(Jump::Break),
            Stmt::Continue => return Err(Jump::Continue),
            Stmt::Delete(name, subscripts) => {
                let id = self.array_id(name);
                match subscripts {
                    Some(subscripts) => {
                        let key = self.subscript(subscripts)?;
                        self.arrays[id].shift_remove(&key);
                    }
                    None => self.arrays[id].clear(),
                }
            }
        }
        Ok(())
    }

    fn tick(&mut self) -> R<()> {
        self.shell.check_watch().map_err(Jump::Stop)
    }
}

/// `for (k in a)` visits keys in a stable order: numerically when every
/// key is a number, else as strings (awk leaves the order unspecified).
fn sorted_keys(array: &Array) -> Vec<String> {
    let mut keys: Vec<String> = array.keys().cloned().collect();
    if keys.iter().all(|k| super::value::looks_numeric(k)) {
        keys.sort_by(|a, b| {
            leading_number(a)
                .partial_cmp(&leading_number(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    } else {
        keys.sort();
    }
    keys
}

/// `-v` and operand assignments process escape sequences.
fn process_escapes(text: &str) -> String {
    let mut lexer_input = String::from("\"");
    for c in text.chars() {
        if c == '"' {
            lexer_input.push_str("\\\"");
        } else {
            lexer_input.push(c);
        }
    }
    lexer_input.push('"');
    match super::lexer::Lexer::new(&lexer_input).tokens() {
        Ok(lexed) => match lexed.tokens.first() {
            Some(super::lexer::Token::Str(s)) => s.clone(),
            _ => text.to_string(),
        },
        Err(_) => text.to_string(),
    }
}
