//! Snapshots of a sandbox's tree (docs/vfs.md): `snapshot` names the tree
//! as it is, `restore` puts it back, `reset` returns to the baseline, and
//! `rebaseline` makes the current tree the baseline (what the host placed
//! before a run then stays out of the diff). The tree is shared, never
//! copied; what snapshots keep alive is bounded (a count and the fs
//! quota).

use goccia_vfs::Snapshot;
use goccia_vfs::retained::retained_bytes;

use crate::error::{SnapshotLimitError, UnknownSnapshot};
use crate::sandbox::Sandbox;

/// Names one snapshot of one sandbox (from [`Sandbox::snapshot`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SnapshotId(pub(crate) usize);

impl SnapshotId {
    /// The number the sandbox gave it (0, 1, 2, ... in order taken).
    pub fn index(self) -> usize {
        self.0
    }

    /// The id numbered `index`, as a surface that showed [`index`](Self::index)
    /// to a client gets it back. An id the sandbox never gave is refused by
    /// [`Sandbox::restore`] ([`UnknownSnapshot`]).
    pub fn from_index(index: usize) -> SnapshotId {
        SnapshotId(index)
    }
}

impl Sandbox {
    /// Remembers the tree as it is now; the id restores it. Taking one
    /// shares the tree (nothing is copied), but a sandbox may hold at most
    /// [`Limits::max_snapshots`](crate::Limits::max_snapshots), and what
    /// its snapshots keep that the tree and the baseline no longer hold
    /// counts against the fs quota: past either, nothing is taken. The
    /// check walks only what changed since the snapshots were taken.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// let sandbox = Sandbox::builder().file("/a", "1").build()?;
    /// let before = sandbox.snapshot()?;
    /// sandbox.run_shell("echo 2 > /a; touch /b")?;
    /// sandbox.restore(before)?;
    /// assert_eq!(&sandbox.read("/a")?[..], b"1");
    /// assert!(sandbox.read("/b").is_err());
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn snapshot(&self) -> Result<SnapshotId, SnapshotLimitError> {
        let limits = &self.engine().limits;
        let tree = self.vfs.lock().snapshot();
        let baseline = self.baseline.lock().clone();
        let mut snapshots = self.snapshots.lock();
        if snapshots.len() as u64 >= limits.max_snapshots {
            return Err(SnapshotLimitError::Count {
                limit: limits.max_snapshots,
            });
        }
        let retained = retained_bytes(&snapshots, &tree, &baseline);
        let live = tree.usage().bytes;
        if retained.saturating_add(live) > limits.fs_quota_bytes {
            return Err(SnapshotLimitError::Quota {
                retained,
                live,
                quota: limits.fs_quota_bytes,
            });
        }
        snapshots.push(tree);
        Ok(SnapshotId(snapshots.len() - 1))
    }

    /// Puts the tree back exactly as it was at `id`, O(1). The baseline
    /// does not change, so the diff is again what it was then.
    pub fn restore(&self, id: SnapshotId) -> Result<(), UnknownSnapshot> {
        let tree = self.snapshot_tree(id)?;
        self.vfs.lock().restore(&tree);
        Ok(())
    }

    /// The tree snapshot `id` names.
    pub(crate) fn snapshot_tree(&self, id: SnapshotId) -> Result<Snapshot, UnknownSnapshot> {
        let snapshots = self.snapshots.lock();
        snapshots.get(id.0).cloned().ok_or(UnknownSnapshot {
            index: id.0,
            taken: snapshots.len(),
        })
    }

    /// Puts the tree back to the baseline: no changes.
    pub fn reset(&self) {
        let baseline: Snapshot = self.baseline.lock().clone();
        self.vfs.lock().restore(&baseline);
    }

    /// Makes the tree as it is now the baseline: what the host wrote to
    /// prepare a run is not part of the diff, and is not written back.
    ///
    /// ```
    /// # use goccia::{DiffFormat, Sandbox};
    /// let sandbox = Sandbox::builder().build()?;
    /// sandbox.write("/task.js", "export default 1;")?;
    /// sandbox.rebaseline();
    /// assert!(sandbox.changes().is_empty());
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn rebaseline(&self) {
        let mut baseline = self.baseline.lock();
        *baseline = self.vfs.lock().snapshot();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restore_reset_and_rebaseline_move_only_what_they_say() {
        let sandbox = Sandbox::builder().file("/a", "1").build().unwrap();
        let seeded = sandbox.snapshot().unwrap();
        sandbox.write("/a", "2").unwrap();
        let edited = sandbox.snapshot().unwrap();
        assert_eq!(edited.index(), 1);
        sandbox.write("/b", "3").unwrap();
        sandbox.restore(edited).unwrap();
        assert_eq!(&sandbox.read("/a").unwrap()[..], b"2");
        assert!(sandbox.read("/b").is_err());
        assert_eq!(sandbox.changes().len(), 1, "the baseline did not move");
        sandbox.reset();
        assert!(sandbox.changes().is_empty());
        sandbox.restore(edited).unwrap();
        sandbox.rebaseline();
        assert!(sandbox.changes().is_empty());
        sandbox.restore(seeded).unwrap();
        assert_eq!(
            sandbox.changes().len(),
            1,
            "now a change against the new baseline"
        );
        let error = sandbox.restore(SnapshotId(7)).unwrap_err();
        assert_eq!(
            error.to_string(),
            "no snapshot 7 in this sandbox (it has taken 2)"
        );
    }

    #[test]
    fn snapshots_are_bounded_by_count_and_by_what_they_keep() {
        let sandbox = Sandbox::builder()
            .limits(
                crate::Limits::default()
                    .fs_quota_bytes(40_000)
                    .max_snapshots(3),
            )
            .build()
            .unwrap();
        sandbox.write("/big", vec![1u8; 30_000]).unwrap();
        sandbox.snapshot().unwrap();
        // Replaced: the snapshot keeps the old 30,000 bytes beside the new.
        sandbox.write("/big", vec![2u8; 30_000]).unwrap();
        let error = sandbox.snapshot().unwrap_err();
        assert_eq!(
            error,
            SnapshotLimitError::Quota {
                retained: 30_000,
                live: 30_000,
                quota: 40_000
            }
        );
        assert_eq!(error.limit(), crate::LimitKind::FsBytes);
        sandbox.write("/big", vec![3u8; 5_000]).unwrap();
        sandbox.snapshot().unwrap();
        sandbox.snapshot().unwrap();
        let error = sandbox.snapshot().unwrap_err();
        assert_eq!(
            error.to_string(),
            "snapshot limit of 3 reached: this sandbox holds 3 snapshots"
        );
    }

    #[test]
    fn a_childs_snapshots_are_its_own() {
        let parent = Sandbox::builder().file("/a", "1").build().unwrap();
        let child = parent.child(&[crate::ChildSeed::path("/a")]).unwrap();
        let id = parent.snapshot().unwrap();
        assert!(child.restore(id).is_err());
        child.write("/a", "2").unwrap();
        parent.restore(id).unwrap();
        assert_eq!(&child.read("/a").unwrap()[..], b"2");
    }
}
