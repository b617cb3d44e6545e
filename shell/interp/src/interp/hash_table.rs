//! The commands a shell remembers (`hash`): where each name was found on
//! `$PATH` and how often it ran from there. Kept apart from the search
//! (`path_search`) so the shell's state names no search code.

use goccia_vfs::VfsPath;

/// A program found for a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PathHit {
    /// The path as bash shows it: the `PATH` folder as written, `/`, the
    /// name (`_tmp/pwd` stays relative).
    pub shown: String,
    /// The VFS file to run; `None` for one of goccia's utilities.
    pub file: Option<VfsPath>,
}

/// The commands this shell remembers (`hash`), by name.
#[derive(Clone, Debug, Default)]
pub(crate) struct HashTable {
    /// The `PATH` the entries were found on: another one empties the table.
    path: String,
    entries: imbl::OrdMap<String, Hashed>,
}

/// A remembered command and how often it ran from the table.
#[derive(Clone, Debug)]
pub(crate) struct Hashed {
    pub hit: PathHit,
    pub hits: u32,
}

impl HashTable {
    /// Whether the entries were found on this `PATH`.
    pub(crate) fn is_for(&self, path: &str) -> bool {
        self.path == path
    }

    /// Empties the table for a new `PATH`.
    pub(crate) fn start_over(&mut self, path: String) {
        self.clear();
        self.path = path;
    }

    /// The remembered place of `name`, counting one run from it.
    pub(crate) fn count_run(&mut self, name: &str) -> Option<PathHit> {
        let entry = self.entries.get_mut(name)?;
        entry.hits += 1;
        Some(entry.hit.clone())
    }

    pub(crate) fn clear(&mut self) {
        self.entries = imbl::OrdMap::new();
    }

    pub(crate) fn remove(&mut self, name: &str) -> bool {
        self.entries.remove(name).is_some()
    }

    pub(crate) fn insert(&mut self, name: &str, hit: PathHit) {
        self.entries
            .insert(name.to_string(), Hashed { hit, hits: 0 });
    }

    pub(crate) fn entries(&self) -> impl Iterator<Item = (&String, &Hashed)> {
        self.entries.iter()
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Hashed> {
        self.entries.get(name)
    }
}
