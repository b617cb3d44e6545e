//! Escalation in the 2026-07-28 revision (docs/mcp.md): a server cannot
//! call the client back, so a call whose guest asks for a wider mode is
//! *suspended*: the guest's thread waits for the answer, and the tool call
//! answers `input_required` — the question as an elicitation, and a
//! `requestState` naming the suspended call. The client's retry of the
//! same call with `inputResponses` delivers the answer to that call alone
//! and waits for what it does next (its result, or another question).
//!
//! A retry is believed only if its `requestState` names a question this
//! server asked of this caller, for this tool with these arguments, not
//! yet answered: anything else grants nothing (`-32602`). A question no
//! retry answers within the approval timeout is `cancelled`, as an
//! unanswered elicitation is.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use goccia::{Approver, Decision, EscalationRequest};
use parking_lot::Mutex;
use rmcp::ErrorData;
use rmcp::model::{
    CallToolResponse, CallToolResult, ElicitRequest, InputRequest, InputRequests,
    InputRequiredResult, InputResponses,
};
use tokio::sync::mpsc;

use crate::handles::Caller;

/// What a running call tells the tool that waits on it.
pub(crate) enum CallEvent {
    /// The guest asks; the decision goes back through the sender.
    Question(EscalationRequest, std::sync::mpsc::SyncSender<Decision>),
    /// The call ended.
    Done(Result<CallToolResult, ErrorData>),
}

/// The key of the one input request a question makes.
const KEY: &str = "escalation";

/// The approver of a sandbox opened by handle: it asks through the call
/// running now (set by [`Calls::run`]), and waits for the answer.
pub(crate) struct HandleApprover {
    link: Arc<Mutex<Option<mpsc::UnboundedSender<CallEvent>>>>,
    timeout: Duration,
}

impl Approver for HandleApprover {
    fn decide(&self, request: &EscalationRequest) -> Decision {
        let Some(events) = self.link.lock().clone() else {
            return Decision::Unavailable;
        };
        let (answer, answered) = std::sync::mpsc::sync_channel(1);
        if events
            .send(CallEvent::Question(request.clone(), answer))
            .is_err()
        {
            return Decision::Unavailable;
        }
        crate::approval::wait_aside(|| answered.recv_timeout(self.timeout))
            .unwrap_or(Decision::Cancelled)
    }
}

/// The link between a handle's sandbox and the call running on it; calls
/// on one handle run one at a time.
#[derive(Clone)]
pub(crate) struct CallLink {
    link: Arc<Mutex<Option<mpsc::UnboundedSender<CallEvent>>>>,
    turn: Arc<tokio::sync::Mutex<()>>,
}

impl CallLink {
    /// A link and the approver a sandbox is built with to ask through it.
    pub(crate) fn new(timeout: Duration) -> (CallLink, HandleApprover) {
        let link = Arc::new(Mutex::new(None));
        (
            CallLink {
                link: link.clone(),
                turn: Arc::new(tokio::sync::Mutex::new(())),
            },
            HandleApprover { link, timeout },
        )
    }

    /// Waits for this handle's turn: a call that runs without a link (its
    /// client cannot be asked) still runs one at a time with the others,
    /// and the link stays empty meanwhile, so its guest's questions are
    /// answered `unavailable`.
    pub(crate) async fn turn(&self) -> tokio::sync::OwnedMutexGuard<()> {
        self.turn.clone().lock_owned().await
    }
}

/// A call waiting for the answer to its question.
struct Waiting {
    caller: Caller,
    call: String,
    events: mpsc::UnboundedReceiver<CallEvent>,
    answer: std::sync::mpsc::SyncSender<Decision>,
    asked: Instant,
}

/// The suspended calls of one server, by `requestState`.
pub(crate) struct Calls {
    waiting: Mutex<HashMap<String, Waiting>>,
    timeout: Duration,
}

/// What identifies a call for its retry: the tool and its arguments.
pub(crate) fn call_key(tool: &str, arguments: &impl serde::Serialize) -> String {
    let text = serde_json::to_string(arguments).unwrap_or_default();
    format!("{tool}:{}", blake3::hash(text.as_bytes()).to_hex())
}

impl Calls {
    pub(crate) fn new(timeout: Duration) -> Calls {
        Calls {
            waiting: Mutex::new(HashMap::new()),
            timeout,
        }
    }

    /// Runs `work` on `link`'s sandbox (one call at a time per handle) and
    /// answers its result, or `input_required` when its guest asks.
    pub(crate) async fn run(
        &self,
        link: &CallLink,
        caller: Caller,
        call: String,
        work: impl FnOnce() -> Result<CallToolResult, ErrorData> + Send + 'static,
    ) -> Result<CallToolResponse, ErrorData> {
        let turn = link.turn().await;
        let (events, receiver) = mpsc::unbounded_channel();
        *link.link.lock() = Some(events.clone());
        let slot = link.link.clone();
        tokio::task::spawn_blocking(move || {
            let result = work();
            // The next call on this handle may start once this one ended.
            *slot.lock() = None;
            drop(turn);
            let _ = events.send(CallEvent::Done(result));
        });
        self.follow(caller, call, receiver).await
    }

    /// Delivers the client's answer to the call `state` names, if it is
    /// this caller's question about this call, and follows the call on.
    pub(crate) async fn answer(
        &self,
        caller: Caller,
        call: String,
        state: &str,
        responses: Option<&InputResponses>,
    ) -> Result<CallToolResponse, ErrorData> {
        let waiting = {
            let mut waiting = self.waiting.lock();
            self.sweep(&mut waiting);
            match waiting.get(state) {
                Some(found) if found.caller == caller && found.call == call => {
                    waiting.remove(state)
                }
                _ => None,
            }
        };
        let Some(waiting) = waiting else {
            return Err(ErrorData::invalid_params(
                "requestState names no question this server asked you about this call: it grants nothing (retry the call without it)",
                None,
            ));
        };
        let decision = responses
            .and_then(|responses| responses.get(KEY))
            .and_then(|value| serde_json::from_value(value.clone()).ok())
            .map_or(Decision::Cancelled, |result| {
                crate::approval::decision(&result)
            });
        let _ = waiting.answer.send(decision);
        self.follow(waiting.caller, waiting.call, waiting.events)
            .await
    }

    /// Waits for the call's next event: its result, or a question, which
    /// suspends it under a fresh `requestState`.
    async fn follow(
        &self,
        caller: Caller,
        call: String,
        mut events: mpsc::UnboundedReceiver<CallEvent>,
    ) -> Result<CallToolResponse, ErrorData> {
        match events.recv().await {
            Some(CallEvent::Done(result)) => result.map(CallToolResponse::from),
            Some(CallEvent::Question(request, answer)) => {
                let state = crate::handles::new_token("rs_");
                let mut requests = InputRequests::new();
                requests.insert(
                    KEY.to_string(),
                    InputRequest::Elicitation(ElicitRequest::new(crate::approval::params(
                        &request,
                    ))),
                );
                let mut waiting = self.waiting.lock();
                self.sweep(&mut waiting);
                waiting.insert(
                    state.clone(),
                    Waiting {
                        caller,
                        call,
                        events,
                        answer,
                        asked: Instant::now(),
                    },
                );
                Ok(InputRequiredResult::new(Some(requests), Some(state)).into())
            }
            None => Err(ErrorData::internal_error(
                "the sandbox call ended without an answer",
                None,
            )),
        }
    }

    /// Forgets questions older than the approval timeout (their calls went
    /// on as `cancelled`).
    fn sweep(&self, waiting: &mut HashMap<String, Waiting>) {
        let timeout = self.timeout;
        waiting.retain(|_, question| question.asked.elapsed() <= timeout);
    }
}
