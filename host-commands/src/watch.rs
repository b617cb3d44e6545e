//! What a command touched in the scratch tree, from the kernel: an
//! inotify watch on every folder of the tree, so that reading back after
//! a command looks only at the paths events name instead of walking the
//! whole tree. When the kernel lost events (its queue overflowed) or a
//! watch could not be added, the answer is "unknown" and the caller walks.

use std::collections::{BTreeSet, HashMap};
use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::path::Path;

use goccia_vfs::VfsPath;

/// Events that mean something under a folder changed.
const MASK: u32 = libc::IN_CREATE
    | libc::IN_DELETE
    | libc::IN_MODIFY
    | libc::IN_CLOSE_WRITE
    | libc::IN_ATTRIB
    | libc::IN_MOVED_FROM
    | libc::IN_MOVED_TO
    | libc::IN_DELETE_SELF
    | libc::IN_MOVE_SELF
    | libc::IN_ONLYDIR
    | libc::IN_DONT_FOLLOW;

/// The watches on one scratch tree.
pub struct Watcher {
    fd: OwnedFd,
    folders: HashMap<i32, VfsPath>,
    /// Events may have been missed since the last [`Watcher::drain`].
    lost: bool,
}

/// What changed since the last drain.
#[derive(Debug, PartialEq, Eq)]
pub enum Touched {
    /// These paths (an entry created, removed, written or changed), and
    /// these folders themselves (their own mode).
    Paths {
        /// Entries touched.
        entries: BTreeSet<VfsPath>,
        /// Folders whose own metadata changed.
        folders: BTreeSet<VfsPath>,
    },
    /// Not known: read back by walking.
    Unknown,
}

impl Watcher {
    /// A watcher with nothing watched (`None` when inotify is unavailable).
    pub fn new() -> Option<Watcher> {
        // SAFETY: inotify_init1 takes flags only.
        let fd = unsafe { libc::inotify_init1(libc::IN_NONBLOCK | libc::IN_CLOEXEC) };
        if fd < 0 {
            return None;
        }
        Some(Watcher {
            // SAFETY: a descriptor just returned to us.
            fd: unsafe { OwnedFd::from_raw_fd(fd) },
            folders: HashMap::new(),
            lost: false,
        })
    }

    /// Watches the folder at `host`, which is `path` in the sandbox.
    pub fn add(&mut self, host: &Path, path: &VfsPath) {
        let Ok(name) = CString::new(host.as_os_str().as_encoded_bytes()) else {
            self.lost = true;
            return;
        };
        // SAFETY: a valid descriptor and C path.
        let wd = unsafe { libc::inotify_add_watch(self.fd.as_raw_fd(), name.as_ptr(), MASK) };
        if wd < 0 {
            // Out of watches (fs.inotify.max_user_watches): walk instead.
            self.lost = true;
        } else {
            self.folders.insert(wd, path.clone());
        }
    }

    /// Says events were lost: the next drain is "unknown".
    pub fn lose(&mut self) {
        self.lost = true;
    }

    /// Forgets every event so far (the host's own writes while syncing).
    pub fn discard(&mut self) {
        let _ = self.drain();
        self.lost = false;
    }

    /// What changed since the last drain.
    pub fn drain(&mut self) -> Touched {
        let mut entries = BTreeSet::new();
        let mut folders = BTreeSet::new();
        let mut buffer = vec![0u8; 64 << 10];
        loop {
            // SAFETY: reading into a buffer we own.
            let n = unsafe {
                libc::read(
                    self.fd.as_raw_fd(),
                    buffer.as_mut_ptr().cast(),
                    buffer.len(),
                )
            };
            if n <= 0 {
                break;
            }
            let mut at = 0usize;
            let header = std::mem::size_of::<libc::inotify_event>();
            while at + header <= n as usize {
                // SAFETY: the kernel wrote whole events; read unaligned.
                let event: libc::inotify_event =
                    unsafe { std::ptr::read_unaligned(buffer[at..].as_ptr().cast()) };
                let name_bytes = &buffer[at + header..at + header + event.len as usize];
                let name_end = name_bytes
                    .iter()
                    .position(|b| *b == 0)
                    .unwrap_or(name_bytes.len());
                let name = String::from_utf8_lossy(&name_bytes[..name_end]).into_owned();
                at += header + event.len as usize;
                if event.mask & libc::IN_Q_OVERFLOW != 0 {
                    self.lost = true;
                    continue;
                }
                if event.mask & libc::IN_IGNORED != 0 {
                    self.folders.remove(&event.wd);
                    continue;
                }
                let Some(folder) = self.folders.get(&event.wd) else {
                    continue;
                };
                if name.is_empty() {
                    folders.insert(folder.clone());
                } else {
                    entries.insert(folder.join(&name));
                }
            }
        }
        if std::mem::take(&mut self.lost) {
            return Touched::Unknown;
        }
        Touched::Paths { entries, folders }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn writes_creations_and_removals_are_named() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("d")).unwrap();
        std::fs::write(dir.path().join("d/a"), "a").unwrap();
        std::fs::write(dir.path().join("d/gone"), "g").unwrap();
        let mut watcher = Watcher::new().unwrap();
        watcher.add(dir.path(), &VfsPath::root());
        watcher.add(&dir.path().join("d"), &p("/d"));
        std::fs::write(dir.path().join("d/a"), "changed").unwrap();
        std::fs::remove_file(dir.path().join("d/gone")).unwrap();
        std::fs::write(dir.path().join("new"), "n").unwrap();
        let Touched::Paths { entries, .. } = watcher.drain() else {
            panic!("events lost");
        };
        assert_eq!(
            entries,
            [p("/d/a"), p("/d/gone"), p("/new")].into_iter().collect()
        );
        assert_eq!(
            watcher.drain(),
            Touched::Paths {
                entries: BTreeSet::new(),
                folders: BTreeSet::new()
            }
        );
    }
}
