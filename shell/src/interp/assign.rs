//! Assignments: `name=value`, `name+=value`, `name[i]=value`,
//! `name=(...)`, `name+=(...)`.

use std::collections::BTreeMap;

use indexmap::IndexMap;

use goccia_core::{LimitKind, Stop};

use super::{Flow, Shell};
use crate::arith;
use crate::ast::*;
use crate::vars::Value;

impl Shell {
    /// Performs an assignment; `local` declares the name in the current
    /// function frame first.
    pub(crate) fn assign(&mut self, assignment: &Assignment, local: bool) -> Result<(), Flow> {
        if local {
            self.vars.declare_local(&assignment.name);
        }
        let name = assignment.name.as_str();
        let result = match &assignment.value {
            AssignValue::Scalar(word) => {
                let value = self.expand_string(word)?;
                let existing = if assignment.append {
                    self.get_var(name).map_or(0, |v| v.len())
                } else {
                    0
                };
                if existing + value.len() > self.ctx.limits.max_value_bytes {
                    return Err(Flow::Stop(Stop::Limit(LimitKind::ShellValue)));
                }
                match &assignment.index {
                    Some(index) => {
                        let key = self.word_key(name, index)?;
                        self.set_element(name, key, value, assignment.append)
                    }
                    None if assignment.append => self.append_var(name, &value),
                    None => self.set_var(name, value),
                }
            }
            AssignValue::Array(elements) => self.assign_array(name, elements, assignment.append)?,
        };
        if let Err(message) = result {
            return Err(self.assignment_failed(&message));
        }
        if self.opts.allexport
            && let Some(var) = self.vars.get_mut(name)
        {
            var.attrs.exported = true;
        }
        Ok(())
    }

    /// A failed assignment (read-only, bad subscript) ends a
    /// non-interactive shell with status 1.
    pub(crate) fn assignment_failed(&mut self, message: &str) -> Flow {
        let text = format!("{}: {message}\n", self.arg0);
        self.write_stderr(text.as_bytes());
        self.status = 1;
        if self.interactive {
            Flow::Return(1)
        } else {
            Flow::Exit(1)
        }
    }

    fn assign_array(
        &mut self,
        name: &str,
        elements: &[ArrayElement],
        append: bool,
    ) -> Result<Result<(), String>, Flow> {
        let assoc = self.is_assoc(name);
        if assoc {
            let mut map = match (append, self.get_value(name)) {
                (true, Some(Value::Assoc(map))) => map,
                _ => IndexMap::new(),
            };
            let mut pending_key: Option<String> = None;
            for element in elements {
                let value = self.expand_string(&element.value)?;
                match &element.key {
                    Some(key) => {
                        let key = self.expand_string(key)?;
                        let value = if element.append {
                            format!("{}{value}", map.get(&key).cloned().unwrap_or_default())
                        } else {
                            value
                        };
                        map.insert(key, value);
                    }
                    // `declare -A m=(k1 v1 k2 v2)` (bash 5.1+).
                    None => match pending_key.take() {
                        Some(key) => {
                            map.insert(key, value);
                        }
                        None => pending_key = Some(value),
                    },
                }
            }
            if let Some(key) = pending_key {
                map.insert(key, String::new());
            }
            return Ok(self.store_array(name, Value::Assoc(map)));
        }
        let mut map = match (append, self.get_value(name)) {
            (true, Some(Value::Indexed(map))) => map,
            (true, Some(Value::Scalar(text))) => BTreeMap::from([(0, text)]),
            _ => BTreeMap::new(),
        };
        let mut next = map.keys().next_back().map_or(0, |max| max + 1);
        for element in elements {
            match &element.key {
                Some(key) => {
                    let key_text = self.expand_string(key)?;
                    let index = match arith::eval(&key_text, self) {
                        Ok(index) => index,
                        Err(error) => return Err(self.arith_failure(&error)),
                    };
                    let index = if index < 0 { next + index } else { index };
                    let value = self.expand_string(&element.value)?;
                    let value = if element.append {
                        format!("{}{value}", map.get(&index).cloned().unwrap_or_default())
                    } else {
                        value
                    };
                    map.insert(index, value);
                    next = index + 1;
                }
                None => {
                    for value in self.expand_words(std::slice::from_ref(&element.value))? {
                        map.insert(next, value);
                        next += 1;
                    }
                }
            }
        }
        Ok(self.store_array(name, Value::Indexed(map)))
    }

    fn store_array(&mut self, name: &str, value: Value) -> Result<(), String> {
        let integer = self.vars.get_raw(name).is_some_and(|v| v.attrs.integer);
        let value = if integer {
            match value {
                Value::Indexed(map) => {
                    let mut out = BTreeMap::new();
                    for (k, v) in map {
                        out.insert(
                            k,
                            arith::eval(&v, self)
                                .map_err(|e| e.to_string())?
                                .to_string(),
                        );
                    }
                    Value::Indexed(out)
                }
                other => other,
            }
        } else {
            value
        };
        self.set_array(name, value)
    }

    /// Sets `name[key]` from text (used by `read -a`, `mapfile`).
    pub(crate) fn set_indexed(&mut self, name: &str, values: Vec<String>) -> Result<(), String> {
        let map: BTreeMap<i64, String> = values
            .into_iter()
            .enumerate()
            .map(|(i, v)| (i as i64, v))
            .collect();
        self.set_array(name, Value::Indexed(map))
    }
}
