//! A sandbox's trees in a form that can be stored and loaded into another
//! sandbox, in another process or on another machine (a server resuming a
//! session, docs/server.md): the baseline as a manifest that builds it, the
//! current tree as the manifest of changes from the baseline, and the
//! contents both name, by BLAKE3 hash. The diff after loading is the diff
//! before storing.

use goccia_vfs::fs::{Quota, Snapshot, Vfs};
use goccia_vfs::image::{Contents, Manifest};

use crate::error::{LoadImageError, UnknownSnapshot};
use crate::sandbox::Sandbox;
use crate::snapshot_store::SnapshotId;

/// What [`Sandbox::image`] takes of a sandbox.
#[derive(Clone, Debug)]
pub struct Image {
    /// Builds the baseline from nothing.
    pub baseline: Manifest,
    /// Turns the baseline into the current tree.
    pub changes: Manifest,
    /// Every content either manifest names, once.
    pub contents: Contents,
}

impl Sandbox {
    /// The baseline and the current tree as manifests, with their contents.
    /// O(tree) for the baseline (hashes are computed once per file and
    /// kept), O(changed) for the rest.
    pub fn image(&self) -> Image {
        let current = self.vfs.lock().snapshot();
        self.image_of(&current)
    }

    /// [`Sandbox::image`] with the tree as it was at snapshot `id`.
    pub fn image_at(&self, id: SnapshotId) -> Result<Image, UnknownSnapshot> {
        let tree = self.snapshot_tree(id)?;
        Ok(self.image_of(&tree))
    }

    fn image_of(&self, current: &Snapshot) -> Image {
        let baseline = self.baseline.lock().clone();
        let mut contents = Contents::new();
        Image {
            baseline: Manifest::of_tree(&baseline, &mut contents),
            changes: Manifest::of_changes(&baseline, current, &mut contents),
            contents,
        }
    }

    /// Replaces this sandbox's baseline and tree with those `baseline` and
    /// `changes` build, each content taken from `content` and checked
    /// against its hash; both trees must fit the sandbox's quota. All or
    /// nothing: on an error the sandbox is as it was. Snapshots taken
    /// before stay restorable.
    pub fn load_image(
        &self,
        baseline: &Manifest,
        changes: &Manifest,
        content: &dyn Fn(&str) -> Option<bytes::Bytes>,
    ) -> Result<(), LoadImageError> {
        let (base, current) = self.build_image(baseline, changes, content)?;
        let mut held = self.baseline.lock();
        self.vfs.lock().restore(&current);
        *held = base;
        Ok(())
    }

    /// Puts the tree an image describes in place and keeps this sandbox's
    /// baseline, as [`Sandbox::restore`] does for a snapshot of its own (a
    /// snapshot stored elsewhere coming back). All or nothing.
    pub fn restore_image(
        &self,
        baseline: &Manifest,
        changes: &Manifest,
        content: &dyn Fn(&str) -> Option<bytes::Bytes>,
    ) -> Result<(), LoadImageError> {
        let (_, current) = self.build_image(baseline, changes, content)?;
        self.vfs.lock().restore(&current);
        Ok(())
    }

    /// The baseline and the tree an image builds, within this sandbox's
    /// quota.
    fn build_image(
        &self,
        baseline: &Manifest,
        changes: &Manifest,
        content: &dyn Fn(&str) -> Option<bytes::Bytes>,
    ) -> Result<(Snapshot, Snapshot), LoadImageError> {
        let base_steps = baseline.steps(content)?;
        let change_steps = changes.steps(content)?;
        let quota: Quota = self.vfs.lock().quota();
        let mut building = Vfs::from_snapshot(&Snapshot::empty(), quota);
        building.replay(&base_steps).map_err(LoadImageError::Tree)?;
        let base = building.snapshot();
        building
            .replay(&change_steps)
            .map_err(LoadImageError::Tree)?;
        Ok((base, building.snapshot()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DiffFormat;

    #[test]
    fn a_loaded_image_has_the_same_files_and_diff() {
        let from = Sandbox::builder()
            .file("/work/a.txt", "one\n")
            .file("/work/keep.txt", "kept\n")
            .build()
            .unwrap();
        from.run_shell("echo two >> /work/a.txt; mkdir -p /work/new; echo n > /work/new/n.txt; rm /work/keep.txt; chmod 755 /work/new/n.txt")
            .unwrap();
        let image = from.image();
        let baseline = Manifest::from_json(&image.baseline.to_json()).unwrap();
        let changes = Manifest::from_json(&image.changes.to_json()).unwrap();

        let into = Sandbox::builder().file("/other", "x").build().unwrap();
        into.load_image(&baseline, &changes, &|hash| {
            image.contents.get(hash).cloned()
        })
        .unwrap();
        assert_eq!(
            into.diff(DiffFormat::Unified),
            from.diff(DiffFormat::Unified)
        );
        assert_eq!(into.diff(DiffFormat::Json), from.diff(DiffFormat::Json));
        assert_eq!(&into.read("/work/a.txt").unwrap()[..], b"one\ntwo\n");
        assert!(into.read("/other").is_err(), "the tree is replaced");
        let run = into.run_shell("stat -c %a /work/new/n.txt").unwrap();
        assert_eq!(run.stdout, b"755\n");
        into.reset();
        assert_eq!(&into.read("/work/keep.txt").unwrap()[..], b"kept\n");
    }

    #[test]
    fn an_image_over_the_quota_or_with_missing_content_changes_nothing() {
        let from = Sandbox::builder()
            .file("/big", vec![b'x'; 4096])
            .build()
            .unwrap();
        let image = from.image();
        let small = Sandbox::builder()
            .limits(crate::Limits {
                fs_quota_bytes: 1024,
                ..Default::default()
            })
            .file("/mine", "m")
            .build()
            .unwrap();
        let error = small
            .load_image(&image.baseline, &image.changes, &|hash| {
                image.contents.get(hash).cloned()
            })
            .unwrap_err();
        assert!(matches!(error, LoadImageError::Tree(_)), "{error}");
        let error = small
            .load_image(&image.baseline, &image.changes, &|_| None)
            .unwrap_err();
        assert!(error.to_string().contains("is missing"), "{error}");
        assert_eq!(&small.read("/mine").unwrap()[..], b"m");
    }
}
