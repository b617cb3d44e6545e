//! Escalation from JS (docs/policy.md): an `fs` write call with
//! `sandboxPermissions` and `justification` in its options, `$`'s
//! `.escalate(mode, justification)` and `runScript`'s two options all come
//! here. The request is checked (both fields, not blank, strictly wider
//! than the call's current mode) before the host's approver is asked; a
//! grant runs exactly that one call under the wider mode, and is never
//! kept.

use std::rc::Rc;

use goccia_vfs::policy::{self, EscalationError, EscalationRequest, Scope, Subject};
use rquickjs::{Ctx, Function, Object, Result, Value};

use crate::errors::{new_error, throw};
use crate::host::Host;

/// The native `escalate(subject, detail, mode, justification, run)`.
pub fn natives<'js>(ctx: &Ctx<'js>, host: Rc<Host>) -> Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    let escalate = Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>,
              subject: String,
              detail: String,
              mode: Value<'js>,
              justification: Value<'js>,
              run: Function<'js>| {
            escalate(&ctx, &host, &subject, detail, (mode, justification), run)
        },
    )?;
    escalate.set_name("escalate")?;
    object.set("escalate", escalate)?;
    Ok(object)
}

/// A field as given: absent (`undefined`/`null`) or a string.
fn field(ctx: &Ctx<'_>, name: &str, value: &Value<'_>) -> Result<Option<String>> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    match value.as_string() {
        Some(text) => Ok(Some(text.to_string()?)),
        None => Err(throw_escalation(
            ctx,
            &EscalationError {
                code: "ERR_INVALID_ARG_VALUE",
                message: format!("{name} must be a string"),
            },
        )),
    }
}

fn throw_escalation(ctx: &Ctx<'_>, error: &EscalationError) -> rquickjs::Error {
    let object = new_error(ctx, "Error", &error.message);
    let _ = object.set("code", error.code);
    throw(ctx, object)
}

fn escalate<'js>(
    ctx: &Ctx<'js>,
    host: &Host,
    subject: &str,
    detail: String,
    (mode, justification): (Value<'js>, Value<'js>),
    run: Function<'js>,
) -> Result<Value<'js>> {
    let subject = if subject == "operation" {
        Subject::Operation
    } else {
        Subject::Command
    };
    let mode = field(ctx, "sandboxPermissions", &mode)?;
    let justification = field(ctx, "justification", &justification)?;
    let current = host.vfs.lock().policy().unwrap_or_default();
    let requested =
        match policy::check_request(current.mode(), mode.as_deref(), justification.as_deref()) {
            Ok(Some(requested)) => requested,
            Ok(None) => return run.call(()),
            Err(error) => return Err(throw_escalation(ctx, &error)),
        };
    let request = EscalationRequest {
        requested_mode: requested,
        current_mode: current.mode(),
        justification: justification.unwrap_or_default(),
        subject,
        detail,
    };
    host.audit.record(
        "escalation",
        "request",
        request.detail.clone(),
        Some(format!(
            "{} ({}): {}",
            request.requested_mode,
            subject.as_str(),
            request.justification
        )),
    );
    let granted = policy::escalate(&current, &request);
    host.audit.record(
        "escalation",
        "decision",
        request.detail.clone(),
        Some(match &granted {
            Ok(_) => "allowed-once".to_string(),
            Err(error) => error.code.to_string(),
        }),
    );
    // The approver may have taken a while: the deadline still holds.
    host.check()
        .map_err(|stopped| crate::errors::throw_stopped(ctx, stopped))?;
    match granted {
        Ok(granted) => {
            let _scope = Scope::enter(granted);
            run.call(())
        }
        Err(error) => Err(throw_escalation(ctx, &error)),
    }
}
