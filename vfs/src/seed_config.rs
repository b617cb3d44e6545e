//! Seed descriptions shared by `--seed-config` files (docs/vfs.md) and child
//! sandbox `seed` options (docs/vfs.md).

use std::path::PathBuf;

use base64::Engine;
use bytes::Bytes;
use serde_json::{Map, Value};

/// One seed entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeedSpec {
    /// Copy the host file or folder `from` (relative to the seed config's
    /// folder) to `to` (default `/`).
    Host {
        /// The host path.
        from: PathBuf,
        /// The sandbox target (docs/vfs.md's rules).
        to: Option<String>,
    },
    /// Copy the parent sandbox's `from` to `to` (default: the same path).
    Parent {
        /// A path of the parent's VFS.
        from: String,
        /// The target in the child.
        to: Option<String>,
    },
    /// A file with the given content at exactly `path`.
    Inline {
        /// The sandbox path.
        path: String,
        /// The file's bytes.
        content: Bytes,
    },
}

/// Which shapes an entry may take, and where its `from` points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedShapes {
    /// `--seed-config`: objects only; `from` is a host path.
    ConfigFile,
    /// Child sandboxes: also `"p"` and `"from=to"` strings; `from` is a
    /// parent VFS path.
    Child,
}

impl SeedShapes {
    /// The entry copying `from` to `to` in this shape.
    fn copy(self, from: String, to: Option<String>) -> SeedSpec {
        match self {
            SeedShapes::ConfigFile => SeedSpec::Host {
                from: PathBuf::from(from),
                to,
            },
            SeedShapes::Child => SeedSpec::Parent { from, to },
        }
    }
}

/// Parses one seed entry; the error names the problem (callers add the
/// entry's index).
pub fn parse_seed_entry(value: &Value, shapes: SeedShapes) -> Result<SeedSpec, String> {
    match value {
        Value::String(text) if shapes == SeedShapes::Child => Ok(match text.split_once('=') {
            Some((from, to)) => shapes.copy(non_empty(from, "from")?, Some(non_empty(to, "to")?)),
            None => shapes.copy(non_empty(text, "seed path")?, None),
        }),
        Value::Object(object) => parse_object(object, shapes),
        other => Err(format!(
            "expected {}, found {}",
            match shapes {
                SeedShapes::ConfigFile => "an object",
                SeedShapes::Child => "a string or an object",
            },
            describe(other)
        )),
    }
}

fn non_empty(text: &str, what: &str) -> Result<String, String> {
    if text.is_empty() {
        Err(format!("{what} is empty"))
    } else {
        Ok(text.to_string())
    }
}

fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

fn string_field(object: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match object.get(key) {
        None => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(other) => Err(format!(
            "\"{key}\" must be a string, found {}",
            describe(other)
        )),
    }
}

fn parse_object(object: &Map<String, Value>, shapes: SeedShapes) -> Result<SeedSpec, String> {
    const KNOWN: [&str; 5] = ["from", "to", "path", "text", "base64"];
    if let Some(unknown) = object.keys().find(|key| !KNOWN.contains(&key.as_str())) {
        return Err(format!(
            "unknown key \"{unknown}\" (expected \"from\"/\"to\", or \"path\" with \"text\" or \"base64\")"
        ));
    }
    let from = string_field(object, "from")?;
    let to = string_field(object, "to")?;
    let path = string_field(object, "path")?;
    let text = string_field(object, "text")?;
    let base64 = string_field(object, "base64")?;
    let sources: Vec<&str> = [("from", &from), ("text", &text), ("base64", &base64)]
        .iter()
        .filter(|(_, value)| value.is_some())
        .map(|(name, _)| *name)
        .collect();
    match sources.as_slice() {
        [] => Err("needs exactly one of \"from\", \"text\" or \"base64\" (found none)".to_string()),
        [_, _, ..] => Err(format!(
            "needs exactly one of \"from\", \"text\" or \"base64\" (found {})",
            sources
                .iter()
                .map(|s| format!("\"{s}\""))
                .collect::<Vec<_>>()
                .join(" and ")
        )),
        ["from"] => {
            if path.is_some() {
                return Err(
                    "\"path\" goes with \"text\" or \"base64\"; use \"to\" with \"from\""
                        .to_string(),
                );
            }
            Ok(shapes.copy(non_empty(&from.expect("present"), "\"from\"")?, to))
        }
        [kind] => {
            if to.is_some() {
                return Err(format!(
                    "\"to\" goes with \"from\"; use \"path\" with \"{kind}\""
                ));
            }
            let path = path.ok_or_else(|| format!("\"path\" is required with \"{kind}\""))?;
            let path = non_empty(&path, "\"path\"")?;
            let content = match (text, base64) {
                (Some(text), _) => Bytes::from(text),
                (_, Some(encoded)) => Bytes::from(
                    base64::engine::general_purpose::STANDARD
                        .decode(encoded.as_bytes())
                        .map_err(|error| {
                            format!("\"base64\" is not valid standard base64: {error}")
                        })?,
                ),
                _ => unreachable!("one source present"),
            };
            Ok(SeedSpec::Inline { path, content })
        }
    }
}

/// A problem in a `--seed-config` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeedConfigProblem {
    /// Index of the entry in `files`, when the problem is in one.
    pub index: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for SeedConfigProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.index {
            Some(index) => write!(f, "entry {index}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Parses a whole `--seed-config` document: `{"files": [entry, ...]}`.
pub fn parse_seed_config(text: &str) -> Result<Vec<SeedSpec>, SeedConfigProblem> {
    let top = |message: String| SeedConfigProblem {
        index: None,
        message,
    };
    let document: Value =
        serde_json::from_str(text).map_err(|error| top(format!("not valid JSON: {error}")))?;
    let Value::Object(object) = document else {
        return Err(top(format!(
            "expected an object with a \"files\" array, found {}",
            describe(&document)
        )));
    };
    if let Some(unknown) = object.keys().find(|key| key.as_str() != "files") {
        return Err(top(format!(
            "unknown key \"{unknown}\" (expected only \"files\")"
        )));
    }
    let Some(files) = object.get("files") else {
        return Err(top("missing the \"files\" array".to_string()));
    };
    let Value::Array(entries) = files else {
        return Err(top(format!(
            "\"files\" must be an array, found {}",
            describe(files)
        )));
    };
    entries
        .iter()
        .enumerate()
        .map(|(index, entry)| {
            parse_seed_entry(entry, SeedShapes::ConfigFile).map_err(|message| SeedConfigProblem {
                index: Some(index),
                message,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn problem(text: &str) -> String {
        parse_seed_config(text).unwrap_err().to_string()
    }

    #[test]
    fn parses_the_three_entry_forms() {
        let specs = parse_seed_config(
            r#"{"files":[{"from":"src"},{"from":"a.txt","to":"/b.txt"},
               {"path":"/t.txt","text":"hi"},{"path":"/b.bin","base64":"AAE="}]}"#,
        )
        .unwrap();
        assert_eq!(
            specs,
            vec![
                SeedSpec::Host {
                    from: "src".into(),
                    to: None
                },
                SeedSpec::Host {
                    from: "a.txt".into(),
                    to: Some("/b.txt".into())
                },
                SeedSpec::Inline {
                    path: "/t.txt".into(),
                    content: Bytes::from("hi")
                },
                SeedSpec::Inline {
                    path: "/b.bin".into(),
                    content: Bytes::from(vec![0u8, 1])
                },
            ]
        );
    }

    #[test]
    fn problems_name_the_entry_index() {
        assert_eq!(
            problem("[]"),
            "expected an object with a \"files\" array, found an array"
        );
        assert!(problem("{").starts_with("not valid JSON"));
        assert_eq!(problem("{}"), "missing the \"files\" array");
        assert_eq!(
            problem(r#"{"files":{}}"#),
            "\"files\" must be an array, found an object"
        );
        assert_eq!(
            problem(r#"{"files":[],"x":1}"#),
            "unknown key \"x\" (expected only \"files\")"
        );
        assert_eq!(
            problem(r#"{"files":[{"from":"a"},{"path":"/x","text":"a","base64":"YQ=="}]}"#),
            "entry 1: needs exactly one of \"from\", \"text\" or \"base64\" (found \"text\" and \"base64\")"
        );
        assert_eq!(
            problem(r#"{"files":[{"text":"a"}]}"#),
            "entry 0: \"path\" is required with \"text\""
        );
        assert_eq!(
            problem(r#"{"files":[{"path":"/x"}]}"#),
            "entry 0: needs exactly one of \"from\", \"text\" or \"base64\" (found none)"
        );
        assert!(
            problem(r#"{"files":[{"path":"/x","base64":"!!"}]}"#)
                .starts_with("entry 0: \"base64\" is not valid standard base64")
        );
        assert_eq!(
            problem(r#"{"files":[{"from":1}]}"#),
            "entry 0: \"from\" must be a string, found a number"
        );
        assert_eq!(
            problem(r#"{"files":[{"form":"a"}]}"#),
            "entry 0: unknown key \"form\" (expected \"from\"/\"to\", or \"path\" with \"text\" or \"base64\")"
        );
        assert_eq!(
            problem(r#"{"files":["a"]}"#),
            "entry 0: expected an object, found a string"
        );
        assert_eq!(
            problem(r#"{"files":[{"from":"a","path":"/b"}]}"#),
            "entry 0: \"path\" goes with \"text\" or \"base64\"; use \"to\" with \"from\""
        );
    }

    #[test]
    fn children_also_take_strings() {
        assert_eq!(
            parse_seed_entry(&json!("/src"), SeedShapes::Child).unwrap(),
            SeedSpec::Parent {
                from: "/src".into(),
                to: None
            }
        );
        assert_eq!(
            parse_seed_entry(&json!("/a=/b"), SeedShapes::Child).unwrap(),
            SeedSpec::Parent {
                from: "/a".into(),
                to: Some("/b".into())
            }
        );
        assert!(parse_seed_entry(&json!("=/b"), SeedShapes::Child).is_err());
        assert!(parse_seed_entry(&json!(3), SeedShapes::Child).is_err());
        assert_eq!(
            parse_seed_entry(&json!({"from": "/a"}), SeedShapes::Child).unwrap(),
            SeedSpec::Parent {
                from: "/a".into(),
                to: None
            },
            "a child's object form names a parent path too"
        );
    }
}
