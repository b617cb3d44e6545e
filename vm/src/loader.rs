//! Module resolution and loading over the VFS only. rquickjs's file
//! resolvers and loaders read the host disk and are never used.
//!
//! Specifiers: the built-in names (`fs`, `node:fs`, `fs/promises`,
//! `node:fs/promises`, `goccia`); paths (`/a.js`, `./a.js`, `../a.js`)
//! resolved against the importing module; nothing else. `goccia:native`
//! resolves only for the built-in modules themselves.

use goccia_builtins::errors::{new_error, throw};
use goccia_builtins::modules::{self, NATIVE};
use goccia_vfs::{Errno, SharedVfs, VfsPath};
use rquickjs::loader::{ImportAttributes, Loader, Resolver};
use rquickjs::{Ctx, Error, Module, Result};

use crate::bytecode::{self, ExecMode};

fn module_error(ctx: &Ctx<'_>, message: String) -> Error {
    let error = new_error(ctx, "Error", &message);
    let _ = error.set("code", "ERR_MODULE_NOT_FOUND");
    throw(ctx, error)
}

/// Resolves specifiers to module names: canonical built-in names or
/// normalised VFS paths.
pub struct VfsResolver;

impl Resolver for VfsResolver {
    fn resolve<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        base: &str,
        name: &str,
        _attributes: Option<ImportAttributes<'js>>,
    ) -> Result<String> {
        if let Some(canonical) = modules::canonical(name) {
            return Ok(canonical.to_string());
        }
        if name == NATIVE && modules::is_builtin_name(base) {
            return Ok(NATIVE.to_string());
        }
        let is_path = name.starts_with('/')
            || name.starts_with("./")
            || name.starts_with("../")
            || name == "."
            || name == "..";
        if !is_path {
            let hint = if name.starts_with("file:") {
                "file: URLs are not supported"
            } else {
                "the built-in modules are 'fs', 'fs/promises' and 'goccia'"
            };
            return Err(module_error(
                ctx,
                format!(
                    "Cannot find module '{name}' imported from {base}: {hint}; other imports must be paths in the sandbox filesystem (/x.js, ./x.js)"
                ),
            ));
        }
        let directory = if base.starts_with('/') {
            VfsPath::parse(base)
                .ok()
                .and_then(|p| p.parent())
                .unwrap_or_else(VfsPath::root)
        } else {
            VfsPath::root()
        };
        directory
            .resolve(name)
            .map(|path| path.to_string())
            .map_err(|error| {
                module_error(
                    ctx,
                    format!("Cannot resolve module '{name}' imported from {base}: {error}"),
                )
            })
    }
}

/// Loads modules: built-ins from the host, everything else from the VFS
/// (from source, or through the bytecode cache in bytecode mode).
pub struct VfsLoader {
    /// The VFS modules are read from.
    pub vfs: SharedVfs,
    /// Source or host-compiled bytecode.
    pub mode: ExecMode,
    /// An entry given as source (`run -e`, `run_code`): served under its
    /// name, never read from (or written to) the VFS.
    pub inline: Option<(VfsPath, std::sync::Arc<str>)>,
}

impl Loader for VfsLoader {
    fn load<'js>(
        &mut self,
        ctx: &Ctx<'js>,
        name: &str,
        attributes: Option<ImportAttributes<'js>>,
    ) -> Result<Module<'js>> {
        if let Some(module) = modules::declare(ctx, name) {
            return module;
        }
        let path = VfsPath::parse(name)
            .map_err(|e| module_error(ctx, format!("Cannot load module '{name}': {e}")))?;
        if let Some((inline, source)) = &self.inline
            && *inline == path
        {
            return Module::declare(ctx.clone(), name, source.as_bytes().to_vec());
        }
        let source = self.vfs.lock().read_file(&path).map_err(|error| {
            let why = match error.errno {
                Errno::IsDir => "it is a directory",
                Errno::NoEnt | Errno::NotDir => "no such file in the sandbox filesystem",
                other => other.description(),
            };
            module_error(ctx, format!("Cannot find module '{name}': {why}"))
        })?;
        let wants_json = attributes
            .and_then(|a| a.get_type().ok().flatten())
            .is_some_and(|t| t == "json");
        if wants_json || name.ends_with(".json") {
            let text = String::from_utf8_lossy(&source);
            let checked: Result<rquickjs::Value> = ctx.json_parse(text.as_bytes().to_vec());
            checked?;
            return Module::declare(ctx.clone(), name, format!("export default {text};"));
        }
        match self.mode {
            ExecMode::Interpreted => Module::declare(ctx.clone(), name, source.to_vec()),
            ExecMode::Bytecode => bytecode::declare(ctx, name, &source),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rquickjs::{Context, Runtime};

    fn resolve(base: &str, name: &str) -> std::result::Result<String, String> {
        let runtime = Runtime::new().unwrap();
        let context = Context::full(&runtime).unwrap();
        context.with(|ctx| {
            VfsResolver.resolve(&ctx, base, name, None).map_err(|_| {
                let caught = ctx.catch();
                caught
                    .as_exception()
                    .and_then(|e| e.message())
                    .unwrap_or_default()
            })
        })
    }

    #[test]
    fn specifiers_resolve_to_builtins_or_vfs_paths() {
        assert_eq!(resolve("/a/main.js", "fs"), Ok("fs".into()));
        assert_eq!(
            resolve("/a/main.js", "node:fs/promises"),
            Ok("fs/promises".into())
        );
        assert_eq!(resolve("/a/main.js", "./lib.js"), Ok("/a/lib.js".into()));
        assert_eq!(resolve("/a/main.js", "../../../x.js"), Ok("/x.js".into()));
        assert_eq!(
            resolve("/a/main.js", "/etc/passwd"),
            Ok("/etc/passwd".into())
        );
        assert_eq!(resolve("fs", "goccia:native"), Ok("goccia:native".into()));
    }

    #[test]
    fn host_only_and_unknown_specifiers_are_refused() {
        for name in [
            "goccia:native",
            "os",
            "file:///etc/passwd",
            "https://x/y.js",
        ] {
            let message = resolve("/main.js", name).unwrap_err();
            assert!(
                message.starts_with(&format!("Cannot find module '{name}'")),
                "{message}"
            );
        }
        assert!(resolve("/main.js", "./a\0b").unwrap_err().contains("NUL"));
    }
}
