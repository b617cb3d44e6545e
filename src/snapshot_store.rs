//! What a sandbox keeps of its snapshots, and their names (docs/vfs.md,
//! "Snapshots"): the types [`crate::snapshots`]' calls work on, apart
//! from the sandbox so that the sandbox can hold them.

use std::time::SystemTime;

use goccia_vfs::Snapshot;

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

/// One snapshot as a sandbox keeps it.
pub(crate) struct Taken {
    /// The tree.
    pub(crate) tree: Snapshot,
    /// The baseline when it was taken (what a saved copy's diff compares
    /// against).
    pub(crate) baseline: Snapshot,
    /// The script that puts the shell session back (none: no session was
    /// open, or its state could not be read).
    pub(crate) shell: Option<String>,
    /// What the caller called it.
    pub(crate) label: Option<String>,
    /// The snapshot the state came from (the last taken or restored).
    pub(crate) parent: Option<SnapshotId>,
    /// When it was taken.
    pub(crate) taken_at: SystemTime,
    /// The saved snapshot the sandbox was opened from, when it has no
    /// parent of its own (docs/snapshots.md).
    pub(crate) opened_from: Option<goccia_store::SavedId>,
    /// Its id in the store it was last saved to.
    pub(crate) saved: Option<goccia_store::SavedId>,
}

/// What [`Sandbox::snapshots`] says of one snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotInfo {
    /// Its id.
    pub id: SnapshotId,
    /// The snapshot the state came from: the last one taken or restored
    /// before it.
    pub parent: Option<SnapshotId>,
    /// Its label, if it was given one.
    pub label: Option<String>,
    /// When it was taken.
    pub taken_at: SystemTime,
    /// The bytes of file content its tree holds.
    pub bytes: u64,
    /// Whether it holds the shell session's state.
    pub has_shell_state: bool,
}
