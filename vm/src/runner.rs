//! Running one entry module: a fresh QuickJS runtime, the VFS-only loader,
//! the limits, and an event loop that drains jobs and fires virtual-time
//! timers until the program is done, on a thread of its own (a fresh
//! one, or a spare's: `spare`). Its unit tests are in `runner/tests.rs`.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use goccia_core::{FailureKind, Output, Stop, Watch};
use goccia_js_api::nest::SharedShell;
use goccia_js_api::{Host, Tripwire};
use goccia_vfs::{SharedVfs, VfsPath};
use rquickjs::promise::PromiseState;
use rquickjs::{
    CatchResultExt, CaughtError, Context, Ctx, Function, Module, Object, Persistent, Promise,
    Runtime, Value,
};

use crate::engine::Engine;
use crate::failure::{Evidence, Failure, classify_exception};
use crate::heap::{HeapBudget, Held};
use crate::js_thread::{
    AnswerTo, Answered, Teardown, answer_then_free, answer_then_free_here, receive,
};
use crate::loader::{VfsLoader, VfsResolver};
use crate::nested::Nester;
use crate::spare::{self, Fit};

/// What to run and with what.
#[derive(Clone)]
pub struct RunRequest {
    /// The entry module.
    pub entry: VfsPath,
    /// The VFS it runs on.
    pub vfs: SharedVfs,
    /// Where its output goes.
    pub output: Output,
    /// Its deadline.
    pub watch: Watch,
    /// Limits, mode and network policy (children inherit them).
    pub engine: Engine,
    /// 0 for a sandbox's own entry; each `runScript`/`goccia` adds one.
    pub depth: u32,
    /// The shell `$` uses: the caller's in shared mode, `None` for a new
    /// one on this run's VFS.
    pub shell: Option<SharedShell>,
    /// The JS heap budget of the whole tree (a nested run shares its
    /// caller's).
    pub memory: HeapBudget,
    /// The entry's source, when it is given inline rather than read from
    /// the VFS (it then never appears there, nor in the diff).
    pub inline_source: Option<std::sync::Arc<str>>,
    /// The process exits as soon as this run has reported (a one-shot
    /// command line): its JS heap is left to the OS instead of being freed
    /// object by object, a tenth of a hello world's time. Never for a run
    /// the process outlives, nor for a nested one: that memory stays
    /// charged to the heap budget and is never given back.
    pub leave_heap_to_exit: bool,
    /// What the guest reads as `process.stdin` (none: it ends at once).
    pub stdin: Option<goccia_shell::io::SharedReader>,
}

impl RunRequest {
    /// A sandbox's own entry (depth 0, a shell of its own, a heap budget
    /// of `engine.limits.max_memory` for its whole tree).
    pub fn new(
        entry: VfsPath,
        vfs: SharedVfs,
        output: Output,
        watch: Watch,
        engine: Engine,
    ) -> Self {
        let memory = HeapBudget::new(engine.limits.max_memory);
        RunRequest {
            entry,
            vfs,
            output,
            watch,
            engine,
            depth: 0,
            shell: None,
            memory,
            inline_source: None,
            leave_heap_to_exit: false,
            stdin: None,
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, Default)]
pub struct RunOutcome {
    /// How it failed, if it did.
    pub failure: Option<Failure>,
    /// The entry module's default export, as JSON (`None` when there is
    /// none, it is not JSON-like, or the run failed).
    pub result: Option<serde_json::Value>,
    /// QuickJS heap in use when the run ended, in bytes.
    pub memory_used: u64,
    /// The code the guest exited with (`process.exit`, `process.exitCode`).
    pub exit: Option<i32>,
}

impl RunOutcome {
    /// The guest's own exit code, else 0 or the failure kind's code.
    pub fn exit_code(&self) -> i32 {
        self.exit
            .unwrap_or_else(|| self.failure.as_ref().map_or(0, |f| f.kind.exit_code()))
    }

    fn failed(failure: Failure) -> Self {
        RunOutcome {
            failure: Some(failure),
            ..RunOutcome::default()
        }
    }
}

/// Runs `request.entry` to completion on a dedicated thread whose stack
/// fits the configured JS stack. Never panics: an internal fault becomes a
/// `host-error` outcome.
///
/// A sandbox's own run answers before its runtime is freed: freeing a
/// QuickJS heap object by object is a fifth of an in-process hello world,
/// and nothing the caller does next depends on it (the run's heap budget is
/// its own, and no finalizer of goccia's touches the VFS or the output).
/// Its thread sends the outcome, leaves the run's span and write policy,
/// then frees the runtime (`js_thread`). A nested run frees first: its heap
/// counts against its caller's budget.
///
/// A sandbox's own run also starts in the process's spare context when one
/// was made for its limits (`spare`): the runtime, context and globals,
/// made on a thread of their own after the previous run, are a third of an
/// in-process hello world.
pub fn run(request: &RunRequest) -> RunOutcome {
    if let Some(missing) = missing_entry(request) {
        return missing;
    }
    let stack = Fit::of(&request.engine.limits).thread_stack();
    // A nested run works under the write policy its caller set for it.
    let policy_scope = goccia_vfs::policy::current_scope();
    // And inside its caller's span: the script's shell commands and
    // fetches are that call's children (docs/telemetry.md).
    let span = tracing::Span::current();
    let answered = if request.depth == 0 && !request.leave_heap_to_exit {
        run_top_level(Job {
            request: request.clone(),
            policy: policy_scope,
            span,
        })
    } else {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .name("goccia-js".to_string())
                .stack_size(stack)
                .spawn_scoped(scope, || {
                    let _policy = goccia_vfs::policy::Scope::enter_if(policy_scope);
                    let _span = span.enter();
                    run_here(request).0
                })
                .map(|handle| handle.join())
        })
    };
    match answered {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(panic)) => {
            let what = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown panic".to_string());
            RunOutcome::failed(Failure::new(
                FailureKind::HostError,
                format!("internal error: {what}"),
            ))
        }
        Err(error) => RunOutcome::failed(Failure::new(
            FailureKind::HostError,
            format!("internal error: cannot start the JS thread: {error}"),
        )),
    }
}

/// A top-level run, with what it inherits from its caller's thread: the
/// write policy in force and the tracing span (docs/telemetry.md).
struct Job {
    request: RunRequest,
    policy: Option<goccia_vfs::policy::WritePolicy>,
    span: tracing::Span,
}

impl Job {
    /// Runs `work` on the request under the caller's policy and span: the
    /// outcome, and the heap it kept for the caller to free.
    fn run(
        self,
        work: impl FnOnce(&RunRequest, &mut Option<Remains>) -> RunOutcome,
    ) -> (RunOutcome, Option<Remains>) {
        let mut remains = None;
        let outcome = {
            let _policy = goccia_vfs::policy::Scope::enter_if(self.policy);
            let _span = self.span.enter();
            work(&self.request, &mut remains)
        };
        (outcome, remains)
    }
}

/// A job on its way to a spare, and where its answer goes.
struct Handed {
    job: Job,
    answer: AnswerTo<RunOutcome>,
}

/// Runs a top-level `job`: in the spare made for its limits (waiting for
/// one being made), else on a fresh runtime and thread. Either way the
/// answer comes before the heap is freed when the clean-up can be claimed
/// (`js_thread`), and the next spare is started in between.
fn run_top_level(job: Job) -> Answered<RunOutcome> {
    let fit = Fit::of(&job.request.engine.limits);
    let (answer, answered) = std::sync::mpsc::sync_channel(1);
    let message = match spare::hand_over(fit, Box::new(Handed { job, answer })) {
        Ok(()) => return Ok(receive(&answered)),
        Err(message) => message,
    };
    let Ok(handed) = message.downcast::<Handed>() else {
        unreachable!("a spare is handed only jobs")
    };
    let job = handed.job;
    answer_then_free(
        "goccia-js",
        fit.thread_stack(),
        Teardown::claim(),
        move || job.run(run_keeping),
        move || spare::start(fit, serve_as_spare),
    )
}

/// A spare's thread (`spare`): makes the runtime and context, waits for
/// one job, answers it, starts the next spare, and frees the job's heap.
fn serve_as_spare(waiting: spare::Waiting) {
    let fit = waiting.fit();
    // Charged to a budget of its own until a run takes it (`Held::move_to`).
    let budget = HeapBudget::new(fit.max_memory);
    let prepared = match std::panic::catch_unwind(|| prepare(fit, &budget)) {
        Ok(Ok(prepared)) => prepared,
        _ => return waiting.give_up(),
    };
    let Some(message) = waiting.ready() else {
        return;
    };
    let Ok(handed) = message.downcast::<Handed>() else {
        unreachable!("a spare is handed only jobs")
    };
    let Handed { job, answer } = *handed;
    answer_then_free_here(
        answer,
        Teardown::claim(),
        move || job.run(|request, remains| run_prepared(request, prepared, remains)),
        move || spare::start(fit, serve_as_spare),
    );
}

/// The outcome of a run whose entry does not exist: nothing runs.
fn missing_entry(request: &RunRequest) -> Option<RunOutcome> {
    if request.inline_source.is_some() || request.vfs.lock().is_file(&request.entry) {
        return None;
    }
    Some(RunOutcome::failed(Failure::new(
        FailureKind::ScriptError,
        format!("entry not found: {}", request.entry),
    )))
}

/// A run's JS heap, kept past its outcome to be freed after the answer:
/// the context before the runtime (fields drop in order).
struct Remains {
    _context: Context,
    _runtime: Runtime,
}

/// Promise rejections nobody handled yet.
type Rejections = Rc<RefCell<Vec<(Persistent<Value<'static>>, Persistent<Value<'static>>)>>>;

/// Runs the request on this thread: its outcome, and its heap when that is
/// for the caller to free.
fn run_here(request: &RunRequest) -> (RunOutcome, Option<Remains>) {
    let mut remains = None;
    let outcome = run_keeping(request, &mut remains);
    (outcome, remains)
}

fn run_keeping(request: &RunRequest, remains: &mut Option<Remains>) -> RunOutcome {
    match prepare(Fit::of(&request.engine.limits), &request.memory) {
        Ok(prepared) => run_prepared(request, prepared, remains),
        Err(failure) => RunOutcome::failed(failure),
    }
}

/// A runtime and context with the globals installed, not yet given a run:
/// what every run starts from, made fresh for it or ahead of it (a spare).
struct Prepared {
    // The context goes before the runtime (fields drop in order).
    context: Context,
    runtime: Runtime,
    held: Held,
    globals: goccia_js_api::HostSlot,
}

/// A new runtime on `budget` with `fit`'s limits, and a context with the
/// globals installed. No guest code has run in it.
fn prepare(fit: Fit, budget: &HeapBudget) -> Result<Prepared, Failure> {
    let internal = |what: &str, error: rquickjs::Error| {
        Failure::new(
            FailureKind::HostError,
            format!("internal error: cannot {what}: {error}"),
        )
    };
    // Every runtime of the tree draws from one heap budget; each also
    // keeps QuickJS's own limit (the same value) on itself.
    let allocator = budget.allocator();
    let held = allocator.held();
    let runtime =
        Runtime::new_with_alloc(allocator).map_err(|e| internal("create the JS runtime", e))?;
    runtime.set_memory_limit(fit.max_memory.min(usize::MAX as u64) as usize);
    runtime.set_max_stack_size(fit.stack_size as usize);
    // No collection before the globals are installed (see
    // `gc_threshold_after_setup`, which sets the threshold after them).
    runtime.set_gc_threshold(usize::MAX);
    let context = Context::full(&runtime).map_err(|e| internal("create the JS context", e))?;
    let globals = context
        .with(|ctx| goccia_js_api::prelude::install_unbound(&ctx))
        .map_err(|e| internal("install the globals", e))?;
    runtime.set_gc_threshold(gc_threshold_after_setup(held.bytes()));
    Ok(Prepared {
        context,
        runtime,
        held,
        globals,
    })
}

/// Runs `request` in `prepared`: the run's limits, loader and host are
/// bound to it first.
fn run_prepared(
    request: &RunRequest,
    prepared: Prepared,
    remains: &mut Option<Remains>,
) -> RunOutcome {
    let Prepared {
        context,
        runtime,
        held,
        globals,
    } = prepared;
    if !held.move_to(&request.memory) {
        return RunOutcome::failed(Failure::new(
            FailureKind::ResourceLimit,
            "out of memory: the sandbox's heap budget cannot hold a new JS context",
        ));
    }
    let tripwire = Arc::new(Tripwire::default());
    bind_runtime(&runtime, request, &tripwire);
    let rejections: Rejections = Rc::default();
    let tracked = rejections.clone();
    runtime.set_host_promise_rejection_tracker(Some(Box::new(
        move |ctx, promise, reason, handled| {
            let mut list = tracked.borrow_mut();
            if handled {
                list.retain(|(p, _)| {
                    p.clone()
                        .restore(&ctx)
                        .map(|p: Value| p != promise)
                        .unwrap_or(true)
                });
            } else {
                list.push((
                    Persistent::save(&ctx, promise),
                    Persistent::save(&ctx, reason),
                ));
            }
        },
    )));
    let host = Rc::new(Host {
        vfs: request.vfs.clone(),
        output: request.output.clone(),
        watch: request.watch.clone(),
        tripwire: tripwire.clone(),
        shell: request.shell.clone().unwrap_or_default(),
        network: request.engine.network.clone(),
        relay: request.engine.relay.clone(),
        programs: request.engine.programs.clone(),
        audit: request.engine.audit.clone(),
        limits: request.engine.limits.clone(),
        advice: request.engine.advice.clone(),
        env: request.engine.env.clone(),
        entry: request.entry.to_string(),
        stdin: request.stdin.clone(),
        nest: Arc::new(Nester {
            engine: request.engine.clone(),
            depth: request.depth,
            memory: request.memory.clone(),
        }),
    });
    // A stop states the limits that applied: the sink's own output budget
    // when the caller streamed the run to one.
    let applied = goccia_core::Limits {
        max_output: request.output.budget().limit(),
        ..request.engine.limits.clone()
    };
    if let Err(error) = context.with(|ctx| globals.fill(&ctx, host)) {
        return RunOutcome::failed(Failure::new(
            FailureKind::HostError,
            format!("internal error: cannot install the globals: {error}"),
        ));
    }
    let mut session = Session {
        runtime: &runtime,
        context: &context,
        tripwire: &tripwire,
        rejections: &rejections,
        engine: &request.engine,
        limits: &applied,
        watch: &request.watch,
        first_turn: true,
    };
    let mut outcome = session.run(&request.entry);
    exited(&mut outcome, &tripwire);
    if let Some(failure) = &outcome.failure
        && matches!(
            failure.kind,
            FailureKind::Timeout | FailureKind::ResourceLimit
        )
    {
        request.engine.audit.record(
            "limit",
            "hit",
            request.entry.as_str(),
            Some(failure.message.clone()),
        );
    }
    outcome.memory_used = held.bytes() as u64;
    // Persistent values must go before the runtime does.
    rejections.borrow_mut().clear();
    if request.leave_heap_to_exit && request.depth == 0 {
        std::mem::forget(context);
        std::mem::forget(runtime);
    } else {
        *remains = Some(Remains {
            _context: context,
            _runtime: runtime,
        });
    }
    outcome
}

/// `process.exit(code)` ends the run with `code` whatever the guest was
/// doing (unless a limit stopped it first); `process.exitCode` is the code
/// of a run that ended on its own. A non-zero code is a script error that
/// prints nothing more (the guest said what it wanted).
fn exited(outcome: &mut RunOutcome, tripwire: &Tripwire) {
    if tripwire.fatal().is_some() {
        return;
    }
    let code = match (tripwire.exit_requested(), &outcome.failure) {
        (Some(code), _) => code,
        (None, None) => match tripwire.exit_code() {
            Some(code) => code,
            None => return,
        },
        (None, Some(_)) => return,
    };
    outcome.exit = Some(code);
    outcome.failure = (code != 0).then(|| {
        let mut failure = Failure::new(FailureKind::ScriptError, format!("process.exit({code})"));
        failure.report.clear();
        failure
    });
    if code != 0 {
        outcome.result = None;
    }
}

/// Binds a prepared runtime to `request`: its deadline and tripwire
/// (the interrupt handler) and its modules (the VFS-only loader).
fn bind_runtime(runtime: &Runtime, request: &RunRequest, tripwire: &Arc<Tripwire>) {
    let watch = request.watch.clone();
    let tripwire = tripwire.clone();
    runtime.set_interrupt_handler(Some(Box::new(move || {
        if tripwire.fatal().is_some() {
            return true;
        }
        match watch.check() {
            Ok(()) => false,
            Err(stop) => {
                tripwire.stop(stop);
                true
            }
        }
    })));
    let wrappers = crate::loader::Wrappers::default();
    runtime.set_loader(
        VfsResolver {
            wrappers: wrappers.clone(),
        },
        VfsLoader {
            vfs: request.vfs.clone(),
            mode: request.engine.mode,
            inline: request
                .inline_source
                .clone()
                .map(|source| (request.entry.clone(), source)),
            wrappers,
            entry: request.entry.clone(),
        },
    );
}

struct Session<'a> {
    runtime: &'a Runtime,
    context: &'a Context,
    tripwire: &'a Tripwire,
    rejections: &'a Rejections,
    engine: &'a Engine,
    /// The engine's limits as they applied to this run.
    limits: &'a goccia_core::Limits,
    watch: &'a Watch,
    /// Set until the entry's first turn.
    first_turn: bool,
}

/// QuickJS collects cycles when its heap passes a threshold, 256 KiB at
/// first, then half as much again as what a collection left. Installing the
/// globals crosses 256 KiB, and a collection then finds nothing to free
/// (all of it is live): [`new_runtime`] defers collections until they are
/// in place, and this is the threshold a collection at that point would
/// have set (`setup_bytes` being what they hold).
fn gc_threshold_after_setup(setup_bytes: usize) -> usize {
    const QUICKJS_INITIAL: usize = 256 * 1024;
    (setup_bytes.saturating_add(setup_bytes / 2)).max(QUICKJS_INITIAL)
}

/// What one turn of the event loop found.
enum Turn {
    Continue,
    Done,
    Failed(Failure),
}

impl Session<'_> {
    fn run(&mut self, entry: &VfsPath) -> RunOutcome {
        let started = self
            .context
            .with(|ctx| -> Result<Persistent<Promise<'static>>, Failure> {
                let promise = Module::import(&ctx, entry.as_str())
                    .catch(&ctx)
                    .map_err(|error| self.caught(&ctx, error))?;
                Ok(Persistent::save(&ctx, promise))
            });
        let promise = match started {
            Ok(promise) => promise,
            Err(failure) => return RunOutcome::failed(failure),
        };
        loop {
            match self.turn(&promise) {
                Turn::Continue => continue,
                Turn::Done => break,
                Turn::Failed(failure) => return RunOutcome::failed(failure),
            }
        }
        let outcome = self.settle(promise);
        // Serializing the result ran guest code (`toJSON`, getters), and a
        // native call may have passed the deadline without polling: the
        // outcome is decided by what happened, after the last guest code.
        match self.check_stop() {
            Some(failure) => RunOutcome::failed(failure),
            None => outcome,
        }
    }

    /// The stop that ends the run, if one happened: recorded by the host,
    /// or a deadline that passed while no guest code polled it.
    fn check_stop(&self) -> Option<Failure> {
        if let Some(stop) = self.tripwire.fatal() {
            return Some(self.stopped(stop));
        }
        if let Err(stop) = self.watch.check() {
            self.tripwire.stop(stop);
            return Some(self.stopped(stop));
        }
        None
    }

    /// Drains the job queue, checks the entry and unhandled rejections,
    /// then fires the next timer if any.
    fn turn(&mut self, entry: &Persistent<Promise<'static>>) -> Turn {
        // `process.nextTick` callbacks first, then the promise jobs, until
        // neither queue has anything (Node's order after a macrotask).
        // The entry's first turn drains its jobs first: an ES module is
        // evaluated as a job in Node, so its promise jobs come before its
        // ticks (a CommonJS entry ran its ticks already, as Node does).
        let mut jobs_first = std::mem::take(&mut self.first_turn);
        loop {
            let ticks = if std::mem::take(&mut jobs_first) {
                None
            } else {
                match self.run_ticks() {
                    Ok(ran) => Some(ran),
                    Err(failure) => return Turn::Failed(failure),
                }
            };
            let mut jobs = 0;
            loop {
                match self.runtime.execute_pending_job() {
                    Ok(true) => jobs += 1,
                    Ok(false) => break,
                    Err(job) => {
                        return Turn::Failed(job.0.with(|ctx| {
                            let value = ctx.catch();
                            self.classify(&ctx, value, "uncaught ")
                        }));
                    }
                }
            }
            if ticks == Some(0) && jobs == 0 {
                break;
            }
        }
        if let Some(failure) = self.check_stop() {
            return Turn::Failed(failure);
        }
        if let Some(failure) = self.entry_rejection(entry) {
            return Turn::Failed(failure);
        }
        self.context.with(|ctx| {
            if let Some(failure) = self.unhandled_rejection(&ctx) {
                return Turn::Failed(failure);
            }
            let Some(internals) = ctx
                .userdata::<goccia_js_api::Internals>()
                .map(|i| i.0.clone())
            else {
                return Turn::Done;
            };
            let due: f64 = call(&internals, "nextTimerDue").unwrap_or(-1.0);
            if due < 0.0 {
                return Turn::Done;
            }
            if due as u128 > self.engine.limits.timeout.as_millis() {
                // Virtual time would pass the deadline before the timer fires.
                self.tripwire.stop(Stop::DEADLINE);
                return Turn::Failed(self.stopped(Stop::DEADLINE));
            }
            match internals
                .get::<_, Function>("runNextTimer")
                .and_then(|run| run.call::<_, bool>(()))
                .catch(&ctx)
            {
                Ok(_) => Turn::Continue,
                Err(error) => Turn::Failed(self.caught(&ctx, error)),
            }
        })
    }

    /// Runs the queued `process.nextTick` callbacks; how many ran.
    fn run_ticks(&self) -> Result<u32, Failure> {
        self.context.with(|ctx| {
            let Some(internals) = ctx
                .userdata::<goccia_js_api::Internals>()
                .map(|i| i.0.clone())
            else {
                return Ok(0);
            };
            internals
                .get::<_, Function>("runTicks")
                .and_then(|run| run.call::<_, u32>(()))
                .catch(&ctx)
                .map_err(|error| self.caught(&ctx, error))
        })
    }

    /// The entry module's own failure, once it has one (reported even if
    /// timers are still pending, as Node does).
    fn entry_rejection(&self, promise: &Persistent<Promise<'static>>) -> Option<Failure> {
        self.context.with(|ctx| {
            let promise = promise.clone().restore(&ctx).ok()?;
            if promise.state() != PromiseState::Rejected {
                return None;
            }
            let reason = match promise.result::<Value>() {
                Some(Err(rquickjs::Error::Exception)) => ctx.catch(),
                Some(Ok(value)) => value,
                _ => Value::new_undefined(ctx.clone()),
            };
            Some(self.classify(&ctx, reason, "uncaught "))
        })
    }

    fn stopped(&self, stop: Stop) -> Failure {
        Failure::stopped(stop, self.limits, &self.engine.advice, self.watch)
    }

    fn classify<'js>(&self, ctx: &Ctx<'js>, value: Value<'js>, prefix: &str) -> Failure {
        let evidence = Evidence {
            tripwire: self.tripwire,
            limits: self.limits,
            advice: &self.engine.advice,
            watch: self.watch,
            out_of_memory_thrown: out_of_memory_thrown(ctx),
        };
        classify_exception(ctx, value, &evidence, prefix)
    }

    fn unhandled_rejection<'js>(&self, ctx: &Ctx<'js>) -> Option<Failure> {
        let first = self
            .rejections
            .borrow()
            .first()
            .map(|(_, reason)| reason.clone());
        let reason = first?.restore(ctx).ok()?;
        Some(self.classify(ctx, reason, "uncaught (in promise) "))
    }

    fn caught<'js>(&self, ctx: &Ctx<'js>, error: CaughtError<'js>) -> Failure {
        let value = match error {
            CaughtError::Exception(exception) => exception.into_value(),
            CaughtError::Value(value) => value,
            CaughtError::Error(error) => {
                if let Some(stop) = self.tripwire.fatal() {
                    return self.stopped(stop);
                }
                return Failure::new(FailureKind::HostError, format!("internal error: {error}"));
            }
        };
        self.classify(ctx, value, "uncaught ")
    }

    /// The entry's outcome once the loop is idle.
    fn settle(&mut self, promise: Persistent<Promise<'static>>) -> RunOutcome {
        self.context.with(|ctx| {
            let promise = match promise.restore(&ctx) {
                Ok(promise) => promise,
                Err(error) => {
                    return RunOutcome::failed(Failure::new(FailureKind::HostError, format!("internal error: {error}")));
                }
            };
            match promise.state() {
                PromiseState::Resolved => {
                    let namespace: Option<Object> = promise.result::<Object>().and_then(|r| r.ok());
                    match namespace.map(|ns| self.default_export_json(&ctx, &ns)) {
                        Some(Err(failure)) => RunOutcome::failed(failure),
                        Some(Ok(result)) => RunOutcome { result, ..RunOutcome::default() },
                        None => RunOutcome::default(),
                    }
                }
                PromiseState::Rejected => unreachable!("checked by entry_rejection before settling"),
                PromiseState::Pending => RunOutcome::failed(Failure::new(
                    FailureKind::ScriptError,
                    "the entry's top-level await never settled (no pending jobs or timers are left)",
                )),
            }
        })
    }

    /// The default export as JSON, `None` when there is none or it is not
    /// JSON-like (a `toJSON` that throws, a BigInt, a cycle). Serializing
    /// runs guest code: a limit it hits (deadline, memory, output) fails
    /// the run.
    fn default_export_json<'js>(
        &self,
        ctx: &Ctx<'js>,
        namespace: &Object<'js>,
    ) -> Result<Option<serde_json::Value>, Failure> {
        let value: Value = match namespace.get("default").catch(ctx) {
            Ok(value) => value,
            Err(error) => return self.not_json(ctx, error),
        };
        if value.is_undefined() || self.is_untouched_exports(ctx, &value) {
            return Ok(None);
        }
        let text = match ctx.json_stringify(value).catch(ctx) {
            Ok(Some(text)) => text,
            Ok(None) => return Ok(None),
            Err(error) => return self.not_json(ctx, error),
        };
        let Ok(text) = text.to_string() else {
            return Ok(None);
        };
        Ok(serde_json::from_str(&text).ok())
    }

    /// Whether `value` is the empty `module.exports` a CommonJS entry
    /// started with and never filled: no result, as for an ES module
    /// without a default export.
    fn is_untouched_exports<'js>(&self, ctx: &Ctx<'js>, value: &Value<'js>) -> bool {
        let Some(object) = value.as_object() else {
            return false;
        };
        if object.keys::<rquickjs::Atom>().next().is_some() {
            return false;
        }
        let Some(internals) = ctx
            .userdata::<goccia_js_api::Internals>()
            .map(|i| i.0.clone())
        else {
            return false;
        };
        internals
            .get::<_, Object>("initialExports")
            .and_then(|set| set.get::<_, Function>("has").map(|has| (set, has)))
            .and_then(|(set, has)| {
                has.call::<_, bool>((rquickjs::function::This(set), value.clone()))
            })
            .unwrap_or(false)
    }

    /// A default export that failed to serialize: no result, unless the
    /// failure was a limit.
    fn not_json<'js, T>(
        &self,
        ctx: &Ctx<'js>,
        error: CaughtError<'js>,
    ) -> Result<Option<T>, Failure> {
        let failure = self.caught(ctx, error);
        match failure.kind {
            FailureKind::ScriptError => Ok(None),
            _ => Err(failure),
        }
    }
}

/// The runtime threw "out of memory" at least once: a thrown `null` is then
/// its allocation failure, not a guest's `throw null` (see the vendored
/// QuickJS's GOCCIA-PATCH.md).
fn out_of_memory_thrown(ctx: &Ctx<'_>) -> bool {
    // SAFETY: the context is live and locked by the caller; the function
    // reads one counter of its runtime.
    unsafe {
        let runtime = rquickjs::qjs::JS_GetRuntime(ctx.as_raw().as_ptr());
        rquickjs::qjs::JS_GocciaOutOfMemoryCount(runtime) > 0
    }
}

fn call<'js, R: rquickjs::FromJs<'js>>(object: &Object<'js>, name: &str) -> rquickjs::Result<R> {
    object.get::<_, Function>(name)?.call(())
}

#[cfg(test)]
mod tests;
