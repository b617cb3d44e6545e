//! The built-in modules guests may import: `fs` (also `node:fs`),
//! `fs/promises` (also `node:fs/promises`) and `goccia`. `goccia:native`
//! carries the host functions to the built-in modules and can be imported
//! only by them.

use rquickjs::module::{Declarations, Exports, ModuleDef};
use rquickjs::{Ctx, Module, Result};

use crate::host::{Internals, host_of};
use crate::precompiled;

/// The module name of the host functions.
pub const NATIVE: &str = "goccia:native";

/// The canonical name of a built-in module specifier, if it is one.
pub fn canonical(specifier: &str) -> Option<&'static str> {
    match specifier {
        "fs" | "node:fs" => Some("fs"),
        "fs/promises" | "node:fs/promises" => Some("fs/promises"),
        "goccia" => Some("goccia"),
        _ => None,
    }
}

/// True for module names that belong to the host (not to the VFS).
pub fn is_builtin_name(name: &str) -> bool {
    canonical(name) == Some(name) || name == NATIVE
}

/// Declares the built-in module `name` (a canonical name or [`NATIVE`]).
pub fn declare<'js>(ctx: &Ctx<'js>, name: &str) -> Option<Result<Module<'js>>> {
    match name {
        "fs" => Some(precompiled::FS.declare(ctx)),
        "fs/promises" => Some(precompiled::FS_PROMISES.declare(ctx)),
        "goccia" => Some(precompiled::GOCCIA.declare(ctx)),
        NATIVE => Some(Module::declare_def::<NativeModule, _>(ctx.clone(), NATIVE)),
        _ => None,
    }
}

struct NativeModule;

impl ModuleDef for NativeModule {
    fn declare(declarations: &Declarations) -> Result<()> {
        declarations.declare("fs")?;
        declarations.declare("goccia")?;
        declarations.declare("policy")?;
        declarations.declare("internals")?;
        Ok(())
    }

    fn evaluate<'js>(ctx: &Ctx<'js>, exports: &Exports<'js>) -> Result<()> {
        let host = host_of(ctx);
        exports.export("fs", crate::fs::natives(ctx, host.clone())?)?;
        exports.export("goccia", crate::goccia::natives(ctx, host.clone())?)?;
        exports.export("policy", crate::escalation::natives(ctx, host)?)?;
        let internals = ctx
            .userdata::<Internals>()
            .expect("the prelude is installed before any module loads")
            .0
            .clone();
        exports.export("internals", internals)?;
        Ok(())
    }
}
