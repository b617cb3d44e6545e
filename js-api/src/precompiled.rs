//! The built-in JS, precompiled to QuickJS bytecode by `build.rs`, with
//! the source kept as a fallback.

use rquickjs::{Ctx, Result, Value, qjs};

const PRELUDE_SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/prelude.js"));
const PRELUDE_BYTECODE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/prelude.qbc"));

include!(concat!(env!("OUT_DIR"), "/factories.rs"));

/// The factory of the built-in module `name` (a canonical name), made from
/// its bytecode (its source if the bytecode were ever refused); `None`
/// when there is no such module.
pub fn factory<'js>(ctx: &Ctx<'js>, name: &str) -> Option<Result<Value<'js>>> {
    let (_, source, bytecode) = FACTORIES.iter().find(|(known, _, _)| *known == name)?;
    Some(match evaluate_bytecode(ctx, bytecode) {
        Some(value) => Ok(value),
        None => ctx.eval(*source),
    })
}

/// The prelude function (`(native) => internals`).
pub fn prelude<'js>(ctx: &Ctx<'js>) -> Result<Value<'js>> {
    match prelude_bytecode(ctx) {
        Some(value) => Ok(value),
        None => ctx.eval(PRELUDE_SOURCE),
    }
}

fn prelude_bytecode<'js>(ctx: &Ctx<'js>) -> Option<Value<'js>> {
    evaluate_bytecode(ctx, PRELUDE_BYTECODE)
}

/// Evaluates host-built script bytecode (the prelude, a factory).
fn evaluate_bytecode<'js>(ctx: &Ctx<'js>, bytecode: &'static [u8]) -> Option<Value<'js>> {
    // SAFETY: the bytecode was produced at build time by this same QuickJS
    // from our own source (never from a guest), and is 'static as ROM data
    // requires. QuickJS checks its version tag.
    let loaded = unsafe {
        let raw = ctx.as_raw().as_ptr();
        let object = qjs::JS_ReadObject(
            raw,
            bytecode.as_ptr(),
            bytecode.len() as _,
            (qjs::JS_READ_OBJ_BYTECODE | qjs::JS_READ_OBJ_ROM_DATA) as i32,
        );
        if qjs::JS_IsException(object) {
            None
        } else {
            let value = qjs::JS_EvalFunction(raw, object);
            if qjs::JS_IsException(value) {
                None
            } else {
                Some(Value::from_raw(ctx.clone(), value))
            }
        }
    };
    if loaded.is_none() {
        let _ = ctx.catch();
    }
    loaded
}

#[cfg(test)]
mod tests {
    use super::*;
    use rquickjs::{Context, Runtime};

    /// The fallback to source keeps things working but slow: the build
    /// must produce bytecode this runtime accepts.
    #[test]
    fn the_build_time_bytecode_loads() {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let prelude = prelude_bytecode(&ctx).expect("prelude bytecode loads");
            assert!(prelude.is_function());
            for (name, _, bytecode) in FACTORIES {
                let factory = evaluate_bytecode(&ctx, bytecode)
                    .unwrap_or_else(|| panic!("{name}: bytecode refused"));
                assert!(factory.is_function(), "{name}");
            }
        });
    }
}
