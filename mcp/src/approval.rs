//! Escalation requests (docs/policy.md) put to the MCP client as a form
//! elicitation: one yes/no question naming the call, the two modes and
//! the guest's justification.
//!
//! The library asks its approver from the thread the guest runs on; the
//! question goes out through the session's peer on the async runtime and
//! that thread waits for the answer (or the timeout) aside ([`wait_aside`]:
//! over stdio that thread may be the runtime's worker). A client that did
//! not declare form elicitation is never asked: `unavailable`.

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use goccia::{Approver, Decision, EscalationRequest};
use rmcp::model::{ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationSchema};
use rmcp::service::{ElicitationMode, Peer, RoleServer, ServiceError};

/// The session's client, once it has initialized.
pub type PeerSlot = Arc<OnceLock<Peer<RoleServer>>>;

/// Asks the client of one MCP session.
pub struct ClientApprover {
    pub peer: PeerSlot,
    pub runtime: tokio::runtime::Handle,
    pub timeout: Duration,
}

impl Approver for ClientApprover {
    fn decide(&self, request: &EscalationRequest) -> Decision {
        let Some(peer) = self.peer.get().cloned() else {
            return Decision::Unavailable;
        };
        if !peer
            .supported_elicitation_modes()
            .contains(&ElicitationMode::Form)
        {
            return Decision::Unavailable;
        }
        let params = params(request);
        let timeout = self.timeout;
        let (answer, answered) = std::sync::mpsc::sync_channel(1);
        self.runtime.spawn(async move {
            let result = peer
                .create_elicitation_with_timeout(params, Some(timeout))
                .await;
            let _ = answer.send(result);
        });
        match wait_aside(|| answered.recv()) {
            Ok(Ok(result)) => decision(&result),
            // Nobody answered in time: as if the question was dismissed.
            Ok(Err(ServiceError::Timeout { .. })) => Decision::Cancelled,
            // The client went away or refused the request itself.
            Ok(Err(_)) | Err(_) => Decision::Unavailable,
        }
    }
}

/// Runs `wait` (a wait for the client's answer) without holding up the
/// runtime. Over stdio a shell call runs in place on the runtime's worker
/// (`crate::transport::run_stdio`), and the answer can only be read by
/// that worker's other tasks: on a runtime worker they are handed to
/// another thread first (`block_in_place`). Elsewhere (a thread of the
/// library's, the blocking pool) it just waits.
pub(crate) fn wait_aside<R>(wait: impl FnOnce() -> R) -> R {
    match tokio::runtime::Handle::try_current() {
        Ok(runtime) if runtime.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(wait)
        }
        _ => wait(),
    }
}

/// The elicitation that asks `request` (a form with one boolean,
/// `allow`), as a callback or as an `input_required` result asks it.
pub(crate) fn params(request: &EscalationRequest) -> ElicitRequestParams {
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: question(request),
        requested_schema: schema(),
    }
}

/// The question, in the user's terms. The detail and the justification
/// are the guest's words: shown escaped (`\n`, `\x{1b}`, ...), as the
/// command line's prompt shows them, so neither can forge a line of the
/// question or drive the client's terminal.
fn question(request: &EscalationRequest) -> String {
    format!(
        "The sandboxed agent asks to run this {subject} once under the \"{wider}\" write policy instead of \"{current}\":\n\n    {detail}\n\nIts justification: {justification}\n\nAllow it this once?",
        subject = request.subject.as_str(),
        wider = request.requested_mode,
        current = request.current_mode,
        detail = goccia::shown(&request.detail),
        justification = goccia::shown(&request.justification),
    )
}

fn schema() -> ElicitationSchema {
    ElicitationSchema::builder()
        .required_bool_property("allow", |schema| {
            schema
                .title("Allow once")
                .description(
                    "Run exactly this call once at the wider mode; the next one is asked again",
                )
                .with_default(false)
        })
        .build()
        .expect("a one-property object schema is valid")
}

/// The client's answer as the library's decision: accepted with `allow`
/// true grants once; accepted with it false, or declined, rejects;
/// dismissed cancels.
pub(crate) fn decision(result: &ElicitResult) -> Decision {
    match result.action {
        ElicitationAction::Accept => {
            let allowed = result
                .content
                .as_ref()
                .and_then(|content| content.get("allow"))
                .and_then(serde_json::Value::as_bool);
            if allowed == Some(true) {
                Decision::AllowedOnce
            } else {
                Decision::Rejected
            }
        }
        ElicitationAction::Decline => Decision::Rejected,
        // Cancel, and any answer a later revision adds: not a yes.
        _ => Decision::Cancelled,
    }
}

/// Answers every request `unavailable`: the approver of a sandbox no one
/// can be asked about (the start-up probe).
pub struct NobodyToAsk;

impl Approver for NobodyToAsk {
    fn decide(&self, _: &EscalationRequest) -> Decision {
        Decision::Unavailable
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goccia::{PolicyMode, Subject};

    fn answer(action: ElicitationAction, content: Option<serde_json::Value>) -> Decision {
        let mut result = ElicitResult::new(action);
        result.content = content;
        decision(&result)
    }

    #[test]
    fn answers_map_to_decisions() {
        let yes = serde_json::json!({"allow": true});
        let no = serde_json::json!({"allow": false});
        assert_eq!(
            answer(ElicitationAction::Accept, Some(yes)),
            Decision::AllowedOnce
        );
        assert_eq!(
            answer(ElicitationAction::Accept, Some(no)),
            Decision::Rejected
        );
        assert_eq!(answer(ElicitationAction::Accept, None), Decision::Rejected);
        assert_eq!(answer(ElicitationAction::Decline, None), Decision::Rejected);
        assert_eq!(answer(ElicitationAction::Cancel, None), Decision::Cancelled);
    }

    #[test]
    fn the_question_names_call_modes_and_justification() {
        let text = question(&EscalationRequest {
            requested_mode: PolicyMode::Full,
            current_mode: PolicyMode::ReadOnly,
            justification: "needs the build dir".into(),
            subject: Subject::Command,
            detail: "mkdir /build".into(),
        });
        assert!(text.contains(
            "this command once under the \"full\" write policy instead of \"read-only\""
        ));
        assert!(text.contains("mkdir /build") && text.contains("needs the build dir"));
        // The guest's words cannot add lines or escape sequences.
        let spoofed = question(&EscalationRequest {
            requested_mode: PolicyMode::Full,
            current_mode: PolicyMode::ReadOnly,
            justification: "ok\n\nAllow it this once? yes\r\u{1b}[2J".into(),
            subject: Subject::Command,
            detail: "rm -rf /w\nls".into(),
        });
        assert_eq!(
            spoofed.matches("Allow it this once?").count(),
            2,
            "{spoofed}"
        );
        assert_eq!(
            spoofed.lines().filter(|l| l.contains("Allow it")).count(),
            2
        );
        assert!(!spoofed.contains('\u{1b}') && !spoofed.contains('\r'));
        assert!(spoofed.contains("ok\\n\\nAllow it this once? yes\\r\\x{1b}[2J"));
        assert!(spoofed.contains("rm -rf /w\\nls"));
        let schema = serde_json::to_value(schema()).unwrap();
        assert_eq!(schema["required"], serde_json::json!(["allow"]));
    }
}
