//! `factor`: the prime factors of each number given (or read from
//! stdin), as GNU coreutils prints them: `N: p1 p2 …` in ascending order.
//! Numbers up to 2^64 − 1 are factored (trial division, then Pollard's rho
//! with a deterministic Miller–Rabin test); GNU's build with GMP goes
//! further, and a larger number is refused as GNU's build without it
//! refuses one ("is too large").

use crate::args::{finish, usage};
use goccia_interp::interp::{ExecResult, ShellView};
use std::io::Write;

pub fn factor(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut operands = match crate::args::operands_only(args) {
        Ok(operands) => operands,
        Err(message) => return usage(shell, "factor", &message, 1),
    };
    if operands.is_empty() {
        let input = match goccia_interp::input::Source::stdin(shell).read_all() {
            Ok(bytes) => goccia_interp::raw::decode_vec(bytes),
            Err(error) => return shell.io_status("factor", error),
        };
        operands = input.split_whitespace().map(String::from).collect();
    }
    let mut out = crate::args::buffered(shell);
    let mut status = 0;
    for operand in &operands {
        shell.check_watch()?;
        match number(operand) {
            Ok(n) => {
                let factors: Vec<String> = prime_factors(n).iter().map(u64::to_string).collect();
                let line = if factors.is_empty() {
                    format!("{n}:\n")
                } else {
                    format!("{n}: {}\n", factors.join(" "))
                };
                if let Err(error) = out.write_all(line.as_bytes()) {
                    return shell.io_status("factor", error);
                }
            }
            Err(message) => {
                // What was factored before is written before the message.
                if let Err(error) = out.flush() {
                    return shell.io_status("factor", error);
                }
                status = shell.fail_command("factor", &message, 1);
            }
        }
    }
    finish(shell, "factor", out, status)
}

/// An operand as GNU reads it: leading blanks and one `+` allowed, then
/// decimal digits only.
fn number(operand: &str) -> Result<u64, String> {
    let invalid = || format!("\u{2018}{operand}\u{2019} is not a valid positive integer");
    let text = operand.trim_start_matches([' ', '\t', '\n']);
    let digits = text.strip_prefix('+').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    digits
        .parse::<u64>()
        .map_err(|_| format!("\u{2018}{operand}\u{2019} is too large"))
}

/// The prime factors of `n`, ascending, with repeats (none for 0 and 1).
fn prime_factors(mut n: u64) -> Vec<u64> {
    let mut factors = Vec::new();
    if n < 2 {
        return factors;
    }
    for p in [2u64, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        while n.is_multiple_of(p) {
            factors.push(p);
            n /= p;
        }
    }
    let mut pending = vec![n];
    while let Some(m) = pending.pop() {
        if m == 1 {
            continue;
        }
        if is_prime(m) {
            factors.push(m);
            continue;
        }
        let divisor = rho(m);
        pending.push(divisor);
        pending.push(m / divisor);
    }
    factors.sort_unstable();
    factors
}

fn mul_mod(a: u64, b: u64, m: u64) -> u64 {
    (u128::from(a) * u128::from(b) % u128::from(m)) as u64
}

fn pow_mod(mut base: u64, mut exponent: u64, m: u64) -> u64 {
    let mut result = 1 % m;
    base %= m;
    while exponent > 0 {
        if exponent & 1 == 1 {
            result = mul_mod(result, base, m);
        }
        base = mul_mod(base, base, m);
        exponent >>= 1;
    }
    result
}

/// Miller–Rabin with the bases that decide every 64-bit number.
fn is_prime(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];
    for p in BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    let (mut d, mut s) = (n - 1, 0);
    while d.is_multiple_of(2) {
        d /= 2;
        s += 1;
    }
    'bases: for a in BASES {
        let mut x = pow_mod(a, d, n);
        if x == 1 || x == n - 1 {
            continue;
        }
        for _ in 1..s {
            x = mul_mod(x, x, n);
            if x == n - 1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

/// A proper divisor of the odd composite `n` (Pollard's rho, Brent's
/// cycle finding), trying further constants until one is found.
fn rho(n: u64) -> u64 {
    let gcd = |mut a: u64, mut b: u64| {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    };
    for c in 1.. {
        let step = |x: u64| (mul_mod(x, x, n) + c) % n;
        let (mut x, mut y, mut d) = (2u64, 2u64, 1u64);
        while d == 1 {
            x = step(x);
            y = step(step(y));
            d = gcd(x.abs_diff(y), n);
        }
        if d != n {
            return d;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_as_gnu_prints_them() {
        assert_eq!(prime_factors(12), [2, 2, 3]);
        assert_eq!(prime_factors(1), Vec::<u64>::new());
        assert_eq!(
            prime_factors(18_446_744_073_709_551_615),
            [3, 5, 17, 257, 641, 65537, 6_700_417]
        );
        assert_eq!(
            prime_factors(18_446_744_073_709_551_557),
            [18_446_744_073_709_551_557]
        );
        assert_eq!(
            prime_factors(4_294_967_291 * 4_294_967_279),
            [4_294_967_279, 4_294_967_291]
        );
    }

    #[test]
    fn operands_are_read_as_gnu_reads_them() {
        assert_eq!(number("+12"), Ok(12));
        assert_eq!(number(" 007"), Ok(7));
        assert!(number("12 ").is_err());
        assert!(number("-3").is_err());
        assert!(number("x").is_err());
        assert_eq!(
            number("18446744073709551616").unwrap_err(),
            "\u{2018}18446744073709551616\u{2019} is too large"
        );
    }
}
