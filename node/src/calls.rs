//! Runs, off the JavaScript thread: a shell call goes straight to the
//! sandbox's shell thread (`Sandbox::run_shell_then`), a script to a thread
//! of `goccia::background` — never libuv's pool, which Node's own file
//! system calls share, and never the event loop. The caller waits up to
//! `QUICK_ANSWER` (60 µs) for the answer of a short call and returns it
//! as it is; a longer call settles a promise when it ends. Streamed chunks
//! reach JavaScript through threadsafe functions, in the order they were
//! produced.

use std::sync::Arc;
use std::time::{Duration, Instant};

use napi::bindgen_prelude::{Buffer, Either, Object};
use napi::threadsafe_function::{ThreadsafeFunction, ThreadsafeFunctionCallMode};
use napi::{Env, Status};
use napi_derive::napi;
use parking_lot::Mutex;

use crate::errors::{coded, to_js};
use crate::sandbox::NativeSandbox;

/// Cancels the call it is given to (from any thread); a fresh one per call.
#[napi]
pub struct CancelToken {
    inner: goccia::CancelToken,
}

#[napi]
impl CancelToken {
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        CancelToken {
            inner: goccia::CancelToken::new(),
        }
    }

    /// Ends the call: exit 130, failure kind `cancelled`.
    #[napi]
    pub fn cancel(&self) {
        self.inner.cancel();
    }
}

/// How long a call's caller waits on the JavaScript thread for a quick
/// answer before it hands back a promise.
const QUICK_ANSWER: Duration = Duration::from_micros(60);

/// The promise a call settles, made only when its answer was not quick.
type Deferred = napi::JsDeferred<String, Box<dyn FnOnce(Env) -> napi::Result<String> + Send>>;

/// Where a call's answer goes: to its caller still waiting, or to its
/// promise.
enum Pending {
    Waiting,
    Answered(napi::Result<String>),
    Promised(Deferred),
    Settled,
}

impl Pending {
    /// The call's answer, from the thread that ran it.
    fn answer(&mut self, result: napi::Result<String>) {
        match std::mem::replace(self, Pending::Settled) {
            Pending::Waiting => *self = Pending::Answered(result),
            Pending::Promised(deferred) => match result {
                Ok(text) => deferred.resolve(Box::new(move |_| Ok(text))),
                Err(error) => deferred.reject(error),
            },
            Pending::Answered(_) | Pending::Settled => {}
        }
    }

    /// The answer, if it came while the caller waited.
    fn take_answer(&mut self) -> Option<napi::Result<String>> {
        match std::mem::replace(self, Pending::Settled) {
            Pending::Answered(result) => Some(result),
            other => {
                *self = other;
                None
            }
        }
    }

    /// The caller stops waiting: the answer settles `deferred`, now if it
    /// already came.
    fn promise(&mut self, deferred: Deferred) {
        match std::mem::replace(self, Pending::Settled) {
            Pending::Answered(result) => {
                *self = Pending::Settled;
                match result {
                    Ok(text) => deferred.resolve(Box::new(move |_| Ok(text))),
                    Err(error) => deferred.reject(error),
                }
            }
            _ => *self = Pending::Promised(deferred),
        }
    }
}

/// A JavaScript function receiving each chunk of one stream.
type Chunks = ThreadsafeFunction<Buffer, (), Buffer, Status, false>;

/// A stream's chunks, kept for the answer and handed to JavaScript as they
/// come.
struct Tee {
    kept: goccia::Capture,
    chunks: Chunks,
}

impl std::io::Write for Tee {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.kept.write_all(bytes)?;
        // Non-blocking: the queue is unbounded, so a slow listener delays
        // nothing and loses nothing.
        self.chunks.call(
            bytes.to_vec().into(),
            ThreadsafeFunctionCallMode::NonBlocking,
        );
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// What a call runs.
#[derive(Clone, Copy)]
enum Kind {
    Shell,
    Script,
    Code,
}

#[napi]
impl NativeSandbox {
    /// Runs `source` (`kind`: `shell`, `script` — a VFS path — or `code`);
    /// the answer is the run's envelope (docs/calls.md) as JSON text, at
    /// once for a quick call, else through a promise. A run that fails is
    /// an answer, not a rejection.
    #[napi(
        ts_args_type = "kind: 'shell' | 'script' | 'code', source: string, timeoutMs?: number | null, stdin?: Buffer | null, cancel?: CancelToken | null, onStdout?: ((chunk: Buffer) => void) | null, onStderr?: ((chunk: Buffer) => void) | null, cwd?: string | null, env?: Record<string, string> | null",
        ts_return_type = "string | Promise<string>"
    )]
    #[allow(clippy::too_many_arguments)]
    pub fn run<'env>(
        &self,
        env: &'env Env,
        kind: String,
        source: String,
        timeout_ms: Option<f64>,
        stdin: Option<Buffer>,
        cancel: Option<&CancelToken>,
        on_stdout: Option<Chunks>,
        on_stderr: Option<Chunks>,
        cwd: Option<String>,
        variables: Option<std::collections::HashMap<String, String>>,
    ) -> napi::Result<Either<String, Object<'env>>> {
        let sandbox = self.sandbox()?;
        let kind = match kind.as_str() {
            "shell" => Kind::Shell,
            "script" => Kind::Script,
            "code" => Kind::Code,
            other => {
                return Err(coded(
                    "ERR_INVALID_ARG_VALUE",
                    format!("kind: `{other}` is not one of shell, script, code"),
                ));
            }
        };
        let mut options = goccia::CallOptions::new();
        if let Some(ms) = timeout_ms {
            if !ms.is_finite() || ms < 0.0 {
                return Err(coded(
                    "ERR_GOCCIA_SPEC",
                    "timeoutMs: a number of milliseconds >= 1",
                ));
            }
            options = options
                .requested_timeout(Duration::from_millis(ms.round() as u64), None)
                .map_err(|error| coded("ERR_GOCCIA_SPEC", error.spelled(goccia::Spelling::Json)))?;
        }
        if let Some(cancel) = cancel {
            options = options.cancel(&cancel.inner);
        }
        if let Some(stdin) = stdin {
            options = options.stdin(stdin.to_vec());
        }
        if let Some(cwd) = cwd {
            options = options.cwd(&cwd);
        }
        let mut variables: Vec<(String, String)> = variables.into_iter().flatten().collect();
        // A map keeps no order: sorted, so a call binds the same way
        // every time.
        variables.sort();
        for (name, value) in &variables {
            options = options.env(name, value);
        }
        // Streamed: each chunk goes to its listener and is kept for the
        // answer too, under the sandbox's output budget.
        let streamed = (on_stdout.is_some() || on_stderr.is_some()).then(|| {
            let (stdout, stderr) = (goccia::Capture::new(), goccia::Capture::new());
            let sink = |kept: &goccia::Capture,
                        chunks: Option<Chunks>|
             -> Box<dyn std::io::Write + Send> {
                match chunks {
                    Some(chunks) => Box::new(Tee {
                        kept: kept.clone(),
                        chunks,
                    }),
                    None => Box::new(kept.clone()),
                }
            };
            let output = goccia::Output::to_writers(
                sink(&stdout, on_stdout),
                sink(&stderr, on_stderr),
                goccia::OutputBudget::for_limits(sandbox.limits()),
            );
            (output, stdout, stderr)
        });
        if let Some((output, ..)) = &streamed {
            options = options.stream(output);
        }
        // Streamed chunks reach JavaScript on later turns of the loop: a
        // streamed call always answers through the promise, after them.
        let quick = streamed.is_none();
        let pending = Arc::new(Mutex::new(Pending::Waiting));
        let answered = pending.clone();
        let mark = sandbox.engine().audit.mark();
        let answering = sandbox.clone();
        let answer = move |ran: Result<goccia::Run, goccia::RunError>| {
            let result = match ran {
                Ok(mut run) => {
                    if let Some((output, stdout, stderr)) = streamed {
                        // The streams' listeners are let go here, so nothing
                        // keeps the event loop alive once the promise settles.
                        drop(output);
                        run.stdout = stdout.take();
                        run.stderr = stderr.take();
                    }
                    // As JSON text, parsed by the JavaScript half: one string
                    // crosses instead of an object built property by property
                    // (bench/README.md: 6 µs a call less).
                    let envelope = goccia::Envelope::of_call(&answering, &run, mark);
                    Ok(serde_json::to_string(&envelope).unwrap_or_default())
                }
                Err(error) => Err(to_js(error)),
            };
            answered.lock().answer(result);
        };
        match kind {
            // Straight to the session's thread, which answers.
            Kind::Shell => sandbox.run_shell_then(&source, &options, answer),
            Kind::Script | Kind::Code => {
                goccia::background::submit(Box::new(move || {
                    let ran = match kind {
                        Kind::Script => sandbox.run_script_with(&source, &options),
                        _ => sandbox.run_code_with(&source, &options),
                    };
                    drop(options);
                    answer(ran);
                }))
                .map_err(|error| {
                    coded("ERR_GOCCIA_RUN", format!("cannot start a thread: {error}"))
                })?;
            }
        }
        // A short call answers within microseconds: waiting that long for
        // it here saves the event loop's wake-up, which costs more than
        // the call (bench/README.md). Anything longer becomes a promise, so
        // the loop is never held past QUICK_ANSWER.
        if quick {
            let until = Instant::now() + QUICK_ANSWER;
            while Instant::now() < until {
                if let Some(result) = pending.lock().take_answer() {
                    return result.map(Either::A);
                }
                std::thread::yield_now();
            }
        }
        let (deferred, promise) = env.create_deferred()?;
        pending.lock().promise(deferred);
        Ok(Either::B(promise))
    }
}
