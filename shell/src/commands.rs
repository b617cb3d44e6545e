//! The command table: every builtin ([`goccia_interp::BUILTINS`]) and
//! utility ([`goccia_utilities::UTILITIES`]) by name. The interpreter
//! reaches commands only through the table installed in each
//! [`Context`], so the utilities (built on the interpreter) and the
//! interpreter never import each other. The contexts a sandbox's shells
//! run in are made here for that reason: they supply the table.

use std::sync::Arc;

use goccia_core::{Audit, Limits, Watch};
use goccia_interp::{CommandTable, Context, Hooks};
use goccia_vfs::SharedVfs;

/// Every builtin and utility.
pub static TABLE: CommandTable = CommandTable {
    parts: &[&goccia_interp::BUILTINS, &goccia_utilities::UTILITIES],
};

/// A context for shells of one sandbox, running every command of
/// [`TABLE`]; the `goccia` builtin is unavailable.
pub fn context(vfs: SharedVfs, watch: Watch, limits: Limits) -> Arc<Context> {
    Context::build(
        vfs,
        watch,
        limits,
        &TABLE,
        Audit::default(),
        Hooks::default(),
    )
}

/// [`context`] recording policy decisions in `audit`, with what `hooks`
/// provide (the `goccia` builtin, host programs, the network).
pub fn context_with_hooks(
    vfs: SharedVfs,
    watch: Watch,
    limits: Limits,
    audit: Audit,
    hooks: Hooks,
) -> Arc<Context> {
    Context::build(vfs, watch, limits, &TABLE, audit, hooks)
}
