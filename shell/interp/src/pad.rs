//! Widths and precisions given at run time: padding text to a width and
//! writing floats with a number of decimals.
//!
//! Rust's `format!` panics on a width or precision over 65,535 ("Formatting
//! argument out of range"), and those numbers come from guest input
//! (`printf '%.70000f'`, `column` over a long word, `split -a`, `bc`'s
//! `scale`). Every runtime width and precision in the shell goes through
//! this module, which never passes one to `format!`; a test greps the
//! sources for any that does.

/// `text` right-aligned in `width` characters, filled with `fill`.
pub fn left_pad(text: &str, width: usize, fill: char) -> String {
    let len = text.chars().count();
    if len >= width {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + (width - len) * fill.len_utf8());
    out.extend(std::iter::repeat_n(fill, width - len));
    out.push_str(text);
    out
}

/// `text` left-aligned in `width` characters, filled with `fill`.
pub fn right_pad(text: &str, width: usize, fill: char) -> String {
    let len = text.chars().count();
    let mut out = String::with_capacity(text.len() + width.saturating_sub(len));
    out.push_str(text);
    out.extend(std::iter::repeat_n(fill, width.saturating_sub(len)));
    out
}

/// A number's digits zero-padded to `width`, the sign first (`-0042`).
pub(crate) fn zero_pad_signed(value: i64, width: usize) -> String {
    let digits = value.unsigned_abs().to_string();
    if value < 0 {
        format!("-{}", left_pad(&digits, width.saturating_sub(1), '0'))
    } else {
        left_pad(&digits, width, '0')
    }
}

/// Decimals past which every `f64` is exact zeros: a double is a dyadic
/// rational with at most 1,074 binary (so 1,074 decimal) fractional digits.
const EXACT_DECIMALS: usize = 1_100;

/// `value` with exactly `decimals` digits after the point (`%.Nf`), for
/// any `decimals`: digits past what a double holds are zeros.
pub fn fixed(value: f64, decimals: usize) -> String {
    let shown = decimals.min(EXACT_DECIMALS);
    let mut text = format!("{value:.shown$}");
    if decimals > shown && value.is_finite() {
        text.extend(std::iter::repeat_n('0', decimals - shown));
    }
    text
}

/// `value` in Rust's exponent form with `decimals` digits in the mantissa
/// (`1.50e3`), for any `decimals`.
pub(crate) fn scientific(value: f64, decimals: usize) -> String {
    let shown = decimals.min(EXACT_DECIMALS);
    let text = format!("{value:.shown$e}");
    if decimals <= shown || !value.is_finite() {
        return text;
    }
    let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
    let mut out = String::with_capacity(text.len() + decimals - shown);
    out.push_str(mantissa);
    out.extend(std::iter::repeat_n('0', decimals - shown));
    out.push('e');
    out.push_str(exponent);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_agrees_with_format_where_format_works() {
        for (text, width) in [("ab", 5), ("abcdef", 3), ("", 2), ("é", 3)] {
            assert_eq!(left_pad(text, width, ' '), format!("{text:>width$}"));
            assert_eq!(right_pad(text, width, ' '), format!("{text:<width$}"));
            assert_eq!(left_pad(text, width, '0'), format!("{text:0>width$}"));
        }
        for (value, width) in [(42, 5), (-42, 5), (7, 0), (-7, 1)] {
            assert_eq!(zero_pad_signed(value, width), format!("{value:0width$}"));
        }
        for (value, decimals) in [(1.0 / 3.0, 4), (-2.5, 0), (1e300, 2), (5e-324, 10)] {
            assert_eq!(fixed(value, decimals), format!("{value:.decimals$}"));
            assert_eq!(scientific(value, decimals), format!("{value:.decimals$e}"));
        }
    }

    #[test]
    fn widths_and_precisions_past_format_s_limit_work() {
        assert_eq!(left_pad("x", 70_000, ' ').len(), 70_000);
        assert_eq!(right_pad("x", 70_000, '-').len(), 70_000);
        let one = fixed(1.0, 70_000);
        assert_eq!(one.len(), 70_002);
        assert!(one.starts_with("1.000") && one.ends_with('0'));
        // The exact digits of a double end well before 1,100 decimals.
        let third = fixed(1.0 / 3.0, 2_000);
        assert_eq!(
            third,
            format!("{}{}", fixed(1.0 / 3.0, 1_100), "0".repeat(900))
        );
        let big = scientific(1.5, 70_000);
        assert!(
            big.starts_with("1.5000") && big.ends_with("e0"),
            "{}",
            &big[..10]
        );
    }
}
