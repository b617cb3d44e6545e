//! awk values: numbers, strings, and "strnums" (input that looks numeric
//! compares as a number).

#[derive(Clone, Debug, Default)]
pub enum Value {
    #[default]
    Uninit,
    Num(f64),
    Str(String),
    /// From input (fields, `getline`, `split`, `ARGV`): numeric if it
    /// looks like a number.
    StrNum(String),
}

/// The longest numeric prefix, as awk's `strtod`.
pub fn leading_number(text: &str) -> f64 {
    let text = text.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let bytes = text.as_bytes();
    let digits_start = usize::from(matches!(bytes.first(), Some(b'+' | b'-')));
    let mut end = goccia_interp::printf::decimal_prefix_len(bytes);
    if end == digits_start || (end == digits_start + 1 && bytes.get(digits_start) == Some(&b'.')) {
        let lower = text.to_ascii_lowercase();
        let rest = lower.trim_start_matches(['+', '-']);
        let negative = lower.starts_with('-');
        if rest.starts_with("inf") {
            return if negative {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
        }
        if rest.starts_with("nan") {
            return f64::NAN;
        }
        return 0.0;
    }
    if end < bytes.len() && (bytes[end] == b'e' || bytes[end] == b'E') {
        let mut exp_end = end + 1;
        if exp_end < bytes.len() && (bytes[exp_end] == b'+' || bytes[exp_end] == b'-') {
            exp_end += 1;
        }
        if exp_end < bytes.len() && bytes[exp_end].is_ascii_digit() {
            while exp_end < bytes.len() && bytes[exp_end].is_ascii_digit() {
                exp_end += 1;
            }
            end = exp_end;
        }
    }
    text[..end].parse().unwrap_or(0.0)
}

/// Does the whole text look like a number (blanks around allowed)?
pub fn looks_numeric(text: &str) -> bool {
    let trimmed = text.trim_matches([' ', '\t', '\n', '\r']);
    if trimmed.is_empty() {
        return false;
    }
    let body = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    if body.is_empty() {
        return false;
    }
    let mut seen_digit = false;
    let mut seen_dot = false;
    let mut seen_exp = false;
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'0'..=b'9' => seen_digit = true,
            b'.' if !seen_dot && !seen_exp => seen_dot = true,
            b'e' | b'E' if seen_digit && !seen_exp => {
                seen_exp = true;
                if i + 1 < bytes.len() && (bytes[i + 1] == b'+' || bytes[i + 1] == b'-') {
                    i += 1;
                }
                if i + 1 >= bytes.len() {
                    return false;
                }
            }
            _ => return false,
        }
        i += 1;
    }
    seen_digit
}

/// Formats a number as awk prints it: integers plainly, others with the
/// given `printf` format (`OFMT`/`CONVFMT`).
pub fn number_to_string(n: f64, format: &str) -> String {
    // gawk signs both: `+inf`, `-inf`, `+nan`, `-nan`.
    if n.is_nan() {
        return if n.is_sign_negative() { "-nan" } else { "+nan" }.to_string();
    }
    if n.is_infinite() {
        return if n < 0.0 { "-inf" } else { "+inf" }.to_string();
    }
    if n == n.trunc() && n.abs() < 1e16 {
        return format!("{}", n as i64);
    }
    // gawk prints an integral value as an integer whatever its size: the
    // double's exact decimal digits (1e30 is 1000000000000000019884624838656).
    if n == n.trunc() {
        return format!("{n:.0}");
    }
    super::format::sprintf_number(format, n)
}

impl Value {
    pub fn num(&self) -> f64 {
        match self {
            Value::Uninit => 0.0,
            Value::Num(n) => *n,
            Value::Str(s) | Value::StrNum(s) => leading_number(s),
        }
    }

    pub fn string(&self, convfmt: &str) -> String {
        match self {
            Value::Uninit => String::new(),
            Value::Num(n) => number_to_string(*n, convfmt),
            Value::Str(s) | Value::StrNum(s) => s.clone(),
        }
    }

    /// Compares as numbers?
    pub fn is_numeric(&self) -> bool {
        match self {
            Value::Uninit | Value::Num(_) => true,
            Value::Str(_) => false,
            Value::StrNum(s) => looks_numeric(s),
        }
    }

    pub fn truthy(&self) -> bool {
        match self {
            Value::Uninit => false,
            Value::Num(n) => *n != 0.0,
            Value::Str(s) => !s.is_empty(),
            Value::StrNum(s) => {
                if looks_numeric(s) {
                    leading_number(s) != 0.0
                } else {
                    !s.is_empty()
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_strings() {
        assert_eq!(leading_number("  12abc"), 12.0);
        assert_eq!(leading_number("-3.5e2x"), -350.0);
        assert_eq!(leading_number("abc"), 0.0);
        assert!(looks_numeric(" 42 "));
        assert!(looks_numeric("1e5"));
        assert!(!looks_numeric("1e"));
        assert!(!looks_numeric("12abc"));
        assert_eq!(number_to_string(3.0, "%.6g"), "3");
        assert_eq!(number_to_string(0.1 + 0.2, "%.6g"), "0.3");
        assert!(!Value::StrNum("0".into()).truthy());
        assert!(Value::Str("0".into()).truthy());
    }
}
