//! Parameter expansion: `${name}`, `${name[i]}`, `${#name}`, `${!name}`,
//! defaults and alternatives, pattern removal and replacement, substrings,
//! case changes and `@` transformations.
//!
//! This module reads the operator and finds the value; `replace` does
//! `${x/pattern/...}` and `transform` the `@` operators with the quoting
//! they share with `set` and `declare -p`.

mod replace;
mod transform;

pub use transform::quote;

use super::expand::Expanded;
use super::variables::split_subscript;
use super::{Flow, Shell};
use crate::arith;
use crate::ast::*;
use crate::pattern::Pattern;
use replace::{Search, replace};

/// Values before the operator is applied.
enum Base {
    One(Option<String>),
    /// `star`: `$*` / `[*]` rather than `$@` / `[@]`.
    Many(Vec<String>, bool),
}

impl Shell {
    pub(crate) fn expand_param(
        &mut self,
        p: &ParamExpansion,
        quoted: bool,
    ) -> Result<Expanded, Flow> {
        if let ParamOp::Bad(text) = &p.op {
            return Err(self.abandon_line(&format!("{text}: bad substitution")));
        }
        if let ParamOp::Names { at } = p.op {
            let names: Vec<String> = self
                .vars
                .visible()
                .into_iter()
                .filter(|(name, var)| name.starts_with(&p.name) && var.value.is_some())
                .map(|(name, _)| name)
                .collect();
            return Ok(Expanded::Many {
                values: names,
                star: !at,
                unsplit: Some(""),
            });
        }
        let index_text = p.index.as_ref().and_then(Word::as_plain);
        let all = matches!(index_text.as_deref(), Some("@") | Some("*"));
        // `${!a[@]}` lists the keys; with an operator (`${!a[@]:-x}`) it
        // is an indirection through the values, as below.
        if p.indirect && all && p.op == ParamOp::None {
            let keys = self
                .get_value(&p.name)
                .map(|v| v.keys())
                .unwrap_or_default();
            return Ok(Expanded::Many {
                values: keys,
                star: index_text.as_deref() == Some("*"),
                unsplit: Some(" "),
            });
        }
        // `${!ref}` of a nameref is the name it refers to.
        if p.indirect
            && let Some(var) = self.vars.get_raw(&p.name).filter(|v| v.attrs.nameref)
        {
            let target = var
                .value
                .as_ref()
                .and_then(|v| v.scalar())
                .map(str::to_string);
            return Ok(Expanded::One(target));
        }
        let (name, index) = if p.indirect {
            // `${!a[1]}`: the element names the variable.
            let target = match &p.index {
                Some(index) => match self.base_value(&p.name, Some(index))? {
                    Base::One(value) => value,
                    Base::Many(values, _) => (!values.is_empty()).then(|| values.join(" ")),
                },
                None => self.get_var(&p.name),
            };
            let Some(target) = target else {
                // A declared variable without a value (`declare u`, an
                // associative array without key 0) names nothing.
                if self.vars.get_raw(&p.name).is_some() {
                    return Ok(Expanded::One(None));
                }
                let shown = display_name(&p.name, p.index.as_ref());
                return Err(self.abandon_line(&format!("{shown}: invalid indirect expansion")));
            };
            self.indirect_target(&target)?
        } else if p.index.is_none()
            && let Some(target) = self.nameref_to_element(&p.name)
        {
            // A reference to `a[@]` or `a[1]` reads as that parameter.
            self.indirect_target(&target)?
        } else {
            (p.name.clone(), p.index.clone())
        };
        let base = self.base_value(&name, index.as_ref())?;
        if p.length {
            return Ok(Expanded::One(Some(match base {
                Base::Many(values, _) => values.len().to_string(),
                Base::One(value) => {
                    if value.is_none() && self.opts.nounset && !matches!(name.as_str(), "@" | "*") {
                        return Err(self.unbound(&name));
                    }
                    let value = value.unwrap_or_default();
                    self.locale_chars(&value).chars().count().to_string()
                }
            })));
        }
        self.apply_op(&name, index.as_ref(), base, &p.op, quoted, p.indirect)
    }

    /// The variable an indirection names: a name, a special parameter or
    /// `name[subscript]`, whose subscript is read as a word (its quotes
    /// and expansions apply, as bash does). Anything else abandons the
    /// command line with "invalid variable name".
    fn indirect_target(&mut self, target: &str) -> Result<(String, Option<Word>), Flow> {
        let special = |t: &str| {
            t.chars().all(|c| c.is_ascii_digit()) && !t.is_empty()
                || matches!(t, "@" | "*" | "#" | "?" | "-" | "$" | "!")
        };
        if crate::parse::is_name(target) || special(target) {
            return Ok((target.to_string(), None));
        }
        if let Some((base, index)) = split_subscript(target)
            && crate::parse::is_name(base)
            && let Ok(word) = crate::parse::subscript_word(index)
        {
            return Ok((base.to_string(), Some(word)));
        }
        Err(self.abandon_line(&format!("{target}: invalid variable name")))
    }

    /// What a nameref `name` refers to, when that is an element or a whole
    /// array (`declare -n r='a[@]'`) rather than a variable.
    pub(crate) fn nameref_to_element(&self, name: &str) -> Option<String> {
        let var = self.vars.get_raw(name).filter(|var| var.attrs.nameref)?;
        var.value.as_ref()?.scalar()?;
        let target = self.resolve_name(name);
        split_subscript(&target).is_some().then_some(target)
    }

    /// Reports an expansion error that abandons the command line (status
    /// 1); the script goes on with the next line, as bash does for a bad
    /// indirection.
    pub(crate) fn abandon_line(&mut self, message: &str) -> Flow {
        self.report_at_line(message);
        self.status = 1;
        Flow::Abandon(1)
    }

    fn base_value(&mut self, name: &str, index: Option<&Word>) -> Result<Base, Flow> {
        if name == "@" || name == "*" {
            return Ok(Base::Many(self.positional.to_vec(), name == "*"));
        }
        let Some(index) = index else {
            return Ok(Base::One(self.get_var(name)));
        };
        match index.as_plain().as_deref() {
            Some("@") | Some("*") => {
                let values = self.get_value(name).map(|v| v.values()).unwrap_or_default();
                Ok(Base::Many(values, index.as_plain().as_deref() == Some("*")))
            }
            Some("") => {
                let message = format!("${{{name}[]}}: bad substitution");
                Err(self.abandon_line(&message))
            }
            _ => {
                let key = self.word_key(name, index)?;
                Ok(Base::One(self.get_element(name, &key)))
            }
        }
    }

    /// `set -u` and `${x?}` errors end a non-interactive shell: with 127
    /// when it runs a command string (`-c`), with 1 when it runs a script
    /// file or in a subshell, as bash does.
    pub(crate) fn unbound(&mut self, name: &str) -> Flow {
        let status = self.unset_error_status();
        self.fatal_expansion(&format!("{name}: unbound variable"), status)
    }

    fn unset_error_status(&self) -> i32 {
        if self.subshell > 0 || self.runs_script_file {
            1
        } else {
            127
        }
    }

    /// An expansion error that ends a non-interactive shell (status 1):
    /// an unknown `${x@op}`, a failed `${x:=v}`. Malformed expansions bash
    /// finds as it reads the word (`${x:}`, `${(m)x}`) and bad substring
    /// lengths only abandon the line ([`Shell::abandon_line`]).
    pub(crate) fn expansion_error(&mut self, message: &str) -> Flow {
        self.fatal_expansion(message, 1)
    }

    fn fatal_expansion(&mut self, message: &str, status: i32) -> Flow {
        self.report_at_line(message);
        self.status = status;
        if self.interactive {
            Flow::Abandon(status)
        } else {
            Flow::Exit(status)
        }
    }

    fn apply_op(
        &mut self,
        name: &str,
        index: Option<&Word>,
        base: Base,
        op: &ParamOp,
        quoted: bool,
        indirect: bool,
    ) -> Result<Expanded, Flow> {
        let (is_set, is_null) = match &base {
            Base::One(None) => (false, true),
            Base::One(Some(v)) => (true, v.is_empty()),
            // In double quotes null is judged on the joined text: `[*]`
            // joins with IFS's first character (nothing when IFS is
            // empty), `[@]` with a space.
            // Through an indirection (`ref='a[@]'; ${!ref:-x}`) bash
            // judges only whether there are elements.
            Base::Many(values, _) if indirect => (!values.is_empty(), values.is_empty()),
            Base::Many(values, star) => {
                let joiner_empty =
                    quoted && *star && self.get_var("IFS").is_some_and(|ifs| ifs.is_empty());
                let null = values.is_empty()
                    || (values.len() == 1 || joiner_empty) && values.iter().all(String::is_empty);
                (!values.is_empty(), null)
            }
        };
        let missing = |colon: bool| !is_set || (colon && is_null);
        // `set -u`: an unset value is an error for every operator that
        // works on the value (not for `-`, `+`, `=`, `?`, which test it).
        let works_on_value = matches!(
            op,
            ParamOp::RemovePrefix { .. }
                | ParamOp::RemoveSuffix { .. }
                | ParamOp::Replace { .. }
                | ParamOp::Substring { .. }
                | ParamOp::Case { .. }
                | ParamOp::Transform(_)
        );
        if works_on_value && !is_set && self.opts.nounset && !matches!(base, Base::Many(..)) {
            return Err(self.unbound(&display_name(name, index)));
        }
        match op {
            ParamOp::Bad(text) => Err(self.abandon_line(&format!("{text}: bad substitution"))),
            ParamOp::None => {
                if !is_set && self.opts.nounset && !matches!(base, Base::Many(..)) {
                    return Err(self.unbound(&display_name(name, index)));
                }
                Ok(to_expanded(base))
            }
            ParamOp::Default { colon, word } => {
                if missing(*colon) {
                    Ok(Expanded::Operand(word.clone()))
                } else {
                    Ok(to_expanded(base))
                }
            }
            ParamOp::Alternate { colon, word } => {
                if missing(*colon) {
                    // An empty `[@]` gives no word at all, as "${a[@]}" does.
                    match base {
                        Base::Many(values, false) if values.is_empty() => {
                            Ok(to_expanded(Base::Many(values, false)))
                        }
                        _ => Ok(Expanded::One(None)),
                    }
                } else {
                    Ok(Expanded::Operand(word.clone()))
                }
            }
            ParamOp::Assign { colon, word } => {
                if !missing(*colon) {
                    return Ok(to_expanded(base));
                }
                let value = self.expand_string(word)?;
                if name.chars().all(|c| c.is_ascii_digit())
                    || matches!(name, "@" | "*" | "#" | "?" | "-" | "$" | "!")
                {
                    return Err(self.abandon_line(&format!("${name}: cannot assign in this way")));
                }
                let result = match index {
                    Some(index) => {
                        let key = self.word_key(name, index)?;
                        self.set_element(name, key, value.clone(), false)
                    }
                    None => self.set_var(name, value.clone()),
                };
                if let Err(message) = result {
                    return Err(self.expansion_error(&message));
                }
                Ok(Expanded::One(Some(value)))
            }
            ParamOp::Error { colon, word } => {
                if !missing(*colon) {
                    return Ok(to_expanded(base));
                }
                let text = self.expand_string(word)?;
                let message = if text.is_empty() {
                    "parameter null or not set".to_string()
                } else {
                    text
                };
                let status = self.unset_error_status();
                Err(self
                    .fatal_expansion(&format!("{}: {message}", display_name(name, index)), status))
            }
            ParamOp::RemovePrefix { longest, pattern }
            | ParamOp::RemoveSuffix { longest, pattern } => {
                let pattern_text = self.expand_pattern(pattern)?;
                let matcher = Pattern::new(&self.locale_chars(&pattern_text), self.opts.extglob);
                let prefix = matches!(op, ParamOp::RemovePrefix { .. });
                Ok(map_base(base, |value| {
                    self.in_locale(value, |value| {
                        if prefix {
                            match matcher.match_prefix(&value, *longest) {
                                Some(n) => value.chars().skip(n).collect(),
                                None => value,
                            }
                        } else {
                            match matcher.match_suffix(&value, *longest) {
                                Some(n) => value.chars().take(n).collect(),
                                None => value,
                            }
                        }
                    })
                }))
            }
            ParamOp::Replace {
                mode,
                pattern,
                replacement,
            } => {
                let pattern_text = self.expand_pattern(pattern)?;
                let replacement = self.expand_pattern(replacement)?;
                let pattern_text = self.locale_chars(&pattern_text);
                let matcher = Pattern::new(&pattern_text, self.opts.extglob);
                let search = Search {
                    matcher: &matcher,
                    length: crate::pattern::substitution_length(&pattern_text),
                    empty: pattern_text.is_empty(),
                    mode: *mode,
                };
                Ok(map_base(base, |value| {
                    self.in_locale(value, |value| replace(&value, &search, &replacement))
                }))
            }
            ParamOp::Substring { offset, length } => {
                // `${s:}` has no offset at all (`${s: }` has a blank one,
                // `${s::2}` an empty one before its length).
                if offset.parts.is_empty() && length.is_none() {
                    let shown = format!("${{{}:}}", display_name(name, index));
                    return Err(self.abandon_line(&format!("{shown}: bad substitution")));
                }
                let offset_text = self.expand_string(offset)?;
                let offset = match arith::eval(&offset_text, self) {
                    Ok(n) => n,
                    Err(error) => return Err(self.arith_failure(&error)),
                };
                let length = match length {
                    Some(word) => {
                        let text = self.expand_string(word)?;
                        match arith::eval(&text, self) {
                            Ok(n) => Some(n),
                            Err(error) => return Err(self.arith_failure(&error)),
                        }
                    }
                    None => None,
                };
                self.substring(name, base, offset, length)
            }
            ParamOp::Case {
                upper,
                all,
                pattern,
            } => {
                let pattern_text = self.expand_pattern(pattern)?;
                let matcher = (!pattern_text.is_empty())
                    .then(|| Pattern::new(&pattern_text, self.opts.extglob));
                Ok(map_base(base, |value| {
                    change_case(&value, *upper, *all, matcher.as_ref())
                }))
            }
            ParamOp::Transform(op) => self.transform(name, index, base, *op),
            ParamOp::Names { .. } => unreachable!("handled before"),
        }
    }

    fn substring(
        &mut self,
        name: &str,
        base: Base,
        offset: i64,
        length: Option<i64>,
    ) -> Result<Expanded, Flow> {
        match base {
            Base::Many(values, star) => {
                if let Some(len) = length.filter(|len| *len < 0) {
                    return Err(self.abandon_line(&format!("{len}: substring expression < 0")));
                }
                let take = |items: Vec<String>| -> Vec<String> {
                    match length {
                        Some(len) => items.into_iter().take(len as usize).collect(),
                        None => items,
                    }
                };
                // An indexed array is sliced by index, not position: the
                // elements from index `offset` on (a negative offset counts
                // back from the last index + 1).
                if name != "@"
                    && name != "*"
                    && let Some(crate::vars::Value::Indexed(map)) = self.get_value(name)
                {
                    let end = map.keys().next_back().map_or(0, |last| last + 1);
                    let from = if offset < 0 { end + offset } else { offset };
                    let slice = if from < 0 {
                        Vec::new()
                    } else {
                        take(map.range(from..).map(|(_, v)| v.clone()).collect())
                    };
                    return Ok(Expanded::Many {
                        values: slice,
                        star,
                        unsplit: None,
                    });
                }
                // `$@` counts from `$0` (`${@:0}` includes it; a negative
                // offset counts back from `$#` + 1).
                let mut values = values;
                if name == "@" || name == "*" {
                    values.insert(0, self.arg0.clone());
                }
                let count = values.len() as i64;
                let from = if offset < 0 { count + offset } else { offset };
                let slice = if from < 0 || from >= count {
                    Vec::new()
                } else {
                    take(values[from as usize..].to_vec())
                };
                Ok(Expanded::Many {
                    values: slice,
                    star,
                    unsplit: None,
                })
            }
            Base::One(value) => {
                let Some(value) = value else {
                    return Ok(Expanded::One(None));
                };
                let bytewise = self.bytewise_locale();
                let chars: Vec<char> = match bytewise {
                    true => crate::raw::bytewise(&value).chars().collect(),
                    false => value.chars().collect(),
                };
                let count = chars.len() as i64;
                let start = if offset < 0 { count + offset } else { offset };
                if start < 0 || start > count {
                    return Ok(Expanded::One(Some(String::new())));
                }
                let end = match length {
                    Some(len) if len < 0 => {
                        let end = count + len;
                        if end < start {
                            return Err(
                                self.abandon_line(&format!("{len}: substring expression < 0"))
                            );
                        }
                        end
                    }
                    Some(len) => (start + len).min(count),
                    None => count,
                };
                let slice: String = chars[start as usize..end.max(start) as usize]
                    .iter()
                    .collect();
                Ok(Expanded::One(Some(match bytewise {
                    true => crate::raw::regroup(&slice).into_owned(),
                    false => slice,
                })))
            }
        }
    }
}

fn display_name(name: &str, index: Option<&Word>) -> String {
    match index.and_then(Word::as_plain) {
        Some(index) => format!("{name}[{index}]"),
        None => name.to_string(),
    }
}

fn to_expanded(base: Base) -> Expanded {
    match base {
        Base::One(value) => Expanded::One(value),
        Base::Many(values, star) => Expanded::Many {
            values,
            star,
            unsplit: None,
        },
    }
}

fn map_base(base: Base, f: impl FnMut(String) -> String) -> Expanded {
    match base {
        Base::One(value) => Expanded::One(value.map(f)),
        Base::Many(values, star) => Expanded::Many {
            values: values.into_iter().map(f).collect(),
            star,
            unsplit: None,
        },
    }
}

fn map_base_opt(base: Base, f: impl Fn(Option<String>) -> Option<String>) -> Expanded {
    match base {
        Base::One(value) => Expanded::One(f(value)),
        Base::Many(values, star) => Expanded::Many {
            values: values.into_iter().filter_map(|v| f(Some(v))).collect(),
            star,
            unsplit: None,
        },
    }
}

fn change_case(value: &str, upper: bool, all: bool, matcher: Option<&Pattern>) -> String {
    let mut out = String::new();
    for (i, c) in value.chars().enumerate() {
        let applies = (all || i == 0) && matcher.is_none_or(|m| m.matches(&c.to_string()));
        if applies {
            if upper {
                out.push(crate::case::upper_char(c));
            } else {
                out.push(crate::case::lower_char(c));
            }
        } else {
            out.push(c);
        }
    }
    out
}
