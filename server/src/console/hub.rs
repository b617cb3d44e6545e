//! What the console shows, kept as it happens (docs/console.md): the live
//! sessions with their last calls, snapshots and forks, and the escalation
//! requests waiting for a person. Every change is also an event for the
//! pages watching (server-sent events).
//!
//! The console never reads a session's sandbox to draw its list: a page
//! over a thousand sessions costs one lock and one JSON array.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::sync::mpsc::{RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use goccia::{Decision, EscalationRequest};
use parking_lot::Mutex;
use serde::Serialize;
use tokio::sync::{broadcast, watch};

/// The calls kept per session for its timeline (older ones drop off).
pub(crate) const TIMELINE_CALLS: usize = 200;

/// The escalation requests that may wait at once, over every session; one
/// more is answered `unavailable` at once (each waiting request holds a
/// thread of the server's).
pub(crate) const MAX_PENDING: usize = 64;

/// How much of a call's output the timeline keeps.
const EXCERPT_CHARS: usize = 240;

/// How much of a command the timeline keeps.
const COMMAND_CHARS: usize = 400;

/// Events a page that falls this far behind misses; it is told to reload
/// the state (`resync`).
const EVENT_BACKLOG: usize = 1024;

/// One event for the pages: its SSE name and its JSON.
#[derive(Clone, Debug)]
pub(crate) struct Event {
    pub name: &'static str,
    pub data: String,
}

/// A live session as the console lists it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SessionView {
    pub id: String,
    pub workspace: String,
    /// When it was opened (or brought back here), seconds since the epoch
    /// on the server's clock.
    pub opened_at: u64,
    /// When its grant expires, on the same clock.
    pub expires_at: u64,
    pub capabilities: Vec<String>,
    /// The server holding it.
    pub owner: String,
    /// The session it was forked from.
    pub parent: Option<String>,
    /// Its snapshots' numbers.
    pub snapshots: Vec<u64>,
    /// The sessions forked from it.
    pub forks: Vec<String>,
    /// Calls made, including those dropped off the timeline.
    pub calls: u64,
}

/// One call in a session's timeline.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CallView {
    pub session: String,
    pub seq: u64,
    /// `run` or `shell`.
    pub kind: &'static str,
    pub command: String,
    pub exit_code: i32,
    /// `null` on success.
    pub failure: Option<String>,
    pub duration_ms: f64,
    /// The start of stdout (stderr when stdout is empty).
    pub excerpt: String,
    pub at: u64,
}

/// An escalation request waiting for a person.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EscalationView {
    pub id: String,
    pub session: String,
    pub requested_mode: String,
    pub current_mode: String,
    pub justification: String,
    /// `operation` (an `fs` call) or `command`.
    pub subject: String,
    /// What exactly would run.
    pub detail: String,
    /// Milliseconds left when it was asked; it is `cancelled` after them.
    pub wait_ms: u64,
}

/// How a call ended, as the timeline records it.
pub(crate) struct Ended<'a> {
    /// `run` or `shell`.
    pub kind: &'static str,
    pub command: &'a str,
    pub exit_code: i32,
    pub failure: Option<&'a str>,
    pub stdout: &'a str,
    pub stderr: &'a str,
    pub took: Duration,
    /// On the server's clock.
    pub at: u64,
}

struct Watched {
    view: SessionView,
    timeline: VecDeque<CallView>,
    /// The deadline of the call running now (set when it starts).
    deadline: Option<Instant>,
}

struct Pending {
    view: EscalationView,
    answer: SyncSender<Decision>,
}

/// The console's state and its event stream.
pub(crate) struct Console {
    events: broadcast::Sender<Event>,
    sessions: Mutex<HashMap<String, Watched>>,
    pending: Mutex<HashMap<String, Pending>>,
    closed: watch::Sender<bool>,
}

/// Why a decision from the page was not taken.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum DecideError {
    /// No such request is waiting: never asked, already decided, or its
    /// call's deadline passed.
    #[error(
        "no escalation request `{0}` is waiting (never asked, already decided, or cancelled at its call's deadline)"
    )]
    NotWaiting(String),
}

impl Default for Console {
    fn default() -> Self {
        Console {
            events: broadcast::channel(EVENT_BACKLOG).0,
            sessions: Mutex::default(),
            pending: Mutex::default(),
            closed: watch::channel(false).0,
        }
    }
}

fn clipped(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

impl Console {
    fn send(&self, name: &'static str, data: &impl Serialize) {
        // No page watching: nothing to write.
        if self.events.receiver_count() == 0 {
            return;
        }
        let data = serde_json::to_string(data).unwrap_or_else(|_| "null".to_string());
        // No page watching is not an error.
        let _ = self.events.send(Event { name, data });
    }

    /// A stream of every event from now on, and whether the server is
    /// shutting down (pages' streams end then, so a graceful shutdown
    /// never waits on them).
    pub fn subscribe(&self) -> (broadcast::Receiver<Event>, watch::Receiver<bool>) {
        (self.events.subscribe(), self.closed.subscribe())
    }

    /// Ends every page's stream (the server is stopping).
    pub fn close(&self) {
        self.closed.send_replace(true);
    }

    /// A session became live here (opened, forked, or brought back).
    pub fn opened(&self, view: SessionView) {
        if let Some(parent) = &view.parent
            && let Some(watched) = self.sessions.lock().get_mut(parent)
        {
            watched.view.forks.push(view.id.clone());
        }
        self.send("session", &view);
        self.sessions.lock().insert(
            view.id.clone(),
            Watched {
                view,
                timeline: VecDeque::new(),
                deadline: None,
            },
        );
    }

    /// A session is no longer live here (closed, expired, moved away).
    pub fn closed(&self, id: &str) {
        if self.sessions.lock().remove(id).is_some() {
            self.send("session-closed", &serde_json::json!({ "id": id }));
        }
    }

    /// A session's grant now expires at `expires_at`.
    pub fn renewed(&self, id: &str, expires_at: u64) {
        let view = {
            let mut sessions = self.sessions.lock();
            let Some(watched) = sessions.get_mut(id) else {
                return;
            };
            watched.view.expires_at = expires_at;
            watched.view.clone()
        };
        self.send("session", &view);
    }

    /// A session took snapshot `number`.
    pub fn snapshot(&self, id: &str, number: u64) {
        let view = {
            let mut sessions = self.sessions.lock();
            let Some(watched) = sessions.get_mut(id) else {
                return;
            };
            watched.view.snapshots.push(number);
            watched.view.clone()
        };
        self.send("session", &view);
    }

    /// A submit of session `session` landed in `workspace` as change
    /// `change_id`.
    pub fn changed(&self, workspace: &str, change_id: &str, session: &str) {
        self.send(
            "change",
            &serde_json::json!({"workspace": workspace, "changeId": change_id, "session": session}),
        );
    }

    /// A call of session `id` starts; an escalation it asks for waits at
    /// most until `deadline`.
    pub fn call_started(&self, id: &str, deadline: Instant) {
        if let Some(watched) = self.sessions.lock().get_mut(id) {
            watched.deadline = Some(deadline);
        }
    }

    /// A call of session `id` ended.
    pub fn call_ended(&self, id: &str, ended: Ended<'_>) {
        let call = {
            let mut sessions = self.sessions.lock();
            let Some(watched) = sessions.get_mut(id) else {
                return;
            };
            watched.deadline = None;
            watched.view.calls += 1;
            let output = if ended.stdout.is_empty() {
                ended.stderr
            } else {
                ended.stdout
            };
            let call = CallView {
                session: id.to_string(),
                seq: watched.view.calls,
                kind: ended.kind,
                command: clipped(ended.command, COMMAND_CHARS),
                exit_code: ended.exit_code,
                failure: ended.failure.map(str::to_string),
                duration_ms: ended.took.as_secs_f64() * 1000.0,
                excerpt: clipped(output, EXCERPT_CHARS),
                at: ended.at,
            };
            if watched.timeline.len() == TIMELINE_CALLS {
                watched.timeline.pop_front();
            }
            watched.timeline.push_back(call.clone());
            call
        };
        self.send("call", &call);
    }

    /// Every live session, oldest first.
    pub fn sessions(&self) -> Vec<SessionView> {
        let mut views: Vec<SessionView> = self
            .sessions
            .lock()
            .values()
            .map(|watched| watched.view.clone())
            .collect();
        views.sort_by(|a, b| a.opened_at.cmp(&b.opened_at).then(a.id.cmp(&b.id)));
        views
    }

    /// A live session and its timeline.
    pub fn session(&self, id: &str) -> Option<(SessionView, Vec<CallView>)> {
        let sessions = self.sessions.lock();
        let watched = sessions.get(id)?;
        Some((
            watched.view.clone(),
            watched.timeline.iter().cloned().collect(),
        ))
    }

    /// The requests waiting for a person.
    pub fn pending(&self) -> Vec<EscalationView> {
        self.pending
            .lock()
            .values()
            .map(|pending| pending.view.clone())
            .collect()
    }

    /// Asks the page about `request` from session `id`: waits for a
    /// decision until the running call's deadline (`fallback` from now
    /// when none was set), then `Cancelled`.
    pub fn ask(&self, id: &str, request: &EscalationRequest, fallback: Duration) -> Decision {
        let now = Instant::now();
        let deadline = self
            .sessions
            .lock()
            .get(id)
            .and_then(|watched| watched.deadline)
            .unwrap_or(now + fallback);
        let wait = deadline.saturating_duration_since(now);
        let (answer, decision) = sync_channel(1);
        let view = EscalationView {
            id: crate::sessions::random_id("esc_"),
            session: id.to_string(),
            requested_mode: request.requested_mode.to_string(),
            current_mode: request.current_mode.to_string(),
            justification: request.justification.clone(),
            subject: request.subject.as_str().to_string(),
            detail: request.detail.clone(),
            wait_ms: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
        };
        let escalation = view.id.clone();
        {
            let mut pending = self.pending.lock();
            if pending.len() >= MAX_PENDING {
                return Decision::Unavailable;
            }
            pending.insert(
                escalation.clone(),
                Pending {
                    view: view.clone(),
                    answer,
                },
            );
        }
        self.send("escalation", &view);
        match decision.recv_timeout(wait) {
            Ok(decision) => decision,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => {
                let still_waiting = self.pending.lock().remove(&escalation).is_some();
                if still_waiting {
                    self.ended(&escalation, Decision::Cancelled);
                    Decision::Cancelled
                } else {
                    // The page decided as the deadline passed: its answer
                    // was sent while the request was removed.
                    decision.recv().unwrap_or(Decision::Cancelled)
                }
            }
        }
    }

    /// The page's decision on request `escalation`.
    pub fn decide(&self, escalation: &str, decision: Decision) -> Result<(), DecideError> {
        {
            let mut pending = self.pending.lock();
            let waiting = pending
                .remove(escalation)
                .ok_or_else(|| DecideError::NotWaiting(escalation.to_string()))?;
            // Sent under the lock: an asker that finds its request gone
            // finds the answer already in its channel.
            let _ = waiting.answer.try_send(decision);
        }
        self.ended(escalation, decision);
        Ok(())
    }

    fn ended(&self, escalation: &str, decision: Decision) {
        let word = match decision {
            Decision::AllowedOnce => "approved",
            Decision::Rejected => "denied",
            Decision::Cancelled => "cancelled",
            Decision::Unavailable => "unavailable",
        };
        self.send(
            "escalation-ended",
            &serde_json::json!({"id": escalation, "decision": word}),
        );
    }

    /// The approver of session `id` under `approve: console`.
    pub fn approver(self: &Arc<Self>, id: String, fallback: Duration) -> Arc<dyn goccia::Approver> {
        let console = self.clone();
        Arc::new(move |request: &EscalationRequest| console.ask(&id, request, fallback))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use crate::console::hub::{
        Console, DecideError, EXCERPT_CHARS, Ended, MAX_PENDING, SessionView, TIMELINE_CALLS,
    };
    use goccia::{Decision, EscalationRequest};
    use goccia::{PolicyMode, Subject};

    fn request() -> EscalationRequest {
        EscalationRequest {
            requested_mode: PolicyMode::Full,
            current_mode: PolicyMode::ReadOnly,
            justification: "write the report".to_string(),
            subject: Subject::Command,
            detail: "touch /out".to_string(),
        }
    }

    fn view(id: &str) -> SessionView {
        SessionView {
            id: id.to_string(),
            workspace: "w".to_string(),
            opened_at: 1,
            expires_at: 2,
            capabilities: vec!["shell".to_string()],
            owner: "here".to_string(),
            parent: None,
            snapshots: Vec::new(),
            forks: Vec::new(),
            calls: 0,
        }
    }

    #[test]
    fn a_request_nobody_answers_is_cancelled_at_the_deadline() {
        let console = Arc::new(Console::default());
        console.opened(view("sb_a"));
        console.call_started("sb_a", Instant::now() + Duration::from_millis(50));
        let decision = console.ask("sb_a", &request(), Duration::from_secs(60));
        assert_eq!(decision, Decision::Cancelled);
        assert!(console.pending().is_empty());
    }

    #[test]
    fn a_decision_reaches_the_waiting_call_once() {
        let console = Arc::new(Console::default());
        console.opened(view("sb_a"));
        let (mut events, _) = console.subscribe();
        let asker = {
            let console = console.clone();
            std::thread::spawn(move || console.ask("sb_a", &request(), Duration::from_secs(30)))
        };
        let asked = loop {
            let event = events.blocking_recv().unwrap();
            if event.name == "escalation" {
                break serde_json::from_str::<serde_json::Value>(&event.data).unwrap();
            }
        };
        let id = asked["id"].as_str().unwrap().to_string();
        assert_eq!(asked["detail"], "touch /out");
        console.decide(&id, Decision::Rejected).unwrap();
        assert_eq!(asker.join().unwrap(), Decision::Rejected);
        // A second answer, or one for a request never asked, changes nothing.
        assert_eq!(
            console.decide(&id, Decision::AllowedOnce),
            Err(DecideError::NotWaiting(id.clone()))
        );
        assert!(console.decide("esc_forged", Decision::AllowedOnce).is_err());
    }

    #[test]
    fn past_the_cap_requests_are_unavailable_at_once() {
        let console = Arc::new(Console::default());
        let mut askers = Vec::new();
        let (mut events, _) = console.subscribe();
        for _ in 0..MAX_PENDING {
            let console = console.clone();
            askers.push(std::thread::spawn(move || {
                console.ask("sb_a", &request(), Duration::from_secs(30))
            }));
        }
        for _ in 0..MAX_PENDING {
            assert_eq!(events.blocking_recv().unwrap().name, "escalation");
        }
        assert_eq!(
            console.ask("sb_a", &request(), Duration::from_secs(30)),
            Decision::Unavailable
        );
        for pending in console.pending() {
            console.decide(&pending.id, Decision::Rejected).unwrap();
        }
        for asker in askers {
            assert_eq!(asker.join().unwrap(), Decision::Rejected);
        }
    }

    #[test]
    fn the_timeline_keeps_the_last_calls_and_clips_output() {
        let console = Console::default();
        console.opened(view("sb_a"));
        let stdout = "x".repeat(1000);
        for _ in 0..TIMELINE_CALLS + 5 {
            console.call_ended(
                "sb_a",
                Ended {
                    kind: "shell",
                    command: "echo",
                    exit_code: 0,
                    failure: None,
                    stdout: &stdout,
                    stderr: "",
                    took: Duration::ZERO,
                    at: 3,
                },
            );
        }
        let (view, timeline) = console.session("sb_a").unwrap();
        assert_eq!(view.calls, (TIMELINE_CALLS + 5) as u64);
        assert_eq!(timeline.len(), TIMELINE_CALLS);
        assert_eq!(timeline[0].seq, 6);
        assert_eq!(timeline[0].excerpt.chars().count(), EXCERPT_CHARS + 1);
    }

    #[test]
    fn forks_are_listed_under_their_parent() {
        let console = Console::default();
        console.opened(view("sb_a"));
        console.opened(SessionView {
            parent: Some("sb_a".to_string()),
            ..view("sb_b")
        });
        assert_eq!(console.session("sb_a").unwrap().0.forks, vec!["sb_b"]);
        console.closed("sb_b");
        assert_eq!(console.sessions().len(), 1);
    }
}
