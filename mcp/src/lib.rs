//! goccia as a Model Context Protocol server (docs/mcp.md): one sandbox
//! per MCP session, reached through tools a model can call — a
//! bash-language shell, a JS runner, file reading and exact edits, a
//! listing, the diff of what changed, snapshots, and (only when the host
//! allows it) write-back.
//!
//! The crate holds the protocol and nothing else: the sandbox, its
//! limits, output truncation, policy and escalation are the library's.
//! Escalation requests are put to the MCP client as a form elicitation;
//! a client without elicitation answers `unavailable`.
//!
//! - [`McpConfig`]: how sessions are made (a sandbox factory) and what
//!   they may do, every default stated.
//! - [`GocciaMcp`]: one session's handler (the tools, and the sandbox's
//!   spec as a resource).
//! - [`run_stdio`] (on a runtime of its own, shell calls in place),
//!   [`serve_http`]: the two transports; HTTP requires a bearer token.

#![warn(missing_docs)]

mod approval;
mod config;
mod framing;
mod handles;
mod params;
mod render;
mod resources;
mod suspended;
mod tools;
mod transport;
mod work;

pub use config::{Approval, McpConfig, SandboxFactory};
pub use tools::GocciaMcp;
pub use transport::{McpError, run_stdio, serve_http};
