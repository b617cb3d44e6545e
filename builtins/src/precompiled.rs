//! The built-in JS, precompiled to QuickJS bytecode by `build.rs`, with
//! the source kept as a fallback.

use rquickjs::{Ctx, Module, Result, Value, qjs};

const PRELUDE_SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/prelude.js"));
const PRELUDE_BYTECODE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/prelude.qbc"));

/// A built-in module: its name, source and bytecode.
pub struct BuiltinModule {
    pub name: &'static str,
    source: &'static str,
    bytecode: &'static [u8],
}

pub const FS: BuiltinModule = BuiltinModule {
    name: "fs",
    source: include_str!("../js/fs.js"),
    bytecode: include_bytes!(concat!(env!("OUT_DIR"), "/fs.js.qbc")),
};

pub const FS_PROMISES: BuiltinModule = BuiltinModule {
    name: "fs/promises",
    source: include_str!("../js/fs_promises.js"),
    bytecode: include_bytes!(concat!(env!("OUT_DIR"), "/fs_promises.js.qbc")),
};

pub const GOCCIA: BuiltinModule = BuiltinModule {
    name: "goccia",
    source: include_str!("../js/goccia.js"),
    bytecode: include_bytes!(concat!(env!("OUT_DIR"), "/goccia.js.qbc")),
};

impl BuiltinModule {
    pub fn declare<'js>(&self, ctx: &Ctx<'js>) -> Result<Module<'js>> {
        match self.load_bytecode(ctx) {
            Some(module) => Ok(module),
            None => Module::declare(ctx.clone(), self.name, self.source),
        }
    }

    fn load_bytecode<'js>(&self, ctx: &Ctx<'js>) -> Option<Module<'js>> {
        // SAFETY: the bytecode was produced at build time by this same
        // QuickJS from our own source (never from a guest), and is 'static
        // as ROM data requires. QuickJS checks its version tag.
        let loaded = unsafe { Module::load(ctx.clone(), self.bytecode) };
        loaded.map_err(|_| ctx.catch()).ok()
    }
}

/// The prelude function (`(native) => internals`).
pub fn prelude<'js>(ctx: &Ctx<'js>) -> Result<Value<'js>> {
    match prelude_bytecode(ctx) {
        Some(value) => Ok(value),
        None => ctx.eval(PRELUDE_SOURCE),
    }
}

fn prelude_bytecode<'js>(ctx: &Ctx<'js>) -> Option<Value<'js>> {
    // SAFETY: as for modules: host-built bytecode of our own source, 'static.
    let loaded = unsafe {
        let raw = ctx.as_raw().as_ptr();
        let object = qjs::JS_ReadObject(
            raw,
            PRELUDE_BYTECODE.as_ptr(),
            PRELUDE_BYTECODE.len() as _,
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
    use rquickjs::loader::{ImportAttributes, Loader, Resolver};
    use rquickjs::{Context, Runtime};

    /// Loading a module links its imports: resolve them as the runner does.
    struct Builtins;

    impl Resolver for Builtins {
        fn resolve<'js>(
            &mut self,
            _: &Ctx<'js>,
            _: &str,
            name: &str,
            _: Option<ImportAttributes<'js>>,
        ) -> Result<String> {
            Ok(name.to_string())
        }
    }

    impl Loader for Builtins {
        fn load<'js>(
            &mut self,
            ctx: &Ctx<'js>,
            name: &str,
            _: Option<ImportAttributes<'js>>,
        ) -> Result<Module<'js>> {
            crate::modules::declare(ctx, name).expect("a built-in")
        }
    }

    /// The fallback to source keeps things working but slow: the build
    /// must produce bytecode this runtime accepts.
    #[test]
    fn the_build_time_bytecode_loads() {
        let runtime = Runtime::new().unwrap();
        runtime.set_loader(Builtins, Builtins);
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            let prelude = prelude_bytecode(&ctx).expect("prelude bytecode loads");
            assert!(prelude.is_function());
            for module in [&FS, &FS_PROMISES, &GOCCIA] {
                let loaded = module.load_bytecode(&ctx).expect("module bytecode loads");
                assert_eq!(loaded.name::<String>().unwrap(), module.name);
            }
        });
    }
}
