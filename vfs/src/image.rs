//! Trees as manifests, so a tree can be stored and rebuilt elsewhere (a
//! session resumed on another server, docs/server.md). A [`Manifest`] is the
//! list of [`replica`](crate::replica) steps that builds a tree — or turns
//! one tree into another — with each file's content replaced by its
//! BLAKE3 hash; the contents travel separately, keyed by that hash, so a
//! store keeps each distinct content once however many trees hold it.
//!
//! Loading checks every content against its hash: a store that hands back
//! the wrong bytes is refused, never silently believed.

use std::collections::BTreeMap;
use std::sync::Arc;

use bytes::Bytes;
use serde::{Deserialize, Serialize};

use crate::fs::Snapshot;
use crate::node::{DirNode, Meta, Node};
use crate::path::VfsPath;
use crate::replica::{Step, delta};

/// The manifest format this code writes and reads.
pub const MANIFEST_VERSION: u32 = 1;

/// One step of a manifest: a replica step whose content is named by hash.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase", deny_unknown_fields)]
pub enum ManifestStep {
    /// Remove what is at `path`.
    Remove {
        /// A VFS path.
        path: String,
    },
    /// An empty folder.
    Dir {
        /// A VFS path.
        path: String,
        /// Permission bits.
        mode: u32,
        /// Modification time, ns since the epoch.
        mtime: i64,
    },
    /// A file whose content has BLAKE3 `hash` (hex).
    File {
        /// A VFS path.
        path: String,
        /// Permission bits.
        mode: u32,
        /// Modification time, ns since the epoch.
        mtime: i64,
        /// BLAKE3 of the content, hex.
        hash: String,
        /// The content's length in bytes.
        size: u64,
    },
    /// A symbolic link holding `target`.
    Link {
        /// A VFS path.
        path: String,
        /// Permission bits.
        mode: u32,
        /// Modification time, ns since the epoch.
        mtime: i64,
        /// What it points at.
        target: String,
    },
    /// Set mode and time.
    Meta {
        /// A VFS path.
        path: String,
        /// Permission bits.
        mode: u32,
        /// Modification time, ns since the epoch.
        mtime: i64,
    },
}

/// Steps that build a tree (from nothing) or turn one tree into another.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`MANIFEST_VERSION`].
    pub version: u32,
    /// In replay order.
    pub steps: Vec<ManifestStep>,
}

/// Contents by BLAKE3 hash (hex), as a manifest names them.
pub type Contents = BTreeMap<String, Bytes>;

/// Why a manifest could not be read or rebuilt into a tree.
#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    /// The bytes are not a manifest.
    #[error("the manifest is malformed: {0}")]
    Malformed(String),
    /// A version this code does not read.
    #[error("the manifest is version {found}; this build reads version {MANIFEST_VERSION}")]
    Version {
        /// What the manifest says.
        found: u32,
    },
    /// A path in it is not a VFS path.
    #[error("the manifest names `{0}`, which is not a VFS path")]
    Path(String),
    /// The content a step names is not available.
    #[error("the content {0} the manifest names is missing")]
    MissingContent(String),
    /// The content handed back for a hash does not have that hash.
    #[error("the content stored for {0} does not match its hash")]
    ContentMismatch(String),
}

fn hex(hash: &blake3::Hash) -> String {
    hash.to_hex().to_string()
}

impl Manifest {
    /// The steps that build `tree` from an empty one, and every content
    /// they name. Hashes already computed for a file are reused.
    pub fn of_tree(tree: &Snapshot, contents: &mut Contents) -> Manifest {
        let mut steps = Vec::new();
        listing(&VfsPath::root(), tree.root(), &mut steps, contents);
        Manifest {
            version: MANIFEST_VERSION,
            steps,
        }
    }

    /// The steps that turn `from` into `to` (O(changed)), and the contents
    /// they name.
    pub fn of_changes(from: &Snapshot, to: &Snapshot, contents: &mut Contents) -> Manifest {
        let steps = delta(from, to)
            .into_iter()
            .map(|step| match step {
                Step::Remove { path } => ManifestStep::Remove {
                    path: path.to_string(),
                },
                Step::Dir { path, meta } => ManifestStep::Dir {
                    path: path.to_string(),
                    mode: meta.mode,
                    mtime: meta.mtime_ns,
                },
                Step::Link { path, meta, target } => ManifestStep::Link {
                    path: path.to_string(),
                    mode: meta.mode,
                    mtime: meta.mtime_ns,
                    target,
                },
                Step::Meta { path, meta } => ManifestStep::Meta {
                    path: path.to_string(),
                    mode: meta.mode,
                    mtime: meta.mtime_ns,
                },
                Step::File { path, meta, data } => {
                    let hash = hex(&blake3::hash(&data));
                    let size = data.len() as u64;
                    contents.entry(hash.clone()).or_insert(data);
                    ManifestStep::File {
                        path: path.to_string(),
                        mode: meta.mode,
                        mtime: meta.mtime_ns,
                        hash,
                        size,
                    }
                }
            })
            .collect();
        Manifest {
            version: MANIFEST_VERSION,
            steps,
        }
    }

    /// Every content hash the manifest names (each once).
    pub fn hashes(&self) -> Vec<String> {
        let mut hashes: Vec<String> = self
            .steps
            .iter()
            .filter_map(|step| match step {
                ManifestStep::File { hash, .. } => Some(hash.clone()),
                _ => None,
            })
            .collect();
        hashes.sort();
        hashes.dedup();
        hashes
    }

    /// The manifest as JSON.
    pub fn to_json(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("a manifest serializes")
    }

    /// A manifest from JSON (its version checked).
    pub fn from_json(bytes: &[u8]) -> Result<Manifest, ImageError> {
        let manifest: Manifest =
            serde_json::from_slice(bytes).map_err(|e| ImageError::Malformed(e.to_string()))?;
        if manifest.version != MANIFEST_VERSION {
            return Err(ImageError::Version {
                found: manifest.version,
            });
        }
        Ok(manifest)
    }

    /// The replica steps, each content taken from `content` and checked
    /// against its hash.
    pub fn steps(&self, content: &dyn Fn(&str) -> Option<Bytes>) -> Result<Vec<Step>, ImageError> {
        // Only the normal form a manifest is written in (absolute, no `.`,
        // `..` or doubled slashes): anything else was not made here.
        let path = |text: &String| {
            VfsPath::parse(text)
                .ok()
                .filter(|path| path.as_str() == text)
                .ok_or_else(|| ImageError::Path(text.clone()))
        };
        self.steps
            .iter()
            .map(|step| {
                Ok(match step {
                    ManifestStep::Remove { path: p } => Step::Remove { path: path(p)? },
                    ManifestStep::Dir {
                        path: p,
                        mode,
                        mtime,
                    } => Step::Dir {
                        path: path(p)?,
                        meta: Meta {
                            mode: *mode,
                            mtime_ns: *mtime,
                        },
                    },
                    ManifestStep::Link {
                        path: p,
                        mode,
                        mtime,
                        target,
                    } => Step::Link {
                        path: path(p)?,
                        meta: Meta {
                            mode: *mode,
                            mtime_ns: *mtime,
                        },
                        target: target.clone(),
                    },
                    ManifestStep::Meta {
                        path: p,
                        mode,
                        mtime,
                    } => Step::Meta {
                        path: path(p)?,
                        meta: Meta {
                            mode: *mode,
                            mtime_ns: *mtime,
                        },
                    },
                    ManifestStep::File {
                        path: p,
                        mode,
                        mtime,
                        hash,
                        size,
                    } => {
                        let data = content(hash)
                            .ok_or_else(|| ImageError::MissingContent(hash.clone()))?;
                        if data.len() as u64 != *size || hex(&blake3::hash(&data)) != *hash {
                            return Err(ImageError::ContentMismatch(hash.clone()));
                        }
                        Step::File {
                            path: path(p)?,
                            meta: Meta {
                                mode: *mode,
                                mtime_ns: *mtime,
                            },
                            data,
                        }
                    }
                })
            })
            .collect()
    }
}

/// Every entry below `dir` as steps from nothing: the folder's entries,
/// then its own mode and time (writing the entries moved it).
fn listing(
    path: &VfsPath,
    dir: &Arc<DirNode>,
    steps: &mut Vec<ManifestStep>,
    contents: &mut Contents,
) {
    for (name, node) in dir.iter() {
        let at = path.join(name);
        match node {
            Node::File(file) => {
                let hash = hex(&file.hash());
                contents
                    .entry(hash.clone())
                    .or_insert_with(|| file.data().clone());
                steps.push(ManifestStep::File {
                    path: at.to_string(),
                    mode: file.meta().mode,
                    mtime: file.meta().mtime_ns,
                    hash,
                    size: file.len(),
                });
            }
            Node::Link(link) => steps.push(ManifestStep::Link {
                path: at.to_string(),
                mode: link.meta().mode,
                mtime: link.meta().mtime_ns,
                target: link.target().to_string(),
            }),
            Node::Dir(child) => {
                steps.push(ManifestStep::Dir {
                    path: at.to_string(),
                    mode: child.meta().mode,
                    mtime: child.meta().mtime_ns,
                });
                listing(&at, child, steps, contents);
            }
        }
    }
    steps.push(ManifestStep::Meta {
        path: path.to_string(),
        mode: dir.meta().mode,
        mtime: dir.meta().mtime_ns,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::{Quota, Vfs};

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    fn rebuilt(manifests: &[&Manifest], contents: &Contents) -> Result<Snapshot, ImageError> {
        let mut vfs = Vfs::from_snapshot(&Snapshot::empty(), Quota::UNLIMITED);
        for manifest in manifests {
            let json = manifest.to_json();
            let steps = Manifest::from_json(&json)?.steps(&|hash| contents.get(hash).cloned())?;
            vfs.replay(&steps).expect("replays");
        }
        Ok(vfs.snapshot())
    }

    #[test]
    fn a_tree_and_its_changes_rebuild_exactly_with_each_content_once() {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        vfs.mkdir_all(&p("/work/src")).unwrap();
        vfs.write_file(&p("/work/src/a.txt"), "same").unwrap();
        vfs.write_file(&p("/work/b.txt"), "same").unwrap();
        vfs.write_file(&p("/work/c.bin"), vec![0u8, 255, 7])
            .unwrap();
        vfs.set_mode(&p("/work/c.bin"), 0o755).unwrap();
        let baseline = vfs.snapshot();
        vfs.write_file(&p("/work/src/a.txt"), "edited").unwrap();
        vfs.remove_all(&p("/work/b.txt")).unwrap();
        vfs.mkdir_all(&p("/work/new/deep")).unwrap();
        let current = vfs.snapshot();

        let mut contents = Contents::new();
        let base = Manifest::of_tree(&baseline, &mut contents);
        assert_eq!(contents.len(), 2, "`same` is stored once");
        let changes = Manifest::of_changes(&baseline, &current, &mut contents);
        assert_eq!(contents.len(), 3);
        assert_eq!(changes.hashes(), [hex(&blake3::hash(b"edited"))]);

        let again = rebuilt(&[&base], &contents).unwrap();
        assert!(crate::diff(&baseline, &again).is_empty());
        assert_eq!(again.root().meta(), baseline.root().meta());
        let mode = again.lookup(&p("/work/c.bin")).unwrap().meta().mode;
        assert_eq!(mode, 0o755);
        let moved = rebuilt(&[&base, &changes], &contents).unwrap();
        assert!(crate::diff(&current, &moved).is_empty());
        assert_eq!(
            crate::diff(&again, &moved).len(),
            crate::diff(&baseline, &current).len()
        );
    }

    #[test]
    fn wrong_missing_or_foreign_contents_are_refused() {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        vfs.write_file(&p("/f"), "content").unwrap();
        let mut contents = Contents::new();
        let manifest = Manifest::of_tree(&vfs.snapshot(), &mut contents);
        let hash = manifest.hashes().remove(0);
        let missing = rebuilt(&[&manifest], &Contents::new()).unwrap_err();
        assert!(matches!(missing, ImageError::MissingContent(ref h) if *h == hash));
        let mut forged = Contents::new();
        forged.insert(hash.clone(), Bytes::from_static(b"contenT"));
        let mismatch = rebuilt(&[&manifest], &forged).unwrap_err();
        assert_eq!(
            mismatch.to_string(),
            format!("the content stored for {hash} does not match its hash")
        );
        let mut newer = manifest.clone();
        newer.version = 9;
        let error = Manifest::from_json(&newer.to_json()).unwrap_err();
        assert!(error.to_string().contains("version 9"), "{error}");
        assert!(matches!(
            Manifest::from_json(b"{\"version\":1,\"steps\":[{\"op\":\"dir\",\"path\":\"rel\",\"mode\":1,\"mtime\":0}]}")
                .unwrap()
                .steps(&|_| None),
            Err(ImageError::Path(_))
        ));
        assert!(matches!(
            Manifest::from_json(b"[]"),
            Err(ImageError::Malformed(_))
        ));
    }
}
