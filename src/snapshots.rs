//! Snapshots of a sandbox (docs/vfs.md): `snapshot` names the tree and the
//! shell session's state as they are, `restore` puts both back, `fork`
//! makes new sandboxes from one, `snapshots` lists them with where each
//! came from; `reset` returns the tree to the baseline, and `rebaseline`
//! makes the current tree the baseline (what the host placed before a run
//! then stays out of the diff). The tree is shared, never copied; what
//! snapshots keep alive is bounded (a count and the fs quota).

use std::time::SystemTime;

use goccia_vfs::retained::retained_bytes;
use goccia_vfs::{Snapshot, Vfs};

use crate::error::{ForkError, SnapshotLimitError, UnknownSnapshot};
use crate::sandbox::Sandbox;
use crate::snapshot_store::Taken;
use crate::snapshot_store::{SnapshotId, SnapshotInfo};

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
        self.snapshot_labeled(None)
    }

    /// [`Sandbox::snapshot`] with a label [`Sandbox::snapshots`] shows. With
    /// a shell session open, the snapshot holds its state too: variables
    /// (exported or not, arrays, attributes), functions, aliases, options,
    /// traps and the directory stack (its top the working folder) —
    /// read in a subshell, so the session, `$?` included, does not change.
    pub fn snapshot_labeled(&self, label: Option<&str>) -> Result<SnapshotId, SnapshotLimitError> {
        let limits = &self.engine().limits;
        {
            let snapshots = self.snapshots.lock();
            if snapshots.len() as u64 >= limits.max_snapshots {
                return Err(SnapshotLimitError::Count {
                    limit: limits.max_snapshots,
                });
            }
        }
        // Read before the tree is taken: the read runs in the session and
        // never writes a file.
        let shell = self.shell_state_now();
        let tree = self.vfs.lock().snapshot();
        let baseline = self.baseline.lock().clone();
        let mut snapshots = self.snapshots.lock();
        if snapshots.len() as u64 >= limits.max_snapshots {
            return Err(SnapshotLimitError::Count {
                limit: limits.max_snapshots,
            });
        }
        let kept: Vec<Snapshot> = snapshots.iter().map(|taken| taken.tree.clone()).collect();
        let retained = retained_bytes(&kept, &tree, &baseline);
        let live = tree.usage().bytes;
        if retained.saturating_add(live) > limits.fs_quota_bytes {
            return Err(SnapshotLimitError::Quota {
                retained,
                live,
                quota: limits.fs_quota_bytes,
            });
        }
        let mut last = self.last_snapshot.lock();
        snapshots.push(Taken {
            tree,
            baseline,
            shell,
            label: label.map(str::to_string),
            parent: *last,
            taken_at: SystemTime::now(),
            opened_from: self.opened_from.lock().clone(),
            saved: None,
        });
        let id = SnapshotId(snapshots.len() - 1);
        *last = Some(id);
        Ok(id)
    }

    /// The script that puts the open shell session back as it is now
    /// (none without a session, or when its state cannot be read).
    fn shell_state_now(&self) -> Option<String> {
        // Not put back yet: the session is still what that state says.
        if let Some(pending) = self.pending_shell_state.lock().clone() {
            return Some(pending);
        }
        if self.shell.lock().is_none() {
            return None;
        }
        let run = self
            .run_shell(&crate::shell_state::capture_command())
            .ok()?;
        if run.failure.is_some() || run.output_truncated {
            return None;
        }
        crate::shell_state::restore_script(&run.stdout_text()).ok()
    }

    /// Puts the tree back exactly as it was at `id`, O(1), and the shell
    /// session as it was then when the snapshot holds its state (a
    /// snapshot taken before any shell call leaves the session as it is).
    /// The baseline does not change, so the diff is again what it was
    /// then.
    pub fn restore(&self, id: SnapshotId) -> Result<(), UnknownSnapshot> {
        let (tree, shell) = {
            let snapshots = self.snapshots.lock();
            let taken = snapshots.get(id.0).ok_or(UnknownSnapshot {
                index: id.0,
                taken: snapshots.len(),
            })?;
            (taken.tree.clone(), taken.shell.clone())
        };
        self.vfs.lock().restore(&tree);
        if let Some(script) = shell {
            // Put back before the next call that uses the session.
            *self.pending_shell_state.lock() = Some(script);
        }
        *self.last_snapshot.lock() = Some(id);
        Ok(())
    }

    /// Every snapshot, in the order taken.
    pub fn snapshots(&self) -> Vec<SnapshotInfo> {
        self.snapshots
            .lock()
            .iter()
            .enumerate()
            .map(|(index, taken)| SnapshotInfo {
                id: SnapshotId(index),
                parent: taken.parent,
                label: taken.label.clone(),
                taken_at: taken.taken_at,
                bytes: taken.tree.usage().bytes,
                has_shell_state: taken.shell.is_some(),
            })
            .collect()
    }

    /// `count` new sandboxes, each holding the tree (shared, not copied:
    /// what each then changes is its own) and the shell state of snapshot
    /// `id` — or of this sandbox as it is now, without one. Each has this
    /// sandbox's spec, limits, policy, network and host commands, and its
    /// baseline, so its diff says what changed since the seeds; like a
    /// child, it has no write-back of its own ([`Sandbox::merge`] brings
    /// its changes back). One call makes at most
    /// [`Limits::max_snapshots`](crate::Limits::max_snapshots) forks.
    pub fn fork(&self, id: Option<SnapshotId>, count: usize) -> Result<Vec<Sandbox>, ForkError> {
        let limit = self.engine().limits.max_snapshots;
        if count as u64 > limit {
            return Err(ForkError::Count {
                asked: count,
                limit,
            });
        }
        let (tree, shell, origin) = self.state_at(id)?;
        let baseline = self.baseline.lock().clone();
        let (quota, policy) = {
            let vfs = self.vfs.lock();
            (vfs.quota(), vfs.policy())
        };
        let mut forks = Vec::with_capacity(count);
        for _ in 0..count {
            let mut vfs = Vfs::new(quota);
            vfs.restore(&tree);
            // What the tree shares with this sandbox stays charged when a
            // fork removes it (as for a child).
            vfs.charge_what_others_hold();
            vfs.set_policy(policy.clone());
            let mut fork = Sandbox::new(vfs, Vec::new(), self.engine().clone());
            fork.set_isolation(self.isolation().clone(), true);
            fork.host = self.host.clone();
            fork.spec = self.spec.clone();
            *fork.baseline.lock() = baseline.clone();
            *fork.opened_from.lock() = origin.clone();
            // Put back by the fork's first call: a fork costs no session
            // until it is used.
            *fork.pending_shell_state.lock() = shell.clone();
            forks.push(fork);
        }
        Ok(forks)
    }

    /// Makes `target` hold this sandbox's state at snapshot `id` (or as it
    /// is now): the tree (shared, not copied), the baseline and the shell
    /// state, put back by its next call. `target` keeps its own settings
    /// — limits, policy, nesting — which is how a surface forks into a
    /// sandbox built with narrower ones (the server's forks,
    /// docs/server.md). What the tree shares with this sandbox stays
    /// charged to `target`'s quota when it removes it.
    pub fn fork_into(
        &self,
        id: Option<SnapshotId>,
        target: &Sandbox,
    ) -> Result<(), UnknownSnapshot> {
        let (tree, shell, origin) = self.state_at(id)?;
        let baseline = self.baseline.lock().clone();
        {
            let mut vfs = target.vfs.lock();
            vfs.restore(&tree);
            vfs.charge_what_others_hold();
        }
        *target.baseline.lock() = baseline;
        *target.pending_shell_state.lock() = shell;
        *target.opened_from.lock() = origin;
        Ok(())
    }

    /// The tree, shell state and saved origin of snapshot `id`, or of the
    /// sandbox as it is now. A fork's snapshots are numbered from 0 again:
    /// what links them to this sandbox's is the saved snapshot it came
    /// from, if any.
    fn state_at(
        &self,
        id: Option<SnapshotId>,
    ) -> Result<(Snapshot, Option<String>, Option<goccia_store::SavedId>), UnknownSnapshot> {
        Ok(match id {
            Some(id) => {
                let snapshots = self.snapshots.lock();
                let taken = snapshots.get(id.0).ok_or(UnknownSnapshot {
                    index: id.0,
                    taken: snapshots.len(),
                })?;
                let origin = taken.saved.clone().or_else(|| taken.opened_from.clone());
                (taken.tree.clone(), taken.shell.clone(), origin)
            }
            None => {
                let shell = self.shell_state_now();
                let origin = self.opened_from.lock().clone();
                (self.vfs.lock().snapshot(), shell, origin)
            }
        })
    }

    /// The tree snapshot `id` names.
    pub(crate) fn snapshot_tree(&self, id: SnapshotId) -> Result<Snapshot, UnknownSnapshot> {
        let snapshots = self.snapshots.lock();
        snapshots
            .get(id.0)
            .map(|taken| taken.tree.clone())
            .ok_or(UnknownSnapshot {
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
