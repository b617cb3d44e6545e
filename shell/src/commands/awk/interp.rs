//! Running an awk program: records and fields, variables and arrays
//! (passed to functions by reference), builtins, getline, redirections.

use std::collections::HashMap;

use indexmap::IndexMap;

use super::parser::{Dest, Expr, GetlineSource, Pattern, Program, Stmt};
use super::value::{Value, leading_number, number_to_string};
use crate::commands::matcher::Matcher;
use crate::interp::{Flow, Shell};
use crate::io::SharedReader;

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
    Stop(Flow),
}

type R<T> = Result<T, Jump>;

/// Where records come from.
enum RecordSource {
    Data { data: Vec<u8>, pos: usize },
    Stream(SharedReader),
}

pub struct Awk<'a> {
    pub shell: &'a mut Shell,
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
    range_active: Vec<bool>,
    regex_cache: HashMap<String, Matcher>,
    random_state: u64,
    seed: f64,
    pub exit_code: i32,
    exiting: bool,
}

fn rust_regex(pattern: &str) -> String {
    crate::regex_compat::ere_to_rust(pattern)
}

/// `printf`-formats one number (for OFMT/CONVFMT).
pub fn sprintf_number(format: &str, n: f64) -> String {
    format_values(format, &[Value::Num(n)], "%.6g")
}

/// awk's `sprintf`.
pub fn format_values(format: &str, values: &[Value], convfmt: &str) -> String {
    use crate::commands::printf::{Dialect, Spec, format_float, format_int, pad, parse_spec};
    const AWK_DIALECT: Dialect = Dialect {
        flags: "-+ #0",
        lengths: "hlLqjzt",
    };
    let chars: Vec<char> = format.chars().collect();
    let mut out = String::new();
    let mut next = 0;
    let take = |next: &mut usize| -> Value {
        let value = values.get(*next).cloned().unwrap_or_default();
        *next += 1;
        value
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        if chars.get(i + 1) == Some(&'%') {
            out.push('%');
            i += 2;
            continue;
        }
        let start = i;
        let Spec {
            flags,
            width,
            precision,
            conversion,
            end,
        } = parse_spec(&chars, start, &AWK_DIALECT, || take(&mut next).num() as i64);
        i = end;
        let Some(conversion) = conversion else {
            out.extend(&chars[start..]);
            break;
        };
        let value = take(&mut next);
        match conversion {
            'd' | 'i' => {
                let n = value.num();
                let n = if n.is_finite() { n.trunc() as i64 } else { 0 };
                out.push_str(&format_int(n, 'd', &flags, &width, precision));
            }
            'o' | 'x' | 'X' | 'u' => {
                let n = value.num();
                let n = if n.is_finite() { n.trunc() as i64 } else { 0 };
                out.push_str(&format_int(n, conversion, &flags, &width, precision));
            }
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => out.push_str(&format_float(
                value.num(),
                conversion,
                &flags,
                &width,
                precision,
            )),
            'c' => {
                let text = match &value {
                    Value::Num(n) => char::from_u32(*n as u32)
                        .map(String::from)
                        .unwrap_or_default(),
                    other => other
                        .string(convfmt)
                        .chars()
                        .next()
                        .map(String::from)
                        .unwrap_or_default(),
                };
                out.push_str(&pad(&text, &flags, &width));
            }
            's' => {
                let text = value.string(convfmt);
                let text = match precision {
                    Some(p) => text.chars().take(p).collect(),
                    None => text,
                };
                out.push_str(&pad(&text, &flags, &width));
            }
            other => {
                out.push('%');
                out.push(other);
            }
        }
    }
    out
}

impl<'a> Awk<'a> {
    pub fn new(
        shell: &'a mut Shell,
        program: &'a Program,
        operands: Vec<String>,
        assignments: &[(String, String)],
        field_separator: Option<String>,
    ) -> Self {
        let mut awk = Awk {
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
        if !program.rules.is_empty() || !program.end.is_empty() {
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

    fn run_rules(&mut self) -> R<()> {
        let program = self.program;
        for (index, rule) in program.rules.iter().enumerate() {
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
                    self.emit(text.as_bytes())?;
                }
            }
        }
        Ok(())
    }

    /// The next record of the main input (operands, or stdin).
    fn next_main_record(&mut self) -> R<Option<String>> {
        loop {
            if self.main.is_none() {
                if self.main_done {
                    return Ok(None);
                }
                if !self.open_next_operand()? {
                    self.main_done = true;
                    return Ok(None);
                }
            }
            let rs = self.global_string("RS");
            let source = self.main.as_mut().expect("opened");
            match read_record(source, &rs).map_err(|e| self.io_jump(e))? {
                Some(record) => return Ok(Some(record)),
                None => self.main = None,
            }
        }
    }

    fn io_jump(&mut self, error: std::io::Error) -> Jump {
        match self.shell.io_status("awk", error) {
            Err(flow) => Jump::Stop(flow),
            Ok(_) => Jump::Error("read error".to_string()),
        }
    }

    /// Opens the next file operand (processing `var=value` operands);
    /// stdin when there are none at all.
    fn open_next_operand(&mut self) -> R<bool> {
        let argc = self.get_var("ARGC").num() as usize;
        let argv = self.array_id_for_global("ARGV");
        while self.operand_index + 1 < argc.max(1) {
            self.operand_index += 1;
            let Some(operand) = self.arrays[argv]
                .get(&self.operand_index.to_string())
                .map(|v| v.string("%.6g"))
            else {
                continue;
            };
            if operand.is_empty() {
                continue;
            }
            if let Some((name, value)) = operand.split_once('=')
                && crate::parse::is_name(name)
            {
                self.set_var(name, Value::StrNum(process_escapes(value)));
                continue;
            }
            self.set_var("FILENAME", Value::Str(operand.clone()));
            self.set_var("FNR", Value::Num(0.0));
            if operand == "-" || operand == "/dev/stdin" {
                self.main = Some(self.stdin_source());
                return Ok(true);
            }
            match super::super::open_quiet(self.shell, &operand) {
                Ok(mut source) => {
                    let data = source.read_all().map_err(|e| self.io_jump(e))?;
                    self.main = Some(RecordSource::Data { data, pos: 0 });
                    return Ok(true);
                }
                Err(reason) => {
                    self.shell.fail_command(
                        "awk",
                        &format!("cannot open \"{operand}\" ({reason})"),
                        2,
                    );
                    self.exit_code = 2;
                }
            }
        }
        let any_file = (1..argc).any(|i| {
            self.arrays[argv].get(&i.to_string()).is_some_and(|v| {
                let text = v.string("%.6g");
                !text.is_empty()
                    && !text
                        .split_once('=')
                        .is_some_and(|(n, _)| crate::parse::is_name(n))
            })
        });
        if !any_file && !self.stdin_used {
            self.stdin_used = true;
            self.main = Some(self.stdin_source());
            return Ok(true);
        }
        Ok(false)
    }

    fn stdin_source(&self) -> RecordSource {
        match self.shell.fds().input(0) {
            Some(reader) => RecordSource::Stream(reader),
            None => RecordSource::Data {
                data: Vec::new(),
                pos: 0,
            },
        }
    }

    fn emit(&mut self, bytes: &[u8]) -> R<()> {
        self.output.extend_from_slice(bytes);
        if self.output.len() > 64 << 10 {
            self.flush()?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> R<()> {
        if self.output.is_empty() {
            return Ok(());
        }
        let data = std::mem::take(&mut self.output);
        if let Err(error) = self.shell.write_stdout(&data) {
            return Err(match self.shell.io_status("awk", error) {
                Err(flow) => Jump::Stop(flow),
                Ok(_) => Jump::Exit,
            });
        }
        Ok(())
    }

    /// Closes every redirection (at the end of the program).
    pub fn close_all(&mut self) -> R<()> {
        let names: Vec<String> = self.files.keys().cloned().collect();
        for name in names {
            self.close_output(&name);
        }
        let pipes: Vec<String> = self.pipes.keys().cloned().collect();
        for command in pipes {
            self.close_pipe(&command)?;
        }
        Ok(())
    }

    fn close_output(&mut self, name: &str) -> i32 {
        let Some((_, data)) = self.files.remove(name) else {
            return -1;
        };
        if name == "/dev/stderr" || name == "-" {
            return 0;
        }
        let Ok(path) = self.shell.cwd().resolve(name) else {
            return -1;
        };
        let result = self.shell.context().vfs.lock().append_file(&path, data);
        if result.is_ok() { 0 } else { -1 }
    }

    fn close_pipe(&mut self, command: &str) -> R<i32> {
        let Some(input) = self.pipes.shift_remove(command) else {
            return Ok(-1);
        };
        self.flush()?;
        self.run_command(command, Some(input), None)
    }

    /// Runs a shell command; with `capture`, collects its stdout.
    fn run_command(
        &mut self,
        command: &str,
        input: Option<Vec<u8>>,
        capture: Option<&mut Vec<u8>>,
    ) -> R<i32> {
        let mut child = self.shell.child_process();
        if let Some(input) = input {
            child
                .fds_mut()
                .set(0, crate::io::Fd::reader(crate::io::BytesReader::new(input)));
        }
        let buffer = crate::io::CaptureWriter::new(64 << 20);
        if capture.is_some() {
            child
                .fds_mut()
                .set(1, crate::io::Fd::writer(buffer.clone()));
        }
        let status = match child.run_script(command) {
            Ok(status) => status,
            Err(stopped) => return Err(Jump::Stop(Flow::Stop(stopped))),
        };
        if let Some(capture) = capture {
            capture.extend(buffer.take());
        }
        Ok(status)
    }

    // ----- statements -----

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
                self.write_to(dest, text.into_bytes())?;
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
                let text = format_values(&format, &values, &self.convfmt());
                self.write_to(dest, text.into_bytes())?;
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

    fn write_to(&mut self, dest: &Option<Dest>, bytes: Vec<u8>) -> R<()> {
        match dest {
            None => self.emit(&bytes),
            Some(Dest::File(expr)) | Some(Dest::Append(expr)) => {
                let name = self.eval(expr)?.string(&self.convfmt());
                match name.as_str() {
                    "/dev/stdout" | "-" => return self.emit(&bytes),
                    "/dev/stderr" => {
                        self.flush()?;
                        self.shell.write_stderr(&bytes);
                        return Ok(());
                    }
                    _ => {}
                }
                if !self.files.contains_key(&name) {
                    let append = matches!(dest, Some(Dest::Append(_)));
                    if let Ok(path) = self.shell.cwd().resolve(&name) {
                        let result = {
                            let mut vfs = self.shell.context().vfs.lock();
                            if append {
                                vfs.append_file(&path, Vec::new())
                            } else {
                                vfs.write_file(&path, Vec::new())
                            }
                        };
                        if let Err(error) = result {
                            return Err(Jump::Error(format!(
                                "can't redirect to `{name}' ({})",
                                error.errno.strerror()
                            )));
                        }
                    }
                    self.files.insert(name.clone(), (append, Vec::new()));
                }
                let entry = self.files.get_mut(&name).expect("inserted");
                entry.1.extend(bytes);
                if entry.1.len() > 64 << 10 {
                    let data = std::mem::take(&mut entry.1);
                    if let Ok(path) = self.shell.cwd().resolve(&name) {
                        let _ = self.shell.context().vfs.lock().append_file(&path, data);
                    }
                }
                Ok(())
            }
            Some(Dest::Pipe(expr)) => {
                let command = self.eval(expr)?.string(&self.convfmt());
                self.pipes.entry(command).or_default().extend(bytes);
                Ok(())
            }
        }
    }

    // ----- expressions -----

    fn assign(&mut self, target: &Expr, value: Value) -> R<Value> {
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

    fn compare(&self, left: &Value, right: &Value) -> std::cmp::Ordering {
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

    fn call(&mut self, name: &str, args: &[Expr]) -> R<Value> {
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
        let result = self.block(&function.body);
        self.frames.pop();
        match result {
            Ok(()) => Ok(Value::Uninit),
            Err(Jump::Return(value)) => Ok(value),
            Err(other) => Err(other),
        }
    }

    fn is_array_name(&self, name: &str) -> bool {
        if let Some(frame) = self.frames.last()
            && let Some(cell) = frame.get(name)
        {
            return matches!(cell, Cell::Array(_));
        }
        matches!(self.globals.get(name), Some(Cell::Array(_))) || self.used_as_array(name)
    }

    /// A global the program uses as an array somewhere (so that passing
    /// it before first use still passes by reference).
    fn used_as_array(&self, name: &str) -> bool {
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

    fn getline(&mut self, source: &GetlineSource, target: Option<&Expr>) -> R<Value> {
        let rs = self.global_string("RS");
        let record = match source {
            GetlineSource::Main => {
                let record = self.next_main_record()?;
                if record.is_some() {
                    let nr = self.get_var("NR").num() + 1.0;
                    self.set_var("NR", Value::Num(nr));
                    let fnr = self.get_var("FNR").num() + 1.0;
                    self.set_var("FNR", Value::Num(fnr));
                }
                record
            }
            GetlineSource::File(file) => {
                let name = self.eval(file)?.string(&self.convfmt());
                if !self.readers.contains_key(&name) {
                    let source = if name == "-" || name == "/dev/stdin" {
                        self.stdin_source()
                    } else {
                        match super::super::open_quiet(self.shell, &name) {
                            Ok(mut source) => RecordSource::Data {
                                data: source.read_all().unwrap_or_default(),
                                pos: 0,
                            },
                            Err(_) => return Ok(Value::Num(-1.0)),
                        }
                    };
                    self.readers.insert(name.clone(), source);
                }
                let reader = self.readers.get_mut(&name).expect("inserted");
                read_record(reader, &rs).map_err(|e| Jump::Error(e.to_string()))?
            }
            GetlineSource::Command(command) => {
                let command = self.eval(command)?.string(&self.convfmt());
                if !self.readers.contains_key(&command) {
                    self.flush()?;
                    let mut output = Vec::new();
                    self.run_command(&command, None, Some(&mut output))?;
                    self.readers.insert(
                        command.clone(),
                        RecordSource::Data {
                            data: output,
                            pos: 0,
                        },
                    );
                }
                let reader = self.readers.get_mut(&command).expect("inserted");
                let record = read_record(reader, &rs).map_err(|e| Jump::Error(e.to_string()))?;
                if record.is_some() {
                    let nr = self.get_var("NR").num() + 1.0;
                    self.set_var("NR", Value::Num(nr));
                }
                record
            }
        };
        let Some(record) = record else {
            return Ok(Value::Num(0.0));
        };
        match target {
            Some(target) => {
                self.assign(target, Value::StrNum(record))?;
            }
            None => self.set_record(record),
        }
        Ok(Value::Num(1.0))
    }

    fn random(&mut self) -> f64 {
        // xorshift64*, seeded by srand.
        let mut x = self.random_state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.random_state = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    fn builtin(&mut self, name: &str, args: &[Expr]) -> R<Value> {
        let convfmt = self.convfmt();
        let arg = |awk: &mut Self, i: usize| -> R<Value> {
            match args.get(i) {
                Some(expr) => awk.eval(expr),
                None => Ok(Value::Uninit),
            }
        };
        Ok(match name {
            "length" => match args.first() {
                None => Value::Num(self.record.chars().count() as f64),
                Some(Expr::Var(var)) if self.is_array_name(var) => {
                    let id = self.array_id(var);
                    Value::Num(self.arrays[id].len() as f64)
                }
                Some(expr) => Value::Num(self.eval(expr)?.string(&convfmt).chars().count() as f64),
            },
            "substr" => {
                let text: Vec<char> = arg(self, 0)?.string(&convfmt).chars().collect();
                let start = arg(self, 1)?.num();
                let start = if start.is_nan() {
                    1.0
                } else {
                    (start + 0.5).floor()
                };
                let length = if args.len() > 2 {
                    let l = arg(self, 2)?.num();
                    if l.is_nan() { 0.0 } else { (l + 0.5).floor() }
                } else {
                    f64::INFINITY
                };
                let end = (start + length).min(text.len() as f64 + 1.0);
                let begin = start.max(1.0);
                if end <= begin {
                    Value::Str(String::new())
                } else {
                    Value::Str(
                        text[(begin as usize - 1)..(end as usize - 1)]
                            .iter()
                            .collect(),
                    )
                }
            }
            "index" => {
                let text = arg(self, 0)?.string(&convfmt);
                let needle = arg(self, 1)?.string(&convfmt);
                Value::Num(
                    text.find(&needle)
                        .map_or(0, |byte| text[..byte].chars().count() + 1)
                        as f64,
                )
            }
            "split" => {
                let text = arg(self, 0)?.string(&convfmt);
                let Some(Expr::Var(array)) = args.get(1) else {
                    return Err(Jump::Error(
                        "split: second argument is not an array".to_string(),
                    ));
                };
                let pieces = match args.get(2) {
                    Some(Expr::Regex(pattern)) => {
                        let matcher = self.regex(pattern, false);
                        if text.is_empty() {
                            Vec::new()
                        } else {
                            split_regex(&text, matcher.as_ref())
                        }
                    }
                    Some(expr) => {
                        let fs = self.eval(expr)?.string(&convfmt);
                        self.split_with(&text, &fs, false)
                    }
                    None => {
                        let fs = self.global_string("FS");
                        self.split_with(&text, &fs, false)
                    }
                };
                let id = self.array_id(array);
                self.arrays[id].clear();
                for (i, piece) in pieces.iter().enumerate() {
                    self.arrays[id].insert((i + 1).to_string(), Value::StrNum(piece.clone()));
                }
                Value::Num(pieces.len() as f64)
            }
            "sub" | "gsub" => {
                let matcher = self.regex_of(
                    args.first()
                        .ok_or_else(|| Jump::Error(format!("{name}: missing regex")))?,
                )?;
                let replacement = arg(self, 1)?.string(&convfmt);
                let target = args
                    .get(2)
                    .cloned()
                    .unwrap_or(Expr::Field(Box::new(Expr::Num(0.0))));
                let text = self.eval(&target)?.string(&convfmt);
                let (result, count) = substitute(&text, &matcher, &replacement, name == "gsub");
                if count > 0 {
                    self.assign(&target, Value::Str(result))?;
                }
                Value::Num(count as f64)
            }
            "gensub" => {
                let matcher = self.regex_of(
                    args.first()
                        .ok_or_else(|| Jump::Error("gensub: missing regex".to_string()))?,
                )?;
                let replacement = arg(self, 1)?.string(&convfmt);
                let how = arg(self, 2)?.string(&convfmt);
                let text = if args.len() > 3 {
                    arg(self, 3)?.string(&convfmt)
                } else {
                    self.record.clone()
                };
                Value::Str(gensub(&text, &matcher, &replacement, &how))
            }
            "match" => {
                let text = arg(self, 0)?.string(&convfmt);
                let matcher = self.regex_of(
                    args.get(1)
                        .ok_or_else(|| Jump::Error("match: missing regex".to_string()))?,
                )?;
                let found = matcher.find_at(&text, 0);
                let (start, length) = match &found {
                    Some(found) => (
                        text[..found.start].chars().count() + 1,
                        text[found.start..found.end].chars().count() as i64,
                    ),
                    None => (0, -1),
                };
                self.set_var("RSTART", Value::Num(start as f64));
                self.set_var("RLENGTH", Value::Num(length as f64));
                if let (Some(Expr::Var(array)), Some(found)) = (args.get(2), &found) {
                    let id = self.array_id(array);
                    self.arrays[id].clear();
                    for (i, group) in found.groups.iter().enumerate() {
                        if let Some((s, e)) = group {
                            self.arrays[id]
                                .insert(i.to_string(), Value::StrNum(text[*s..*e].to_string()));
                        }
                    }
                }
                Value::Num(start as f64)
            }
            "sprintf" => {
                let format = arg(self, 0)?.string(&convfmt);
                let mut values = Vec::new();
                for i in 1..args.len() {
                    values.push(arg(self, i)?);
                }
                Value::Str(format_values(&format, &values, &convfmt))
            }
            "sin" => Value::Num(arg(self, 0)?.num().sin()),
            "cos" => Value::Num(arg(self, 0)?.num().cos()),
            "atan2" => {
                let y = arg(self, 0)?.num();
                Value::Num(y.atan2(arg(self, 1)?.num()))
            }
            "exp" => Value::Num(arg(self, 0)?.num().exp()),
            "log" => Value::Num(arg(self, 0)?.num().ln()),
            "sqrt" => Value::Num(arg(self, 0)?.num().sqrt()),
            "int" => Value::Num(arg(self, 0)?.num().trunc()),
            "rand" => Value::Num(self.random()),
            "srand" => {
                let previous = self.seed;
                let seed = if args.is_empty() {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_secs() as f64)
                        .unwrap_or(0.0)
                } else {
                    arg(self, 0)?.num()
                };
                self.seed = seed;
                self.random_state = (seed as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                Value::Num(previous)
            }
            "tolower" => Value::Str(arg(self, 0)?.string(&convfmt).to_lowercase()),
            "toupper" => Value::Str(arg(self, 0)?.string(&convfmt).to_uppercase()),
            "system" => {
                let command = arg(self, 0)?.string(&convfmt);
                self.flush()?;
                Value::Num(self.run_command(&command, None, None)? as f64)
            }
            "close" => {
                let name = arg(self, 0)?.string(&convfmt);
                let mut status = self.close_output(&name);
                if self.pipes.contains_key(&name) {
                    status = self.close_pipe(&name)?;
                }
                if self.readers.remove(&name).is_some() {
                    status = 0;
                }
                Value::Num(status as f64)
            }
            "fflush" => {
                self.flush()?;
                Value::Num(0.0)
            }
            "systime" => Value::Num(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs() as f64)
                    .unwrap_or(0.0),
            ),
            "strftime" => {
                let format = if args.is_empty() {
                    "%a %b %e %H:%M:%S %Z %Y".to_string()
                } else {
                    arg(self, 0)?.string(&convfmt)
                };
                let time = if args.len() > 1 {
                    arg(self, 1)?.num() as i64
                } else {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_secs() as i64)
                        .unwrap_or(0)
                };
                Value::Str(crate::commands::strftime_utc(&format, time))
            }
            other => return Err(Jump::Error(format!("function `{other}' not defined"))),
        })
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

fn arithmetic(op: &str, a: f64, b: f64) -> R<f64> {
    Ok(match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" => {
            if b == 0.0 {
                return Err(Jump::Error("division by zero".to_string()));
            }
            a / b
        }
        "%" => {
            if b == 0.0 {
                return Err(Jump::Error("division by zero in %".to_string()));
            }
            a % b
        }
        _ => a.powf(b),
    })
}

fn split_regex(text: &str, matcher: Option<&Matcher>) -> Vec<String> {
    let Some(matcher) = matcher else {
        return vec![text.to_string()];
    };
    let mut pieces = Vec::new();
    let mut last = 0;
    for found in matcher.find_all(text) {
        if found.end == found.start {
            continue;
        }
        pieces.push(text[last..found.start].to_string());
        last = found.end;
    }
    pieces.push(text[last..].to_string());
    pieces
}

/// `sub`/`gsub`: `&` is the match, `\&` a literal ampersand.
fn substitute(text: &str, matcher: &Matcher, replacement: &str, global: bool) -> (String, usize) {
    let mut out = String::new();
    let mut last = 0;
    let mut count = 0;
    for found in matcher.matches(text) {
        out.push_str(&text[last..found.start]);
        let matched = &text[found.start..found.end];
        let mut chars = replacement.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.peek() {
                    Some('&') => {
                        out.push('&');
                        chars.next();
                    }
                    Some('\\') => {
                        out.push('\\');
                        chars.next();
                    }
                    _ => out.push('\\'),
                },
                '&' => out.push_str(matched),
                c => out.push(c),
            }
        }
        count += 1;
        last = found.end;
        if !global {
            break;
        }
    }
    out.push_str(&text[last..]);
    (out, count)
}

/// gawk's `gensub`: `\\0`/`&` the match, `\\N` groups; `how` is "g" or N.
fn gensub(text: &str, matcher: &Matcher, replacement: &str, how: &str) -> String {
    let global = how.starts_with('g') || how.starts_with('G');
    let which: usize = if global {
        0
    } else {
        leading_number(how).max(1.0) as usize
    };
    let mut out = String::new();
    let mut last = 0;
    for (index, found) in matcher.matches(text).enumerate() {
        if global || index + 1 == which {
            out.push_str(&text[last..found.start]);
            let mut chars = replacement.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some(d @ '0'..='9') => {
                            let n = d.to_digit(10).unwrap_or(0) as usize;
                            if let Some(Some((s, e))) = found.groups.get(n) {
                                out.push_str(&text[*s..*e]);
                            }
                        }
                        Some('&') => out.push('&'),
                        Some(other) => out.push(other),
                        None => out.push('\\'),
                    },
                    '&' => out.push_str(&text[found.start..found.end]),
                    c => out.push(c),
                }
            }
            last = found.end;
            if !global {
                break;
            }
        }
    }
    out.push_str(&text[last..]);
    out
}

/// Reads one record with record separator `rs` (newline, one character,
/// `""` for paragraphs, or a regex).
fn read_record(source: &mut RecordSource, rs: &str) -> std::io::Result<Option<String>> {
    if let RecordSource::Stream(reader) = source {
        if rs == "\n" || rs.chars().count() == 1 {
            let delimiter = rs.as_bytes()[0];
            let mut bytes = Vec::new();
            let n = crate::io::read_until_capped(
                &mut *reader.lock(),
                delimiter,
                &mut bytes,
                crate::io::BUFFERED_INPUT_LIMIT,
            )?;
            if n == 0 {
                return Ok(None);
            }
            if bytes.last() == Some(&delimiter) {
                bytes.pop();
            }
            return Ok(Some(String::from_utf8_lossy(&bytes).into_owned()));
        }
        let data =
            crate::io::read_to_end_capped(&mut *reader.lock(), crate::io::BUFFERED_INPUT_LIMIT)?;
        *source = RecordSource::Data { data, pos: 0 };
    }
    let RecordSource::Data { data, pos } = source else {
        unreachable!("converted above")
    };
    if *pos >= data.len() {
        return Ok(None);
    }
    let rest = &data[*pos..];
    if rs.is_empty() {
        // Paragraph mode: skip leading newlines, end at a blank line.
        let start = rest.iter().take_while(|b| **b == b'\n').count();
        if start >= rest.len() {
            *pos = data.len();
            return Ok(None);
        }
        let body = &rest[start..];
        let end = body
            .windows(2)
            .position(|w| w == b"\n\n")
            .unwrap_or(body.len());
        let record = String::from_utf8_lossy(&body[..end])
            .trim_end_matches('\n')
            .to_string();
        let mut next = start + end;
        while next < rest.len() && rest[next] == b'\n' {
            next += 1;
        }
        *pos += next;
        return Ok(Some(record));
    }
    if rs.chars().count() == 1 {
        let delimiter = rs.as_bytes()[0];
        let end = rest.iter().position(|b| *b == delimiter);
        let record = String::from_utf8_lossy(&rest[..end.unwrap_or(rest.len())]).into_owned();
        *pos += end.map_or(rest.len(), |e| e + 1);
        return Ok(Some(record));
    }
    let text = String::from_utf8_lossy(rest).into_owned();
    let matcher = Matcher::from_rust(&rust_regex(rs), false).ok();
    let found = matcher
        .as_ref()
        .and_then(|m| m.find_at(&text, 0).filter(|f| f.end > f.start));
    match found {
        Some(found) => {
            *pos += found.end;
            Ok(Some(text[..found.start].to_string()))
        }
        None => {
            *pos = data.len();
            Ok(Some(text.trim_end_matches('\n').to_string()))
        }
    }
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
        Ok(tokens) => match tokens.first() {
            Some(super::lexer::Token::Str(s)) => s.clone(),
            _ => text.to_string(),
        },
        Err(_) => text.to_string(),
    }
}
