//! GOCCIA PATCH: values of any depth without overflowing the stack.
//!
//! A filter can nest values as deep as memory allows
//! (`reduce range(1e6) as $x (null; [.])`), and every recursive walk over
//! such a value (drop, comparison, hashing, printing) would overflow the
//! native stack and abort the process. Arrays and objects therefore live
//! in [`Array`] and [`Object`], whose `Drop` takes nested containers apart
//! with a work list instead of recursion, and the other recursive walks run
//! through [`deep`], which unwinds with [`TooDeep`] when the stack runs
//! low: the embedder catches it and reports an error, and the walk's stack
//! stays within the thread's (whose size the embedder chose and can
//! account for). Parsing is bounded instead ([`MAX_PARSE_DEPTH`]), as in
//! jq, since its depth costs the guest one byte per level.

use alloc::vec::Vec;
use core::ops::{Deref, DerefMut};

use crate::{Map, Rc, Val};

/// Deepest nesting `fromjson` and the input parser accept (jq's limit).
pub const MAX_PARSE_DEPTH: usize = 10_000;

/// The payload [`deep`] unwinds with when a walk over a value runs out of
/// stack; catch it with `std::panic::catch_unwind` around the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep;

/// Runs `f` (one level of a recursive walk over a value), or unwinds with
/// [`TooDeep`] when less than a safe margin of this thread's stack is left.
/// `resume_unwind` skips the panic hook: nothing is printed.
#[cfg(feature = "std")]
#[inline]
pub fn deep<R>(f: impl FnOnce() -> R) -> R {
    /// Stack a walk must have left before it goes one level deeper.
    const RED_ZONE: usize = 128 << 10;
    if stacker::remaining_stack().is_some_and(|left| left < RED_ZONE) {
        std::panic::resume_unwind(alloc::boxed::Box::new(TooDeep));
    }
    f()
}

/// Without `std` there is no stack probing: plain recursion.
#[cfg(not(feature = "std"))]
#[inline]
pub fn deep<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// The items of an array value.
#[derive(Clone, Debug, Default)]
pub struct Array(pub(crate) Vec<Val>);

/// The entries of an object value.
#[derive(Clone, Debug, Default)]
pub struct Object(pub(crate) Map<Val, Val>);

impl Array {
    /// The items, leaving this array empty.
    pub fn take(&mut self) -> Vec<Val> {
        core::mem::take(&mut self.0)
    }
}

impl Object {
    /// The entries, leaving this object empty.
    pub fn take(&mut self) -> Map<Val, Val> {
        core::mem::take(&mut self.0)
    }
}

impl Deref for Array {
    type Target = Vec<Val>;
    fn deref(&self) -> &Vec<Val> {
        &self.0
    }
}

impl DerefMut for Array {
    fn deref_mut(&mut self) -> &mut Vec<Val> {
        &mut self.0
    }
}

impl Deref for Object {
    type Target = Map<Val, Val>;
    fn deref(&self) -> &Map<Val, Val> {
        &self.0
    }
}

impl DerefMut for Object {
    fn deref_mut(&mut self) -> &mut Map<Val, Val> {
        &mut self.0
    }
}

impl From<Vec<Val>> for Array {
    fn from(items: Vec<Val>) -> Self {
        Array(items)
    }
}

impl From<Map<Val, Val>> for Object {
    fn from(entries: Map<Val, Val>) -> Self {
        Object(entries)
    }
}

impl FromIterator<Val> for Array {
    fn from_iter<I: IntoIterator<Item = Val>>(iter: I) -> Self {
        Array(iter.into_iter().collect())
    }
}

impl IntoIterator for Array {
    type Item = Val;
    type IntoIter = alloc::vec::IntoIter<Val>;
    fn into_iter(mut self) -> Self::IntoIter {
        self.take().into_iter()
    }
}

impl IntoIterator for Object {
    type Item = (Val, Val);
    type IntoIter = indexmap::map::IntoIter<Val, Val>;
    fn into_iter(mut self) -> Self::IntoIter {
        self.take().into_iter()
    }
}

impl<'a> IntoIterator for &'a Array {
    type Item = &'a Val;
    type IntoIter = core::slice::Iter<'a, Val>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a> IntoIterator for &'a Object {
    type Item = (&'a Val, &'a Val);
    type IntoIter = indexmap::map::Iter<'a, Val, Val>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        if self.0.iter().any(is_container) {
            dismantle(self.take());
        }
    }
}

impl Drop for Object {
    fn drop(&mut self) {
        if self.0.values().any(is_container) || self.0.keys().any(is_container) {
            let entries = self.take();
            dismantle(entries.into_iter().flat_map(|(k, v)| [k, v]).collect());
        }
    }
}

fn is_container(value: &Val) -> bool {
    matches!(value, Val::Arr(_) | Val::Obj(_))
}

/// Drops `pending` and everything only it holds, one level at a time: a
/// container this is the last holder of gives up its children to the work
/// list before it is dropped (empty, so without recursion).
fn dismantle(mut pending: Vec<Val>) {
    while let Some(value) = pending.pop() {
        match value {
            Val::Arr(mut items) => {
                if let Some(items) = Rc::get_mut(&mut items) {
                    pending.append(&mut items.0);
                }
            }
            Val::Obj(mut entries) => {
                if let Some(entries) = Rc::get_mut(&mut entries) {
                    for (k, v) in entries.take() {
                        pending.push(k);
                        pending.push(v);
                    }
                }
            }
            _ => {}
        }
    }
}

impl Val {
    /// An array value holding `items`.
    pub fn array(items: Vec<Val>) -> Self {
        Val::Arr(Rc::new(Array(items)))
    }
}
