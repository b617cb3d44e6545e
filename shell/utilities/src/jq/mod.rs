//! `jq`: the jq language through the jaq interpreter (a vendored
//! `jaq-core` with an interruption hook, see `third_party/jaq-core`),
//! reading its inputs from the VFS or stdin and never from the host:
//! `env`/`$ENV` are the shell's exported variables, module imports are
//! refused, `debug`/`stderr` write to the command's stderr.

mod natives;
mod options;
pub(crate) use options::parse_options;
mod runtime;
mod stream;

use std::io::Write;

use goccia_core::{LimitKind, Stop};

use goccia_interp::interp::{ExecResult, Flow, ShellView};

use goccia_interp::input::{Source, open_quiet};
use options::{Named, Options, Positional};
use runtime::{Globals, Outcome, Program};
use stream::Input;

/// The version `jq --version` reports: the jq release whose behaviour this
/// command follows.
const VERSION: &str = "jq-1.8";

/// Most stack the thread a filter runs on gets. jaq's evaluator recurses
/// (a recursive filter goes deeper with each call) and halts cleanly near
/// the end of its stack; the stack is touched only as used.
const MAX_JQ_STACK: usize = 1 << 30;
/// Least stack, for ordinary filters under a small memory limit.
const MIN_JQ_STACK: usize = 16 << 20;

/// The stack a filter gets: half the memory limit, since a runaway
/// recursion touches all of it (`def f: [f]; f` took 1.1 GB under
/// `--max-memory 64m` with a fixed 1 GiB stack) and the stack counts
/// against the limit with the heap: a deep recursion then ends as jq's own
/// `recursion too deep` (status 5), with room left for the values it built.
fn jq_stack(max_memory: u64) -> usize {
    usize::try_from(max_memory / 2)
        .unwrap_or(usize::MAX)
        .clamp(MIN_JQ_STACK, MAX_JQ_STACK)
}

pub fn jq(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let stack = jq_stack(shell.context().limits.max_memory);
    let ran = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("goccia-jq".into())
            .stack_size(stack)
            .spawn_scoped(scope, || {
                let _metered = shell.context().metered();
                run_jq(shell, args, stack)
            })
            .map(|worker| worker.join())
    });
    match ran {
        Ok(Ok(result)) => result,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(error) => {
            let message = format!("cannot start: {error}");
            Ok(shell.fail_command("jq", &message, 2))
        }
    }
}

fn run_jq(shell: &mut ShellView, args: &[String], stack: usize) -> ExecResult {
    let mut options = match parse_options(&args[1..]) {
        Ok(options) => options,
        Err(message) => {
            return Ok(usage(shell, &message));
        }
    };
    options.max_buffered_input = shell.context().limits.max_buffered_input;
    if options.version {
        return write_or_status(shell, format!("{VERSION}\n").as_bytes(), 0);
    }
    if options.help {
        return write_or_status(shell, HELP.as_bytes(), 0);
    }
    let filter_text = match load_filter(shell, &options) {
        Ok(text) => text,
        Err(status) => return Ok(status),
    };
    let globals = match globals(shell, &options) {
        Ok(globals) => globals,
        Err(status) => return Ok(status),
    };
    let program = match Program::compile(&filter_text, globals) {
        Ok(program) => program,
        Err(message) => {
            shell.write_stderr(message.as_bytes());
            return Ok(3);
        }
    };
    // Without `-n` or with `input`/`inputs` in the filter jq reads stdin;
    // otherwise it must not wait on a terminal.
    let wants_input = !options.null_input || filter_text.contains("input");
    let (inputs, unreadable) = inputs(shell, &options, wants_input);
    let watch = shell.watch().clone();
    let context = shell.context().clone();
    let mut out = std::io::BufWriter::with_capacity(16 << 10, shell.out());
    // The stack a deep recursion touched is host memory too.
    let stack_top = stacker::remaining_stack().unwrap_or(stack);
    let stop = move || {
        let used = stacker::remaining_stack().map_or(0, |left| stack_top.saturating_sub(left));
        watch.check().is_err() || context.memory_exceeded_by(used)
    };
    // A walk over a value deeper than the stack allows (comparing, hashing,
    // printing it) unwinds with `TooDeep` instead of overflowing.
    let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        program.run(inputs, &options, &mut out, stop)
    }));
    let outcome = match ran {
        Ok(outcome) => outcome,
        Err(payload) if payload.is::<jaq_json::TooDeep>() => {
            // What was printed before stays printed.
            let _ = out.flush();
            drop(out);
            shell.check_watch()?;
            let message = "jq: error: a value is nested too deeply to compare, hash or print \
                           within jq's stack (it grows with the memory limit)\n";
            shell.write_stderr(message.as_bytes());
            return Ok(5);
        }
        Err(payload) => std::panic::resume_unwind(payload),
    };
    let flushed = out.flush();
    if !outcome.stderr.is_empty() {
        shell.write_stderr(&outcome.stderr);
    }
    if outcome.interrupted {
        shell.check_watch()?;
        // Not the deadline, so the memory ceiling: the values that passed
        // it were dropped when jaq unwound, so it no longer shows.
        return Err(Flow::Stop(Stop::Limit(LimitKind::HostMemory)));
    }
    let status = if unreadable && outcome.halted.is_none() {
        2
    } else {
        exit_status(&outcome, &options)
    };
    if let Some(error) = flushed.err().or(outcome.io) {
        return shell.io_status("jq", error);
    }
    Ok(status)
}

/// jq's exit statuses: 5 after a runtime error, 2 for unreadable input,
/// `halt_error`'s own code, and with `-e` 1 when the last output was
/// `false`/`null` and 4 when there was none.
fn exit_status(outcome: &Outcome, options: &Options) -> i32 {
    if let Some(code) = outcome.halted {
        return code;
    }
    if outcome.input_error {
        return 2;
    }
    if outcome.runtime_error {
        return 5;
    }
    if options.exit_status {
        return match &outcome.last {
            None => 4,
            Some(truthy) if *truthy => 0,
            Some(_) => 1,
        };
    }
    0
}

fn write_or_status(shell: &mut ShellView, bytes: &[u8], status: i32) -> ExecResult {
    match shell.write_stdout(bytes) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("jq", error),
    }
}

/// The filter text: the first operand, or the file of `-f`.
fn load_filter(shell: &mut ShellView, options: &Options) -> Result<String, i32> {
    match &options.filter_file {
        Some(file) => {
            read_file(shell, file).map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        }
        None => Ok(options.filter.clone().unwrap_or_else(|| ".".into())),
    }
}

/// A whole VFS file (or `-`); failure is reported as jq does, status 2.
fn read_file(shell: &mut ShellView, file: &str) -> Result<Vec<u8>, i32> {
    let read = open_quiet(shell, file)
        .and_then(|mut source| source.read_all().map_err(|_| "Input/output error"));
    read.map_err(|reason| {
        shell.write_stderr(format!("jq: error: Could not open {file}: {reason}\n").as_bytes());
        2
    })
}

/// `$ENV`, `$ARGS` and the named arguments, their files read.
fn globals(shell: &mut ShellView, options: &Options) -> Result<Globals, i32> {
    let mut named = Vec::new();
    for (name, value) in &options.named {
        let value = match value {
            Named::Text(text) => jaq_json::Val::from(text.clone()),
            Named::Json(text) => match jaq_json::read::parse_single(text.as_bytes()) {
                Ok(value) => value,
                Err(_) => {
                    return Err(usage(shell, "Invalid JSON text passed to --argjson"));
                }
            },
            Named::RawFile(file) => jaq_json::Val::utf8_str(read_file(shell, file)?),
            Named::SlurpFile(file) => {
                let bytes = read_file(shell, file)?;
                let values: Result<Vec<_>, _> = jaq_json::read::parse_many(&bytes).collect();
                match values {
                    Ok(values) => values.into_iter().collect(),
                    Err(error) => {
                        return Err(usage(
                            shell,
                            &format!("Bad JSON in --slurpfile {name} {file}: {error}"),
                        ));
                    }
                }
            }
        };
        named.push((name.clone(), value));
    }
    let mut positional = Vec::new();
    for (kind, text) in &options.positional {
        positional.push(match kind {
            Positional::Json => match jaq_json::read::parse_single(text.as_bytes()) {
                Ok(value) => value,
                Err(_) => {
                    return Err(usage(shell, "Invalid JSON text passed to --jsonargs"));
                }
            },
            _ => jaq_json::Val::from(text.clone()),
        });
    }
    Ok(Globals {
        named,
        positional,
        env: shell.exported(),
    })
}

fn usage(shell: &mut ShellView, message: &str) -> i32 {
    shell.write_stderr(format!("jq: {message}\nUse jq --help for help with command-line options,\nor see the jq manpage, or online docs  at https://jqlang.github.io/jq\n").as_bytes());
    2
}

/// The inputs: the files in order, or stdin streamed. A file that cannot
/// be opened is reported and skipped (the run still ends with status 2,
/// as jq's does): the flag says whether one was.
fn inputs(shell: &mut ShellView, options: &Options, wants_input: bool) -> (Vec<Input>, bool) {
    if options.files.is_empty() {
        let stdin = match shell.fds().input(0) {
            Some(reader) if wants_input => vec![Input::Stream(reader)],
            _ => Vec::new(),
        };
        return (stdin, false);
    }
    let mut unreadable = false;
    let mut inputs = Vec::new();
    for file in &options.files {
        match open_quiet(shell, file) {
            Ok(Source::Data(bytes)) => inputs.push(Input::Data {
                name: file.clone(),
                bytes,
            }),
            Ok(Source::Stdin(Some(reader), _)) => inputs.push(Input::Stream(reader)),
            Ok(Source::Stdin(None, _)) => {}
            Err(reason) => {
                shell.write_stderr(
                    format!("jq: error: Could not open {file}: {reason}\n").as_bytes(),
                );
                unreadable = true;
            }
        }
    }
    (inputs, unreadable)
}

const HELP: &str = "Usage:\tjq [OPTIONS] FILTER [FILES...]
\tjq [OPTIONS] --args FILTER [ARGUMENTS...]
\tjq [OPTIONS] --jsonargs FILTER [JSON_VALUES...]

jq is a tool for processing JSON inputs, applying the given filter to
its JSON text inputs and producing the filter's results as JSON on
standard output.

Command options:
  -n, --null-input          use `null` as the single input value;
  -R, --raw-input           read each line as string instead of JSON;
  -s, --slurp               read all inputs into an array and use it as
                            the single input value;
  -c, --compact-output      compact instead of pretty-printed output;
  -r, --raw-output          output strings without escapes and quotes;
      --raw-output0         implies -r and output NUL after each output;
  -j, --join-output         implies -r and output without newline after
                            each output;
  -a, --ascii-output        output strings by only ASCII characters
                            using escape sequences;
  -S, --sort-keys           sort keys of each object on output;
  -C, --color-output        colorize JSON output;
  -M, --monochrome-output   disable colored output;
      --tab                 use tabs for indentation;
      --indent n            use n spaces for indentation (max 7 spaces);
  -f, --from-file file      load filter from the file;
      --arg name value      set $name to the string value;
      --argjson name value  set $name to the JSON value;
      --slurpfile name file set $name to an array of JSON values read
                            from the file;
      --rawfile name file   set $name to string contents of file;
      --args                consume remaining arguments as positional
                            string values;
      --jsonargs            consume remaining arguments as positional
                            JSON values;
  -e, --exit-status         set exit status code based on the output;
  -V, --version             show the version;
  -h, --help                show the help;
  --                        terminates argument processing;

Named arguments are also available as $ARGS.named[], while
positional arguments are available as $ARGS.positional[].
";
