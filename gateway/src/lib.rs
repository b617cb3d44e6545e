//! The one way out of a goccia sandbox (docs/network.md).
//!
//! Every request a guest makes — JS `fetch`, the shell's `curl` and
//! `wget`, and whatever a host command sends through the proxy it is
//! given — is held to one [`goccia_core::NetPolicy`] here: its rules, the
//! addresses they may reach, the secrets set on the way out and redacted on
//! the way back, and one audit line per request.
//!
//! - [`fetch`]: a checked request, hop by hop (JS `fetch`, `curl`, `wget`
//!   and the proxy's inspected requests).
//! - [`trust`]: the roots upstream TLS is verified against.
//! - [`authority`]: the per-sandbox certificate authority that lets the
//!   proxy read (and set secrets on) HTTPS requests to the hosts that need
//!   it.
//! - [`proxy`]: the HTTP proxy host commands reach inside their jail.
//! - [`jail_net`]: the jail's own network namespace, with the proxy's
//!   listening socket in it.

pub mod authority;
pub mod fetch;
pub mod jail_net;
pub mod proxy;
pub mod trust;

pub use fetch::{FetchContext, FetchError, FetchRelay, FetchRequest, FetchResponse, Relay};
