//! bc's numbers: arbitrary-precision decimals (a big integer and a count
//! of fraction digits), with POSIX bc's scale rules and truncation.

use std::cmp::Ordering;

use num_bigint::{BigInt, Sign};
use num_integer::Integer;
use num_traits::{Signed, ToPrimitive, Zero};

/// `value = digits / 10^scale`.
#[derive(Clone, Debug, Default)]
pub struct Number {
    digits: BigInt,
    scale: usize,
}

fn ten_pow(n: usize) -> BigInt {
    num_traits::pow(BigInt::from(10u32), n)
}

impl Number {
    pub fn zero() -> Self {
        Number::default()
    }

    pub fn from_i64(value: i64) -> Self {
        Number {
            digits: BigInt::from(value),
            scale: 0,
        }
    }

    pub fn from_bool(value: bool) -> Self {
        Number::from_i64(i64::from(value))
    }

    pub fn scale(&self) -> usize {
        self.scale
    }

    pub fn is_zero(&self) -> bool {
        self.digits.is_zero()
    }

    pub fn is_negative(&self) -> bool {
        self.digits.is_negative()
    }

    /// Parses digits in `base` (2 to 16; bc reads `A`-`F` as 10-15 in any
    /// base), with an optional fraction.
    pub fn parse(text: &str, base: u32) -> Option<Number> {
        let (whole, fraction) = match text.split_once('.') {
            Some((w, f)) => (w, f),
            None => (text, ""),
        };
        let digit = |c: char| c.to_digit(16);
        let mut digits = BigInt::zero();
        for c in whole.chars() {
            digits = digits * base + digit(c)?;
        }
        if base == 10 {
            for c in fraction.chars() {
                digits = digits * 10u32 + digit(c)?;
            }
            return Some(Number {
                digits,
                scale: fraction.len(),
            });
        }
        // Another base: the fraction converted to as many decimal digits
        // as it has digits.
        let mut value = Number { digits, scale: 0 };
        let mut place = Number::from_i64(1);
        let base_number = Number::from_i64(i64::from(base));
        for c in fraction.chars() {
            place = place.div(&base_number, fraction.len() + 1)?;
            value =
                value.add(&place.mul(&Number::from_i64(i64::from(digit(c)?)), fraction.len() + 1));
        }
        Some(value.rescale(fraction.len()))
    }

    /// The same value with exactly `scale` fraction digits (truncating).
    pub fn rescale(&self, scale: usize) -> Number {
        let digits = match scale.cmp(&self.scale) {
            Ordering::Equal => self.digits.clone(),
            Ordering::Greater => &self.digits * ten_pow(scale - self.scale),
            Ordering::Less => truncating_div(&self.digits, &ten_pow(self.scale - scale)),
        };
        Number { digits, scale }
    }

    fn aligned(&self, other: &Number) -> (BigInt, BigInt, usize) {
        let scale = self.scale.max(other.scale);
        (
            self.rescale(scale).digits,
            other.rescale(scale).digits,
            scale,
        )
    }

    pub fn add(&self, other: &Number) -> Number {
        let (a, b, scale) = self.aligned(other);
        Number {
            digits: a + b,
            scale,
        }
    }

    pub fn sub(&self, other: &Number) -> Number {
        self.add(&other.neg())
    }

    pub fn neg(&self) -> Number {
        Number {
            digits: -&self.digits,
            scale: self.scale,
        }
    }

    /// POSIX: the product keeps `min(a + b, max(scale, a, b))` digits.
    pub fn mul(&self, other: &Number, scale: usize) -> Number {
        let full = Number {
            digits: &self.digits * &other.digits,
            scale: self.scale + other.scale,
        };
        let keep = full.scale.min(scale.max(self.scale).max(other.scale));
        full.rescale(keep)
    }

    /// The quotient to `scale` digits; `None` dividing by zero.
    pub fn div(&self, other: &Number, scale: usize) -> Option<Number> {
        if other.is_zero() {
            return None;
        }
        // a/10^sa / (b/10^sb) = a * 10^(sb + scale - sa) / b / 10^scale.
        let shift = other.scale as i64 + scale as i64 - self.scale as i64;
        let (numerator, denominator) = if shift >= 0 {
            (&self.digits * ten_pow(shift as usize), other.digits.clone())
        } else {
            (
                self.digits.clone(),
                &other.digits * ten_pow((-shift) as usize),
            )
        };
        Some(Number {
            digits: truncating_div(&numerator, &denominator),
            scale,
        })
    }

    /// `a - (a / b) * b`, the quotient taken at `scale`.
    pub fn rem(&self, other: &Number, scale: usize) -> Option<Number> {
        let quotient = self.div(other, scale)?;
        let keep = (scale + other.scale).max(self.scale);
        let product = quotient.mul(other, keep);
        Some(self.sub(&product).rescale(keep))
    }

    /// Integer powers; a negative exponent is a reciprocal at `scale`.
    pub fn pow(&self, exponent: &Number, scale: usize) -> Option<Number> {
        let n = exponent.integer_part().to_i64()?;
        if n == 0 {
            return Some(Number::from_i64(1));
        }
        let magnitude = n.unsigned_abs();
        if magnitude > 1_000_000 {
            return None;
        }
        let mut result = Number::from_i64(1);
        let mut base = self.clone();
        let mut remaining = magnitude;
        let wanted = (self.scale * magnitude as usize).min(scale.max(self.scale));
        while remaining > 0 {
            if remaining & 1 == 1 {
                result = result.mul(&base, usize::MAX / 4);
            }
            remaining >>= 1;
            if remaining > 0 {
                base = base.mul(&base, usize::MAX / 4);
            }
        }
        if n < 0 {
            return Number::from_i64(1).div(&result, scale);
        }
        Some(result.rescale(wanted))
    }

    /// The square root to `max(scale, own scale)` digits; `None` below 0.
    pub fn sqrt(&self, scale: usize) -> Option<Number> {
        if self.is_negative() {
            return None;
        }
        let scale = scale.max(self.scale);
        // sqrt(d / 10^s) at scale k = isqrt(d * 10^(2k - s)) / 10^k.
        let shifted = self.rescale(2 * scale).digits;
        Some(Number {
            digits: shifted.sqrt(),
            scale,
        })
    }

    pub fn integer_part(&self) -> BigInt {
        truncating_div(&self.digits, &ten_pow(self.scale))
    }

    pub fn compare(&self, other: &Number) -> Ordering {
        let (a, b, _) = self.aligned(other);
        a.cmp(&b)
    }

    /// Significant digits (`length()`).
    pub fn length(&self) -> usize {
        let text = self.digits.abs().to_string();
        if self.digits.is_zero() {
            self.scale.max(1)
        } else {
            text.len().max(self.scale)
        }
    }

    pub fn to_f64(&self) -> f64 {
        self.digits.to_f64().unwrap_or(f64::NAN) / 10f64.powi(self.scale as i32)
    }

    pub fn from_f64(value: f64, scale: usize) -> Number {
        let text = goccia_interp::pad::fixed(value, scale);
        Number::parse(text.trim_start_matches('-'), 10)
            .map(|n| if value < 0.0 { n.neg() } else { n })
            .unwrap_or_default()
            .rescale(scale)
    }

    /// As bc prints it in `base`: no leading `0` before the point.
    pub fn render(&self, base: u32) -> String {
        if base == 10 {
            return self.render_decimal();
        }
        self.render_in(base)
    }

    fn render_decimal(&self) -> String {
        let negative = self.digits.sign() == Sign::Minus;
        let text = self.digits.abs().to_string();
        let body = if self.scale == 0 {
            text
        } else {
            let padded = goccia_interp::pad::left_pad(&text, self.scale + 1, '0');
            let (whole, fraction) = padded.split_at(padded.len() - self.scale);
            let whole = if whole == "0" { "" } else { whole };
            format!("{whole}.{fraction}")
        };
        if negative { format!("-{body}") } else { body }
    }

    fn render_in(&self, base: u32) -> String {
        let negative = self.is_negative();
        let mut whole = self.integer_part().abs();
        let digit = |d: u32| {
            std::char::from_digit(d, base)
                .unwrap_or('?')
                .to_ascii_uppercase()
        };
        let mut text = Vec::new();
        if whole.is_zero() {
            text.push('0');
        }
        while !whole.is_zero() {
            let (q, r) = whole.div_rem(&BigInt::from(base));
            text.push(digit(r.to_u32().unwrap_or(0)));
            whole = q;
        }
        text.reverse();
        let mut out: String = text.into_iter().collect();
        if self.scale > 0 {
            out.push('.');
            let mut fraction = self
                .sub(&Number {
                    digits: self.integer_part() * ten_pow(self.scale),
                    scale: self.scale,
                })
                .abs();
            // As many base digits as it takes to show `scale` decimals.
            let places = ((self.scale as f64) / (base as f64).log10()).ceil() as usize;
            for _ in 0..places {
                fraction = fraction.mul(&Number::from_i64(i64::from(base)), self.scale);
                let d = fraction.integer_part();
                out.push(digit(d.to_u32().unwrap_or(0)));
                fraction = fraction.sub(&Number {
                    digits: d * ten_pow(fraction.scale),
                    scale: fraction.scale,
                });
            }
        }
        if negative { format!("-{out}") } else { out }
    }

    fn abs(&self) -> Number {
        Number {
            digits: self.digits.abs(),
            scale: self.scale,
        }
    }
}

/// Integer division rounding toward zero (bc truncates).
fn truncating_div(a: &BigInt, b: &BigInt) -> BigInt {
    let (q, _) = a.div_rem(b);
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(text: &str) -> Number {
        match text.strip_prefix('-') {
            Some(rest) => Number::parse(rest, 10).unwrap().neg(),
            None => Number::parse(text, 10).unwrap(),
        }
    }

    #[test]
    fn arithmetic_follows_bc_scale_rules() {
        assert_eq!(n("10").div(&n("3"), 0).unwrap().render(10), "3");
        assert_eq!(n("10").div(&n("3"), 2).unwrap().render(10), "3.33");
        assert_eq!(n("100.50").mul(&n("1.0825"), 2).render(10), "108.7912");
        assert_eq!(n("-5").add(&n("3")).render(10), "-2");
        assert_eq!(n("10").rem(&n("3"), 0).unwrap().render(10), "1");
        assert_eq!(n("2").pow(&n("10"), 0).unwrap().render(10), "1024");
        assert_eq!(n("2").sqrt(4).unwrap().render(10), "1.4142");
        assert_eq!(n("0.5").render(10), ".5");
        assert_eq!(n("-0.25").render(10), "-.25");
        assert_eq!(n("2").pow(&n("-2"), 3).unwrap().render(10), ".250");
        assert!(n("1").div(&n("0"), 0).is_none());
        assert_eq!(n("255").render(16), "FF");
        assert_eq!(n("5").render(2), "101");
        assert_eq!(Number::parse("FF", 16).unwrap().render(10), "255");
    }
}
