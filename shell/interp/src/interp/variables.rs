//! Reading and writing variables: special parameters, arrays, attributes
//! (`-i`, `-l`, `-u`, `-r`, `-x`, `-n`), and arithmetic's view of them.

use std::collections::BTreeMap;

use super::{Flow, Shell};
use crate::arith::{self, ArithEnv, ArithError, Index, Unbound};
use crate::assoc::AssocArray;
use crate::ast::Word;
use crate::vars::{Value, Var};

/// An array subscript, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Index(i64),
    Name(String),
}

impl Shell {
    /// Follows namerefs (`declare -n`) to the variable they name.
    pub(crate) fn resolve_name(&self, name: &str) -> String {
        let mut current = name.to_string();
        for _ in 0..16 {
            match self.vars.get_raw(&current) {
                Some(var) if var.attrs.nameref => {
                    match var.value.as_ref().and_then(Value::scalar) {
                        Some(target) if !target.is_empty() => current = target.to_string(),
                        _ => return current,
                    }
                }
                _ => return current,
            }
        }
        // A circle of references names nothing: reads are empty, writes
        // fail (bash's "circular name reference").
        String::new()
    }

    /// Special parameters and dynamic variables.
    fn special(&mut self, name: &str) -> Option<String> {
        Some(match name {
            "?" => self.status.to_string(),
            "#" => self.positional.len().to_string(),
            "$" => self.pid.to_string(),
            "!" => return self.last_bg.map(|p| p.to_string()),
            "0" => self.arg0.clone(),
            "-" => self.option_flags(),
            "RANDOM" => self.next_random().to_string(),
            "SECONDS" => self.started.elapsed().as_secs().to_string(),
            "LINENO" => self.trap_line.unwrap_or(self.line).to_string(),
            "_" => self.last_arg.clone(),
            "FUNCNAME" | "BASH_SOURCE" | "PIPESTATUS" => {
                return self.dynamic_array(name)?.scalar().map(str::to_string);
            }
            "BASHPID" => self.bashpid.to_string(),
            "SHELLOPTS" => self.options_on(false),
            "BASHOPTS" => self.options_on(true),
            "BASH_SUBSHELL" => self.subshell.to_string(),
            "EPOCHSECONDS" => now_epoch().0.to_string(),
            "EPOCHREALTIME" => {
                let (secs, micros) = now_epoch();
                format!("{secs}.{micros:06}")
            }
            _ => {
                if let Ok(n) = name.parse::<usize>() {
                    return self.positional.get(n.checked_sub(1)?).cloned();
                }
                return None;
            }
        })
    }

    pub(crate) fn option_flags(&self) -> String {
        // bash's order: its table of letters, then `c` for a shell that
        // runs a script or command line.
        let mut flags: String = "abefhikmnptuvxBCEHPT"
            .chars()
            .filter(|&letter| match letter {
                'i' => self.interactive,
                _ => super::options::by_letter(letter).is_some_and(|o| self.opts.get(o)),
            })
            .collect();
        if !self.interactive {
            flags.push('c');
        }
        flags
    }

    /// `$name` as a string (element 0 of an array), `None` when unset.
    pub fn get_var(&mut self, name: &str) -> Option<String> {
        if let Some(value) = self.special(name) {
            return Some(value);
        }
        if let Some(value) = self.dynamic_array(name) {
            return value.scalar().map(str::to_string);
        }
        let name = self.resolve_name(name);
        if let Some((base, index)) = split_subscript(&name) {
            let key = self.subscript_key(base, index).ok()?;
            return self.get_element(base, &key);
        }
        self.vars
            .get_raw(&name)?
            .value
            .as_ref()?
            .scalar()
            .map(str::to_string)
    }

    /// The arrays the shell maintains: `PIPESTATUS`, and `FUNCNAME` and
    /// `BASH_SOURCE` from the call stack (unset outside functions and
    /// scripts, as in bash).
    pub(crate) fn dynamic_array(&self, name: &str) -> Option<Value> {
        let items: Vec<String> = match name {
            // Unset until a first command has run.
            "PIPESTATUS" if self.pipestatus.is_empty() => return None,
            "PIPESTATUS" => self.pipestatus.iter().map(i32::to_string).collect(),
            "FUNCNAME" => {
                if self.func_stack.is_empty() {
                    return None;
                }
                let main = (!self.sources.is_empty()).then(|| "main".to_string());
                let names = self.func_stack.iter().rev().map(|call| call.name.clone());
                names.chain(main).collect()
            }
            // The line each function was called from; 0 for the script.
            "BASH_LINENO" => {
                let script = (!self.sources.is_empty()).then(|| "0".to_string());
                if self.func_stack.is_empty() && script.is_none() {
                    return None;
                }
                let lines = self
                    .func_stack
                    .iter()
                    .rev()
                    .map(|call| call.line.to_string());
                lines.chain(script).collect()
            }
            "BASH_SOURCE" => {
                let script = self.sources.last()?;
                let depth = self.func_stack.len() + 1;
                std::iter::repeat_n(script.clone(), depth).collect()
            }
            _ => return None,
        };
        Some(Value::Indexed(
            items
                .into_iter()
                .enumerate()
                .map(|(i, v)| (i as i64, v))
                .collect(),
        ))
    }

    /// The whole value of a variable.
    pub fn get_value(&self, name: &str) -> Option<Value> {
        if let Some(value) = self.dynamic_array(name) {
            return Some(value);
        }
        let name = self.resolve_name(name);
        self.vars.get_raw(&name)?.value.clone()
    }

    pub(crate) fn is_set(&mut self, name: &str) -> bool {
        self.get_var(name).is_some() || self.get_value(name).is_some_and(|v| !v.is_empty())
    }

    pub(crate) fn is_assoc(&self, name: &str) -> bool {
        let name = self.resolve_name(name);
        matches!(
            self.vars.get_raw(&name),
            Some(Var {
                value: Some(Value::Assoc(_)),
                ..
            })
        )
    }

    pub(crate) fn get_element(&self, name: &str, key: &Key) -> Option<String> {
        let dynamic = self.dynamic_array(name);
        let name = self.resolve_name(name);
        let value = match &dynamic {
            Some(value) => value,
            None => self.vars.get_raw(&name)?.value.as_ref()?,
        };
        match (value, key) {
            (Value::Indexed(map), Key::Index(i)) => {
                let index = if *i < 0 {
                    map.keys().next_back().map(|max| max + 1 + i)?
                } else {
                    *i
                };
                map.get(&index).cloned()
            }
            (Value::Assoc(map), Key::Name(k)) => map.get(k).cloned(),
            (Value::Assoc(map), Key::Index(i)) => map.get(&i.to_string()).cloned(),
            (Value::Scalar(text), Key::Index(0) | Key::Index(-1)) => Some(text.clone()),
            _ => None,
        }
    }

    /// A subscript given as text has its quotes and expansions applied
    /// when it is used (`'assoc["K"]'`, `'a[$i]'`), as bash does.
    fn expanded_subscript(&mut self, index: &str) -> String {
        if index.contains(['"', '\'', '$', '`', '\\']) {
            let expanded = crate::parse::subscript_word(index)
                .ok()
                .and_then(|word| self.expand_string(&word).ok());
            expanded.unwrap_or_else(|| index.to_string())
        } else {
            index.to_string()
        }
    }

    /// Resolves a subscript for `name`: a string key for associative
    /// arrays, an arithmetic index otherwise.
    pub(crate) fn subscript_key(&mut self, name: &str, index: &str) -> Result<Key, ArithError> {
        let index = self.expanded_subscript(index);
        if self.is_assoc(name) {
            Ok(Key::Name(index))
        } else {
            Ok(Key::Index(arith::eval(&index, self)?))
        }
    }

    /// Expands an index word, then resolves it.
    pub(crate) fn word_key(&mut self, name: &str, index: &Word) -> Result<Key, Flow> {
        let text = self.expand_string(index)?;
        if self.is_assoc(name) {
            return Ok(Key::Name(text));
        }
        match arith::eval(&text, self) {
            Ok(n) => Ok(Key::Index(n)),
            Err(error) => Err(self.arith_failure(&error)),
        }
    }

    /// Reports an arithmetic error; the command line is abandoned with
    /// status 1 (its reader goes on with the next line).
    pub(crate) fn arith_failure(&mut self, error: &ArithError) -> Flow {
        match error {
            ArithError::Unbound(name) => self.unbound(name),
            ArithError::Invalid { .. } => self.abandon_line(&error.to_string()),
        }
    }

    /// Applies `-i`, `-l`, `-u` to a value about to be stored.
    fn transform_for(&mut self, name: &str, value: String) -> Result<String, String> {
        let attrs = self.vars.get_raw(name).map(|v| v.attrs).unwrap_or_default();
        let mut value = value;
        if attrs.integer {
            value = arith::eval(&value, self)
                .map_err(|e| e.to_string())?
                .to_string();
        }
        if attrs.lower {
            value = crate::case::lower(&value);
        } else if attrs.upper {
            value = crate::case::upper(&value);
        }
        Ok(value)
    }

    fn check_writable(&self, name: &str) -> Result<(), String> {
        if self.vars.get_raw(name).is_some_and(|v| v.attrs.readonly) {
            return Err(format!("{name}: readonly variable"));
        }
        Ok(())
    }

    /// `name=value` (element 0 of an array).
    pub fn set_var(&mut self, name: &str, value: impl Into<String>) -> Result<(), String> {
        let resolved = self.resolve_name(name);
        if resolved.is_empty() && !name.is_empty() {
            return Err(format!("{name}: circular name reference"));
        }
        let name = resolved;
        if let Some((base, index)) = split_subscript(&name) {
            let key = self.subscript_key(base, index).map_err(|e| e.to_string())?;
            return self.set_element(base, key, value.into(), false);
        }
        self.check_writable(&name)?;
        if name == "PATH" {
            // Any assignment to PATH, even of the same value, empties the
            // command hash table, as in bash.
            self.hashed.clear();
        }
        let value = self.transform_for(&name, value.into())?;
        self.check_locale_assignment(&name, &value);
        let allexport = self.opts.allexport;
        let var = self.vars.entry(&name);
        var.attrs.unassigned = false;
        match &mut var.value {
            Some(Value::Indexed(map)) => {
                map.insert(0, value);
            }
            Some(Value::Assoc(map)) => {
                map.insert("0".to_string(), value);
            }
            slot => *slot = Some(Value::Scalar(value)),
        }
        if allexport {
            var.attrs.exported = true;
        }
        // The history's bounds act as they are set.
        match name.as_str() {
            "HISTSIZE" => self.apply_history_size(),
            "HISTFILESIZE" => self.cut_history_file(),
            _ => {}
        }
        Ok(())
    }

    /// `name+=value`
    pub fn append_var(&mut self, name: &str, value: &str) -> Result<(), String> {
        let name = self.resolve_name(name);
        let integer = self.vars.get_raw(&name).is_some_and(|v| v.attrs.integer);
        if integer {
            let current = self.get_var(&name).unwrap_or_default();
            let sum = format!(
                "({}) + ({})",
                if current.is_empty() { "0" } else { &current },
                value
            );
            return self.set_var(&name, sum);
        }
        if let Some(Value::Indexed(_)) | Some(Value::Assoc(_)) = self.get_value(&name) {
            let current = self.get_element(&name, &Key::Index(0)).unwrap_or_default();
            return self.set_element(&name, Key::Index(0), format!("{current}{value}"), false);
        }
        let current = self.get_var(&name).unwrap_or_default();
        self.set_var(&name, format!("{current}{value}"))
    }

    pub(crate) fn set_element(
        &mut self,
        name: &str,
        key: Key,
        value: String,
        append: bool,
    ) -> Result<(), String> {
        let name = self.resolve_name(name);
        self.check_writable(&name)?;
        let value = if append {
            let current = self.get_element(&name, &key).unwrap_or_default();
            format!("{current}{value}")
        } else {
            value
        };
        let value = self.transform_for(&name, value)?;
        let var = self.vars.entry(&name);
        var.attrs.unassigned = false;
        match (&mut var.value, key) {
            (Some(Value::Assoc(map)), key) => {
                let key = match key {
                    Key::Name(k) => k,
                    Key::Index(i) => i.to_string(),
                };
                map.insert(key, value);
            }
            (Some(Value::Indexed(map)), Key::Index(i)) => {
                let index = if i < 0 {
                    let max = map.keys().next_back().copied().unwrap_or(-1);
                    if max + 1 + i < 0 {
                        return Err(format!("{name}[{i}]: bad array subscript"));
                    }
                    max + 1 + i
                } else {
                    i
                };
                map.insert(index, value);
            }
            (slot @ (None | Some(Value::Scalar(_))), Key::Index(i)) => {
                let mut map = BTreeMap::new();
                if let Some(Value::Scalar(old)) = slot.take() {
                    map.insert(0, old);
                }
                if i < 0 {
                    return Err(format!("{name}[{i}]: bad array subscript"));
                }
                map.insert(i, value);
                *slot = Some(Value::Indexed(map));
            }
            (slot, Key::Name(k)) => {
                // A string key on a non-associative array is evaluated as
                // arithmetic by the caller; here it can only be a new
                // associative array.
                let mut map = AssocArray::new();
                map.insert(k, value);
                *slot = Some(Value::Assoc(map));
            }
        }
        Ok(())
    }

    /// `unset 'name[key]'`: unsets one element; a negative index counts from the end, and one
    /// that reaches before the start is an error (`a=(1); unset 'a[-2]'`).
    pub(crate) fn unset_element(&mut self, name: &str, key: &Key) -> Result<(), String> {
        let name = self.resolve_name(name);
        let Some(var) = self.vars.get_mut(&name) else {
            return Ok(());
        };
        match (&mut var.value, key) {
            (Some(Value::Indexed(map)), Key::Index(i)) => {
                let index = if *i < 0 {
                    map.keys().next_back().map_or(*i, |max| max + 1 + i)
                } else {
                    *i
                };
                if index < 0 {
                    return Err(format!("[{i}]: bad array subscript"));
                }
                map.remove(&index);
            }
            (Some(Value::Assoc(map)), Key::Name(k)) => {
                map.remove(k);
            }
            (Some(Value::Assoc(map)), Key::Index(i)) => {
                map.remove(&i.to_string());
            }
            (slot @ Some(Value::Scalar(_)), Key::Index(0)) => *slot = None,
            (Some(Value::Scalar(_)), Key::Index(i)) if *i < 0 => {
                return Err(format!("{name}: not an array variable"));
            }
            _ => {}
        }
        Ok(())
    }

    /// Replaces a whole array.
    pub fn set_array(&mut self, name: &str, value: Value) -> Result<(), String> {
        let name = self.resolve_name(name);
        self.check_writable(&name)?;
        let var = self.vars.entry(&name);
        var.value = Some(value);
        var.attrs.unassigned = false;
        Ok(())
    }

    /// The exported variables (`env`, nested shells). Arrays are never
    /// exported, as in bash (not even their first element).
    pub fn exported(&self) -> Vec<(String, String)> {
        self.vars
            .visible()
            .into_iter()
            .filter(|(_, var)| var.attrs.exported)
            .filter_map(|(name, var)| match var.value? {
                crate::vars::Value::Scalar(text) => Some((name, text)),
                _ => None,
            })
            .collect()
    }

    /// The time zone the exported `TZ` names, as a command started now
    /// would see it (a `TZ` not exported is not the environment's).
    pub(crate) fn time_zone(&self) -> crate::time::Zone {
        let tz = self
            .vars
            .get_raw("TZ")
            .filter(|var| var.attrs.exported)
            .and_then(|var| var.value.as_ref())
            .and_then(|value| value.scalar());
        crate::time::Zone::from_tz(tz)
    }
}

/// `a[1]` → `("a", "1")`.
pub(crate) fn split_subscript(name: &str) -> Option<(&str, &str)> {
    let open = name.find('[')?;
    name.ends_with(']')
        .then(|| (&name[..open], &name[open + 1..name.len() - 1]))
}

fn now_epoch() -> (u64, u32) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    (now.as_secs(), now.subsec_micros())
}

impl ArithEnv for Shell {
    fn get_var(&mut self, name: &str, index: Option<Index>) -> Result<Option<String>, Unbound> {
        // With a subscript bash asks only whether the array has any
        // element: `a=(1); $(( a[5] ))` is 0, `$(( undef[0] ))` fails.
        if self.opts.nounset && !self.is_set(name) {
            return Err(Unbound);
        }
        Ok(match index {
            None => Shell::get_var(self, name),
            // bash reports an empty key and reads it as 0.
            Some(Index::Key(key)) if key.is_empty() => {
                self.report_at_line(&format!("{name}[]: bad array subscript"));
                None
            }
            Some(index) => {
                let key = element_key(index);
                self.get_element(name, &key)
            }
        })
    }

    fn set_var(&mut self, name: &str, index: Option<Index>, value: i64) -> Result<(), String> {
        match index {
            // bash reports an empty key, stores nothing and goes on with the
            // expression (`(( A["$unset"] = 1 ))` succeeds).
            Some(Index::Key(key)) if key.is_empty() => {
                self.report_at_line(&format!("`{name}[]': not a valid identifier"));
                Ok(())
            }
            None => Shell::set_var(self, name, value.to_string()),
            Some(index) => self.set_element(name, element_key(index), value.to_string(), false),
        }
    }

    fn is_assoc(&self, name: &str) -> bool {
        Shell::is_assoc(self, name)
    }

    fn expand_subscript(&mut self, text: &str) -> String {
        self.expanded_subscript(text)
    }

    fn parsed(&self) -> Option<&crate::arith::Parsed> {
        Some(&self.ctx.arith_parsed)
    }
}

/// An arithmetic subscript as an array key.
fn element_key(index: Index) -> Key {
    match index {
        Index::Number(number) => Key::Index(number),
        Index::Key(text) => Key::Name(text.into_owned()),
    }
}
