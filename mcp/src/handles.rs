//! Sandboxes named by handles (docs/mcp.md, "The 2026-07-28 revision"):
//! the revision without sessions keeps state in sandboxes a client opens
//! with `open_sandbox` and names in every call. A handle is 128 random
//! bits, held by the caller that opened it (over HTTP, its bearer token;
//! over stdio, the one client), forgotten after an idle TTL, and a caller
//! holds a bounded number at once.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use goccia::Sandbox;
use parking_lot::Mutex;

use crate::suspended::CallLink;

/// Who calls: a hash of the bearer token over HTTP, `stdio` over stdio.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Caller(pub String);

/// Why a handle named no sandbox.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum HandleRefusal {
    /// The 2026-07-28 revision names a sandbox in every call.
    #[error(
        "this call needs `sandbox`: the handle `open_sandbox` returned (the 2026-07-28 revision keeps no session to hold a sandbox)"
    )]
    Missing,
    /// Never opened, closed, expired, or another caller's: all one answer,
    /// so a guess learns nothing.
    #[error(
        "`{0}` is no open sandbox of yours: it was never opened, was closed, or went unused past the idle TTL; call open_sandbox"
    )]
    Unknown(String),
    /// The caller holds as many as it may.
    #[error(
        "you hold {0} open sandboxes, the most one client may: close one with close_sandbox first"
    )]
    Limit(usize),
}

struct Held {
    sandbox: Arc<Sandbox>,
    link: CallLink,
    caller: Caller,
    used: Instant,
}

/// The open handles of one server.
pub(crate) struct Handles {
    open: Mutex<HashMap<String, Held>>,
    idle: Duration,
    per_caller: usize,
}

impl Handles {
    pub(crate) fn new(idle: Duration, per_caller: usize) -> Handles {
        Handles {
            open: Mutex::new(HashMap::new()),
            idle,
            per_caller,
        }
    }

    /// Whether `held` went unused past the idle TTL.
    fn expired(&self, held: &Held, now: Instant) -> bool {
        now.duration_since(held.used) > self.idle
    }

    /// Forgets the handles unused for longer than the idle TTL: when one
    /// is opened (what makes memory grow), not on every call.
    fn sweep(&self, open: &mut HashMap<String, Held>, now: Instant) {
        open.retain(|_, held| now.duration_since(held.used) <= self.idle);
    }

    /// A new handle holding `sandbox`, for `caller`.
    pub(crate) fn open(
        &self,
        caller: &Caller,
        sandbox: Sandbox,
        link: CallLink,
    ) -> Result<String, HandleRefusal> {
        let now = Instant::now();
        let mut open = self.open.lock();
        self.sweep(&mut open, now);
        let held = open.values().filter(|held| held.caller == *caller).count();
        if held >= self.per_caller {
            return Err(HandleRefusal::Limit(self.per_caller));
        }
        let handle = new_token("sbx_");
        open.insert(
            handle.clone(),
            Held {
                sandbox: Arc::new(sandbox),
                link,
                caller: caller.clone(),
                used: now,
            },
        );
        Ok(handle)
    }

    /// The sandbox `handle` names and the link its escalations ask
    /// through, if `caller` holds it; its idle clock starts again.
    pub(crate) fn get(
        &self,
        caller: &Caller,
        handle: &str,
    ) -> Result<(Arc<Sandbox>, CallLink), HandleRefusal> {
        self.get_at(caller, handle, Instant::now())
    }

    fn get_at(
        &self,
        caller: &Caller,
        handle: &str,
        now: Instant,
    ) -> Result<(Arc<Sandbox>, CallLink), HandleRefusal> {
        let mut open = self.open.lock();
        match open.get_mut(handle) {
            Some(held) if held.caller == *caller && !self.expired(held, now) => {
                held.used = now;
                Ok((held.sandbox.clone(), held.link.clone()))
            }
            Some(held) if self.expired(held, now) => {
                open.remove(handle);
                Err(HandleRefusal::Unknown(shown(handle)))
            }
            _ => Err(HandleRefusal::Unknown(shown(handle))),
        }
    }

    /// Closes `handle` if `caller` holds it.
    pub(crate) fn close(&self, caller: &Caller, handle: &str) -> Result<(), HandleRefusal> {
        let mut open = self.open.lock();
        match open.get(handle) {
            Some(held) if held.caller == *caller && !self.expired(held, Instant::now()) => {
                open.remove(handle);
                Ok(())
            }
            _ => Err(HandleRefusal::Unknown(shown(handle))),
        }
    }
}

/// A handle as a message repeats it: bounded, so a huge argument is not
/// echoed back whole.
fn shown(handle: &str) -> String {
    handle.chars().take(80).collect()
}

/// `prefix` and 128 random bits as hex: a handle (`sbx_`) or a suspended
/// call's `requestState` (`rs_`).
pub(crate) fn new_token(prefix: &str) -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source works");
    let hex: String = bytes.iter().map(|byte| format!("{byte:02x}")).collect();
    format!("{prefix}{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sandbox() -> Sandbox {
        Sandbox::builder().build().unwrap()
    }

    fn link() -> CallLink {
        CallLink::new(Duration::from_secs(1)).0
    }

    #[test]
    fn a_handle_is_its_callers_and_goes_when_idle_or_closed() {
        let handles = Handles::new(Duration::from_secs(60), 2);
        let (alice, bob) = (Caller("a".into()), Caller("b".into()));
        let one = handles.open(&alice, sandbox(), link()).unwrap();
        assert!(one.starts_with("sbx_") && one.len() == 36);
        assert!(handles.get(&alice, &one).is_ok());
        assert_eq!(
            handles.get(&bob, &one).err(),
            Some(HandleRefusal::Unknown(one.clone())),
            "another caller's handle is as unknown as a forged one"
        );
        assert!(handles.close(&bob, &one).is_err());
        let two = handles.open(&alice, sandbox(), link()).unwrap();
        assert_eq!(
            handles.open(&alice, sandbox(), link()).unwrap_err(),
            HandleRefusal::Limit(2)
        );
        assert!(
            handles.open(&bob, sandbox(), link()).is_ok(),
            "the limit is per caller"
        );
        handles.close(&alice, &two).unwrap();
        assert!(handles.get(&alice, &two).is_err());
        let later = Instant::now() + Duration::from_secs(61);
        assert!(handles.get_at(&alice, &one, later).is_err(), "expired");
        assert!(handles.close(&alice, &one).is_err(), "gone, not closable");
    }
}
