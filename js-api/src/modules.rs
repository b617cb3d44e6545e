//! The built-in modules guests may import (docs/guest.md): Node's
//! (bare and `node:`-prefixed: `fs`, `path`, `util`, `events`, `buffer`,
//! `crypto`, ...) and `goccia`. Each is a factory made on first use (see
//! `precompiled`), one instance per run shared by `import` and `require`;
//! the ES module of a built-in re-exports its factory's exports.
//! `goccia:native` carries the prelude's internals to those modules and to
//! the modules wrapping CommonJS files, and can be imported by nothing
//! else.

use rquickjs::module::{Declarations, Exports, ModuleDef};
use rquickjs::{Ctx, Function, Module, Object, Result};

use crate::host::Internals;

/// The module name of the host-side internals.
pub const NATIVE: &str = "goccia:native";

/// Every built-in a guest may name (the `node:` prefix is accepted on all
/// but `goccia`).
pub const PUBLIC: [&str; 32] = [
    "fs",
    "fs/promises",
    "path",
    "path/posix",
    "util",
    "events",
    "assert",
    "assert/strict",
    "buffer",
    "url",
    "querystring",
    "string_decoder",
    "timers",
    "timers/promises",
    "crypto",
    "os",
    "stream",
    "stream/promises",
    "readline",
    "readline/promises",
    "process",
    "module",
    "child_process",
    "net",
    "http",
    "https",
    "http2",
    "tls",
    "dgram",
    "dns",
    "cluster",
    "worker_threads",
];

/// The canonical name of a built-in module specifier, if it is one.
pub fn canonical(specifier: &str) -> Option<&'static str> {
    if specifier == "goccia" {
        return Some("goccia");
    }
    let bare = specifier.strip_prefix("node:").unwrap_or(specifier);
    let bare = if bare == "path/posix" { "path" } else { bare };
    PUBLIC.iter().copied().find(|name| *name == bare)
}

/// True for module names that belong to the host (not to the VFS).
pub fn is_builtin_name(name: &str) -> bool {
    canonical(name) == Some(name) || name == NATIVE
}

/// Declares the built-in module `name` (a canonical name or [`NATIVE`]).
pub fn declare<'js>(ctx: &Ctx<'js>, name: &str) -> Option<Result<Module<'js>>> {
    if name == NATIVE {
        return Some(Module::declare_def::<NativeModule, _>(ctx.clone(), NATIVE));
    }
    if canonical(name) != Some(name) {
        return None;
    }
    Some(declare_builtin(ctx, name))
}

/// The ES module of a built-in: its factory's exports, each by name.
fn declare_builtin<'js>(ctx: &Ctx<'js>, name: &str) -> Result<Module<'js>> {
    let exports = require_builtin(ctx, name)?;
    Module::declare(
        ctx.clone(),
        name,
        reexport(name, &exports, "requireBuiltin")?,
    )
}

/// `internals.requireBuiltin(name)`: the built-in's exports.
pub fn require_builtin<'js>(ctx: &Ctx<'js>, name: &str) -> Result<Object<'js>> {
    let internals = internals(ctx);
    let require: Function = internals.get("requireBuiltin")?;
    require.call((name,))
}

fn internals<'js>(ctx: &Ctx<'js>) -> Object<'js> {
    ctx.userdata::<Internals>()
        .expect("the prelude is installed before any module loads")
        .0
        .clone()
}

/// An ES module's source re-exporting `exports` (got by calling the
/// internals' `loader` with `name`): `default` is the object, each own
/// enumerable string key a named export (any name, reserved words too).
pub fn reexport(name: &str, exports: &Object<'_>, loader: &str) -> Result<String> {
    let quoted = serde_json::to_string(name).expect("a string serialises");
    let mut source = format!(
        "import {{ internals }} from '{NATIVE}';\nconst m = internals.{loader}({quoted});\nexport default m;\n"
    );
    let mut names: Vec<String> = Vec::new();
    if exports.is_object() {
        for key in exports.keys::<String>() {
            let key = key?;
            if key != "default" && is_identifier_name(&key) {
                names.push(key);
            }
        }
    }
    for (index, key) in names.iter().enumerate() {
        source.push_str(&format!(
            "const e{index} = m[{}];\n",
            serde_json::to_string(key).expect("a string")
        ));
    }
    if !names.is_empty() {
        let list: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(index, key)| format!("e{index} as {key}"))
            .collect();
        source.push_str(&format!("export {{ {} }};\n", list.join(", ")));
    }
    Ok(source)
}

/// Whether `text` can be an export name written bare (an IdentifierName).
pub fn is_identifier_name(text: &str) -> bool {
    let mut chars = text.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

struct NativeModule;

impl ModuleDef for NativeModule {
    fn declare(declarations: &Declarations) -> Result<()> {
        declarations.declare("internals")?;
        Ok(())
    }

    fn evaluate<'js>(ctx: &Ctx<'js>, exports: &Exports<'js>) -> Result<()> {
        exports.export("internals", internals(ctx))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_canonical_with_or_without_the_node_prefix() {
        assert_eq!(canonical("node:path"), Some("path"));
        assert_eq!(canonical("path/posix"), Some("path"));
        assert_eq!(canonical("node:fs/promises"), Some("fs/promises"));
        assert_eq!(canonical("goccia"), Some("goccia"));
        assert_eq!(canonical("node:goccia"), None);
        assert_eq!(canonical("lodash"), None);
        assert!(is_identifier_name("delete") && !is_identifier_name("a-b"));
    }
}
