//! Compiling and running a jq program with jaq, over inputs that come
//! from the VFS or the shell's stdin only.

use std::cell::RefCell;
use std::io::{self, Write};

use jaq_core::load;
use std::rc::Rc;

use jaq_core::load::{Arena, File, Loader};
use jaq_core::{Ctx, DataT, Error, Exn, Vars, data::HasLut};
use jaq_json::Val;
use jaq_std::input::{HasInputs, Inputs, RcIter};

use super::natives::{EXTRA_DEFS, functions};
use super::options::Options;
use super::stream::{Input, Position, Printer, input_values};

/// jaq's data kind for this command: JSON values, and global data that
/// gives natives the inputs, the environment and a stderr buffer.
pub(crate) struct JqData;

impl DataT for JqData {
    type V<'a> = Val;
    type Data<'a> = &'a Global<'a>;
}

type Lut = jaq_core::Lut<JqData>;

pub(crate) struct Global<'a> {
    lut: &'a Lut,
    inputs: Inputs<'a, Val>,
    pub env: Val,
    pub stderr: RefCell<Vec<u8>>,
    pub position: Rc<RefCell<Position>>,
}

impl<'a> HasLut<'a, JqData> for &'a Global<'a> {
    fn lut(&self) -> &'a Lut {
        self.lut
    }
}

impl<'a> HasInputs<'a, Val> for &'a Global<'a> {
    fn inputs(&self) -> Inputs<'a, Val> {
        self.inputs
    }
}

/// What a run did, for the exit status and stderr.
#[derive(Default)]
pub(crate) struct Outcome {
    pub stderr: Vec<u8>,
    /// Whether the last output was truthy (`-e`), `None` without output.
    pub last: Option<bool>,
    pub runtime_error: bool,
    pub input_error: bool,
    pub halted: Option<i32>,
    /// The sandbox's deadline or cancellation stopped the filter.
    pub interrupted: bool,
    /// Writing the output failed.
    pub io: Option<io::Error>,
}

/// A compiled filter with the values of its global variables.
pub(crate) struct Program {
    filter: jaq_core::Filter<JqData>,
    globals: Vec<Val>,
    env: Val,
}

/// Global variables, in the order the compiler is given them.
pub(crate) struct Globals {
    pub named: Vec<(String, Val)>,
    pub positional: Vec<Val>,
    pub env: Vec<(String, String)>,
}

impl Program {
    /// Parses and compiles `code`; the error is jq-shaped text for stderr.
    pub fn compile(code: &str, globals: Globals) -> Result<Program, String> {
        let env = Val::obj(
            globals
                .env
                .into_iter()
                .map(|(k, v)| (Val::from(k), Val::from(v)))
                .collect(),
        );
        let args = Val::obj(
            [
                (
                    Val::from("positional".to_string()),
                    globals.positional.into_iter().collect(),
                ),
                (
                    Val::from("named".to_string()),
                    Val::obj(
                        globals
                            .named
                            .iter()
                            .map(|(k, v)| (Val::from(k.clone()), v.clone()))
                            .collect(),
                    ),
                ),
            ]
            .into_iter()
            .collect(),
        );
        let names: Vec<String> = ["$ENV".to_string(), "$ARGS".to_string()]
            .into_iter()
            .chain(globals.named.iter().map(|(name, _)| format!("${name}")))
            .collect();
        let mut values = vec![env.clone(), args];
        values.extend(globals.named.into_iter().map(|(_, value)| value));

        let defs = jaq_core::defs()
            .chain(jaq_std::defs())
            .chain(jaq_json::defs())
            .chain(jaq_core::load::parse(EXTRA_DEFS, |p| p.defs()).unwrap_or_default());
        let loader = Loader::new(defs);
        let arena = Arena::default();
        let modules = loader
            .load(&arena, File { code, path: () })
            .map_err(|errors| load_errors(code, errors))?;
        let filter = jaq_core::Compiler::default()
            .with_funs(functions())
            .with_global_vars(names.iter().map(String::as_str))
            .compile(modules)
            .map_err(compile_errors)?;
        Ok(Program {
            filter,
            globals: values,
            env,
        })
    }

    /// Runs the filter over `inputs`, writing outputs to `out`; `stop`
    /// is polled by the interpreter and ends the run when it says so.
    pub fn run(
        &self,
        inputs: Vec<Input>,
        options: &Options,
        out: &mut dyn Write,
        stop: impl Fn() -> bool + 'static,
    ) -> Outcome {
        jaq_core::interrupt::set_check(Some(Box::new(stop)));
        let outcome = self.run_inner(inputs, options, out);
        jaq_core::interrupt::set_check(None);
        outcome
    }

    fn run_inner(&self, inputs: Vec<Input>, options: &Options, out: &mut dyn Write) -> Outcome {
        let position = Rc::new(RefCell::new(Position::default()));
        let values = input_values(inputs, options, position.clone());
        let iter = RcIter::new(values);
        let global = Global {
            lut: &self.filter.lut,
            inputs: &iter,
            env: self.env.clone(),
            stderr: RefCell::new(Vec::new()),
            position,
        };
        let mut outcome = Outcome::default();
        let mut printer = Printer::new(options);
        let values = &self.globals;
        let mut run_one = |input: Val, outcome: &mut Outcome| -> bool {
            let ctx = Ctx::<JqData>::new(&global, Vars::new(values.iter().cloned()));
            for result in self.filter.id.run((ctx, input)) {
                match result {
                    Ok(value) => {
                        outcome.last = Some(value.as_bool_truthy());
                        let printed = printer.print(out, &value);
                        match printed {
                            Ok(()) => {}
                            Err(error) if error.kind() == io::ErrorKind::InvalidData => {
                                outcome.runtime_error = true;
                                let message = format!("jq: error: {error}\n");
                                global
                                    .stderr
                                    .borrow_mut()
                                    .extend_from_slice(message.as_bytes());
                            }
                            Err(error) => {
                                outcome.io = Some(error);
                                return false;
                            }
                        }
                    }
                    Err(exn) => return self.exception(exn, &global, outcome),
                }
            }
            true
        };
        if options.null_input {
            run_one(Val::Null, &mut outcome);
        } else if options.slurp {
            let slurped = slurp(&iter, options.raw_input);
            match slurped {
                Ok(value) => {
                    run_one(value, &mut outcome);
                }
                Err(message) => input_error(&global, &mut outcome, &message),
            }
        } else {
            loop {
                let next = (&iter).next();
                match next {
                    None => break,
                    Some(Ok(value)) => {
                        if !run_one(value, &mut outcome) && outcome.halted.is_some() {
                            break;
                        }
                        if outcome.io.is_some() || outcome.interrupted {
                            break;
                        }
                    }
                    Some(Err(message)) => {
                        input_error(&global, &mut outcome, &message);
                    }
                }
            }
        }
        outcome.stderr = global.stderr.take();
        outcome.interrupted |= jaq_core::interrupt::take();
        outcome
    }

    /// Reports an exception; `false` when the run must end (halt).
    fn exception(&self, exn: Exn<'_, Val>, global: &Global<'_>, outcome: &mut Outcome) -> bool {
        match exn.get_err() {
            Ok(error) => {
                outcome.runtime_error = true;
                let text = error_text(error);
                let at = at_text(&global.position.borrow());
                global
                    .stderr
                    .borrow_mut()
                    .extend_from_slice(format!("jq: error (at {at}): {text}\n").as_bytes());
                true
            }
            Err(exn) => match exn.get_halt() {
                Ok(jaq_core::interrupt::HALT_CODE) => {
                    outcome.interrupted = true;
                    false
                }
                Ok(jaq_core::interrupt::STACK_HALT_CODE) => {
                    outcome.runtime_error = true;
                    let at = at_text(&global.position.borrow());
                    let message =
                        format!("jq: error (at {at}): recursion too deep (stack exhausted)\n");
                    global
                        .stderr
                        .borrow_mut()
                        .extend_from_slice(message.as_bytes());
                    false
                }
                Ok(code) => {
                    outcome.halted = Some(code);
                    false
                }
                Err(_) => {
                    outcome.runtime_error = true;
                    true
                }
            },
        }
    }
}

fn input_error(global: &Global<'_>, outcome: &mut Outcome, message: &str) {
    outcome.input_error = true;
    global.stderr.borrow_mut().extend_from_slice(
        format!(
            "jq: error (at {}): {message}\n",
            at_text(&global.position.borrow())
        )
        .as_bytes(),
    );
}

fn at_text(position: &Position) -> String {
    let file = position.file.as_deref().unwrap_or("<stdin>");
    format!("{file}:{}", position.index)
}

/// An error value as jq prints it: strings bare, other values as JSON with
/// a `(not a string)` note.
fn error_text(error: Error<Val>) -> String {
    match error.into_val() {
        Val::TStr(text) | Val::BStr(text) => String::from_utf8_lossy(&text).into_owned(),
        other => format!("{other} (not a string)"),
    }
}

/// `-s`: every input value in one array, or with `-R` all text in one
/// string.
fn slurp(
    iter: &RcIter<dyn Iterator<Item = Result<Val, String>> + '_>,
    raw: bool,
) -> Result<Val, String> {
    let mut values = Vec::new();
    for value in iter {
        values.push(value?);
    }
    if raw {
        let mut text = Vec::new();
        for value in values {
            if let Val::TStr(bytes) = value {
                text.extend_from_slice(&bytes);
            }
        }
        return Ok(Val::utf8_str(text));
    }
    Ok(values.into_iter().collect())
}

trait Truthy {
    fn as_bool_truthy(&self) -> bool;
}

impl Truthy for Val {
    fn as_bool_truthy(&self) -> bool {
        !matches!(self, Val::Null | Val::Bool(false))
    }
}

/// Lexing and parsing errors as jq reports them (`jq: error: ...` and a
/// count), each with the text where it was found.
fn load_errors(code: &str, errors: load::Errors<&str, ()>) -> String {
    let mut lines = Vec::new();
    for (_, error) in errors {
        match error {
            load::Error::Io(items) => {
                for (path, message) in items {
                    lines.push(format!("jq: error: {path}: {message}"));
                }
            }
            load::Error::Lex(items) => {
                for (expected, found) in items {
                    lines.push(syntax_error(code, expected.as_str(), found));
                }
            }
            load::Error::Parse(items) => {
                for (expected, found) in items {
                    lines.push(syntax_error(code, expected.as_str(), found));
                }
            }
        }
    }
    finish_errors(lines)
}

fn syntax_error(code: &str, expected: &str, found: &str) -> String {
    let offset = (found.as_ptr() as usize).saturating_sub(code.as_ptr() as usize);
    let line = code[..offset.min(code.len())].matches('\n').count() + 1;
    let near: String = found.chars().take(20).collect();
    if near.is_empty() {
        format!(
            "jq: error: syntax error, expected {expected} but got end of input at <top-level>, line {line}:\n{code}"
        )
    } else {
        format!(
            "jq: error: syntax error, expected {expected} near '{near}' at <top-level>, line {line}:\n{code}"
        )
    }
}

fn compile_errors(errors: jaq_core::compile::Errors<&str, ()>) -> String {
    let mut lines = Vec::new();
    for (_, items) in errors {
        for (name, undefined) in items {
            let what = match undefined {
                jaq_core::compile::Undefined::Filter(arity) => format!("{name}/{arity}"),
                _ => name.to_string(),
            };
            lines.push(format!(
                "jq: error: {what} is not defined at <top-level>, line 1:"
            ));
        }
    }
    finish_errors(lines)
}

fn finish_errors(lines: Vec<String>) -> String {
    let count = lines.len().max(1);
    let plural = if count == 1 { "" } else { "s" };
    let mut text = lines.join("\n");
    text.push_str(&format!("\njq: {count} compile error{plural}\n"));
    text
}
