//! Associative arrays that list their keys in bash's order.
//!
//! Scripts see the order of `${!map[@]}` and `${map[@]}`, and agents
//! compare output with bash's, so insertion order is not enough: bash
//! keeps an associative array in a chained hash table (1,024 buckets,
//! FNV-1 over the key's bytes as signed chars, growing fourfold once it
//! holds twice as many entries as buckets) and walks it bucket by bucket,
//! newest entry first within a bucket. This type models exactly that
//! walk, with a map for lookups beside it.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};

/// Bash's first table size for an associative array.
const FIRST_BUCKETS: u32 = 1024;
/// The table grows when it holds this many entries per bucket...
const GROW_AT_LOAD: usize = 2;
/// ...to this many times its buckets.
const GROW_BY: u32 = 4;

/// Where an entry sits in bash's walk: its bucket, then newest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Slot {
    bucket: u32,
    age: Reverse<u64>,
}

/// An associative array's keys and values, walked in bash's order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssocArray {
    entries: HashMap<String, (String, Slot)>,
    walk: BTreeMap<Slot, String>,
    buckets: u32,
    inserted: u64,
}

impl Default for AssocArray {
    fn default() -> Self {
        AssocArray {
            entries: HashMap::new(),
            walk: BTreeMap::new(),
            buckets: FIRST_BUCKETS,
            inserted: 0,
        }
    }
}

impl AssocArray {
    /// An empty array.
    pub fn new() -> Self {
        Self::default()
    }

    /// The value stored under `key`.
    pub fn get(&self, key: &str) -> Option<&String> {
        self.entries.get(key).map(|(value, _)| value)
    }

    /// Stores `value` under `key`; a key already present keeps its place.
    pub fn insert(&mut self, key: String, value: String) {
        if let Some((old, _)) = self.entries.get_mut(&key) {
            *old = value;
            return;
        }
        if self.entries.len() >= self.buckets as usize * GROW_AT_LOAD {
            self.grow();
        }
        let slot = self.next_slot(&key);
        self.walk.insert(slot, key.clone());
        self.entries.insert(key, (value, slot));
    }

    /// Removes `key`, returning its value.
    pub fn remove(&mut self, key: &str) -> Option<String> {
        let (value, slot) = self.entries.remove(key)?;
        self.walk.remove(&slot);
        Some(value)
    }

    /// How many keys the array holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the array holds no key.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Keys and values in bash's order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.walk.values().map(|key| (key, &self.entries[key].0))
    }

    /// Keys in bash's order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.walk.values()
    }

    /// Values in bash's order.
    pub fn values(&self) -> impl Iterator<Item = &String> {
        self.iter().map(|(_, value)| value)
    }

    fn next_slot(&mut self, key: &str) -> Slot {
        self.inserted += 1;
        Slot {
            bucket: bash_hash(key) & (self.buckets - 1),
            age: Reverse(self.inserted),
        }
    }

    /// Bash rehashes by walking the old table and pushing each entry on
    /// the front of its new bucket, so the walk is replayed as insertions.
    fn grow(&mut self) {
        let keys: Vec<String> = std::mem::take(&mut self.walk).into_values().collect();
        self.buckets *= GROW_BY;
        for key in keys {
            let slot = self.next_slot(&key);
            if let Some(entry) = self.entries.get_mut(&key) {
                entry.1 = slot;
            }
            self.walk.insert(slot, key);
        }
    }
}

impl FromIterator<(String, String)> for AssocArray {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(pairs: I) -> Self {
        let mut array = AssocArray::new();
        for (key, value) in pairs {
            array.insert(key, value);
        }
        array
    }
}

/// Bash's `hash_string`: FNV-1 (multiply, then xor), each byte taken as
/// a signed char as C on x86 does, so bytes from 0x80 sign-extend.
fn bash_hash(key: &str) -> u32 {
    const OFFSET: u32 = 2_166_136_261;
    const PRIME: u32 = 16_777_619;
    key.bytes().fold(OFFSET, |hash, byte| {
        hash.wrapping_mul(PRIME) ^ (byte as i8 as i32 as u32)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys_after(inserts: &[&str]) -> Vec<String> {
        let array: AssocArray = inserts
            .iter()
            .map(|k| (k.to_string(), String::new()))
            .collect();
        array.keys().cloned().collect()
    }

    // Orders below were read from bash 5.2's `echo ${!A[@]}`.
    #[test]
    fn walks_buckets_as_bash_does() {
        assert_eq!(keys_after(&["a", "b", "c", "d"]), ["d", "c", "b", "a"]);
        let words = [
            "x", "y", "foo", "bar", "baz", "qux", "hello", "world", "10", "2", "3",
        ];
        let expected = [
            "3", "2", "y", "hello", "x", "qux", "foo", "bar", "baz", "world", "10",
        ];
        assert_eq!(keys_after(&words), expected);
    }

    #[test]
    fn bytes_above_ascii_hash_as_signed_chars() {
        assert_eq!(
            keys_after(&["é", "ü", "日本", "a", "b", "ñx"]),
            ["日本", "ñx", "b", "a", "ü", "é"]
        );
    }

    #[test]
    fn a_replaced_key_keeps_its_place_and_a_removed_one_leaves() {
        let mut array = AssocArray::new();
        for key in ["a", "b", "c"] {
            array.insert(key.into(), "1".into());
        }
        array.insert("b".into(), "2".into());
        assert_eq!(array.get("b").map(String::as_str), Some("2"));
        assert_eq!(array.remove("c").as_deref(), Some("1"));
        assert_eq!(array.keys().collect::<Vec<_>>(), ["b", "a"]);
        assert_eq!(array.len(), 2);
    }

    #[test]
    fn growing_keeps_every_entry() {
        let keys: Vec<String> = (1..=3000).map(|i| format!("k{i}")).collect();
        let array: AssocArray = keys.iter().map(|k| (k.clone(), k.clone())).collect();
        assert_eq!(array.buckets, FIRST_BUCKETS * GROW_BY);
        assert_eq!(array.len(), 3000);
        assert!(keys.iter().all(|k| array.get(k) == Some(k)));
        // bash 5.2 lists these 3,000 keys starting so.
        let first: Vec<&String> = array.keys().take(4).collect();
        assert_eq!(first, BASH_FIRST_FOUR);
    }

    const BASH_FIRST_FOUR: [&str; 4] = ["k1698", "k1699", "k1696", "k1697"];
}
