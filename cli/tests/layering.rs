//! The layers keep to their jobs: nothing below the facade words advice
//! in terms of the command line's flags (the surface does that), so an
//! embedder, the server or the Python bindings never see `--max-output`
//! in a message they cannot act on.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root (this test belongs to the `cli` package).
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ sits in the repository")
        .to_path_buf()
}

/// The crates below the facade, and the facade's own sources (the CLI is
/// its own package, `cli/`, above them).
const LOWER: [&str; 13] = [
    "core/src",
    "vfs/src",
    "store/src",
    "telemetry/src",
    "confine/src",
    "gateway/src",
    "host-commands/src",
    "shell/interp/src",
    "shell/utilities/src",
    "shell/src",
    "js-api/src",
    "vm/src",
    "src",
];

/// Flags that lower layers legitimately spell: the shell builtin
/// `goccia`'s own options (parsed in `js-api/src/nest.rs`) and `--help`,
/// which many shell utilities take.
fn allowed(file: &Path, flag: &str) -> bool {
    // The spec's table of spellings: each setting's name on every surface,
    // declared once so that no surface re-declares it (docs/spec.md).
    let spellings = file.ends_with("src/spec/limits.rs") || file.ends_with("src/spec/settings.rs");
    spellings
        || flag == "--help"
        || (file.ends_with("js-api/src/nest.rs")
            && [
                "--seed",
                "--diff",
                "--diff-format",
                "--timeout",
                "--sandbox",
                "--policy",
                "--eval",
            ]
            .contains(&flag))
        // The shell's `node` takes Node's own `--eval` and hands it to the
        // shell's `goccia`, which spells it as `goccia run` does.
        || (file.ends_with("shell/utilities/src/node.rs") && flag == "--eval")
        // The shell's `escalate` builtin has its own `--mode` (docs/policy.md).
        || (file.ends_with("shell/interp/src/builtins/escalate.rs") && flag == "--mode")
        // wget has its own `--timeout` (accepted and ignored: the run's
        // deadline bounds every request).
        || (file.ends_with("shell/utilities/src/net/wget.rs") && flag == "--timeout")
        // util-linux's `column` has its own `--json`.
        || (file.ends_with("shell/utilities/src/text/column.rs") && flag == "--json")
}

fn cli_flags() -> Vec<String> {
    let mut flags = Vec::new();
    for command in ["run", "shell"] {
        let output = Command::new(env!("CARGO_BIN_EXE_goccia"))
            .args([command, "--help"])
            .output()
            .expect("the binary runs");
        let help = String::from_utf8_lossy(&output.stdout).into_owned();
        for word in help.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            if word.len() > 3 && word.starts_with("--") && !flags.iter().any(|f| f == word) {
                flags.push(word.to_string());
            }
        }
    }
    assert!(
        flags.iter().any(|f| f == "--max-output"),
        "the help lists the flags: {flags:?}"
    );
    flags
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of a line of code (comments dropped).
fn literals(line: &str) -> Vec<&str> {
    let code = line.trim_start();
    if code.starts_with("//") {
        return Vec::new();
    }
    line.split('"').skip(1).step_by(2).collect()
}

#[test]
fn no_message_below_the_facade_names_a_cli_flag() {
    let flags = cli_flags();
    let root = &repository();
    let mut files = Vec::new();
    for dir in LOWER {
        rust_files(&root.join(dir), &mut files);
    }
    assert!(files.len() > 50, "found the sources ({})", files.len());
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("readable");
        for (number, line) in text.lines().enumerate() {
            for literal in literals(line) {
                for flag in &flags {
                    let named = literal.match_indices(flag.as_str()).any(|(at, _)| {
                        let next = literal[at + flag.len()..].chars().next();
                        !next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
                    });
                    if named && !allowed(file, flag) {
                        found.push(format!(
                            "{}:{}: {flag} in \"{literal}\"",
                            file.strip_prefix(root).unwrap_or(file).display(),
                            number + 1
                        ));
                    }
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "messages below the facade name CLI flags:\n{}",
        found.join("\n")
    );
}

// ----- the import graph -----

/// Every crate of the house: the file-level import graph of each is
/// checked. The test below fails when a crate is added and not listed.
const CRATES: [&str; 19] = [
    "core/src",
    "vfs/src",
    "store/src",
    "telemetry/src",
    "confine/src",
    "gateway/src",
    "host-commands/src",
    "shell/interp/src",
    "shell/utilities/src",
    "shell/src",
    "js-api/src",
    "vm/src",
    "src",
    "server/src",
    "mcp/src",
    "cli/src",
    "python/src",
    "node/src",
    "bench/src",
];

/// Every crate of the workspace (and the Python package, a workspace of
/// its own) is one of [`CRATES`].
#[test]
fn every_crate_is_read() {
    let root = repository();
    let mut manifests = vec![root.join("python/Cargo.toml")];
    let workspace = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let members = workspace
        .split("members = [")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .expect("the workspace lists its members");
    for member in members.split(',') {
        let member = member.trim().trim_matches('"');
        if !member.is_empty() {
            manifests.push(root.join(member).join("Cargo.toml"));
        }
    }
    manifests.push(root.join("Cargo.toml"));
    for manifest in manifests {
        let folder = manifest.parent().unwrap();
        // `bench/` holds only benchmark files, each its own program.
        if !folder.join("src").is_dir() {
            continue;
        }
        let src = folder.strip_prefix(&root).unwrap().join("src");
        let src = src.to_str().unwrap();
        assert!(
            CRATES.contains(&src),
            "{src} is not read by the layering checks: add it to CRATES"
        );
    }
}

/// The surfaces (server, MCP, CLI, Python) reach the sandbox only through the
/// facade: no crate below it is a dependency of theirs.
#[test]
fn surfaces_depend_only_on_the_facade() {
    let below = [
        "goccia-core",
        "goccia-vfs",
        "goccia-interp",
        "goccia-utilities",
        "goccia-shell",
        "goccia-js-api",
        "goccia-vm",
    ];
    for surface in ["server", "mcp", "cli", "python"] {
        let manifest =
            std::fs::read_to_string(repository().join(surface).join("Cargo.toml")).unwrap();
        // The Python package is a workspace of its own: a path instead.
        assert!(
            manifest.contains("goccia.workspace = true")
                || manifest.contains("goccia = { path = \"..\" }"),
            "{surface}"
        );
        for name in below {
            assert!(
                !manifest.contains(name),
                "{surface} depends on {name}: use goccia:: instead"
            );
        }
    }
}

/// A module's path segments (`["interp", "exec"]`), from its file.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = relative
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn strip_comments(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            // Keep URLs and strings intact enough: a `//` after a quote is rare
            // in paths we look for, and only `::` paths matter here.
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `pub use a::b::{c, d as e};` statements of a module: name -> path.
fn reexports(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for statement in text.split(';') {
        let statement = statement.trim();
        let Some(body) = statement
            .strip_prefix("pub use ")
            .or_else(|| statement.strip_prefix("pub(crate) use "))
        else {
            continue;
        };
        let body: String = body.split_whitespace().collect::<Vec<_>>().join(" ");
        let (prefix, items) = match body.split_once("::{") {
            Some((prefix, rest)) => (prefix.to_string(), rest.trim_end_matches('}').to_string()),
            None => (String::new(), body.clone()),
        };
        for item in items.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (path, alias) = match item.split_once(" as ") {
                Some((path, alias)) => (path.trim(), Some(alias.trim())),
                None => (item, None),
            };
            let full: Vec<String> = prefix
                .split("::")
                .chain(path.split("::"))
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect();
            let name = alias
                .map(str::to_string)
                .unwrap_or_else(|| full.last().cloned().unwrap_or_default());
            out.push((name, full));
        }
    }
    out
}

struct Crate {
    modules: Vec<Vec<String>>,
    texts: Vec<String>,
}

impl Crate {
    fn load(src: &Path) -> Crate {
        let mut files = Vec::new();
        collect_rs(src, &mut files);
        files.sort();
        let modules = files.iter().map(|f| module_of(src, f)).collect();
        let texts = files
            .iter()
            .map(|f| strip_comments(&std::fs::read_to_string(f).expect("readable")))
            .collect();
        Crate { modules, texts }
    }

    fn index(&self, module: &[String]) -> Option<usize> {
        self.modules.iter().position(|m| m == module)
    }

    /// The file that defines the item at `path`, following re-exports.
    fn resolve(&self, path: &[String], depth: usize) -> Option<usize> {
        for n in (0..=path.len()).rev() {
            let Some(at) = self.index(&path[..n]) else {
                continue;
            };
            let rest = &path[n..];
            if depth < 8
                && let Some(first) = rest.first()
                && let Some((_, target)) = reexports(&self.texts[at])
                    .into_iter()
                    .find(|(name, _)| name == first)
            {
                let head = &path[..n];
                let mut next: Vec<String> = match target.first().map(String::as_str) {
                    Some("crate") => target[1..].to_vec(),
                    Some("super") => [&head[..head.len().saturating_sub(1)], &target[1..]].concat(),
                    Some("self") => [head, &target[1..]].concat(),
                    _ => [head, &target[..]].concat(),
                };
                next.extend_from_slice(&rest[1..]);
                if self
                    .index(&next[..next.len().min(head.len() + 1)])
                    .is_none()
                    && !matches!(
                        target.first().map(String::as_str),
                        Some("crate" | "super" | "self")
                    )
                {
                    return Some(at); // a re-export from another crate
                }
                return self.resolve(&next, depth + 1);
            }
            return Some(at);
        }
        None
    }

    /// Edges: file -> files it names items of.
    fn edges(&self) -> Vec<Vec<usize>> {
        let mut edges = vec![Vec::new(); self.modules.len()];
        for (from, text) in self.texts.iter().enumerate() {
            let module = &self.modules[from];
            let code: String = text
                .split(';')
                .filter(|s| {
                    let s = s.trim_start();
                    !(s.starts_with("pub use ") || s.starts_with("pub(crate) use "))
                })
                .collect::<Vec<_>>()
                .join(";");
            for path in paths_in(&code, module) {
                if let Some(to) = self.resolve(&path, 0)
                    && to != from
                    && !self.modules[to].is_empty()
                    && !edges[from].contains(&to)
                {
                    edges[from].push(to);
                }
            }
        }
        edges
    }
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Item paths named in `code` through `crate::`, `super::` and `self::`,
/// as absolute segment lists (braced groups expanded).
fn paths_in(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let mut paths = Vec::new();
    let bytes = code.as_bytes();
    for keyword in ["crate::", "super::", "self::"] {
        let mut start = 0;
        while let Some(found) = code[start..].find(keyword) {
            let at = start + found;
            start = at + keyword.len();
            let before = at.checked_sub(1).map(|i| bytes[i]);
            if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b':') {
                continue;
            }
            let base: Vec<String> = match keyword {
                "crate::" => Vec::new(),
                "super::" => module[..module.len().saturating_sub(1)].to_vec(),
                _ => module.to_vec(),
            };
            let rest = &code[start..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '{'))
                .unwrap_or(rest.len());
            let text = &rest[..end];
            if let Some((prefix, _)) = text.split_once('{') {
                let close = rest.find('}').unwrap_or(rest.len());
                let group = &rest[prefix.len() + 1..close];
                for item in group.split(',') {
                    let item = item.split(" as ").next().unwrap_or("").trim();
                    if item.is_empty() || item == "self" {
                        continue;
                    }
                    let mut path = base.clone();
                    path.extend(
                        prefix
                            .split("::")
                            .filter(|s| !s.is_empty())
                            .map(str::to_string),
                    );
                    path.extend(
                        item.split("::")
                            .filter(|s| !s.is_empty())
                            .map(str::to_string),
                    );
                    paths.push(path);
                }
            } else {
                let mut path = base;
                path.extend(
                    text.split("::")
                        .filter(|s| !s.is_empty())
                        .map(str::to_string),
                );
                paths.push(path);
            }
        }
    }
    paths
}

/// Strongly connected components larger than one file.
fn circles(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    struct Tarjan<'a> {
        edges: &'a [Vec<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        found: Vec<Vec<usize>>,
    }
    impl Tarjan<'_> {
        fn visit(&mut self, v: usize) {
            self.index[v] = Some(self.next);
            self.low[v] = self.next;
            self.next += 1;
            self.stack.push(v);
            self.on_stack[v] = true;
            for &w in &self.edges[v] {
                match self.index[w] {
                    None => {
                        self.visit(w);
                        self.low[v] = self.low[v].min(self.low[w]);
                    }
                    Some(index) if self.on_stack[w] => self.low[v] = self.low[v].min(index),
                    Some(_) => {}
                }
            }
            if Some(self.low[v]) == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.found.push(component);
                }
            }
        }
    }
    let n = edges.len();
    let mut tarjan = Tarjan {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        stack: Vec::new(),
        on_stack: vec![false; n],
        next: 0,
        found: Vec::new(),
    };
    for v in 0..n {
        if tarjan.index[v].is_none() {
            tarjan.visit(v);
        }
    }
    tarjan.found
}

/// A file names an item of another file through a `crate::`, `super::` or
/// `self::` path (re-exports followed to the defining file); circles of
/// more than two files (a module and its child naming each other is
/// fine) mean layers that cannot be read or changed apart.
#[test]
fn no_import_circle_is_larger_than_two_files() {
    let root = &repository();
    let mut found = Vec::new();
    for src in CRATES {
        let krate = Crate::load(&root.join(src));
        let edges = krate.edges();
        let edge_count: usize = edges.iter().map(Vec::len).sum();
        assert!(
            edge_count > 0 || krate.modules.len() < 3,
            "{src}: found imports"
        );
        for circle in circles(&edges) {
            if circle.len() > 2 {
                let names: Vec<String> = circle
                    .iter()
                    .map(|&i| krate.modules[i].join("::"))
                    .collect();
                found.push(format!("{src}: {}", names.join(", ")));
            }
        }
    }
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

#[test]
fn the_circle_check_sees_a_circle() {
    // a -> b -> c -> a, and a two-file circle d <-> e that is allowed.
    let edges = vec![vec![1], vec![2], vec![0], vec![4], vec![3]];
    let mut sizes: Vec<usize> = circles(&edges).iter().map(Vec::len).collect();
    sizes.sort();
    assert_eq!(sizes, [2, 3]);
    let paths = paths_in(
        "use crate::io::{Fd, pipe}; super::helper(); let x = self::y::Z;",
        &["a".to_string(), "b".to_string()],
    );
    assert!(paths.contains(&vec!["io".to_string(), "Fd".to_string()]));
    assert!(paths.contains(&vec!["a".to_string(), "helper".to_string()]));
    assert!(paths.contains(&vec![
        "a".to_string(),
        "b".to_string(),
        "y".to_string(),
        "Z".to_string()
    ]));
}

// ----- widths and precisions -----

/// A `format!` placeholder taking its width or precision at run time
/// (`{:>w$}`, `{:.*}`, `{x:0width$}`).
fn runtime_width(literal: &str) -> bool {
    let mut rest = literal;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        if let Some(escaped) = after.strip_prefix('{') {
            rest = escaped;
            continue;
        }
        let Some(close) = after.find('}') else {
            return false;
        };
        let spec = &after[..close];
        if let Some((_, format)) = spec.split_once(':')
            && (format.contains('$') || format.contains(".*"))
        {
            return true;
        }
        rest = &after[close + 1..];
    }
    false
}

/// Rust's `format!` panics on a width or precision over 65,535, and such
/// numbers come from guest input (`printf '%.70000f'`): every runtime
/// width or precision goes through `shell/interp/src/pad.rs`, which never hands
/// one to `format!` beyond what it has checked.
#[test]
fn no_runtime_width_reaches_format_outside_the_padding_helper() {
    let root = &repository();
    let mut files = Vec::new();
    for dir in LOWER {
        rust_files(&root.join(dir), &mut files);
    }
    let mut found = Vec::new();
    for file in &files {
        if file.ends_with("shell/interp/src/pad.rs") {
            continue;
        }
        let text = std::fs::read_to_string(file).expect("readable");
        for (number, line) in text.lines().enumerate() {
            for literal in literals(line) {
                if runtime_width(literal) {
                    found.push(format!(
                        "{}:{}: \"{literal}\"",
                        file.strip_prefix(root).unwrap_or(file).display(),
                        number + 1
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "runtime widths given to format! (use shell/interp/src/pad.rs):\n{}",
        found.join("\n")
    );
    assert!(runtime_width("{:>width$}") && runtime_width("{:.*}") && runtime_width("x {v:0w$x}"));
    assert!(!runtime_width("{{:>w$}}") && !runtime_width("{:>5}") && !runtime_width("{name}"));
}
