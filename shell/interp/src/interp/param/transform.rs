//! `${name@op}` transformations (`Q`, `E`, `P`, `A`, `K`, `a`, `u`, `U`,
//! `L`, ...) and the shell-text forms of variables they share with `set`
//! and `declare -p`: attribute flags, quoting for reuse as input.

use super::{Base, map_base, map_base_opt};
use crate::ast::*;
use crate::interp::expand::Expanded;
use crate::interp::{Flow, Shell};
use crate::vars::Value;

impl Shell {
    pub(super) fn transform(
        &mut self,
        name: &str,
        index: Option<&Word>,
        base: Base,
        op: char,
    ) -> Result<Expanded, Flow> {
        match op {
            'Q' => Ok(map_base_opt(base, |v| v.map(|v| quote(&v)))),
            'E' => Ok(map_base(base, |v| crate::escape::ansi_c(&v))),
            'P' => {
                let mut failed = None;
                let expanded = map_base(base, |v| {
                    self.expand_prompt(&v).unwrap_or_else(|flow| {
                        failed = Some(flow);
                        String::new()
                    })
                });
                match failed {
                    Some(flow) => Err(flow),
                    None => Ok(expanded),
                }
            }
            'U' => Ok(map_base(base, |v| crate::case::upper(&v))),
            'L' => Ok(map_base(base, |v| crate::case::lower(&v))),
            'u' => Ok(map_base(base, |v| {
                let mut chars = v.chars();
                match chars.next() {
                    Some(first) => std::iter::once(crate::case::upper_char(first))
                        .chain(chars)
                        .collect(),
                    None => v,
                }
            })),
            'a' => {
                // A declared variable has its attributes even without a
                // value (`a=(); ${a@a}` is `a`).
                let attrs = self.attribute_flags(name);
                Ok(match base {
                    Base::One(None) if !attrs.is_empty() => Expanded::One(Some(attrs)),
                    base => map_base_opt(base, |v| v.map(|_| attrs.clone())),
                })
            }
            'A' => {
                let whole = index
                    .and_then(Word::as_plain)
                    .is_some_and(|i| i == "@" || i == "*");
                if whole
                    || index.is_some() && self.get_value(name).is_some_and(|v| v.scalar().is_none())
                {
                    return Ok(Expanded::One(
                        self.declaration_text(name, index.is_some() && !whole),
                    ));
                }
                // `name='value'`, with `declare -<attrs>` when it has any.
                let attrs = self.attribute_flags(name);
                let prefix = if attrs.is_empty() {
                    String::new()
                } else {
                    format!("declare -{attrs} ")
                };
                Ok(map_base_opt(base, |v| {
                    v.map(|v| format!("{prefix}{name}={}", quote(&v)))
                }))
            }
            'K' | 'k' => {
                let value = self.get_value(name);
                Ok(match value {
                    Some(Value::Assoc(map)) => Expanded::One(Some(
                        map.iter()
                            .map(|(k, v)| format!("{} {}", quote(k), quote(v)))
                            .collect::<Vec<_>>()
                            .join(" "),
                    )),
                    Some(Value::Indexed(map)) => Expanded::One(Some(
                        map.iter()
                            .map(|(k, v)| format!("{k} {}", quote(v)))
                            .collect::<Vec<_>>()
                            .join(" "),
                    )),
                    _ => map_base_opt(base, |v| v.map(|v| quote(&v))),
                })
            }
            _ => Err(self.expansion_error(&format!("${{{name}@{op}}}: bad substitution"))),
        }
    }

    /// The attribute letters of `name` (`declare -p`, `${x@a}`).
    pub(crate) fn attribute_flags(&self, name: &str) -> String {
        let Some(var) = self.vars.get_raw(name) else {
            return String::new();
        };
        let mut flags = String::new();
        match &var.value {
            Some(Value::Indexed(_)) => flags.push('a'),
            Some(Value::Assoc(_)) => flags.push('A'),
            _ => {}
        }
        let attrs = &var.attrs;
        // In bash's order: `declare -p` and `${x@a}` print them so.
        for (set, flag) in [
            (attrs.integer, 'i'),
            (attrs.lower, 'l'),
            (attrs.nameref, 'n'),
            (attrs.readonly, 'r'),
            (attrs.upper, 'u'),
            (attrs.exported, 'x'),
        ] {
            if set {
                flags.push(flag);
            }
        }
        flags
    }

    /// What `set` and a bare `declare` list: every variable with a value
    /// as `name=value` (quoted to be read back), then every function.
    pub(crate) fn set_listing(&self) -> String {
        let mut text = String::new();
        for (name, var) in self.vars.visible() {
            match &var.value {
                Some(Value::Scalar(value)) => {
                    text.push_str(&format!("{name}={}\n", quote_set(value)));
                }
                // An array declared and never assigned has no value yet.
                Some(_) if var.attrs.unassigned => {}
                Some(_) => {
                    if let Some(declaration) = self.declaration_text(&name, false) {
                        let body = declaration.splitn(3, ' ').nth(2).unwrap_or("");
                        text.push_str(body);
                        text.push('\n');
                    }
                }
                None => {}
            }
        }
        let mut functions: Vec<&String> = self.functions.keys().collect();
        functions.sort();
        for name in functions {
            text.push_str(&crate::interp::function_text(self, name));
        }
        text
    }

    /// `declare -p`-style text of a variable.
    pub(crate) fn declaration_text(&self, name: &str, element_only: bool) -> Option<String> {
        let var = self.vars.get_raw(name)?;
        let flags = self.attribute_flags(name);
        let flags = if flags.is_empty() {
            "--".to_string()
        } else {
            format!("-{flags}")
        };
        let value = var.value.as_ref()?;
        Some(match value {
            // Declared, never assigned: no `=()`.
            Value::Indexed(map) if var.attrs.unassigned && map.is_empty() => {
                format!("declare {flags} {name}")
            }
            Value::Assoc(map) if var.attrs.unassigned && map.is_empty() => {
                format!("declare {flags} {name}")
            }
            Value::Scalar(text) if element_only => format!("{name}={}", quote(text)),
            Value::Scalar(text) => format!("declare {flags} {name}={}", quote_declare(text)),
            Value::Indexed(map) => {
                let items: Vec<String> = map
                    .iter()
                    .map(|(k, v)| format!("[{k}]={}", quote_declare(v)))
                    .collect();
                format!("declare {flags} {name}=({})", items.join(" "))
            }
            Value::Assoc(map) => {
                let items: Vec<String> = map
                    .iter()
                    .map(|(k, v)| format!("[{}]={}", quote_key(k), quote_declare(v)))
                    .collect();
                if items.is_empty() {
                    format!("declare {flags} {name}=()")
                } else {
                    format!("declare {flags} {name}=({} )", items.join(" "))
                }
            }
        })
    }
}

/// `${x@Q}`: quoted for reuse as shell input; a value with a control
/// character or a byte that is not UTF-8 in `$'...'`, as `printf %q`
/// writes it (bash uses one quoter for both).
pub fn quote(value: &str) -> String {
    if value.chars().any(crate::printf::needs_ansi_c) {
        return crate::printf::ansi_c_quote(value);
    }
    format!("'{}'", value.replace('\'', "'\\''"))
}

/// `set`'s quoting: bare when nothing in the value needs quotes.
fn quote_set(value: &str) -> String {
    if value
        .chars()
        .all(|c| c.is_alphanumeric() || "_-./:,+@%".contains(c))
        && !value.is_empty()
    {
        value.to_string()
    } else {
        quote(value)
    }
}

/// `declare -p` quoting: double quotes, escaping `"`, `\`, `$`, `` ` ``;
/// `$'...'` for a value with control characters (a newline, a tab).
fn quote_declare(value: &str) -> String {
    if value.chars().any(crate::printf::needs_ansi_c) {
        return quote(value);
    }
    let mut out = String::from("\"");
    for c in value.chars() {
        if matches!(c, '"' | '\\' | '$' | '`') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn quote_key(key: &str) -> String {
    if key
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '.')
    {
        key.to_string()
    } else {
        quote_declare(key)
    }
}
