//! awk's builtin functions (string, numeric, I/O), with the matching
//! helpers they share.

use super::*;

impl Awk<'_> {
    fn random(&mut self) -> f64 {
        // xorshift64*, seeded by srand.
        let mut x = self.random_state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.random_state = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(super) fn builtin(&mut self, name: &str, args: &[Expr]) -> R<Value> {
        let convfmt = self.convfmt();
        let arg = |awk: &mut Self, i: usize| -> R<Value> {
            match args.get(i) {
                Some(expr) => awk.eval(expr),
                None => Ok(Value::Uninit),
            }
        };
        Ok(match name {
            "length" => match args.first() {
                None => Value::Num(self.record.chars().count() as f64),
                Some(Expr::Var(var)) if self.is_array_name(var) => {
                    let id = self.array_id(var);
                    Value::Num(self.arrays[id].len() as f64)
                }
                Some(expr) => Value::Num(self.eval(expr)?.string(&convfmt).chars().count() as f64),
            },
            "substr" => {
                let text: Vec<char> = arg(self, 0)?.string(&convfmt).chars().collect();
                // As gawk 5.2 takes them: both numbers truncated, and a
                // start before the first character is the first, the
                // length kept.
                let start = arg(self, 1)?.num();
                let start = if start.is_nan() {
                    1.0
                } else {
                    start.trunc().max(1.0)
                };
                let length = if args.len() > 2 {
                    let l = arg(self, 2)?.num();
                    if l.is_nan() { 0.0 } else { l.trunc() }
                } else {
                    f64::INFINITY
                };
                let end = (start + length).min(text.len() as f64 + 1.0);
                let begin = start;
                if end <= begin {
                    Value::Str(String::new())
                } else {
                    Value::Str(
                        text[(begin as usize - 1)..(end as usize - 1)]
                            .iter()
                            .collect(),
                    )
                }
            }
            "index" => {
                let text = arg(self, 0)?.string(&convfmt);
                let needle = arg(self, 1)?.string(&convfmt);
                Value::Num(
                    text.find(&needle)
                        .map_or(0, |byte| text[..byte].chars().count() + 1)
                        as f64,
                )
            }
            "asort" | "asorti" => self.sort_array(name, args)?,
            "split" => {
                let text = arg(self, 0)?.string(&convfmt);
                let Some(Expr::Var(array)) = args.get(1) else {
                    return Err(Jump::Error(
                        "split: second argument is not an array".to_string(),
                    ));
                };
                let pieces = match args.get(2) {
                    Some(Expr::Regex(pattern)) => {
                        let matcher = self.regex(pattern, false);
                        if text.is_empty() {
                            Vec::new()
                        } else {
                            split_regex(&text, matcher.as_ref())
                        }
                    }
                    Some(expr) => {
                        let fs = self.eval(expr)?.string(&convfmt);
                        self.split_with(&text, &fs, false)
                    }
                    None => {
                        let fs = self.global_string("FS");
                        self.split_with(&text, &fs, false)
                    }
                };
                let id = self.array_id(array);
                self.arrays[id].clear();
                for (i, piece) in pieces.iter().enumerate() {
                    self.arrays[id].insert((i + 1).to_string(), Value::StrNum(piece.clone()));
                }
                Value::Num(pieces.len() as f64)
            }
            "sub" | "gsub" => {
                let matcher = self.regex_of(
                    args.first()
                        .ok_or_else(|| Jump::Error(format!("{name}: missing regex")))?,
                )?;
                let replacement = arg(self, 1)?.string(&convfmt);
                let target = args
                    .get(2)
                    .cloned()
                    .unwrap_or(Expr::Field(Box::new(Expr::Num(0.0))));
                let text = self.eval(&target)?.string(&convfmt);
                let (result, count) = substitute(&text, &matcher, &replacement, name == "gsub");
                if count > 0 {
                    self.assign(&target, Value::Str(result))?;
                }
                Value::Num(count as f64)
            }
            "gensub" => {
                let matcher = self.regex_of(
                    args.first()
                        .ok_or_else(|| Jump::Error("gensub: missing regex".to_string()))?,
                )?;
                let replacement = arg(self, 1)?.string(&convfmt);
                let how = arg(self, 2)?.string(&convfmt);
                let text = if args.len() > 3 {
                    arg(self, 3)?.string(&convfmt)
                } else {
                    self.record.clone()
                };
                Value::Str(gensub(&text, &matcher, &replacement, &how))
            }
            "match" => {
                let text = arg(self, 0)?.string(&convfmt);
                let matcher = self.regex_of(
                    args.get(1)
                        .ok_or_else(|| Jump::Error("match: missing regex".to_string()))?,
                )?;
                let found = matcher.find_at(&text, 0);
                let (start, length) = match &found {
                    Some(found) => (
                        text[..found.start].chars().count() + 1,
                        text[found.start..found.end].chars().count() as i64,
                    ),
                    None => (0, -1),
                };
                self.set_var("RSTART", Value::Num(start as f64));
                self.set_var("RLENGTH", Value::Num(length as f64));
                if let (Some(Expr::Var(array)), Some(found)) = (args.get(2), &found) {
                    let id = self.array_id(array);
                    self.arrays[id].clear();
                    for (i, group) in found.groups.iter().enumerate() {
                        if let Some((s, e)) = group {
                            self.arrays[id]
                                .insert(i.to_string(), Value::StrNum(text[*s..*e].to_string()));
                        }
                    }
                }
                Value::Num(start as f64)
            }
            "sprintf" => {
                let format = arg(self, 0)?.string(&convfmt);
                let mut values = Vec::new();
                for i in 1..args.len() {
                    values.push(arg(self, i)?);
                }
                Value::Str(format_values(&format, &values, &convfmt).map_err(Jump::Error)?)
            }
            "sin" => Value::Num(arg(self, 0)?.num().sin()),
            "cos" => Value::Num(arg(self, 0)?.num().cos()),
            "atan2" => {
                let y = arg(self, 0)?.num();
                Value::Num(y.atan2(arg(self, 1)?.num()))
            }
            "exp" => Value::Num(arg(self, 0)?.num().exp()),
            "log" => Value::Num(arg(self, 0)?.num().ln()),
            "sqrt" => Value::Num(arg(self, 0)?.num().sqrt()),
            "int" => Value::Num(arg(self, 0)?.num().trunc()),
            "rand" => Value::Num(self.random()),
            "srand" => {
                let previous = self.seed;
                let seed = if args.is_empty() {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_secs() as f64)
                        .unwrap_or(0.0)
                } else {
                    arg(self, 0)?.num()
                };
                self.seed = seed;
                self.random_state = (seed as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                Value::Num(previous)
            }
            "tolower" => Value::Str(goccia_interp::case::lower(&arg(self, 0)?.string(&convfmt))),
            "toupper" => Value::Str(goccia_interp::case::upper(&arg(self, 0)?.string(&convfmt))),
            "system" => {
                let command = arg(self, 0)?.string(&convfmt);
                self.flush()?;
                Value::Num(self.run_command(&command, None, None)? as f64)
            }
            "close" => {
                let name = arg(self, 0)?.string(&convfmt);
                let mut status = self.close_output(&name);
                if self.pipes.contains_key(&name) {
                    status = self.close_pipe(&name)?;
                }
                if self.readers.remove(&name).is_some() {
                    status = 0;
                }
                Value::Num(status as f64)
            }
            "fflush" => {
                self.flush()?;
                Value::Num(0.0)
            }
            "systime" => Value::Num(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs() as f64)
                    .unwrap_or(0.0),
            ),
            "strftime" => {
                let format = if args.is_empty() {
                    "%a %b %e %H:%M:%S %Z %Y".to_string()
                } else {
                    arg(self, 0)?.string(&convfmt)
                };
                let time = if args.len() > 1 {
                    arg(self, 1)?.num() as i64
                } else {
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .map(|d| d.as_secs() as i64)
                        .unwrap_or(0)
                };
                // gawk's third argument asks for UTC.
                let utc = args.len() > 2 && arg(self, 2)?.truthy();
                let zone = if utc {
                    goccia_interp::time::Zone::default()
                } else {
                    self.shell.time_zone()
                };
                Value::Str(goccia_interp::time::strftime_at(&format, time, &zone))
            }
            other => return Err(Jump::Error(format!("function `{other}' not defined"))),
        })
    }
}

pub(super) fn split_regex(text: &str, matcher: Option<&Matcher>) -> Vec<String> {
    let Some(matcher) = matcher else {
        return vec![text.to_string()];
    };
    let mut pieces = Vec::new();
    let mut last = 0;
    for found in matcher.find_all(text) {
        if found.end == found.start {
            continue;
        }
        pieces.push(text[last..found.start].to_string());
        last = found.end;
    }
    pieces.push(text[last..].to_string());
    pieces
}

/// `sub`/`gsub`: `&` is the match, `\&` a literal ampersand.
fn substitute(text: &str, matcher: &Matcher, replacement: &str, global: bool) -> (String, usize) {
    let mut out = String::new();
    let mut last = 0;
    let mut count = 0;
    for found in matcher.matches(text) {
        out.push_str(&text[last..found.start]);
        let matched = &text[found.start..found.end];
        let mut chars = replacement.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.peek() {
                    Some('&') => {
                        out.push('&');
                        chars.next();
                    }
                    Some('\\') => {
                        out.push('\\');
                        chars.next();
                    }
                    _ => out.push('\\'),
                },
                '&' => out.push_str(matched),
                c => out.push(c),
            }
        }
        count += 1;
        last = found.end;
        if !global {
            break;
        }
    }
    out.push_str(&text[last..]);
    (out, count)
}

/// gawk's `gensub`: `\\0`/`&` the match, `\\N` groups; `how` is "g" or N.
fn gensub(text: &str, matcher: &Matcher, replacement: &str, how: &str) -> String {
    let global = how.starts_with('g') || how.starts_with('G');
    let which: usize = if global {
        0
    } else {
        leading_number(how).max(1.0) as usize
    };
    let mut out = String::new();
    let mut last = 0;
    for (index, found) in matcher.matches(text).enumerate() {
        if global || index + 1 == which {
            out.push_str(&text[last..found.start]);
            let mut chars = replacement.chars().peekable();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some(d @ '0'..='9') => {
                            let n = d.to_digit(10).unwrap_or(0) as usize;
                            if let Some(Some((s, e))) = found.groups.get(n) {
                                out.push_str(&text[*s..*e]);
                            }
                        }
                        Some('&') => out.push('&'),
                        Some(other) => out.push(other),
                        None => out.push('\\'),
                    },
                    '&' => out.push_str(&text[found.start..found.end]),
                    c => out.push(c),
                }
            }
            last = found.end;
            if !global {
                break;
            }
        }
    }
    out.push_str(&text[last..]);
    out
}

/// How gawk's `asort`/`asorti` order what they sort: by value or index,
/// as numbers, strings, or numbers before strings, up or down.
#[derive(Clone, Copy)]
struct SortOrder {
    by_index: bool,
    kind: SortKind,
    descending: bool,
}

#[derive(Clone, Copy)]
enum SortKind {
    Number,
    Text,
    /// Numbers (numerically) before strings (byte by byte): gawk's default.
    Typed,
}

impl SortOrder {
    /// gawk's predefined orders (`@val_num_desc`, ...); a function name
    /// (user-defined order) is not supported.
    fn named(name: &str) -> Option<SortOrder> {
        let rest = name.strip_prefix('@')?;
        let mut parts = rest.split('_');
        let by_index = match parts.next()? {
            "ind" => true,
            "val" => false,
            _ => return None,
        };
        let kind = match parts.next()? {
            "num" => SortKind::Number,
            "str" => SortKind::Text,
            "type" if !by_index => SortKind::Typed,
            _ => return None,
        };
        let descending = match parts.next()? {
            "asc" => false,
            "desc" => true,
            _ => return None,
        };
        parts.next().is_none().then_some(SortOrder {
            by_index,
            kind,
            descending,
        })
    }

    fn compare(&self, a: &SortKey, b: &SortKey) -> std::cmp::Ordering {
        use std::cmp::Ordering;
        let by_number = |x: f64, y: f64| x.partial_cmp(&y).unwrap_or(Ordering::Equal);
        let order = match self.kind {
            SortKind::Number => by_number(a.value, b.value).then_with(|| a.text.cmp(&b.text)),
            SortKind::Text => a.text.cmp(&b.text),
            SortKind::Typed => match (a.number, b.number) {
                (Some(x), Some(y)) => by_number(x, y),
                (Some(_), None) => Ordering::Less,
                (None, Some(_)) => Ordering::Greater,
                (None, None) => a.text.cmp(&b.text),
            },
        };
        if self.descending {
            order.reverse()
        } else {
            order
        }
    }
}

/// What a value is sorted by, worked out once per value (not at every
/// comparison): its number, whether it counts as one (a number, or input
/// that looks like one), and its text.
struct SortKey {
    value: f64,
    number: Option<f64>,
    text: String,
}

impl SortKey {
    fn of(value: &Value) -> SortKey {
        let number = match value {
            Value::Num(n) => Some(*n),
            Value::StrNum(text) if super::super::value::looks_numeric(text) => Some(value.num()),
            Value::Uninit => Some(0.0),
            _ => None,
        };
        SortKey {
            value: value.num(),
            number,
            text: value.string("%.6g"),
        }
    }
}

impl Awk<'_> {
    /// gawk's `asort(src [, dest [, how]])` and `asorti`: the values (or
    /// indices) sorted into `dest`, or into `src` itself, indexed from 1;
    /// the count.
    fn sort_array(&mut self, name: &str, args: &[Expr]) -> R<Value> {
        let Some(Expr::Var(source)) = args.first() else {
            return Err(Jump::Error(format!("{name}: first argument not an array")));
        };
        let destination = match args.get(1) {
            None => source,
            Some(Expr::Var(destination)) => destination,
            Some(_) => {
                return Err(Jump::Error(format!("{name}: second argument not an array")));
            }
        };
        let default = if name == "asorti" {
            "@ind_str_asc"
        } else {
            "@val_type_asc"
        };
        let how = match args.get(2) {
            Some(expr) => self.eval(expr)?.string("%.6g"),
            None => default.to_string(),
        };
        let Some(order) = SortOrder::named(&how) else {
            let program = self.program;
            return Err(Jump::Error(if program.functions.contains_key(&how) {
                format!("{name}: sorting by a function of the program (`{how}') is not supported")
            } else {
                format!("sort comparison function `{how}' is not defined")
            }));
        };
        let id = self.array_id(source);
        // Each entry with what it is sorted by and what it becomes.
        let mut keyed: Vec<(SortKey, Value)> = self.arrays[id]
            .iter()
            .map(|(key, value)| {
                let key = Value::StrNum(key.clone());
                let sort_key = SortKey::of(if order.by_index { &key } else { value });
                (sort_key, if name == "asorti" { key } else { value.clone() })
            })
            .collect();
        keyed.sort_by(|a, b| order.compare(&a.0, &b.0));
        let sorted: Vec<Value> = keyed.into_iter().map(|(_, value)| value).collect();
        let count = sorted.len();
        let target = self.array_id(destination);
        self.arrays[target].clear();
        for (index, value) in sorted.into_iter().enumerate() {
            self.arrays[target].insert((index + 1).to_string(), value);
        }
        Ok(Value::Num(count as f64))
    }
}
