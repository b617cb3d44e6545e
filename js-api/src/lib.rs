//! The JS-facing side of goccia: the globals and built-in modules a guest
//! sees, backed by host functions over the sandbox's VFS and output.
//!
//! - [`host`]: the state host functions share, and the tripwire recording
//!   which limit stopped a run.
//! - [`prelude`]: `console`, timers, `TextEncoder`/`TextDecoder`,
//!   `structuredClone`, `URL`, `fetch` (`js/globals.js`, `js/inspect.js`).
//! - [`modules`]: `fs`, `fs/promises` and the host-only `goccia:native`.
//! - [`errors`]: JS errors with Node's shapes; uncatchable stops.
//! - [`nest`]: the seam to the runner for `runScript` and the shell's
//!   `goccia` builtin; `goccia`: the host side of the `goccia` module.
//! - `fs`, `encoding`: the host side of the `fs` module; `node`: the host
//!   side of Node's modules (hashes, random bytes, `process`, CommonJS).
//! - `escalation`: one call run under a wider write policy, once the
//!   host's approver granted it.

#![warn(missing_docs)]

mod encoding;
pub mod errors;
mod escalation;
pub mod fetch;
mod fs;
mod goccia;
pub mod host;
pub mod modules;
pub mod nest;
mod node;
mod precompiled;
pub mod prelude;

pub use host::{Host, HostPrograms, HostRef, Internals, Tripwire, host_of};
pub use node::compiles_as_commonjs;
pub use prelude::HostSlot;

use std::rc::Rc;

use rquickjs::{Ctx, Result};

/// Installs the globals and makes `host` available to their host
/// functions: [`prelude::install_unbound`] and [`HostSlot::fill`] at once.
pub fn install(ctx: &Ctx<'_>, host: Rc<Host>) -> Result<()> {
    prelude::install_unbound(ctx)?.fill(ctx, host)
}
