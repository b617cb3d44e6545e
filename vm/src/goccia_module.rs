//! The guest's `goccia` module (`$`, `runScript`).

use goccia_builtins::errors::{new_error, throw};
use rquickjs::{Ctx, Module, Result};

pub fn declare<'js>(ctx: &Ctx<'js>) -> Result<Module<'js>> {
    let error = new_error(
        ctx,
        "Error",
        "Cannot find module 'goccia': not available yet",
    );
    Err(throw(ctx, error))
}
