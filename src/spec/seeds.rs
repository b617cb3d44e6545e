//! [`SeedSpec`]: where a sandbox's files come from, one entry per seed, in
//! the order they apply (docs/spec.md, "Seeds").

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::error::SpecError;

/// One seed. In JSON: `{"from", "to"?, "copyRw"?}` (a host file or folder),
/// `{"path", "text"}` or `{"path", "base64"}` (an inline file), or
/// `{"config"}` (a seed config file); on a command line `--seed`,
/// `--copy-rw` and `--seed-config`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeedSpec {
    /// A host file or folder copied in at `to` (default `/`); with
    /// `copy_rw`, changes under it are written back by write-back.
    Host {
        /// The host path.
        from: PathBuf,
        /// The sandbox target (default `/`).
        to: Option<String>,
        /// Mark it for write-back.
        copy_rw: bool,
    },
    /// A file at exactly `path` holding these bytes.
    Inline {
        /// The sandbox path.
        path: String,
        /// Its content.
        content: bytes::Bytes,
    },
    /// A `--seed-config` file (`from` entries relative to its folder).
    Config {
        /// The config file on the host.
        config: PathBuf,
    },
}

impl SeedSpec {
    /// `host[=sandbox]`, split at the first `=`, as a command line gives it.
    pub fn host(text: &str, copy_rw: bool) -> SeedSpec {
        let (from, to) = match text.split_once('=') {
            Some((from, to)) => (from, Some(to.to_string())),
            None => (text, None),
        };
        SeedSpec::Host {
            from: PathBuf::from(from),
            to,
            copy_rw,
        }
    }

    /// Refuses a seed no sandbox could take (naming its index).
    pub(super) fn validate(&self, index: usize) -> Result<(), SpecError> {
        let setting = format!("seeds[{index}]");
        match self {
            SeedSpec::Host { from, to, .. } => {
                if from.as_os_str().is_empty() {
                    return Err(SpecError::new(setting, "`from` is empty"));
                }
                if let Some(to) = to {
                    goccia_vfs::SeedTarget::parse(to)
                        .map(drop)
                        .map_err(|error| SpecError::new(setting, error.to_string()))?;
                }
                Ok(())
            }
            SeedSpec::Inline { path, .. } => check_absolute(&setting, path),
            SeedSpec::Config { config } if config.as_os_str().is_empty() => {
                Err(SpecError::new(setting, "`config` is empty"))
            }
            SeedSpec::Config { .. } => Ok(()),
        }
    }
}

/// An absolute sandbox path, or the error naming `setting`.
pub(super) fn check_absolute(setting: &str, raw: &str) -> Result<(), SpecError> {
    if !raw.starts_with('/') {
        return Err(SpecError::new(
            setting,
            format!("`{raw}` is not an absolute sandbox path (such as /work)"),
        ));
    }
    goccia_vfs::VfsPath::parse(raw)
        .map(drop)
        .map_err(|error| SpecError::new(setting, format!("`{raw}`: {error}")))
}

/// The JSON shape: every key optional, one shape checked after.
#[derive(Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SeedJson {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<PathBuf>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    copy_rw: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    base64: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    config: Option<PathBuf>,
}

impl Serialize for SeedSpec {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let json = match self {
            SeedSpec::Host { from, to, copy_rw } => SeedJson {
                from: Some(from.clone()),
                to: to.clone(),
                copy_rw: *copy_rw,
                ..SeedJson::default()
            },
            SeedSpec::Inline { path, content } => match std::str::from_utf8(content) {
                Ok(text) => SeedJson {
                    path: Some(path.clone()),
                    text: Some(text.to_string()),
                    ..SeedJson::default()
                },
                Err(_) => SeedJson {
                    path: Some(path.clone()),
                    base64: Some(base64_encode(content)),
                    ..SeedJson::default()
                },
            },
            SeedSpec::Config { config } => SeedJson {
                config: Some(config.clone()),
                ..SeedJson::default()
            },
        };
        json.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for SeedSpec {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let json = SeedJson::deserialize(deserializer)?;
        let shape = (json.from, json.path, json.text, json.base64, json.config);
        match shape {
            (Some(from), None, None, None, None) => Ok(SeedSpec::Host {
                from,
                to: json.to,
                copy_rw: json.copy_rw,
            }),
            (None, Some(path), Some(text), None, None) if json.to.is_none() && !json.copy_rw => {
                Ok(SeedSpec::Inline {
                    path,
                    content: bytes::Bytes::from(text),
                })
            }
            (None, Some(path), None, Some(encoded), None) if json.to.is_none() && !json.copy_rw => {
                let content = base64_decode(&encoded)
                    .map_err(|error| D::Error::custom(format!("`base64` is not valid: {error}")))?;
                Ok(SeedSpec::Inline {
                    path,
                    content: bytes::Bytes::from(content),
                })
            }
            (None, None, None, None, Some(config)) if json.to.is_none() && !json.copy_rw => {
                Ok(SeedSpec::Config { config })
            }
            _ => Err(D::Error::custom(
                "a seed is {\"from\", \"to\"?, \"copyRw\"?}, {\"path\", \"text\"}, {\"path\", \"base64\"} or {\"config\"}",
            )),
        }
    }
}

fn base64_encode(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn base64_decode(text: &str) -> Result<Vec<u8>, base64::DecodeError> {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.decode(text)
}

/// `env` as an object `{"NAME": "value"}` or a list of `{name, value}`
/// (the server's body before the spec).
pub(super) fn env<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<BTreeMap<String, String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Pair {
        name: String,
        value: String,
    }
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Env {
        Map(BTreeMap<String, String>),
        Pairs(Vec<Pair>),
    }
    Ok(match Env::deserialize(deserializer)? {
        Env::Map(map) => map,
        Env::Pairs(pairs) => pairs
            .into_iter()
            .map(|pair| (pair.name, pair.value))
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_reads_and_prints_back() {
        for text in [
            r#"{"from":"src","to":"/work","copyRw":true}"#,
            r#"{"from":"a.txt"}"#,
            r#"{"path":"/main.js","text":"1"}"#,
            r#"{"path":"/b.bin","base64":"/w=="}"#,
            r#"{"config":"seeds.json"}"#,
        ] {
            let seed: SeedSpec = serde_json::from_str(text).unwrap();
            assert_eq!(serde_json::to_string(&seed).unwrap(), text);
        }
        for bad in [
            r#"{"from":"a","text":"x"}"#,
            r#"{"path":"/a"}"#,
            r#"{"to":"/a"}"#,
            r#"{"from":"a","extra":1}"#,
        ] {
            assert!(serde_json::from_str::<SeedSpec>(bad).is_err(), "{bad}");
        }
        assert_eq!(
            SeedSpec::host("dir=/w=x", true),
            SeedSpec::Host {
                from: "dir".into(),
                to: Some("/w=x".into()),
                copy_rw: true
            }
        );
    }
}
