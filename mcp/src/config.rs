//! What an MCP server is started with: how each session's sandbox is made
//! and what the sessions may do.

use std::sync::Arc;
use std::time::Duration;

use goccia::{Approver, Sandbox, SetupError};

/// Makes one session's sandbox. It receives the approver escalation
/// requests should go to ([`Approval::Client`]: the MCP client) or `None`
/// (the factory's sandbox keeps its own, or has none).
pub type SandboxFactory =
    Arc<dyn Fn(Option<Arc<dyn Approver>>) -> Result<Sandbox, SetupError> + Send + Sync>;

/// Who answers escalation requests (docs/policy.md) made inside a session.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Approval {
    /// The MCP client, through a form elicitation; a client that did not
    /// declare elicitation answers `unavailable`. The default.
    #[default]
    Client,
    /// Whatever the factory's sandbox was built with (an approver of the
    /// host's, or none: every request `unavailable`).
    Sandbox,
}

/// How the server makes sessions. Defaults: escalation asked of the
/// client with a 300 s wait for the answer, no `write_back` tool.
#[derive(Clone)]
pub struct McpConfig {
    pub(crate) factory: SandboxFactory,
    pub(crate) write_back: bool,
    pub(crate) approval: Approval,
    pub(crate) approval_timeout: Duration,
    pub(crate) handle_idle_ttl: Duration,
    pub(crate) max_handles: usize,
}

impl std::fmt::Debug for McpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpConfig")
            .field("write_back", &self.write_back)
            .field("approval", &self.approval)
            .field("approval_timeout", &self.approval_timeout)
            .field("handle_idle_ttl", &self.handle_idle_ttl)
            .field("max_handles", &self.max_handles)
            .finish_non_exhaustive()
    }
}

impl McpConfig {
    /// How long an escalation question waits for the client's answer
    /// before it counts as `cancelled`.
    pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

    /// How long a sandbox opened by handle (the 2026-07-28 revision) is
    /// kept without a call naming it.
    pub const DEFAULT_HANDLE_IDLE_TTL: Duration = Duration::from_secs(1800);

    /// How many sandboxes one client may hold open by handle at once.
    pub const DEFAULT_MAX_HANDLES: usize = 16;

    /// Sessions whose sandboxes `factory` makes.
    pub fn new(
        factory: impl Fn(Option<Arc<dyn Approver>>) -> Result<Sandbox, SetupError>
        + Send
        + Sync
        + 'static,
    ) -> Self {
        McpConfig {
            factory: Arc::new(factory),
            write_back: false,
            approval: Approval::default(),
            approval_timeout: Self::DEFAULT_APPROVAL_TIMEOUT,
            handle_idle_ttl: Self::DEFAULT_HANDLE_IDLE_TTL,
            max_handles: Self::DEFAULT_MAX_HANDLES,
        }
    }

    /// Offers the `write_back` tool (default off). It appears only in
    /// sessions whose sandbox has `copy_rw` seeds.
    pub fn write_back(mut self, allowed: bool) -> Self {
        self.write_back = allowed;
        self
    }

    /// Who answers escalation requests (default [`Approval::Client`]).
    pub fn approval(mut self, approval: Approval) -> Self {
        self.approval = approval;
        self
    }

    /// How long a handle's sandbox is kept unused (default
    /// [`McpConfig::DEFAULT_HANDLE_IDLE_TTL`]).
    pub fn handle_idle_ttl(mut self, ttl: Duration) -> Self {
        self.handle_idle_ttl = ttl;
        self
    }

    /// How many handles one client may hold (default
    /// [`McpConfig::DEFAULT_MAX_HANDLES`]).
    pub fn max_handles(mut self, count: usize) -> Self {
        self.max_handles = count;
        self
    }

    /// How long an escalation question waits for the client (default
    /// [`McpConfig::DEFAULT_APPROVAL_TIMEOUT`]).
    pub fn approval_timeout(mut self, timeout: Duration) -> Self {
        self.approval_timeout = timeout;
        self
    }
}
