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
    /// An array declared (`declare -a x`, `local -A y`) and not yet
    /// assigned: bash's `declare -p` shows it without `=()`. Any
    /// assignment clears it.
    pub unassigned: bool,
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

/// What a frame of variables is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// The shell's own variables (`[0]`).
    Global,
    /// A function call: its `local`s, and the bindings written before
    /// the call (`v=x f`), which stay *temporary* until `local` claims
    /// them.
    Function,
    /// The bindings before `eval`, `source`, `unset` or `mapfile`: a scope
    /// the commands they run see and may `local` into, gone when the
    /// builtin returns.
    Builtin,
    /// The bindings before any other command: seen by it, gone after it;
    /// a `local` it makes lands in the function's frame.
    Command,
}

/// One frame: its variables, and which of them are still temporary
/// bindings (`v=x cmd`) rather than variables of the frame's own.
#[derive(Clone, Debug)]
struct Frame {
    kind: FrameKind,
    vars: HashMap<String, Var>,
    temporary: imbl::HashSet<String>,
}

impl Frame {
    fn new(kind: FrameKind) -> Self {
        Frame {
            kind,
            vars: HashMap::new(),
            temporary: imbl::HashSet::new(),
        }
    }

    /// Whether `name` here is a binding made for one command: it is
    /// removed, not left unset, by `unset`, and `local` inherits it.
    fn is_temporary(&self, name: &str) -> bool {
        self.kind == FrameKind::Command || self.temporary.contains(name)
    }
}

/// The frames of variables: `[0]` is global; then function calls and the
/// temporary bindings of commands, innermost last. Temporary bindings
/// follow bash's model of its "temporary environment": a function's
/// become its frame (so `unset` of a caller's `local` inside it uncovers
/// the global), those of `eval` and `source` are a scope of their own.
#[derive(Debug)]
pub struct Scopes {
    frames: Vec<Frame>,
}

// Written out for `clone_from`, which keeps the list of frames (a session
// adopts and publishes its variables on every call).
impl Clone for Scopes {
    fn clone(&self) -> Self {
        Scopes {
            frames: self.frames.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.frames.clone_from(&source.frames);
    }
}

impl Default for Scopes {
    fn default() -> Self {
        Scopes {
            frames: vec![Frame::new(FrameKind::Global)],
        }
    }
}

impl Scopes {
    /// A function's frame.
    pub fn push_frame(&mut self) {
        self.frames.push(Frame::new(FrameKind::Function));
    }

    /// A frame for the temporary bindings of one command.
    pub fn push_temporary(&mut self, kind: FrameKind) {
        self.frames.push(Frame::new(kind));
    }

    /// The temporary frame on top becomes the frame of the function the
    /// command calls, its bindings still temporary.
    pub fn adopt_as_function_frame(&mut self) {
        let top = self.frames.len() - 1;
        if top > 0 {
            self.frames[top].kind = FrameKind::Function;
        }
    }

    pub fn pop_frame(&mut self) {
        if self.frames.len() > 1 {
            self.frames.pop();
        }
    }

    /// How many frames there are, for [`Scopes::truncate`].
    pub fn depth(&self) -> usize {
        self.frames.len()
    }

    /// Drops the frames above `depth` (never the global one).
    pub fn truncate(&mut self, depth: usize) {
        self.frames.truncate(depth.max(1));
    }

    /// Binds `name` in the temporary frame on top, starting from the
    /// value and attributes visible now (so `x+=y cmd` and `x=$x.y cmd`
    /// read the outer `x`), exported.
    pub fn bind_temporary(&mut self, name: &str) {
        let mut var = self.get_raw(name).cloned().unwrap_or(Var {
            value: None,
            attrs: Attrs::default(),
        });
        var.attrs.exported = true;
        let top = self.frames.len() - 1;
        self.frames[top].vars.insert(name.to_string(), var);
        self.frames[top].temporary.insert(name.to_string());
    }

    /// Takes the temporary binding of `name` out of the frame on top
    /// (`x=1 export x` keeps `x` after the command).
    pub fn take_temporary(&mut self, name: &str) -> Option<Var> {
        let top = self.frames.len() - 1;
        if top == 0 {
            return None;
        }
        self.frames[top].temporary.remove(name);
        self.frames[top].vars.remove(name)
    }

    /// The names bound in the frame on top.
    pub fn names_on_top(&self) -> Vec<String> {
        let top = self.frames.len() - 1;
        self.frames[top].vars.keys().cloned().collect()
    }

    /// The variable visible under `name` (no nameref resolution).
    pub fn get_raw(&self, name: &str) -> Option<&Var> {
        self.frames
            .iter()
            .rev()
            .find_map(|frame| frame.vars.get(name))
    }

    /// The global variable `name`, whatever shadows it.
    pub fn get_global(&self, name: &str) -> Option<&Var> {
        self.frames[0].vars.get(name)
    }

    /// The frame index holding `name`.
    fn frame_of(&self, name: &str) -> Option<usize> {
        (0..self.frames.len())
            .rev()
            .find(|&i| self.frames[i].vars.contains_key(name))
    }

    /// The innermost function's frame (0 outside any function).
    fn function_frame(&self) -> usize {
        (1..self.frames.len())
            .rev()
            .find(|&i| self.frames[i].kind == FrameKind::Function)
            .unwrap_or(0)
    }

    /// Mutable access to the visible variable, creating it globally if
    /// missing.
    pub fn entry(&mut self, name: &str) -> &mut Var {
        let frame = self.frame_of(name).unwrap_or(0);
        self.frames[frame]
            .vars
            .entry(name.to_string())
            .or_insert_with(|| Var {
                value: None,
                attrs: Attrs::default(),
            })
    }

    pub fn get_mut(&mut self, name: &str) -> Option<&mut Var> {
        let frame = self.frame_of(name)?;
        self.frames[frame].vars.get_mut(name)
    }

    /// Declares `name` local to the running function (`local`, `declare`
    /// in a function). A temporary binding in the function's frame, or
    /// in an `eval`'s above it, becomes the local in place; one made for
    /// this command alone (`x=4 local x`) or for a caller is inherited:
    /// the new local starts with its value, as in bash.
    pub fn declare_local(&mut self, name: &str) -> &mut Var {
        let function = self.function_frame();
        let holder = (function..self.frames.len())
            .rev()
            .find(|&i| self.frames[i].vars.contains_key(name));
        let frame = match holder {
            Some(i) if self.frames[i].kind != FrameKind::Command => {
                self.frames[i].temporary.remove(name);
                i
            }
            Some(i) => {
                let inherited = self.frames[i].vars.remove(name);
                self.frames[i].temporary.remove(name);
                if let Some(var) = inherited {
                    self.frames[function].vars.insert(name.to_string(), var);
                }
                function
            }
            None => {
                let inherited = self
                    .frame_of(name)
                    .filter(|&i| self.frames[i].is_temporary(name))
                    .and_then(|i| self.frames[i].vars.get(name).cloned());
                if let Some(var) = inherited {
                    self.frames[function].vars.insert(name.to_string(), var);
                }
                function
            }
        };
        self.frames[frame]
            .vars
            .entry(name.to_string())
            .or_insert_with(|| Var {
                value: None,
                attrs: Attrs::default(),
            })
    }

    /// Whether `name` is a variable of the running function's own (not a
    /// temporary binding).
    pub fn is_local(&self, name: &str) -> bool {
        let function = self.function_frame();
        function > 0
            && (function..self.frames.len()).any(|i| {
                self.frames[i].vars.contains_key(name) && !self.frames[i].is_temporary(name)
            })
    }

    /// Removes the visible variable; returns false when it is read-only.
    pub fn unset(&mut self, name: &str) -> bool {
        let Some(frame) = self.frame_of(name) else {
            return true;
        };
        if self.frames[frame]
            .vars
            .get(name)
            .is_some_and(|v| v.attrs.readonly)
        {
            return false;
        }
        let own_local =
            frame > 0 && frame >= self.function_frame() && !self.frames[frame].is_temporary(name);
        if own_local {
            // Unsetting a local of the running function leaves it
            // declared but unset in that frame, hiding outer ones.
            self.frames[frame].vars.insert(
                name.to_string(),
                Var {
                    value: None,
                    attrs: Attrs::default(),
                },
            );
        } else {
            // A temporary binding, or a caller's local: removing it
            // uncovers what it hid (bash's "dynamic unset").
            self.frames[frame].vars.remove(name);
            self.frames[frame].temporary.remove(name);
        }
        true
    }

    /// Every visible variable, by name.
    pub fn visible(&self) -> BTreeMap<String, Var> {
        let mut out = BTreeMap::new();
        for frame in &self.frames {
            for (name, var) in frame.vars.iter() {
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

    fn value(scopes: &Scopes, name: &str) -> Option<String> {
        scopes
            .get_raw(name)
            .and_then(|var| var.value.as_ref())
            .and_then(|value| value.scalar().map(str::to_string))
    }

    #[test]
    fn temporary_bindings_are_removed_by_unset_and_claimed_by_local() {
        let mut scopes = Scopes::default();
        *scopes.entry("v") = Var::scalar("global");
        // `v=temp f`: the binding becomes the function's frame.
        scopes.push_temporary(FrameKind::Command);
        scopes.bind_temporary("v");
        *scopes.entry("v") = Var::scalar("temp");
        scopes.adopt_as_function_frame();
        assert!(!scopes.is_local("v"), "a binding is not yet a local");
        assert!(scopes.unset("v"));
        assert_eq!(value(&scopes, "v").as_deref(), Some("global"));
        // A `local` claims the binding: unset then leaves it unset here.
        scopes.bind_temporary("v");
        scopes.declare_local("v");
        assert!(scopes.is_local("v"));
        assert_eq!(value(&scopes, "v").as_deref(), Some("global"));
        assert!(scopes.unset("v"));
        assert_eq!(value(&scopes, "v"), None);
        assert!(scopes.get_raw("v").is_some(), "declared, without a value");
        scopes.pop_frame();
        assert_eq!(value(&scopes, "v").as_deref(), Some("global"));
    }

    #[test]
    fn a_local_of_a_command_binding_lands_in_the_function_frame() {
        let mut scopes = Scopes::default();
        scopes.push_frame();
        let depth = scopes.depth();
        // `x=4 local x`: the local keeps the binding's value after it.
        scopes.push_temporary(FrameKind::Command);
        scopes.bind_temporary("x");
        *scopes.entry("x") = Var::scalar("4");
        scopes.declare_local("x");
        scopes.truncate(depth);
        assert_eq!(value(&scopes, "x").as_deref(), Some("4"));
        scopes.pop_frame();
        assert!(scopes.get_raw("x").is_none());
    }
}
