//! The sandbox's tree materialized on the host for host commands: a
//! private folder (mode 0700) holding the VFS's files at their paths,
//! written once per session and then kept in step by replica deltas (only
//! what changed in the VFS since the last command is written). After a
//! command, what it changed under the writable paths is read back as
//! edits: a file whose inode, size, mode and times are what was written is
//! not read again.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use bytes::Bytes;
use goccia_vfs::node::Meta;
use goccia_vfs::replica::{Step, delta};
use goccia_vfs::{Node, Snapshot, VfsPath};

use crate::jail::RESERVED;
use crate::watch::{Touched, Watcher};

/// What the host knows of a file it wrote: if these still match, the
/// command did not touch it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    ino: u64,
    size: u64,
    mode: u32,
    mtime_ns: i64,
    ctime_ns: i64,
}

impl Stamp {
    fn of(meta: &fs::Metadata) -> Stamp {
        Stamp {
            ino: meta.ino(),
            size: meta.size(),
            mode: meta.mode() & 0o7777,
            mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
            ctime_ns: meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
        }
    }
}

/// One change a command made, to apply to the VFS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// A file created or whose content changed.
    Write {
        /// Where.
        path: VfsPath,
        /// The content.
        data: Bytes,
        /// Permission bits.
        mode: u32,
    },
    /// A folder created.
    Mkdir {
        /// Where.
        path: VfsPath,
        /// Permission bits.
        mode: u32,
    },
    /// A file or folder removed (or replaced by another type: a removal,
    /// then its new form).
    Remove {
        /// Where.
        path: VfsPath,
    },
    /// A symbolic link created (or whose target changed: a removal, then
    /// the link).
    Link {
        /// Where.
        path: VfsPath,
        /// What it points at.
        target: String,
    },
    /// Only the permission bits changed.
    Chmod {
        /// Where.
        path: VfsPath,
        /// The new bits.
        mode: u32,
    },
}

/// What reading back found besides the edits.
#[derive(Debug, Default)]
pub struct ReadBack {
    /// The edits, parents before children, removals of a tree's contents
    /// left to the removal of the tree.
    pub edits: Vec<Edit>,
    /// Entries left out: links and special files, with what they were.
    pub skipped: Vec<(VfsPath, &'static str)>,
    /// Bytes of content the edits bring.
    pub bytes: u64,
}

/// Every scratch folder this process holds, so they can go when it exits
/// (a destructor does not run on `exit` or a fatal signal).
static LIVE: parking_lot::Mutex<Vec<PathBuf>> = parking_lot::Mutex::new(Vec::new());

/// Removes every scratch folder this process still holds: for a process
/// about to exit (`exit` runs no destructor) or handling a termination
/// signal. Host commands of a sandbox still in use fail afterwards.
pub fn remove_all_scratch() {
    // Removed under the lock: a `Scratch` dropped on another thread at the
    // same time waits, or has finished (see its `Drop`).
    let mut live = LIVE.lock();
    for path in live.drain(..) {
        let _ = fs::remove_dir_all(path);
    }
}

/// A sandbox's materialized tree.
pub struct Scratch {
    dir: tempfile::TempDir,
    /// Who the sandbox's commands run as (and so own what is written).
    identity: crate::spawn::Identity,
    /// What the host folder holds, as a tree.
    mirror: Snapshot,
    stamps: HashMap<VfsPath, Stamp>,
    /// The kernel's word on what commands touch (none: always walk).
    watcher: Option<Watcher>,
    /// Commands between their sync and their read-back: with more than
    /// one, a sync's discarding of its own events could drop another's.
    in_flight: usize,
}

impl Scratch {
    /// An empty private folder under the host's temporary directory,
    /// owned by the identity the sandbox's commands run as.
    pub fn new(identity: crate::spawn::Identity) -> io::Result<Scratch> {
        let dir = tempfile::Builder::new()
            .prefix("goccia-host-commands-")
            .tempdir()?;
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o700))?;
        if let Some((uid, gid)) = identity.drop_to {
            std::os::unix::fs::lchown(dir.path(), Some(uid), Some(gid))?;
        }
        let mut watcher = Watcher::new();
        if let Some(watcher) = &mut watcher {
            watcher.add(dir.path(), &VfsPath::root());
        }
        LIVE.lock().push(dir.path().to_path_buf());
        Ok(Scratch {
            dir,
            identity,
            mirror: Snapshot::empty(),
            stamps: HashMap::new(),
            watcher,
            in_flight: 0,
        })
    }

    /// The folder's path on the host.
    pub fn root(&self) -> &Path {
        self.dir.path()
    }

    /// The host path of a sandbox path.
    pub fn host(&self, path: &VfsPath) -> PathBuf {
        let mut host = self.dir.path().to_path_buf();
        host.extend(path.components());
        host
    }

    /// Writes what changed in `tree` since the last call (everything, the
    /// first time); the number of files written.
    pub fn sync(&mut self, tree: &Snapshot) -> io::Result<usize> {
        let steps = delta(&self.mirror, tree);
        let mut written = 0;
        for step in &steps {
            if hidden(step.path()) {
                continue;
            }
            let host = self.host(step.path());
            match step {
                Step::Remove { path } => {
                    self.remove(&host)?;
                    self.stamps.retain(|stamped, _| !stamped.starts_with(path));
                }
                Step::Dir { path, meta } => {
                    fs::create_dir(&host)?;
                    self.own(&host)?;
                    set_meta(&host, *meta)?;
                    if let Some(watcher) = &mut self.watcher {
                        watcher.add(&host, path);
                    }
                }
                Step::File { path, meta, data } => {
                    if host.symlink_metadata().is_ok_and(|m| !m.is_file()) {
                        self.remove(&host)?;
                    }
                    fs::write(&host, data)?;
                    self.own(&host)?;
                    set_meta(&host, *meta)?;
                    self.stamps
                        .insert(path.clone(), Stamp::of(&fs::symlink_metadata(&host)?));
                    written += 1;
                }
                Step::Link { path, target, .. } => {
                    // A VFS link is a host link in the scratch tree: inside
                    // the jail the tree is bound at the VFS's own paths, so
                    // its target names what it names in the VFS. Never
                    // followed from outside.
                    self.remove(&host)?;
                    std::os::unix::fs::symlink(target, &host)?;
                    self.own(&host)?;
                    self.stamps.remove(path);
                }
                Step::Meta { path, meta } => {
                    if path.is_root() {
                        continue;
                    }
                    set_meta(&host, *meta)?;
                    if let Some(stamp) = self.stamps.get_mut(path) {
                        *stamp = Stamp::of(&fs::symlink_metadata(&host)?);
                    }
                }
            }
        }
        self.mirror = tree.clone();
        self.in_flight += 1;
        if let Some(watcher) = &mut self.watcher {
            let others = self.in_flight > 1;
            watcher.discard();
            if others {
                // Another command's events went with ours: walk.
                watcher.lose();
            }
        }
        Ok(written)
    }

    /// Forgets what the folder holds: the next [`Scratch::sync`] writes the
    /// whole tree again (after a read-back that was not taken).
    pub fn reset(&mut self) -> io::Result<()> {
        for entry in fs::read_dir(self.dir.path())? {
            self.remove(&entry?.path())?;
        }
        self.mirror = Snapshot::empty();
        self.stamps.clear();
        self.in_flight = 0;
        self.watcher = Watcher::new();
        if let Some(watcher) = &mut self.watcher {
            watcher.add(self.dir.path(), &VfsPath::root());
        }
        Ok(())
    }

    /// Who the sandbox's commands run as.
    pub fn identity(&self) -> crate::spawn::Identity {
        self.identity
    }

    fn own(&self, host: &Path) -> io::Result<()> {
        match self.identity.drop_to {
            Some((uid, gid)) => std::os::unix::fs::lchown(host, Some(uid), Some(gid)),
            None => Ok(()),
        }
    }

    fn remove(&self, host: &Path) -> io::Result<()> {
        match fs::symlink_metadata(host) {
            Ok(meta) if meta.is_dir() => fs::remove_dir_all(host),
            Ok(_) => fs::remove_file(host),
            Err(error) if error.kind() == io::ErrorKind::NotFound => Ok(()),
            Err(error) => Err(error),
        }
    }

    /// What a command changed under `roots`, compared with what was written
    /// before it; a file's content is read only when its stamp moved.
    /// Content beyond `max_bytes` in all is not read (the caller refuses
    /// the read-back as over the quota).
    pub fn read_back(&mut self, roots: &[VfsPath], max_bytes: u64) -> io::Result<ReadBack> {
        self.in_flight = self.in_flight.saturating_sub(1);
        let touched = match &mut self.watcher {
            Some(watcher) => watcher.drain(),
            None => Touched::Unknown,
        };
        let mut found = ReadBack::default();
        let under_roots = |path: &VfsPath| roots.iter().any(|root| path.starts_with(root));
        match touched {
            Touched::Unknown => {
                for root in roots {
                    let before = self.mirror.lookup(root).ok();
                    self.compare(root, before.as_ref(), &mut found, max_bytes, true)?;
                }
            }
            Touched::Paths { entries, folders } => {
                let mut covered: Vec<VfsPath> = Vec::new();
                let mut paths: Vec<(VfsPath, bool)> = entries
                    .into_iter()
                    .map(|path| (path, true))
                    .chain(folders.into_iter().map(|path| (path, false)))
                    .filter(|(path, _)| under_roots(path))
                    .collect();
                paths.sort();
                paths.dedup_by(|a, b| a.0 == b.0);
                for (path, _) in paths {
                    if covered
                        .iter()
                        .any(|done| path.starts_with(done) && path != *done)
                    {
                        continue;
                    }
                    let before = self.mirror.lookup(&path).ok();
                    let edits_before = found.edits.len();
                    self.compare(&path, before.as_ref(), &mut found, max_bytes, false)?;
                    // A folder created or removed was read whole.
                    if found.edits[edits_before..].iter().any(|edit| {
                        matches!(edit, Edit::Mkdir { path: p, .. } | Edit::Remove { path: p } if *p == path)
                    }) {
                        covered.push(path.clone());
                    }
                }
            }
        }
        Ok(found)
    }

    /// Compares `path` on the host with `before`; an existing folder's
    /// entries are compared too only when `deep` (a walk), a new folder's
    /// always.
    fn compare(
        &self,
        path: &VfsPath,
        before: Option<&Node>,
        found: &mut ReadBack,
        max_bytes: u64,
        deep: bool,
    ) -> io::Result<()> {
        let host = self.host(path);
        let meta = match fs::symlink_metadata(&host) {
            Ok(meta) => Some(meta),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(error),
        };
        let Some(meta) = meta else {
            if before.is_some() {
                found.edits.push(Edit::Remove { path: path.clone() });
            }
            return Ok(());
        };
        let mode = meta.mode() & 0o7777;
        let kind = meta.file_type();
        if kind.is_symlink() {
            // A link comes back as a VFS link holding the same text.
            let target = fs::read_link(&host)?;
            let Some(target) = target.to_str().map(str::to_string) else {
                found
                    .skipped
                    .push((path.clone(), "a symbolic link to a name that is not UTF-8"));
                if before.is_some() {
                    found.edits.push(Edit::Remove { path: path.clone() });
                }
                return Ok(());
            };
            if let Some(Node::Link(link)) = before
                && link.target() == target
            {
                return Ok(());
            }
            if before.is_some() {
                found.edits.push(Edit::Remove { path: path.clone() });
            }
            found.bytes = found.bytes.saturating_add(target.len() as u64);
            found.edits.push(Edit::Link {
                path: path.clone(),
                target,
            });
            return Ok(());
        }
        if !(kind.is_file() || kind.is_dir()) {
            found.skipped.push((path.clone(), "a special file"));
            if before.is_some() {
                found.edits.push(Edit::Remove { path: path.clone() });
            }
            return Ok(());
        }
        match (before, kind.is_dir()) {
            (Some(Node::File(file)), false) => {
                if self.stamps.get(path) == Some(&Stamp::of(&meta)) {
                    return Ok(());
                }
                let data = read_capped(&host, found, max_bytes)?;
                if data != *file.data() {
                    found.edits.push(Edit::Write {
                        path: path.clone(),
                        data,
                        mode,
                    });
                } else if mode != file.meta().mode {
                    found.edits.push(Edit::Chmod {
                        path: path.clone(),
                        mode,
                    });
                }
            }
            (Some(Node::Dir(dir)), true) => {
                if mode != dir.meta().mode {
                    found.edits.push(Edit::Chmod {
                        path: path.clone(),
                        mode,
                    });
                }
                if !deep {
                    return Ok(());
                }
                let mut names: Vec<String> = Vec::new();
                for entry in fs::read_dir(&host)? {
                    names.push(entry?.file_name().to_string_lossy().into_owned());
                }
                for (name, _) in dir.iter() {
                    if !names.iter().any(|n| n == name.as_ref()) {
                        names.push(name.to_string());
                    }
                }
                names.sort();
                for name in names {
                    let below = path.join(&name);
                    let before = dir.get(&name).cloned();
                    self.compare(&below, before.as_ref(), found, max_bytes, true)?;
                }
            }
            (before, is_dir) => {
                if before.is_some() {
                    found.edits.push(Edit::Remove { path: path.clone() });
                }
                if is_dir {
                    found.edits.push(Edit::Mkdir {
                        path: path.clone(),
                        mode,
                    });
                    let mut names: Vec<String> = Vec::new();
                    for entry in fs::read_dir(&host)? {
                        names.push(entry?.file_name().to_string_lossy().into_owned());
                    }
                    names.sort();
                    for name in names {
                        self.compare(&path.join(&name), None, found, max_bytes, true)?;
                    }
                } else {
                    let data = read_capped(&host, found, max_bytes)?;
                    found.edits.push(Edit::Write {
                        path: path.clone(),
                        data,
                        mode,
                    });
                }
            }
        }
        Ok(())
    }

    /// After the edits were taken into the VFS, which now holds `tree`: the
    /// files they wrote are stamped anew, so the next read-back skips them.
    pub fn taken(&mut self, edits: &[Edit], tree: &Snapshot) -> io::Result<()> {
        for edit in edits {
            match edit {
                Edit::Write { path, .. } | Edit::Chmod { path, .. } => {
                    if let Ok(meta) = fs::symlink_metadata(self.host(path))
                        && meta.is_file()
                    {
                        self.stamps.insert(path.clone(), Stamp::of(&meta));
                    }
                }
                Edit::Remove { path } => self.stamps.retain(|p, _| !p.starts_with(path)),
                Edit::Link { path, .. } => {
                    self.stamps.remove(path);
                }
                Edit::Mkdir { path, .. } => {
                    let host = self.host(path);
                    if let Some(watcher) = &mut self.watcher {
                        watcher.add(&host, path);
                    }
                }
            }
        }
        // The host folder holds what the tree holds, up to times: the next
        // sync sends only what changes after this.
        self.mirror = tree.clone();
        Ok(())
    }
}

/// Sandbox paths the scratch tree leaves out (a jail shows its own there).
fn hidden(path: &VfsPath) -> bool {
    path.components()
        .next()
        .is_some_and(|top| RESERVED.contains(&top))
}

fn read_capped(host: &Path, found: &mut ReadBack, max_bytes: u64) -> io::Result<Bytes> {
    let size = fs::symlink_metadata(host)?.len();
    found.bytes = found.bytes.saturating_add(size);
    if found.bytes > max_bytes {
        return Err(io::Error::new(io::ErrorKind::StorageFull, "over the quota"));
    }
    Ok(Bytes::from(fs::read(host)?))
}

fn set_meta(host: &Path, meta: Meta) -> io::Result<()> {
    fs::set_permissions(host, fs::Permissions::from_mode(meta.mode & 0o7777))?;
    let seconds = meta.mtime_ns.div_euclid(1_000_000_000);
    let nanos = meta.mtime_ns.rem_euclid(1_000_000_000);
    let time = libc::timespec {
        tv_sec: seconds as libc::time_t,
        tv_nsec: nanos as libc::c_long,
    };
    let times = [time, time];
    let path = std::ffi::CString::new(host.as_os_str().as_encoded_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "a NUL in a path"))?;
    // SAFETY: a valid C path and two timespecs.
    let result = unsafe { libc::utimensat(libc::AT_FDCWD, path.as_ptr(), times.as_ptr(), 0) };
    if result != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

impl Drop for Scratch {
    /// The folder is removed with the list locked, and leaves the list only
    /// once gone. A session's state (and so its scratch tree) may be dropped
    /// on the session's own thread while the main thread exits: had the
    /// entry left first, `remove_all_scratch` would find nothing to wait
    /// for and `exit` would cut the removal short, leaving the folder. The
    /// `TempDir`'s own removal after this finds nothing.
    fn drop(&mut self) {
        let mut live = LIVE.lock();
        let path = self.dir.path();
        let _ = fs::remove_dir_all(path);
        live.retain(|listed| listed != path);
    }
}

/// Bounds what a command writes while it runs (docs/security.md): the
/// bytes of file content under the writable paths of a scratch tree,
/// measured by a walk between the guard's checks, against what the tree
/// held there when the command started plus what the fs quota has left.
/// Each walk is spaced by ten times its own cost (at least 50 ms), so a
/// large tree costs at most a tenth of a core; `RLIMIT_FSIZE` bounds any
/// one file between walks.
pub struct QuotaGuard {
    paths: Vec<PathBuf>,
    limit: u64,
    next: std::time::Instant,
}

impl QuotaGuard {
    /// A guard over `writable` (sandbox paths) of `scratch`, for a command
    /// that starts from `tree` with `room` bytes of quota left.
    pub fn new(scratch: &Scratch, writable: &[VfsPath], tree: &Snapshot, room: u64) -> Self {
        let outermost: Vec<&VfsPath> = writable
            .iter()
            .filter(|path| {
                !writable
                    .iter()
                    .any(|other| other != *path && path.starts_with(other))
            })
            .collect();
        let before: u64 = outermost
            .iter()
            .map(|path| match tree.lookup(path) {
                Ok(Node::Dir(dir)) => dir.usage().bytes,
                Ok(Node::File(file)) => file.len(),
                _ => 0,
            })
            .sum();
        QuotaGuard {
            paths: outermost.iter().map(|path| scratch.host(path)).collect(),
            limit: before.saturating_add(room),
            next: std::time::Instant::now(),
        }
    }

    /// Whether the writable paths now hold more than the quota allows
    /// (`false` between walks).
    pub fn over(&mut self) -> bool {
        let started = std::time::Instant::now();
        if started < self.next {
            return false;
        }
        let mut total = 0u64;
        let mut over = false;
        for path in &self.paths {
            if !bytes_below(path, &mut total, self.limit) {
                over = true;
                break;
            }
        }
        let cost = started.elapsed();
        self.next =
            std::time::Instant::now() + (cost * 10).max(std::time::Duration::from_millis(50));
        over
    }
}

/// Adds the sizes of the regular files at and below `path` to `total`
/// (never following links); `false` as soon as `total` passes `limit`.
fn bytes_below(path: &Path, total: &mut u64, limit: u64) -> bool {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return true;
    };
    if meta.is_file() {
        *total = total.saturating_add(meta.len());
        return *total <= limit;
    }
    if !meta.is_dir() {
        return true;
    }
    let Ok(entries) = fs::read_dir(path) else {
        return true;
    };
    for entry in entries.flatten() {
        if !bytes_below(&entry.path(), total, limit) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use goccia_vfs::{Quota, Vfs};

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    /// What exit relies on: a folder that has left the list is gone. A
    /// tree that takes a while to remove is dropped on another thread; the
    /// moment its entry leaves the list, the folder must not exist (before
    /// the fix the entry left first and the removal came after).
    #[test]
    fn a_scratch_dropped_on_another_thread_leaves_the_list_only_once_removed() {
        let scratch = Scratch::new(crate::spawn::Identity { drop_to: None }).unwrap();
        let root = scratch.root().to_path_buf();
        for folder in 0..20 {
            let folder = root.join(format!("d{folder}"));
            fs::create_dir(&folder).unwrap();
            for file in 0..100 {
                fs::write(folder.join(format!("f{file}")), "x").unwrap();
            }
        }
        let dropping = std::thread::spawn(move || drop(scratch));
        loop {
            let listed = LIVE.lock().contains(&root);
            if !listed {
                assert!(!root.exists(), "left the list before it was removed");
                break;
            }
            std::thread::yield_now();
        }
        dropping.join().unwrap();
        assert!(!root.exists());
    }

    #[test]
    fn the_tree_is_written_then_kept_in_step_and_changes_come_back() {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        vfs.mkdir_all(&p("/work/src")).unwrap();
        vfs.write_file(&p("/work/src/a.txt"), "a").unwrap();
        vfs.write_file(&p("/work/gone.txt"), "g").unwrap();
        vfs.write_file(&p("/tmp/private"), "not materialized")
            .unwrap();
        let mut scratch = Scratch::new(crate::spawn::Identity { drop_to: None }).unwrap();
        assert_eq!(scratch.sync(&vfs.snapshot()).unwrap(), 2);
        assert_eq!(
            fs::read_to_string(scratch.root().join("work/src/a.txt")).unwrap(),
            "a"
        );
        assert!(!scratch.root().join("tmp").exists());

        vfs.write_file(&p("/work/src/a.txt"), "changed").unwrap();
        assert_eq!(
            scratch.sync(&vfs.snapshot()).unwrap(),
            1,
            "only what changed"
        );

        // A program's edits on the host.
        let root = scratch.root().to_path_buf();
        fs::write(root.join("work/src/new.txt"), "new").unwrap();
        fs::remove_file(root.join("work/gone.txt")).unwrap();
        fs::create_dir(root.join("work/out")).unwrap();
        fs::write(root.join("work/out/o.txt"), "o").unwrap();
        std::os::unix::fs::symlink("a.txt", root.join("work/src/link")).unwrap();
        // The same edits from the kernel's events and from a walk.
        let mut walking = Scratch::new(crate::spawn::Identity { drop_to: None }).unwrap();
        walking.watcher = None;
        walking.sync(&vfs.snapshot()).unwrap();
        let walked_root = walking.root().to_path_buf();
        fs::write(walked_root.join("work/src/new.txt"), "new").unwrap();
        fs::remove_file(walked_root.join("work/gone.txt")).unwrap();
        fs::create_dir(walked_root.join("work/out")).unwrap();
        fs::write(walked_root.join("work/out/o.txt"), "o").unwrap();
        std::os::unix::fs::symlink("a.txt", walked_root.join("work/src/link")).unwrap();
        let walked = walking.read_back(&[p("/work")], u64::MAX).unwrap();
        let found = scratch.read_back(&[p("/work")], u64::MAX).unwrap();
        assert_eq!(found.edits, walked.edits);
        let summary: Vec<String> = found
            .edits
            .iter()
            .map(|edit| match edit {
                Edit::Write { path, .. } => format!("write {path}"),
                Edit::Mkdir { path, .. } => format!("mkdir {path}"),
                Edit::Remove { path } => format!("remove {path}"),
                Edit::Chmod { path, .. } => format!("chmod {path}"),
                Edit::Link { path, target } => format!("link {path} -> {target}"),
            })
            .collect();
        assert_eq!(
            summary,
            [
                "remove /work/gone.txt",
                "mkdir /work/out",
                "write /work/out/o.txt",
                "link /work/src/link -> a.txt",
                "write /work/src/new.txt"
            ]
        );
        assert!(found.skipped.is_empty());
        // A VFS link is a host link in the scratch tree, holding its text.
        vfs.symlink(&p("/work/to-src"), "/work/src").unwrap();
        scratch.sync(&vfs.snapshot()).unwrap();
        assert_eq!(
            fs::read_link(scratch.root().join("work/to-src")).unwrap(),
            std::path::Path::new("/work/src")
        );
        let mut over_scratch = Scratch::new(crate::spawn::Identity { drop_to: None }).unwrap();
        over_scratch.sync(&vfs.snapshot()).unwrap();
        fs::write(over_scratch.root().join("work/big"), "more than two").unwrap();
        let over = over_scratch.read_back(&[p("/work")], 2).unwrap_err();
        assert_eq!(over.kind(), io::ErrorKind::StorageFull);
    }
}
