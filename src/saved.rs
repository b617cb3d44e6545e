//! Durable snapshots (docs/snapshots.md): `save` writes one of a
//! sandbox's snapshots to a [`SnapshotStore`] — SQLite or PostgreSQL —
//! and `open`/`load_saved` bring it back in another process or on another
//! machine, files and shell session both.
//!
//! Only what the store lacks is written: the baseline's manifest is
//! computed once per baseline and kept, and a store that already holds it
//! holds every content it names, so saving after one change writes that
//! change, its manifest and the record.

use std::sync::Arc;
use std::time::UNIX_EPOCH;

use goccia_store::{ManifestBlob, NewSnapshot, SavedId, SnapshotStore};
use goccia_vfs::Snapshot;
use goccia_vfs::image::{Contents, Manifest};

use crate::error::{SavedSnapshotError, UnknownSnapshot};
use crate::sandbox::Sandbox;
use crate::snapshot_store::SnapshotId;

/// `Sandbox::load_image` or `Sandbox::restore_image`: how a saved
/// snapshot's trees are put in place.
type PutTrees = fn(
    &Sandbox,
    &Manifest,
    &Manifest,
    &dyn Fn(&str) -> Option<bytes::Bytes>,
) -> Result<(), crate::LoadImageError>;

impl Sandbox {
    /// Writes snapshot `id` — its tree, the baseline its diff compares
    /// against, and its shell state — to `store`, and returns the id that
    /// opens it. Saving the same snapshot again gives the same id and
    /// writes nothing.
    ///
    /// ```
    /// # use goccia::Sandbox;
    /// # let folder = tempfile::tempdir().unwrap();
    /// let store = goccia::store::open(folder.path().join("snapshots.db").to_str().unwrap())?;
    /// let sandbox = Sandbox::builder().file("/notes.txt", "draft\n").build()?;
    /// sandbox.run_shell("cd /tmp; TASK=review; echo done >> /notes.txt")?;
    /// let saved = sandbox.save(store.as_ref(), sandbox.snapshot()?)?;
    ///
    /// let reopened = Sandbox::open(store.as_ref(), &saved)?;
    /// assert_eq!(reopened.run_shell("pwd; echo $TASK")?.stdout_text(), "/tmp\nreview\n");
    /// assert_eq!(&reopened.read("/notes.txt")?[..], b"draft\ndone\n");
    /// assert_eq!(reopened.changes().len(), 1); // the diff is the one saved
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn save(
        &self,
        store: &dyn SnapshotStore,
        id: SnapshotId,
    ) -> Result<SavedId, SavedSnapshotError> {
        let (tree, baseline, shell, label, parent, taken_at) = {
            let snapshots = self.snapshots.lock();
            let taken = snapshots.get(id.0).ok_or(UnknownSnapshot {
                index: id.0,
                taken: snapshots.len(),
            })?;
            let parent = match taken.parent {
                Some(parent) => snapshots
                    .get(parent.0)
                    .and_then(|parent| parent.saved.clone()),
                None => taken.opened_from.clone(),
            };
            (
                taken.tree.clone(),
                taken.baseline.clone(),
                taken.shell.clone(),
                taken.label.clone(),
                parent,
                taken.taken_at,
            )
        };
        let _span = tracing::info_span!("goccia.store", db.operation.name = "save").entered();
        let baseline_blob = self.baseline_manifest(&baseline);
        let mut contents = Contents::new();
        let changes = Manifest::of_changes(&baseline, &tree, &mut contents);
        let new = NewSnapshot::new(
            (*baseline_blob).clone(),
            ManifestBlob::new(changes.to_json(), contents),
            shell,
            label,
            parent,
            taken_at
                .duration_since(UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_millis() as u64),
            tree.usage().bytes,
        );
        let saved = store.save(&new)?;
        if let Some(taken) = self.snapshots.lock().get_mut(id.0) {
            taken.saved = Some(saved.clone());
        }
        Ok(saved)
    }

    /// The baseline's manifest, computed once per baseline (O(tree)) and
    /// kept: saves after the first cost what changed.
    fn baseline_manifest(&self, baseline: &Snapshot) -> Arc<ManifestBlob> {
        let mut cached = self.baseline_manifest.lock();
        if let Some((tree, blob)) = cached.as_ref()
            && tree.same_tree(baseline)
        {
            return blob.clone();
        }
        let mut contents = Contents::new();
        let manifest = Manifest::of_tree(baseline, &mut contents);
        let blob = Arc::new(ManifestBlob::new(manifest.to_json(), contents));
        *cached = Some((baseline.clone(), blob.clone()));
        blob
    }

    /// A sandbox with the library's defaults holding saved snapshot `id`
    /// of `store` (see [`Sandbox::load_saved`]).
    pub fn open(store: &dyn SnapshotStore, id: &SavedId) -> Result<Sandbox, SavedSnapshotError> {
        let sandbox = Sandbox::builder().build()?;
        sandbox.load_saved(store, id)?;
        Ok(sandbox)
    }

    /// Replaces this sandbox's files and baseline with those of saved
    /// snapshot `id` (its diff is then the one saved) and its shell
    /// session with the one saved, put back before the next call. The
    /// sandbox's own settings (limits, policy, network) stay: the trees
    /// must fit its quota. All or nothing: on an error the sandbox is as
    /// it was. Every content is checked against its hash.
    pub fn load_saved(
        &self,
        store: &dyn SnapshotStore,
        id: &SavedId,
    ) -> Result<(), SavedSnapshotError> {
        let loaded = self.put_saved(store, id, Sandbox::load_image)?;
        // What a call opens next adopts this: a session already open is
        // left to be replaced by the state put back.
        *self.pending_shell_state.lock() = loaded.shell;
        *self.opened_from.lock() = Some(loaded.id);
        *self.last_snapshot.lock() = None;
        Ok(())
    }

    /// Puts the files and shell session of saved snapshot `id` back, as
    /// [`Sandbox::restore`] does for a snapshot of its own: the baseline
    /// stays, so the diff is against what it is now. All or nothing.
    pub fn restore_saved(
        &self,
        store: &dyn SnapshotStore,
        id: &SavedId,
    ) -> Result<(), SavedSnapshotError> {
        let loaded = self.put_saved(store, id, Sandbox::restore_image)?;
        if loaded.shell.is_some() {
            *self.pending_shell_state.lock() = loaded.shell;
        }
        *self.opened_from.lock() = Some(loaded.id);
        Ok(())
    }

    /// Reads saved snapshot `id` and puts its trees in place with `put`
    /// (`load_image` or `restore_image`).
    fn put_saved(
        &self,
        store: &dyn SnapshotStore,
        id: &SavedId,
        put: PutTrees,
    ) -> Result<goccia_store::Loaded, SavedSnapshotError> {
        let _span = tracing::info_span!("goccia.store", db.operation.name = "load").entered();
        let loaded = goccia_store::load(store, id)?;
        let content = |hash: &str| loaded.contents.get(hash).cloned();
        put(self, &loaded.baseline, &loaded.changes, &content).map_err(|source| {
            SavedSnapshotError::Load {
                id: id.to_string(),
                source,
            }
        })?;
        Ok(loaded)
    }

    /// Puts back the shell state a fork or an opened snapshot holds, once,
    /// before the first call that uses the session.
    pub(crate) fn replay_pending_shell_state(&self) {
        let pending = self.pending_shell_state.lock().take();
        if let Some(script) = pending {
            // Its output is the restore's own, not the guest's.
            let _ = self.run_shell(&script);
        }
    }
}
