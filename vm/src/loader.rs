//! Module resolution and loading over the VFS only. rquickjs's file
//! resolvers and loaders read the host disk and are never used.
//!
//! Specifiers: the built-in names (`fs`, `node:fs`, `fs/promises`,
//! `node:fs/promises`, `goccia`); paths (`/a.js`, `./a.js`, `../a.js`)
//! resolved against the importing module; nothing else. `goccia:native`
//! resolves only for the built-in modules themselves.

use goccia_js_api::errors::{new_error, throw};
use goccia_js_api::modules::{self, NATIVE};
use goccia_vfs::{Errno, SharedVfs, VfsPath};
use rquickjs::loader::{ImportAttributes, Loader, Resolver};
use rquickjs::{Ctx, Error, Module, Result};

use crate::bytecode::{self, ExecMode};

fn module_error(ctx: &Ctx<'_>, message: String) -> Error {
    let error = new_error(ctx, "Error", &message);
    let _ = error.set("code", "ERR_MODULE_NOT_FOUND");
    throw(ctx, error)
}

/// Module names that stand for CommonJS files (their wrappers import the
/// host's internals, which only built-ins may otherwise).
pub type Wrappers = std::sync::Arc<parking_lot::Mutex<std::collections::HashSet<String>>>;

/// Resolves specifiers to module names: canonical built-in names or
/// normalised VFS paths (a bare specifier that is no built-in is a package
/// in a `node_modules` folder, found as Node's ES resolution finds it).
pub struct VfsResolver {
    /// The CommonJS wrappers the loader declared.
    pub wrappers: Wrappers,
}

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
        if name == NATIVE && (modules::is_builtin_name(base) || self.wrappers.lock().contains(base))
        {
            return Ok(NATIVE.to_string());
        }
        let is_path = name.starts_with('/')
            || name.starts_with("./")
            || name.starts_with("../")
            || name == "."
            || name == "..";
        if !is_path {
            if let Some(rest) = name.strip_prefix("node:") {
                let error = new_error(
                    ctx,
                    "Error",
                    &format!("No such built-in module: node:{rest}"),
                );
                let _ = error.set("code", "ERR_UNKNOWN_BUILTIN_MODULE");
                return Err(throw(ctx, error));
            }
            if name.starts_with("file:") {
                return Err(module_error(
                    ctx,
                    format!(
                        "Cannot find module '{name}' imported from {base}: file: URLs are not supported"
                    ),
                ));
            }
            return package(ctx, name, base);
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

/// A bare specifier: a package in a `node_modules` folder up from `base`.
fn package<'js>(ctx: &Ctx<'js>, name: &str, base: &str) -> Result<String> {
    let cjs = modules::require_builtin(ctx, "goccia:cjs")?;
    let resolve: rquickjs::Function = cjs.get("esmResolve")?;
    let from = if base.starts_with('/') {
        base
    } else {
        "/[import]"
    };
    match resolve.call::<_, String>((name, from)) {
        Ok(path) => Ok(path),
        Err(rquickjs::Error::Exception) => {
            let caught = ctx.catch();
            let code = caught
                .as_object()
                .and_then(|o| o.get::<_, String>("code").ok())
                .unwrap_or_default();
            if code == "MODULE_NOT_FOUND" {
                let package = name
                    .split('/')
                    .take(if name.starts_with('@') { 2 } else { 1 })
                    .collect::<Vec<_>>()
                    .join("/");
                return Err(module_error(
                    ctx,
                    format!("Cannot find package '{package}' imported from {base}"),
                ));
            }
            Err(ctx.throw(caught))
        }
        Err(other) => Err(other),
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
    /// The CommonJS wrappers declared (shared with the resolver).
    pub wrappers: Wrappers,
    /// The run's entry: a CommonJS entry that cannot see the module
    /// system runs without it (see `commonjs::is_plain_script`).
    pub entry: VfsPath,
}

impl VfsLoader {
    /// The ES module standing for the CommonJS file `name` (`inline`: its
    /// source when it is not in the VFS).
    fn commonjs<'js>(
        &self,
        ctx: &Ctx<'js>,
        name: &str,
        source: &str,
        inline: bool,
    ) -> Result<Module<'js>> {
        if name == self.entry.as_str() && crate::commonjs::is_plain_script(source) {
            self.wrappers.lock().insert(name.to_string());
            let wrapper = crate::commonjs::plain_entry_wrapper(&self.entry, source);
            return Module::declare(ctx.clone(), name, wrapper);
        }
        // Every form of named export `exportNames` finds assigns to
        // `exports`: a source without the word has none, and skips the
        // regular expressions (a twentieth of a cold hello world).
        let names: Vec<String> = if source.contains("exports") {
            modules::require_builtin(ctx, "goccia:cjs")?
                .get::<_, rquickjs::Function>("exportNames")?
                .call((source,))?
        } else {
            Vec::new()
        };
        let mut wrapper = crate::commonjs::wrapper(name, &names);
        if inline {
            let quoted = serde_json::to_string(source).expect("a string serialises");
            wrapper = wrapper.replacen(
                &format!(
                    "importCommonJs({})",
                    serde_json::to_string(name).expect("a string")
                ),
                &format!(
                    "importCommonJs({}, {quoted})",
                    serde_json::to_string(name).expect("a string")
                ),
                1,
            );
        }
        self.wrappers.lock().insert(name.to_string());
        Module::declare(ctx.clone(), name, wrapper)
    }
}

impl VfsLoader {
    /// Whether the `.js`/`.cjs` file at `path` loads as CommonJS.
    fn is_commonjs(&self, ctx: &Ctx<'_>, path: &VfsPath, source: &str) -> bool {
        use crate::commonjs::Format;
        match crate::commonjs::format_of(&self.vfs.lock(), path, source) {
            Format::CommonJs => true,
            Format::Module => false,
            // A source that names nothing of ES modules (`import`,
            // `export`, `await`) nor of CommonJS's bindings cannot fail as
            // CommonJS for a module's reason: it is CommonJS without being
            // compiled twice (once here, once to run). A NUL byte is left to
            // the compiler, which refuses it as it always has.
            Format::Detect => {
                (crate::commonjs::is_plain_script(source)
                    && !source.contains("export")
                    && !source.contains("await")
                    && !source.contains('\0'))
                    || goccia_js_api::compiles_as_commonjs(ctx, source)
            }
        }
    }
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
        let module = self.load_file(ctx, name, &path, attributes)?;
        set_import_meta(&module, &path)?;
        Ok(module)
    }
}

/// `import.meta` of a VFS module as Node fills it: `url` (a `file:` URL of
/// its VFS path), `filename`, `dirname`.
fn set_import_meta(module: &Module<'_>, path: &VfsPath) -> Result<()> {
    let meta = module.meta()?;
    let text = path.as_str();
    meta.set("url", file_url(text))?;
    meta.set("filename", text)?;
    meta.set(
        "dirname",
        path.parent()
            .map_or("/".to_string(), |dir| dir.as_str().to_string()),
    )?;
    Ok(())
}

/// `file://` and the path, percent-encoded as Node's `pathToFileURL` does.
fn file_url(path: &str) -> String {
    let mut url = String::from("file://");
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'.' | b'_' | b'~' => {
                url.push(byte as char)
            }
            b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' | b':'
            | b'@' => url.push(byte as char),
            other => url.push_str(&format!("%{other:02X}")),
        }
    }
    url
}

impl VfsLoader {
    /// The module of the VFS file `path`: JSON, CommonJS (through its
    /// wrapper) or an ES module, from source or bytecode.
    fn load_file<'js>(
        &self,
        ctx: &Ctx<'js>,
        name: &str,
        path: &VfsPath,
        attributes: Option<ImportAttributes<'js>>,
    ) -> Result<Module<'js>> {
        let path = path.clone();
        if let Some((inline, source)) = &self.inline
            && *inline == path
        {
            if self.is_commonjs(ctx, &path, source) {
                return self.commonjs(ctx, name, source, true);
            }
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
        let text = String::from_utf8_lossy(&source);
        if self.is_commonjs(ctx, &path, &text) {
            return self.commonjs(ctx, name, &text, false);
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
            VfsResolver {
                wrappers: Wrappers::default(),
            }
            .resolve(&ctx, base, name, None)
            .map_err(|_| {
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
        // Bare names that are no built-in go to the packages of the VFS
        // (through the prelude; the end-to-end tests cover them).
        let message = resolve("/main.js", "file:///etc/passwd").unwrap_err();
        assert!(
            message.starts_with("Cannot find module 'file:///etc/passwd'"),
            "{message}"
        );
        assert_eq!(resolve("/main.js", "node:os").unwrap(), "os");
        assert!(
            resolve("/main.js", "node:nope")
                .unwrap_err()
                .contains("No such built-in module")
        );
        assert!(resolve("/main.js", "./a\0b").unwrap_err().contains("NUL"));
    }
}
