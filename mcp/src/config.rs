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
}

impl std::fmt::Debug for McpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpConfig")
            .field("write_back", &self.write_back)
            .field("approval", &self.approval)
            .field("approval_timeout", &self.approval_timeout)
            .finish_non_exhaustive()
    }
}

impl McpConfig {
    /// How long an escalation question waits for the client's answer
    /// before it counts as `cancelled`.
    pub const DEFAULT_APPROVAL_TIMEOUT: Duration = Duration::from_secs(300);

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

    /// How long an escalation question waits for the client (default
    /// [`McpConfig::DEFAULT_APPROVAL_TIMEOUT`]).
    pub fn approval_timeout(mut self, timeout: Duration) -> Self {
        self.approval_timeout = timeout;
        self
    }
}
