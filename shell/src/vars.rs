//! Shell variables: scalars, indexed and associative arrays, attributes,
//! and bash's dynamic scoping (`local` creates a variable in the current
//! function's frame; lookups search frames from the innermost out).
//!
//! Frames are persistent maps, so a subshell's copy costs O(frames).

use std::collections::BTreeMap;

use imbl::HashMap;

use crate::assoc::AssocArray;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Scalar(String),
    Indexed(BTreeMap<i64, String>),
    Assoc(AssocArray),
}

impl Value {
    /// The value as a scalar (`${name}` of an array is element 0).
    pub fn scalar(&self) -> Option<&str> {
        match self {
            Value::Scalar(text) => Some(text),
            Value::Indexed(map) => map.get(&0).map(String::as_str),
            Value::Assoc(map) => map.get("0").map(String::as_str),
        }
    }

    /// Every element, in index order.
    pub fn values(&self) -> Vec<String> {
        match self {
            Value::Scalar(text) => vec![text.clone()],
            Value::Indexed(map) => map.values().cloned().collect(),
            Value::Assoc(map) => map.values().cloned().collect(),
        }
    }

    pub fn keys(&self) -> Vec<String> {
        match self {
            Value::Scalar(_) => vec!["0".to_string()],
            Value::Indexed(map) => map.keys().map(i64::to_string).collect(),
            Value::Assoc(map) => map.keys().cloned().collect(),
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Value::Scalar(_) => 1,
            Value::Indexed(map) => map.len(),
            Value::Assoc(map) => map.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attrs {
    pub exported: bool,
    pub readonly: bool,
    pub integer: bool,
    pub lower: bool,
    pub upper: bool,
    pub nameref: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    /// `None`: declared (`local x`, `declare -a x`) but without a value.
    pub value: Option<Value>,
    pub attrs: Attrs,
}

impl Var {
    pub fn scalar(text: impl Into<String>) -> Self {
        Var {
            value: Some(Value::Scalar(text.into())),
            attrs: Attrs::default(),
        }
    }
}

/// The frames of variables: `[0]` is global, the last is the innermost
/// function call.
#[derive(Clone, Debug)]
pub struct Scopes {
    frames: Vec<HashMap<String, Var>>,
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes {
            frames: vec![HashMap::new()],
        }
    }
}

impl Scopes {
    pub fn push_frame(&mut self) {
        self.frames.push(HashMap::new());
    }

    pub fn pop_frame(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    /// The variable visible under `name` (no nameref resolution).
    pub fn get_raw(&self, name: &str) -> Option<&Var> {
        self.frames.iter().rev().find_map(|frame| frame.get(name))
    }

    /// The global variable `name`, whatever shadows it.
    pub fn get_global(&self, name: &str) -> Option<&Var> {
        self.frames[0].get(name)
    }

    /// The frame index holding `name`.
    fn frame_of(&self, name: &str) -> Option<usize> {
        (0..self.frames.len())
            .rev()
            .find(|&i| self.frames[i].contains_key(name))
    }

    /// Mutable access to the visible variable, creating it globally (or in
    /// `frame` when given) if missing.
    pub fn entry(&mut self, name: &str) -> &mut Var {
        let frame = self.frame_of(name).unwrap_or(0);
        self.frames[frame]
            .entry(name.to_string())
            .or_insert_with(|| Var {
                value: None,
                attrs: Attrs::default(),
            })
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Var> {
        let frame = self.frame_of(name)?;
        self.frames[frame].get_mut(name)
    }

    /// Declares `name` in the innermost frame (`local`, `declare` in a
    /// function).
    pub fn declare_local(&mut self, name: &str) -> &mut Var {
        let frame = self.frames.len() - 1;
        self.frames[frame]
            .entry(name.to_string())
            .or_insert_with(|| Var {
                value: None,
                attrs: Attrs::default(),
            })
    }

    pub fn is_local(&self, name: &str) -> bool {
        self.frames.len() > 1 && self.frames.last().is_some_and(|f| f.contains_key(name))
    }

    /// Removes the visible variable; returns false when it is read-only.
    pub fn unset(&mut self, name: &str) -> bool {
        match self.frame_of(name) {
            Some(frame) => {
                if self.frames[frame]
                    .get(name)
                    .is_some_and(|v| v.attrs.readonly)
                {
                    return false;
                }
                if frame > 0 && frame == self.frames.len() - 1 {
                    // Unsetting a local of the running function leaves it
                    // declared but unset in that frame, hiding outer ones;
                    // unsetting a caller's local removes it, uncovering
                    // what it hid (bash's "dynamic unset").
                    self.frames[frame].insert(
                        name.to_string(),
                        Var {
                            value: None,
                            attrs: Attrs::default(),
                        },
                    );
                } else {
                    self.frames[frame].remove(name);
                }
                true
            }
            None => true,
        }
    }

    /// Every visible variable, by name.
    pub fn visible(&self) -> BTreeMap<String, Var> {
        let mut out = BTreeMap::new();
        for frame in &self.frames {
            for (name, var) in frame.iter() {
                out.insert(name.clone(), var.clone());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locals_shadow_and_unwind() {
        let mut scopes = Scopes::default();
        *scopes.entry("x") = Var::scalar("global");
        scopes.push_frame();
        *scopes.declare_local("x") = Var::scalar("local");
        assert_eq!(
            scopes
                .get_raw("x")
                .unwrap()
                .value
                .as_ref()
                .unwrap()
                .scalar(),
            Some("local")
        );
        *scopes.entry("y") = Var::scalar("set in function");
        scopes.pop_frame();
        assert_eq!(
            scopes
                .get_raw("x")
                .unwrap()
                .value
                .as_ref()
                .unwrap()
                .scalar(),
            Some("global")
        );
        assert!(
            scopes.get_raw("y").is_some(),
            "assignments without local are global"
        );
    }
}
