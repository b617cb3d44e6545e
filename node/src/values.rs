//! What the library returns, as JavaScript values: a change as a class
//! (so `apply` gets the library's own value back), listings and reports
//! as plain objects in the JSON spelling.

use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use serde_json::{Value, json};

use crate::errors::{coded, to_js};

/// One change since the baseline; pass a list of them to `apply`.
#[napi]
pub struct NativeChange {
    pub(crate) inner: goccia::Change,
}

impl From<goccia::Change> for NativeChange {
    fn from(inner: goccia::Change) -> Self {
        NativeChange { inner }
    }
}

fn file(node: &Option<goccia::Node>) -> Option<&std::sync::Arc<goccia::FileNode>> {
    node.as_ref().and_then(goccia::Node::as_file)
}

#[napi]
impl NativeChange {
    /// `create`, `mkdir`, `modify`, `replace` or `delete`.
    #[napi(getter)]
    pub fn kind(&self) -> &'static str {
        self.inner.kind.as_str()
    }

    /// The VFS path.
    #[napi(getter)]
    pub fn path(&self) -> String {
        self.inner.path.to_string()
    }

    /// `file`, `directory` or `symlink`.
    #[napi(getter, js_name = "type")]
    pub fn node_type(&self) -> &'static str {
        self.inner.node_type().as_str()
    }

    /// The size before (files).
    #[napi(getter)]
    pub fn old_size(&self) -> Option<f64> {
        file(&self.inner.old).map(|file| file.len() as f64)
    }

    /// The size after (files).
    #[napi(getter)]
    pub fn new_size(&self) -> Option<f64> {
        file(&self.inner.new).map(|file| file.len() as f64)
    }

    /// `blake3:<hex>` of the content before (files).
    #[napi(getter)]
    pub fn old_hash(&self) -> Option<String> {
        file(&self.inner.old).map(|file| format!("blake3:{}", file.hash().to_hex()))
    }

    /// `blake3:<hex>` of the content after (files).
    #[napi(getter)]
    pub fn new_hash(&self) -> Option<String> {
        file(&self.inner.new).map(|file| format!("blake3:{}", file.hash().to_hex()))
    }

    /// The content before (files).
    #[napi(getter)]
    pub fn old_content(&self) -> Option<Buffer> {
        file(&self.inner.old).map(|file| file.data().to_vec().into())
    }

    /// The content after (files).
    #[napi(getter)]
    pub fn new_content(&self) -> Option<Buffer> {
        file(&self.inner.new).map(|file| file.data().to_vec().into())
    }
}

/// `[{path, type}]` under `path`, depth first in name order.
pub fn listing(sandbox: &goccia::Sandbox, path: &str, recursive: bool) -> napi::Result<Value> {
    let mut found = Vec::new();
    let mut pending = vec![path.trim_end_matches('/').to_string()];
    while let Some(folder) = pending.pop() {
        let shown = if folder.is_empty() { "/" } else { &folder };
        let mut below = Vec::new();
        for entry in sandbox.list(shown).map_err(to_js)? {
            let path = format!("{folder}/{}", entry.name);
            if recursive && entry.node_type == goccia::NodeType::Directory {
                below.push(path.clone());
            }
            found.push(json!({"path": path, "type": entry.node_type.as_str()}));
        }
        // Depth first, in name order: the last pushed is listed next.
        pending.extend(below.into_iter().rev());
    }
    if recursive {
        found.sort_by(|a, b| a["path"].as_str().cmp(&b["path"].as_str()));
    }
    Ok(Value::Array(found))
}

/// Child seeds from `[{from, to?} | {path, text} | "path"]` (JSON).
pub fn child_seeds(json: &str) -> napi::Result<Vec<goccia::ChildSeed>> {
    let bad = |index: usize| {
        coded(
            "ERR_INVALID_ARG_VALUE",
            format!("seeds[{index}]: a child seed is a VFS path, {{from, to?}} or {{path, text}}"),
        )
    };
    let seeds: Vec<Value> = serde_json::from_str(json).map_err(|error| {
        coded(
            "ERR_INVALID_ARG_VALUE",
            format!("seeds: a list of child seeds ({error})"),
        )
    })?;
    seeds
        .iter()
        .enumerate()
        .map(|(index, seed)| match seed {
            Value::String(path) => Ok(goccia::ChildSeed::path(path)),
            Value::Object(fields) => match (
                fields.get("from").and_then(Value::as_str),
                fields.get("to").and_then(Value::as_str),
                fields.get("path").and_then(Value::as_str),
                fields.get("text").and_then(Value::as_str),
            ) {
                (Some(from), Some(to), None, None) => Ok(goccia::ChildSeed::path_to(from, to)),
                (Some(from), None, None, None) => Ok(goccia::ChildSeed::path(from)),
                (None, None, Some(path), Some(text)) => {
                    Ok(goccia::ChildSeed::file(path, text.to_string()))
                }
                _ => Err(bad(index)),
            },
            _ => Err(bad(index)),
        })
        .collect()
}

/// A child's own options, `{limits?, policy?, env?, cwd?}` (JSON): limits left
/// out are the parent's, and what is given is read as the spec reads it.
pub fn child_options(parent: &goccia::Sandbox, json: &str) -> napi::Result<goccia::ChildOptions> {
    let bad = |problem: String| coded("ERR_GOCCIA_SPEC", problem);
    let given: serde_json::Map<String, Value> =
        serde_json::from_str(json).map_err(|error| bad(format!("options: an object ({error})")))?;
    let mut spec = serde_json::to_value(parent.spec()).unwrap_or_default();
    let mut options = goccia::ChildOptions::new();
    for (name, value) in given {
        match (name.as_str(), value) {
            ("limits", Value::Object(limits)) => {
                for (limit, value) in limits {
                    spec["limits"][limit] = value;
                }
            }
            ("policy", value) => spec["policy"] = value,
            ("env", Value::Object(env)) => {
                for (variable, value) in env {
                    let Value::String(value) = value else {
                        return Err(bad(format!("env.{variable}: a string")));
                    };
                    options = options.env(&variable, &value);
                }
            }
            ("cwd", Value::String(cwd)) => options = options.cwd(&cwd),
            ("cwd", _) => return Err(bad("cwd: a string".into())),
            (other, _) => {
                return Err(bad(format!(
                    "{other}: not a child option (limits, policy, env, cwd)"
                )));
            }
        }
    }
    let spec = goccia::SandboxSpec::from_value(spec)
        .map_err(|error| to_js(goccia::SetupError::Spec(error)))?;
    Ok(options.limits(spec.limits.to_limits()).policy(spec.policy))
}

/// `{applied, merged, alreadyPresent, conflicts: [{path, reason, ours, theirs}]}`.
pub fn merge_report(report: goccia::MergeReport) -> Value {
    let paths =
        |paths: &[goccia::VfsPath]| paths.iter().map(ToString::to_string).collect::<Vec<_>>();
    json!({
        "applied": paths(&report.applied),
        "merged": paths(&report.merged),
        "alreadyPresent": paths(&report.already_present),
        "conflicts": report.conflicts.iter().map(|conflict| json!({
            "path": conflict.path.to_string(),
            "reason": conflict.reason,
            "ours": conflict.ours,
            "theirs": conflict.theirs,
        })).collect::<Vec<_>>(),
    })
}

/// `{written: [{path, hostPath}], skipped: [{path, hostPath, reason}], summary}`:
/// the envelope's `writeBack`.
pub fn write_back_report(report: &goccia::WriteBackReport) -> Value {
    serde_json::to_value(goccia::WriteBackSummary::done(report)).unwrap_or(Value::Null)
}
