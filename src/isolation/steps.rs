//! Tree steps across the pipe: a replica delta
//! ([`goccia_vfs::replica::Step`]) cut into frames, and put back together
//! on the other side with every path parsed and every size bounded.

use std::io;

use bytes::Bytes;
use goccia_host_commands::scratch::Edit;
use goccia_vfs::VfsPath;
use goccia_vfs::node::Meta;
use goccia_vfs::replica::Step;

use super::wire::{CHUNK, WireStep};

/// Sends `steps` as batches, each through `send(batch, last)`: at most
/// about [`CHUNK`] bytes of paths and content per frame, big files in
/// pieces. An empty delta is one empty, last batch.
pub fn send_steps(
    steps: &[Step],
    mut send: impl FnMut(Vec<WireStep>, bool) -> io::Result<()>,
) -> io::Result<()> {
    let mut batch = Vec::new();
    let mut size = 0usize;
    for step in steps {
        let path = step.path().as_str().to_string();
        size += path.len() + 32;
        match step {
            Step::Remove { .. } => batch.push(WireStep::Remove { path }),
            Step::Dir { meta, .. } => batch.push(WireStep::Dir {
                path,
                mode: meta.mode,
                mtime: meta.mtime_ns,
            }),
            Step::Meta { meta, .. } => batch.push(WireStep::Meta {
                path,
                mode: meta.mode,
                mtime: meta.mtime_ns,
            }),
            Step::Link { meta, target, .. } => {
                size += target.len();
                batch.push(WireStep::Link {
                    path,
                    mode: meta.mode,
                    mtime: meta.mtime_ns,
                    target: target.clone(),
                });
            }
            Step::File { meta, data, .. } => {
                let first = data.len().min(CHUNK);
                batch.push(WireStep::File {
                    path,
                    mode: meta.mode,
                    mtime: meta.mtime_ns,
                    size: data.len() as u64,
                    data: data[..first].to_vec(),
                });
                size += first;
                let mut at = first;
                while at < data.len() {
                    send(std::mem::take(&mut batch), false)?;
                    let end = (at + CHUNK).min(data.len());
                    batch.push(WireStep::More(data[at..end].to_vec()));
                    size = end - at;
                    at = end;
                }
            }
        }
        if size >= CHUNK {
            send(std::mem::take(&mut batch), false)?;
            size = 0;
        }
    }
    send(batch, true)
}

/// Puts a batch of steps back together, refusing what no honest sender
/// sends: a path that does not parse, a piece with no file before it, a
/// file that grows past its announced size, more content or more steps
/// than the tree may hold.
pub struct Assembler {
    steps: Vec<Step>,
    pending: Option<(VfsPath, Meta, u64, Vec<u8>)>,
    bytes: u64,
    max_bytes: u64,
    max_steps: u64,
}

impl Assembler {
    /// An assembler that accepts at most `max_bytes` of content and
    /// `max_steps` steps.
    pub fn new(max_bytes: u64, max_steps: u64) -> Self {
        Assembler {
            steps: Vec::new(),
            pending: None,
            bytes: 0,
            max_bytes,
            max_steps,
        }
    }

    /// Takes one step of the batch.
    pub fn push(&mut self, step: WireStep) -> Result<(), String> {
        if let WireStep::More(data) = step {
            let Some((_, _, size, buffer)) = &mut self.pending else {
                return Err("a piece of a file that was never announced".into());
            };
            self.bytes += data.len() as u64;
            if buffer.len() as u64 + data.len() as u64 > *size || self.bytes > self.max_bytes {
                return Err("a file larger than announced or than the quota".into());
            }
            buffer.extend_from_slice(&data);
            return self.complete_pending();
        }
        if self.pending.is_some() {
            return Err("a step before the previous file was complete".into());
        }
        if self.steps.len() as u64 >= self.max_steps {
            return Err(format!("more than {} steps", self.max_steps));
        }
        let parse = |raw: &str| {
            VfsPath::parse(raw)
                .ok()
                .filter(|_| raw.starts_with('/'))
                .ok_or_else(|| format!("a step names an invalid path {raw:?}"))
        };
        match step {
            WireStep::Remove { path } => self.steps.push(Step::Remove {
                path: parse(&path)?,
            }),
            WireStep::Dir { path, mode, mtime } => self.steps.push(Step::Dir {
                path: parse(&path)?,
                meta: meta(mode, mtime),
            }),
            WireStep::Meta { path, mode, mtime } => self.steps.push(Step::Meta {
                path: parse(&path)?,
                meta: meta(mode, mtime),
            }),
            WireStep::Link {
                path,
                mode,
                mtime,
                target,
            } => {
                // A link's text counts as content: bounded like a file.
                self.bytes += target.len() as u64;
                if self.bytes > self.max_bytes || target.len() > crate::isolation::wire::CHUNK {
                    return Err("a link larger than the quota".into());
                }
                self.steps.push(Step::Link {
                    path: parse(&path)?,
                    meta: meta(mode, mtime),
                    target,
                });
            }
            WireStep::File {
                path,
                mode,
                mtime,
                size,
                data,
            } => {
                self.bytes += data.len() as u64;
                if size > self.max_bytes || data.len() as u64 > size || self.bytes > self.max_bytes
                {
                    return Err("a file larger than announced or than the quota".into());
                }
                let mut buffer = Vec::with_capacity(size as usize);
                buffer.extend_from_slice(&data);
                self.pending = Some((parse(&path)?, meta(mode, mtime), size, buffer));
                self.complete_pending()?;
            }
            WireStep::More(_) => unreachable!("handled above"),
        }
        Ok(())
    }

    fn complete_pending(&mut self) -> Result<(), String> {
        if let Some((_, _, size, buffer)) = &self.pending
            && buffer.len() as u64 == *size
        {
            let (path, meta, _, buffer) = self.pending.take().expect("checked");
            self.steps.push(Step::File {
                path,
                meta,
                data: Bytes::from(buffer),
            });
        }
        Ok(())
    }

    /// The steps, once the batch is over.
    pub fn finish(self) -> Result<Vec<Step>, String> {
        if self.pending.is_some() {
            return Err("the batch ended inside a file".into());
        }
        Ok(self.steps)
    }
}

fn meta(mode: u32, mtime_ns: i64) -> Meta {
    Meta {
        mode: mode & 0o7777,
        mtime_ns,
    }
}

/// An edit as tree steps carry it (a folder's time is left to the tree).
pub(crate) fn edit_of(step: Step) -> Edit {
    match step {
        Step::Remove { path } => Edit::Remove { path },
        Step::Dir { path, meta } => Edit::Mkdir {
            path,
            mode: meta.mode,
        },
        Step::File { path, meta, data } => Edit::Write {
            path,
            data,
            mode: meta.mode,
        },
        Step::Meta { path, meta } => Edit::Chmod {
            path,
            mode: meta.mode,
        },
        Step::Link { path, target, .. } => Edit::Link { path, target },
    }
}

/// Tree steps for an edit (the parent's side).
pub(crate) fn step_of(edit: &Edit) -> Step {
    let meta = |mode| goccia_vfs::node::Meta { mode, mtime_ns: 0 };
    match edit {
        Edit::Remove { path } => Step::Remove { path: path.clone() },
        Edit::Mkdir { path, mode } => Step::Dir {
            path: path.clone(),
            meta: meta(*mode),
        },
        Edit::Write { path, data, mode } => Step::File {
            path: path.clone(),
            meta: meta(*mode),
            data: data.clone(),
        },
        Edit::Chmod { path, mode } => Step::Meta {
            path: path.clone(),
            meta: meta(*mode),
        },
        Edit::Link { path, target } => Step::Link {
            path: path.clone(),
            meta: meta(goccia_vfs::fs::LINK_MODE),
            target: target.clone(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn steps_cross_in_batches_and_come_back_whole() {
        let big = Bytes::from(vec![7u8; CHUNK * 2 + 5]);
        let meta = Meta {
            mode: 0o644,
            mtime_ns: 9,
        };
        let steps = vec![
            Step::Dir {
                path: p("/d"),
                meta,
            },
            Step::File {
                path: p("/d/big"),
                meta,
                data: big.clone(),
            },
            Step::File {
                path: p("/d/small"),
                meta,
                data: Bytes::from_static(b"s"),
            },
            Step::Remove { path: p("/gone") },
            Step::Meta {
                path: p("/d"),
                meta,
            },
        ];
        let mut frames = Vec::new();
        send_steps(&steps, |batch, last| {
            frames.push((batch, last));
            Ok(())
        })
        .unwrap();
        assert!(frames.len() >= 3 && frames.last().unwrap().1);
        let mut assembler = Assembler::new(u64::MAX, 100);
        for (batch, _) in frames {
            for step in batch {
                assembler.push(step).unwrap();
            }
        }
        assert_eq!(assembler.finish().unwrap(), steps);
    }

    #[test]
    fn lies_are_refused() {
        let file = |size, data: &[u8]| WireStep::File {
            path: "/f".into(),
            mode: 0o644,
            mtime: 0,
            size,
            data: data.to_vec(),
        };
        let mut a = Assembler::new(100, 10);
        assert!(a.push(WireStep::More(vec![1])).is_err());
        let mut a = Assembler::new(100, 10);
        assert!(a.push(file(1000, b"x")).is_err(), "over the quota");
        let mut a = Assembler::new(100, 10);
        a.push(file(4, b"ab")).unwrap();
        assert!(
            a.push(WireStep::More(b"cde".to_vec())).is_err(),
            "past its size"
        );
        let mut a = Assembler::new(100, 10);
        a.push(file(4, b"ab")).unwrap();
        assert!(a.finish().is_err(), "ended inside a file");
        let mut a = Assembler::new(100, 10);
        assert!(
            a.push(WireStep::Remove {
                path: "relative".into()
            })
            .is_err()
        );
        let mut a = Assembler::new(100, 1);
        a.push(WireStep::Remove { path: "/a".into() }).unwrap();
        assert!(a.push(WireStep::Remove { path: "/b".into() }).is_err());
    }
}
