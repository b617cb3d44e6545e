//! The engine configuration a run and every run it nests share: a child
//! inherits it whole and can only narrow it (its deadline and quota).

use goccia_core::{Advice, Audit, Limits, NetPolicy};

use crate::bytecode::ExecMode;

/// Limits, mode, network policy, audit trail and advice: what a run and
/// every run it nests share.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Engine {
    /// The limits (children narrow the deadline and quota).
    pub limits: Limits,
    /// How guest modules execute.
    pub mode: ExecMode,
    /// What `fetch` may reach (nothing by default).
    pub network: NetPolicy,
    /// Where `fetch` goes instead of the network (an isolated worker's
    /// parent); none by default.
    pub relay: goccia_js_api::fetch::FetchRelay,
    /// The host programs its shells may run (docs/host-commands.md); none by
    /// default.
    pub programs: goccia_js_api::HostPrograms,
    /// Where security-relevant decisions are recorded (off by default).
    pub audit: Audit,
    /// The surface's words for raising a limit, appended to messages
    /// (none by default).
    pub advice: Advice,
    /// Variables every shell of the sandbox starts with, exported (the
    /// host's own environment is never read).
    pub env: Vec<(String, String)>,
    /// The folder its shell session starts in (`/` when none).
    pub cwd: Option<goccia_vfs::VfsPath>,
}
