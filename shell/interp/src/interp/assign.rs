//! Assignments: `name=value`, `name+=value`, `name[i]=value`,
//! `name=(...)`, `name+=(...)`.

use std::collections::BTreeMap;

use goccia_core::{LimitKind, Stop};

use super::{Flow, Shell};
use crate::arith;
use crate::assoc::AssocArray;
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
        // Through a reference to an element (`declare -n r='a[0]'`), an
        // element or a list cannot be assigned: bash refuses the name.
        if (assignment.index.is_some() || matches!(assignment.value, AssignValue::Array(_)))
            && let Some(target) = self.nameref_to_element(name)
        {
            return Err(self.assignment_failed(&format!("`{target}': not a valid identifier")));
        }
        let result = match &assignment.value {
            AssignValue::Scalar(word) => {
                let value = self.expand_string(word)?;
                if self.opts.xtrace {
                    self.record_traced_assignment(assignment, &value);
                }
                let existing = if assignment.append {
                    self.get_var(name).map_or(0, |v| v.len())
                } else {
                    0
                };
                if existing + value.len() > self.ctx.limits.max_value_bytes {
                    return Err(Flow::Stop(Stop::Limit(LimitKind::ShellValue)));
                }
                match &assignment.index {
                    Some(index) if index.as_plain().is_some_and(|i| i.is_empty()) => {
                        Err(format!("{name}[]: bad array subscript"))
                    }
                    Some(index) => {
                        let key = self.word_key(name, index)?;
                        self.set_element(name, key, value, assignment.append)
                    }
                    None if assignment.append => self.append_var(name, &value),
                    None => self.set_var(name, value),
                }
            }
            AssignValue::Array(_) if assignment.index.is_some() => {
                let subscript = super::print::word_text(assignment.index.as_ref().unwrap());
                Err(format!(
                    "{name}[{subscript}]: cannot assign list to array member"
                ))
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

    /// A failed assignment (read-only, bad subscript): reported, and the
    /// command line is abandoned with status 1 (see [`Shell::fail_line`]).
    pub(crate) fn assignment_failed(&mut self, message: &str) -> Flow {
        self.report_at_line(message);
        if self.opts.is_set("posix") && !self.interactive {
            // POSIX mode: an assignment error ends a non-interactive shell.
            self.status = 1;
            return Flow::Exit(1);
        }
        self.fail_line()
    }

    /// `name=(...)` and `name+=(...)`, as bash 5.2 does them: every
    /// element's value is expanded first; then, in order, each subscript
    /// is evaluated and its element set, so a subscript sees the elements
    /// set before it (`a=([0]=1+2 [a[0]]=x)` sets `a[3]`).
    fn assign_array(
        &mut self,
        name: &str,
        elements: &[ArrayElement],
        append: bool,
    ) -> Result<Result<(), String>, Flow> {
        // A list given to a reference that names nothing yet makes it an
        // array of its own, as bash does, with a warning.
        if let Some(var) = self.vars.get_mut(name)
            && var.attrs.nameref
            && var
                .value
                .as_ref()
                .and_then(|v| v.scalar())
                .is_none_or(str::is_empty)
        {
            var.attrs.nameref = false;
            var.value = None;
            self.report_at_line(&format!("warning: {name}: removing nameref attribute"));
        }
        if self.is_assoc(name) {
            return self.assign_assoc(name, elements, append);
        }
        enum Expanded<'a> {
            Keyed(&'a Word, String, bool),
            Plain(Vec<String>),
        }
        let mut expanded = Vec::with_capacity(elements.len());
        for element in elements {
            expanded.push(match &element.key {
                // Brace expansion comes first in bash and sees the whole
                // word: `[k]=-{a,b}-` becomes two words that are no longer
                // `[key]=value` elements.
                Some(_)
                    if self.opts.braceexpand
                        && brace_expands(&element.value, self.ctx.limits.max_value_bytes) =>
                {
                    Expanded::Plain(self.expand_words(&[element.as_word()])?)
                }
                Some(key) => {
                    Expanded::Keyed(key, self.expand_string(&element.value)?, element.append)
                }
                None => Expanded::Plain(self.expand_words(std::slice::from_ref(&element.value))?),
            });
        }
        let start = match (append, self.get_value(name)) {
            (true, Some(Value::Indexed(map))) => map,
            (true, Some(Value::Scalar(text))) => BTreeMap::from([(0, text)]),
            _ => BTreeMap::new(),
        };
        if let Err(message) = self.store_array(name, Value::Indexed(start)) {
            return Ok(Err(message));
        }
        let last = |shell: &Shell| match shell.get_value(name) {
            Some(Value::Indexed(map)) => map.keys().next_back().copied(),
            _ => None,
        };
        let mut next = last(self).map_or(0, |max| max + 1);
        for element in expanded {
            match element {
                Expanded::Keyed(key, value, append) => {
                    let key_text = self.expand_string(key)?;
                    let index = match arith::eval(&key_text, self) {
                        Ok(index) => index,
                        Err(error) => return Err(self.arith_failure(&error)),
                    };
                    let index = if index < 0 {
                        last(self).map_or(0, |max| max + 1) + index
                    } else {
                        index
                    };
                    if let Err(message) =
                        self.set_element(name, super::variables::Key::Index(index), value, append)
                    {
                        return Ok(Err(message));
                    }
                    next = index + 1;
                }
                Expanded::Plain(values) => {
                    for value in values {
                        if let Err(message) =
                            self.set_element(name, super::variables::Key::Index(next), value, false)
                        {
                            return Ok(Err(message));
                        }
                        next += 1;
                    }
                }
            }
        }
        Ok(Ok(()))
    }

    /// `declare -A name=(...)`: `[key]=value` elements (no tilde expansion
    /// in the values, and `[key]+=value` appends to the value the array had
    /// before a plain `=`), or, when the first element has no subscript,
    /// `key value` pairs in which every word is literal.
    fn assign_assoc(
        &mut self,
        name: &str,
        elements: &[ArrayElement],
        append: bool,
    ) -> Result<Result<(), String>, Flow> {
        let old = match self.get_value(name) {
            Some(Value::Assoc(map)) => map,
            _ => AssocArray::new(),
        };
        let mut map = if append {
            old.clone()
        } else {
            AssocArray::new()
        };
        let pairs = elements.first().is_some_and(|e| e.key.is_none());
        if pairs {
            let mut words = Vec::new();
            for element in elements {
                match &element.key {
                    // Only a subscript in the first place makes one.
                    Some(key) => {
                        let key = self.expand_string(key)?;
                        let value = self.expand_string(&literal_tilde(&element.value))?;
                        let sign = if element.append { "+=" } else { "=" };
                        words.push(format!("[{key}]{sign}{value}"));
                    }
                    None => words.extend(self.expand_words(std::slice::from_ref(&element.value))?),
                }
            }
            let mut words = words.into_iter();
            while let Some(key) = words.next() {
                map.insert(key, words.next().unwrap_or_default());
            }
            return Ok(self.store_array(name, Value::Assoc(map)));
        }
        for element in elements {
            let value = self.expand_string(&literal_tilde(&element.value))?;
            let Some(key) = &element.key else {
                let message = format!(
                    "{}: {name}: '{value}': must use subscript when assigning associative array\n",
                    self.arg0
                );
                self.write_stderr(message.as_bytes());
                continue;
            };
            let key = self.expand_string(key)?;
            let value = if element.append {
                let before = if append { &map } else { &old };
                format!("{}{value}", before.get(&key).cloned().unwrap_or_default())
            } else {
                value
            };
            map.insert(key, value);
        }
        Ok(self.store_array(name, Value::Assoc(map)))
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

/// `word` with its tildes as written (an associative array's values are
/// not tilde-expanded).
fn literal_tilde(word: &Word) -> Word {
    let mut word = word.clone();
    for part in &mut word.parts {
        if let WordPart::Tilde(user) = part {
            *part = WordPart::Literal(format!("~{user}"));
        }
    }
    word
}

/// Whether brace expansion would turn `word` into more than one word.
fn brace_expands(word: &Word, max_bytes: usize) -> bool {
    super::brace::brace_expand(word, max_bytes).map_or(true, |words| words.len() > 1)
}
