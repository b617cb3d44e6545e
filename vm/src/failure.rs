//! How a run failed: classified by evidence, described for humans.

use goccia_core::{Advice, DeadlineSource, FailureKind, LimitKind, Limits, Setting, Stop, Watch};
use goccia_js_api::Tripwire;
use rquickjs::{Ctx, Function, Object, Value};

/// A failed run (it crosses from an isolated worker as it is).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    /// The failure kind (and so the exit code).
    pub kind: FailureKind,
    /// One line: `Error: boom`, `entry not found: /main.js`, ...
    pub message: String,
    /// What to print on stderr (may include a stack trace).
    pub report: String,
}

impl Failure {
    /// A failure whose report is its message.
    pub fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        let message = message.into();
        Failure {
            kind,
            report: format!("goccia: {message}\n"),
            message,
        }
    }

    /// The failure a stop ends a run with: what stopped it, the value that
    /// applied (a deadline as `watch` was given it: the call's own when it
    /// had one), and the surface's advice on the setting that set it.
    pub fn stopped(stop: Stop, limits: &Limits, advice: &Advice, watch: &Watch) -> Self {
        let kind = stop.failure_kind();
        let label = match kind {
            FailureKind::Timeout => "timeout: ",
            FailureKind::ResourceLimit => "resource limit: ",
            _ => "",
        };
        let applied = Limits {
            timeout: watch.allowed(),
            ..limits.clone()
        };
        let advice = match stop.limit() {
            Some(LimitKind::Deadline) if watch.source() == DeadlineSource::Call => advice
                .text(Setting::CallTimeout)
                .map(|text| format!(" ({text})"))
                .unwrap_or_else(|| advice.for_limit(LimitKind::Deadline)),
            Some(kind) => advice.for_limit(kind),
            None => String::new(),
        };
        let message = format!("{label}{}{advice}", stop.describe(&applied));
        Failure::new(kind, message)
    }
}

/// What the host knows when an exception reaches the top.
pub struct Evidence<'a> {
    /// What the host recorded.
    pub tripwire: &'a Tripwire,
    /// The run's limits, for describing a stop.
    pub limits: &'a Limits,
    /// The surface's advice.
    pub advice: &'a Advice,
    /// The run's deadline and who set it.
    pub watch: &'a Watch,
    /// The runtime has thrown "out of memory" (a thrown `null` is then its
    /// allocation failure).
    pub out_of_memory_thrown: bool,
}

/// Classifies an exception that reached the top, by evidence: a limit the
/// host recorded, a quota error the host raised, an out-of-memory.
pub fn classify_exception<'js>(
    ctx: &Ctx<'js>,
    value: Value<'js>,
    evidence: &Evidence<'_>,
    prefix: &str,
) -> Failure {
    let tripwire = evidence.tripwire;
    if let Some(stop) = tripwire.fatal() {
        return Failure::stopped(stop, evidence.limits, evidence.advice, evidence.watch);
    }
    let object = value.as_object();
    let code = object.and_then(|o| o.get::<_, String>("code").ok());
    let name = object.and_then(|o| o.get::<_, String>("name").ok());
    let message = object.and_then(|o| o.get::<_, String>("message").ok());
    let (headline, detail) = describe(ctx, &value);
    // Reading `code`, `name`, `message` and `stack` ran guest getters: a
    // getter that looped until the deadline ends the run as a timeout.
    if let Some(stop) = tripwire.fatal() {
        return Failure::stopped(stop, evidence.limits, evidence.advice, evidence.watch);
    }
    let kind = if code.as_deref() == Some("ENOSPC") && tripwire.fs_quota_hit() {
        FailureKind::ResourceLimit
    } else if is_out_of_memory(
        &value,
        name.as_deref(),
        message.as_deref(),
        evidence.out_of_memory_thrown,
    ) {
        tripwire.note_memory();
        FailureKind::ResourceLimit
    } else {
        FailureKind::ScriptError
    };
    let label = match kind {
        FailureKind::ResourceLimit if tripwire.memory_hit() => format!(
            "resource limit: out of memory{}: ",
            evidence.advice.for_limit(LimitKind::Memory)
        ),
        FailureKind::ResourceLimit => "resource limit: ".to_string(),
        _ => String::new(),
    };
    Failure {
        kind,
        message: format!("{label}{headline}"),
        report: format!("goccia: {label}{prefix}{detail}\n"),
    }
}

/// QuickJS reports `InternalError: out of memory`; when even that error
/// cannot be allocated it throws `null`, which counts only once the runtime
/// has reported an out-of-memory.
fn is_out_of_memory(
    value: &Value<'_>,
    name: Option<&str>,
    message: Option<&str>,
    out_of_memory_thrown: bool,
) -> bool {
    (value.is_null() && out_of_memory_thrown)
        || (name == Some("InternalError") && message == Some("out of memory"))
}

/// `(headline, detail)`: `Error: boom` and the same with its stack.
fn describe<'js>(ctx: &Ctx<'js>, value: &Value<'js>) -> (String, String) {
    if let Some(object) = value.as_object()
        && is_error(ctx, object)
    {
        let name: String = object.get("name").unwrap_or_else(|_| "Error".to_string());
        let message: String = object.get("message").unwrap_or_default();
        let headline = if message.is_empty() {
            name
        } else {
            format!("{name}: {message}")
        };
        let stack: String = object.get("stack").unwrap_or_default();
        // The prelude's `stack` starts with the headline, as V8's does.
        let frames = stack
            .trim_end()
            .strip_prefix(headline.as_str())
            .map_or(stack.trim_end(), |rest| rest.trim_start_matches('\n'));
        let frames = shorten_stack(frames);
        let detail = if frames.is_empty() {
            headline.clone()
        } else {
            format!("{headline}\n{frames}")
        };
        return (headline, detail);
    }
    let shown = inspect(ctx, value);
    (shown.clone(), shown)
}

/// Node shows ten frames; a runaway recursion would show thousands.
const MAX_FRAMES: usize = 10;

fn shorten_stack(stack: &str) -> String {
    let lines: Vec<&str> = stack.lines().collect();
    if lines.len() <= MAX_FRAMES {
        return stack.to_string();
    }
    let mut out = lines[..MAX_FRAMES].join("\n");
    out.push_str(&format!(
        "\n    ... {} more frames",
        lines.len() - MAX_FRAMES
    ));
    out
}

fn is_error<'js>(ctx: &Ctx<'js>, object: &Object<'js>) -> bool {
    ctx.globals()
        .get::<_, Function>("Error")
        .ok()
        .and_then(|ctor| object.is_instance_of(&ctor).then_some(()))
        .is_some()
        || object.get::<_, String>("stack").is_ok()
}

/// Node-style rendering of any value, through the prelude's `inspect`.
pub fn inspect<'js>(ctx: &Ctx<'js>, value: &Value<'js>) -> String {
    ctx.userdata::<goccia_js_api::Internals>()
        .and_then(|internals| internals.0.get::<_, Function>("inspect").ok())
        .and_then(|inspect| inspect.call::<_, String>((value.clone(),)).ok())
        .unwrap_or_else(|| "<value>".to_string())
}
