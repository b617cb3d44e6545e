//! Which VFS modules are CommonJS (docs/guest.md), and the ES module that
//! stands for one when it is imported: `.cjs` always; `.mjs` never; a
//! `.js` file by the nearest `package.json` (`"type": "module"` or
//! `"commonjs"`), and without a type by its source: ES syntax (`import` or
//! `export` statements, `import.meta`) makes it a module, a CommonJS
//! marker (`require(`, `module.exports`, `exports.`, `__dirname`,
//! `__filename`) makes it CommonJS, and a file with neither is left to
//! [`Format::Detect`]: CommonJS when it parses as a function body, as
//! Node 22 detects (a top-level `await` does not, so such a script is a
//! module).

use goccia_vfs::{Vfs, VfsPath};

/// How a `.js` or `.cjs` file is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An ES module.
    Module,
    /// CommonJS.
    CommonJs,
    /// Neither syntax shows: CommonJS if the source parses as a CommonJS
    /// body, else an ES module (the loader tries, it has the parser).
    Detect,
}

/// The format of the file at `path` holding `source`.
pub fn format_of(vfs: &Vfs, path: &VfsPath, source: &str) -> Format {
    let name = path.file_name().unwrap_or("");
    if name.ends_with(".cjs") {
        return Format::CommonJs;
    }
    if !name.ends_with(".js") {
        return Format::Module;
    }
    match package_type(vfs, path) {
        Some(PackageType::Module) => Format::Module,
        Some(PackageType::CommonJs) => Format::CommonJs,
        None => {
            let code = code_only(source);
            if has_module_syntax(&code) {
                Format::Module
            } else if has_commonjs_markers(&code) {
                Format::CommonJs
            } else {
                Format::Detect
            }
        }
    }
}

enum PackageType {
    Module,
    CommonJs,
}

/// The `type` of the nearest `package.json` above `path` (`None` when no
/// package says).
fn package_type(vfs: &Vfs, path: &VfsPath) -> Option<PackageType> {
    let mut dir = path.parent();
    while let Some(folder) = dir {
        let manifest = folder.join("package.json");
        if let Ok(bytes) = vfs.read_file(&manifest) {
            let value: serde_json::Value = serde_json::from_slice(&bytes).ok()?;
            return match value.get("type").and_then(|t| t.as_str()) {
                Some("module") => Some(PackageType::Module),
                Some("commonjs") => Some(PackageType::CommonJs),
                _ => None,
            };
        }
        dir = folder.parent();
    }
    None
}

/// `source` with comments and the insides of string and template
/// literals blanked (their quotes kept), so markers are found in code only.
fn code_only(source: &str) -> String {
    #[derive(PartialEq)]
    enum State {
        Code,
        Line,
        Block,
        Quote(char),
        Template,
    }
    let mut out = String::with_capacity(source.len());
    let mut state = State::Code;
    let mut chars = source.chars().peekable();
    while let Some(c) = chars.next() {
        match state {
            State::Code => match c {
                '/' if chars.peek() == Some(&'/') => {
                    chars.next();
                    state = State::Line;
                    out.push(' ');
                }
                '/' if chars.peek() == Some(&'*') => {
                    chars.next();
                    state = State::Block;
                    out.push(' ');
                }
                '\'' | '"' => {
                    state = State::Quote(c);
                    out.push(c);
                }
                '`' => {
                    state = State::Template;
                    out.push(c);
                }
                _ => out.push(c),
            },
            State::Line => {
                if c == '\n' {
                    state = State::Code;
                    out.push('\n');
                }
            }
            State::Block => {
                if c == '*' && chars.peek() == Some(&'/') {
                    chars.next();
                    state = State::Code;
                } else if c == '\n' {
                    out.push('\n');
                }
            }
            State::Quote(quote) => {
                if c == '\\' {
                    chars.next();
                } else if c == quote || c == '\n' {
                    state = State::Code;
                    out.push(c);
                } else {
                    out.push(' ');
                }
            }
            State::Template => {
                if c == '\\' {
                    chars.next();
                } else if c == '`' {
                    state = State::Code;
                    out.push(c);
                } else {
                    out.push(if c == '\n' { '\n' } else { ' ' });
                }
            }
        }
    }
    out
}

fn has_module_syntax(code: &str) -> bool {
    code.contains("import.meta")
        || code.lines().any(|line| {
            let line = line.trim_start();
            let whole = |word: &str| {
                line.strip_prefix(word)
                    .filter(|rest| {
                        !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$')
                    })
                    .map(str::trim_start)
            };
            if let Some(rest) = whole("import") {
                // `import(` is dynamic import, allowed in CommonJS.
                return !rest.is_empty() && !rest.starts_with('(') && !rest.starts_with('.');
            }
            whole("export").is_some_and(|rest| !rest.is_empty())
        })
}

fn has_commonjs_markers(code: &str) -> bool {
    let words = |needle: &str| {
        code.match_indices(needle).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
        })
    };
    let require_call = code.match_indices("require").any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + "require".len()..].trim_start();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$' || c == '.')
            && (after.starts_with('(') || after.starts_with(".resolve"))
    });
    require_call
        || words("module.exports")
        || words("exports.")
        || words("__dirname")
        || words("__filename")
}

/// Whether a CommonJS `source` cannot see the module system: it names
/// none of the bindings Node's wrapper gives a module (`require`, `module`,
/// `exports`, `__filename`, `__dirname`, and `this`, which is `exports`),
/// nothing that reaches them another way (`arguments`, `eval`, a dynamic
/// `import` of `module`, `process.mainModule`). Anywhere in the text,
/// comments and strings included: a word in a comment only costs the
/// faster path, a word missed would change what runs. Such an entry runs
/// without the module system (`runPlainEntry` in `js/globals.js`), which is
/// then made only if something asks for it: the cost of most of a cold
/// `console.log` script.
pub fn is_plain_script(source: &str) -> bool {
    const SEES_THE_MODULE_SYSTEM: [&str; 10] = [
        "require",
        "module",
        "Module",
        "exports",
        "__filename",
        "__dirname",
        "this",
        "arguments",
        "eval",
        "import",
    ];
    !SEES_THE_MODULE_SYSTEM
        .iter()
        .any(|word| source.contains(word))
}

/// The ES module that runs the plain CommonJS entry at `path` (see
/// [`is_plain_script`]): its `module.exports` as the default.
pub fn plain_entry_wrapper(path: &VfsPath, source: &str) -> String {
    let quote = |text: &str| serde_json::to_string(text).expect("a string serialises");
    let dirname = path
        .parent()
        .map_or_else(|| "/".to_string(), |dir| dir.as_str().to_string());
    format!(
        "import {{ internals }} from 'goccia:native';\nexport default internals.runPlainEntry({}, {}, {});\n",
        quote(path.as_str()),
        quote(&dirname),
        quote(source)
    )
}

/// The ES module that imports the CommonJS file `path`: its exports as
/// the default and `names` as named exports.
pub fn wrapper(path: &str, names: &[String]) -> String {
    let quoted = serde_json::to_string(path).expect("a string serialises");
    let mut source = format!(
        "import {{ internals }} from 'goccia:native';\nconst m = internals.requireBuiltin('goccia:cjs').importCommonJs({quoted});\nexport default m;\n"
    );
    let names: Vec<&String> = names
        .iter()
        .filter(|name| goccia_js_api::modules::is_identifier_name(name))
        .collect();
    for (index, name) in names.iter().enumerate() {
        source.push_str(&format!(
            "const e{index} = m == null ? undefined : m[{}];\n",
            serde_json::to_string(name).expect("a string")
        ));
    }
    if !names.is_empty() {
        let list: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(index, name)| format!("e{index} as {name}"))
            .collect();
        source.push_str(&format!("export {{ {} }};\n", list.join(", ")));
    }
    source
}

#[cfg(test)]
mod tests {
    use super::*;
    use goccia_vfs::Quota;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn a_plain_script_names_nothing_of_the_module_system() {
        assert!(is_plain_script("console.log('hi')"));
        assert!(is_plain_script("setTimeout(() => process.exit(2), 0)"));
        for seeing in [
            "require('fs')",
            "module.exports = 1",
            "exports.a = 1",
            "console.log(__filename, __dirname)",
            "this.a = 1",
            "console.log(arguments.length)",
            "eval('1')",
            "import('node:module')",
            "process.mainModule",
            "`${require('fs')}`",
            "// a comment naming the module is enough",
        ] {
            assert!(!is_plain_script(seeing), "{seeing}");
        }
    }

    #[test]
    fn the_plain_entry_wrapper_quotes_path_folder_and_source() {
        let wrapper = plain_entry_wrapper(&p("/a b/x.js"), "console.log(\"*/\")\n");
        assert!(
            wrapper.contains(
                "internals.runPlainEntry(\"/a b/x.js\", \"/a b\", \"console.log(\\\"*/\\\")\\n\")"
            ),
            "{wrapper}"
        );
    }

    #[test]
    fn the_format_follows_extension_package_and_source() {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        let check = |vfs: &Vfs, path: &str, source: &str| format_of(vfs, &p(path), source);
        assert_eq!(check(&vfs, "/a.cjs", "export default 1"), Format::CommonJs);
        assert_eq!(check(&vfs, "/a.mjs", "module.exports = 1"), Format::Module);
        assert_eq!(
            check(&vfs, "/a.js", "const fs = require('fs');"),
            Format::CommonJs
        );
        assert_eq!(
            check(&vfs, "/a.js", "module.exports = {}"),
            Format::CommonJs
        );
        assert_eq!(
            check(&vfs, "/a.js", "import fs from 'fs'; require('x')"),
            Format::Module
        );
        assert_eq!(check(&vfs, "/a.js", "console.log(await 1)"), Format::Detect);
        assert_eq!(
            check(&vfs, "/a.js", "// require('x')\nconsole.log('no')"),
            Format::Detect
        );
        assert_eq!(
            check(&vfs, "/a.js", "console.log('require(x)')"),
            Format::Detect
        );
        assert_eq!(
            check(
                &vfs,
                "/a.js",
                "const m = await import('./m.js'); exports.x = 1"
            ),
            Format::CommonJs
        );
        assert_eq!(
            check(&vfs, "/a.js", "const important = 1; exports.a = important"),
            Format::CommonJs
        );
        vfs.mkdir(&p("/pkg")).unwrap();
        vfs.write_file(&p("/pkg/package.json"), r#"{"type": "module"}"#)
            .unwrap();
        assert_eq!(
            check(&vfs, "/pkg/a.js", "module.exports = 1"),
            Format::Module
        );
        vfs.write_file(&p("/pkg/package.json"), r#"{"type": "commonjs"}"#)
            .unwrap();
        assert_eq!(check(&vfs, "/pkg/a.js", "console.log(1)"), Format::CommonJs);
    }
}
