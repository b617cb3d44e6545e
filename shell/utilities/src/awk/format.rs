//! awk's `printf` formatting (`printf`, `sprintf`, and numbers under
//! `OFMT`/`CONVFMT`), on the shared format-spec parser of [`goccia_interp::printf`].

use super::value::Value;

/// `printf`-formats one number (for OFMT/CONVFMT); a format wanting more
/// values than one gets the rest empty.
pub fn sprintf_number(format: &str, n: f64) -> String {
    // Every number printed goes through here: the usual one-directive
    // format takes no allocation for its values.
    let number = Value::Num(n);
    if let Ok(text) = format_with(format, std::slice::from_ref(&number), "%.6g") {
        return text;
    }
    let mut values = vec![number, Value::default()];
    loop {
        match format_with(format, &values, "%.6g") {
            Ok(text) => return text,
            Err(_) => values.push(Value::default()),
        }
    }
}

/// awk's `printf` and `sprintf`; gawk's fatal error, format and caret
/// included, when the values run out before the format's directives.
pub fn format_values(format: &str, values: &[Value], convfmt: &str) -> Result<String, String> {
    format_with(format, values, convfmt).map_err(|at| {
        let caret = " ".repeat(format[..at].chars().count() + 1);
        format!(
            "not enough arguments to satisfy format string\n\t`{format}'\n\t{caret}^ ran out for this one"
        )
    })
}

/// Infinity and not-a-number as gawk writes them under every numeric
/// conversion, width and precision aside.
fn non_finite(n: f64) -> Option<&'static str> {
    match (n.is_nan(), n.is_infinite(), n.is_sign_negative()) {
        (true, _, true) => Some("-nan"),
        (true, _, false) => Some("+nan"),
        (_, true, true) => Some("-inf"),
        (_, true, false) => Some("+inf"),
        _ => None,
    }
}

/// The formatted text, or the byte offset of the directive the values ran
/// out at.
fn format_with(format: &str, values: &[Value], convfmt: &str) -> Result<String, usize> {
    use goccia_interp::printf::{Dialect, Spec, format_float, format_int, pad, parse_spec};
    const AWK_DIALECT: Dialect = Dialect {
        flags: "-+ #0",
        lengths: "hlLqjzt",
    };
    let chars: Vec<char> = format.chars().collect();
    let mut out = String::new();
    let mut next = 0;
    let take = |next: &mut usize| -> Value {
        let value = values.get(*next).cloned().unwrap_or_default();
        *next += 1;
        value
    };
    // Byte offsets of each character, to name where values ran out.
    let offsets: Vec<usize> = format.char_indices().map(|(at, _)| at).collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c != '%' {
            out.push(c);
            i += 1;
            continue;
        }
        if chars.get(i + 1) == Some(&'%') {
            out.push('%');
            i += 2;
            continue;
        }
        let start = i;
        let Spec {
            flags,
            width,
            precision,
            conversion,
            end,
        } = parse_spec(&chars, start, &AWK_DIALECT, || take(&mut next).num() as i64);
        i = end;
        let Some(conversion) = conversion else {
            out.extend(&chars[start..]);
            break;
        };
        if next >= values.len() {
            return Err(offsets[start]);
        }
        let value = take(&mut next);
        if matches!(
            conversion,
            'd' | 'i' | 'o' | 'x' | 'X' | 'u' | 'e' | 'E' | 'f' | 'F' | 'g' | 'G'
        ) && let Some(word) = non_finite(value.num())
        {
            out.push_str(word);
            continue;
        }
        match conversion {
            'd' | 'i' => {
                let n = value.num();
                let n = if n.is_finite() { n.trunc() as i64 } else { 0 };
                out.push_str(&format_int(n, 'd', &flags, &width, precision));
            }
            'o' | 'x' | 'X' | 'u' => {
                let n = value.num();
                let n = if n.is_finite() { n.trunc() as i64 } else { 0 };
                out.push_str(&format_int(n, conversion, &flags, &width, precision));
            }
            'e' | 'E' | 'f' | 'F' | 'g' | 'G' => out.push_str(&format_float(
                value.num(),
                conversion,
                &flags,
                &width,
                precision,
            )),
            'c' => {
                // A number is a character code; so is input that looks
                // like one (a field "65" is A, as in gawk), while a string
                // constant gives its first character.
                let code = match &value {
                    Value::Num(n) => Some(*n),
                    Value::StrNum(text) if super::value::looks_numeric(text) => Some(value.num()),
                    _ => None,
                };
                let text = match code {
                    Some(n) => char::from_u32(n as u32)
                        .map(String::from)
                        .unwrap_or_default(),
                    None => value
                        .string(convfmt)
                        .chars()
                        .next()
                        .map(String::from)
                        .unwrap_or_default(),
                };
                out.push_str(&pad(&text, &flags, &width));
            }
            's' => {
                let text = value.string(convfmt);
                let text = match precision {
                    Some(p) => text.chars().take(p).collect(),
                    None => text,
                };
                out.push_str(&pad(&text, &flags, &width));
            }
            other => {
                out.push('%');
                out.push(other);
            }
        }
    }
    Ok(out)
}
