//! The `time` keyword's report, as bash writes it: `TIMEFORMAT` with its
//! `%[p][l]R`, `U`, `S`, `P` and `%%` (unset: bash's three lines; empty:
//! nothing). User and system time are not measured in the sandbox: 0.

/// bash's format when `TIMEFORMAT` is unset.
const DEFAULT: &str = "\nreal\t%3lR\nuser\t%3lU\nsys\t%3lS";

/// The report for a pipeline that took `real` seconds (`None` prints
/// nothing: `TIMEFORMAT` is empty).
pub(crate) fn report(format: Option<&str>, real: f64) -> Option<String> {
    let format = format.unwrap_or(DEFAULT);
    if format.is_empty() {
        return None;
    }
    let mut out = String::new();
    let chars: Vec<char> = format.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '%' {
            out.push(c);
            continue;
        }
        if chars.get(i) == Some(&'%') {
            out.push('%');
            i += 1;
            continue;
        }
        let mut precision = 3;
        if let Some(digit) = chars.get(i).and_then(|c| c.to_digit(10)) {
            precision = digit.min(3) as usize;
            i += 1;
        }
        let long = chars.get(i) == Some(&'l');
        if long {
            i += 1;
        }
        let value = match chars.get(i) {
            Some('R') => real,
            Some('U') | Some('S') => 0.0,
            Some('P') => {
                i += 1;
                out.push_str("0.00");
                continue;
            }
            // Not a conversion: printed as written.
            _ => {
                out.push('%');
                continue;
            }
        };
        i += 1;
        // bash keeps milliseconds and cuts (not rounds) to the precision.
        let millis = (value * 1000.0).floor() as u64;
        let (seconds, fraction) = (millis / 1000, millis % 1000);
        let fraction = match precision {
            0 => String::new(),
            p => {
                let digits = (fraction / 10u64.pow(3 - p as u32)).to_string();
                format!(".{}", crate::pad::left_pad(&digits, p, '0'))
            }
        };
        if long {
            out.push_str(&format!("{}m{}{fraction}s", seconds / 60, seconds % 60));
        } else {
            out.push_str(&format!("{seconds}{fraction}"));
        }
    }
    out.push('\n');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_as_bash() {
        assert_eq!(
            report(None, 0.1234).unwrap(),
            "\nreal\t0m0.123s\nuser\t0m0.000s\nsys\t0m0.000s\n"
        );
        assert_eq!(report(Some("%R"), 1.5).unwrap(), "1.500\n");
        assert_eq!(
            report(Some("%1lR|%0R|%%|%U"), 61.29).unwrap(),
            "1m1.2s|61|%|0.000\n"
        );
        assert_eq!(report(Some("%1lR"), 0.16).unwrap(), "0m0.1s\n");
        assert_eq!(report(Some(""), 1.0), None);
    }
}
