//! `umask`: the permission bits new files and folders leave out, shown in
//! octal (`-S` symbolically, `-p` as a command) and set from octal or a
//! symbolic mode (`g-w,o=`) applied to the permissions it allows.

use crate::builtins::common::{flag_letters, write_out};
use crate::interp::{ExecResult, Shell};

pub fn umask(shell: &mut Shell, args: &[String]) -> ExecResult {
    let usage = "umask [-p] [-S] [mode]";
    let (letters, index) = match flag_letters(shell, "umask", args, "pS", usage) {
        Ok(read) => read,
        Err(status) => return Ok(status),
    };
    let symbolic = letters.contains(&'S');
    let as_command = letters.contains(&'p');
    // Words after the mode are ignored, as bash ignores them.
    let Some(mode) = args.get(index) else {
        let shown = if symbolic {
            symbolic_text(shell.umask)
        } else {
            format!("{:04o}", shell.umask)
        };
        let text = match (as_command, symbolic) {
            (true, true) => format!("umask -S {shown}\n"),
            (true, false) => format!("umask {shown}\n"),
            _ => format!("{shown}\n"),
        };
        return write_out(shell, "umask", &text);
    };
    let parsed = if mode.starts_with(|c: char| c.is_ascii_digit()) {
        // bash reads up to 0777777 and keeps the permission bits.
        match u32::from_str_radix(mode, 8) {
            Ok(value) if value <= 0o777_777 => Ok(value & 0o777),
            _ => Err(format!("{mode}: octal number out of range")),
        }
    } else {
        apply_symbolic(mode, !shell.umask & 0o777).map(|allowed| !allowed & 0o777)
    };
    match parsed {
        Ok(value) => {
            shell.umask = value;
            if symbolic {
                let text = format!("{}\n", symbolic_text(value));
                return write_out(shell, "umask", &text);
            }
            Ok(0)
        }
        Err(message) => Ok(shell.fail("umask", &message, 1)),
    }
}

/// `u=rwx,g=rx,o=rx` for a mask of 022.
fn symbolic_text(mask: u32) -> String {
    let allowed = !mask & 0o777;
    ["u", "g", "o"]
        .iter()
        .enumerate()
        .map(|(i, who)| {
            let bits = (allowed >> (6 - 3 * i)) & 0o7;
            let mut text = format!("{who}=");
            for (bit, letter) in [(4, 'r'), (2, 'w'), (1, 'x')] {
                if bits & bit != 0 {
                    text.push(letter);
                }
            }
            text
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// A symbolic mode (`[ugoa]*[+-=][rwx]*`, clauses joined by commas)
/// applied to the permissions `allowed`; who left out means all.
fn apply_symbolic(mode: &str, mut allowed: u32) -> Result<u32, String> {
    for clause in mode.split(',') {
        let mut chars = clause.chars().peekable();
        let mut who = 0;
        while let Some(&c) = chars.peek() {
            who |= match c {
                'u' => 0o700,
                'g' => 0o070,
                'o' => 0o007,
                'a' => 0o777,
                _ => break,
            };
            chars.next();
        }
        if who == 0 {
            who = 0o777;
        }
        let op = match chars.next() {
            Some(op @ ('+' | '-' | '=')) => op,
            Some(other) => return Err(format!("`{other}': invalid symbolic mode operator")),
            None => return Err(format!("`{clause}': invalid symbolic mode operator")),
        };
        let mut bits = 0;
        for c in chars {
            bits |= match c {
                'r' => 0o444,
                'w' => 0o222,
                'x' => 0o111,
                other => return Err(format!("`{other}': invalid symbolic mode character")),
            };
        }
        let bits = bits & who;
        allowed = match op {
            '+' => allowed | bits,
            '-' => allowed & !bits,
            _ => (allowed & !who) | bits,
        };
    }
    Ok(allowed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbolic_modes_change_what_the_mask_allows() {
        assert_eq!(apply_symbolic("g-w,o-w", 0o775), Ok(0o755));
        assert_eq!(apply_symbolic("u=rwx,g=,o=", 0o755), Ok(0o700));
        assert_eq!(apply_symbolic("+x", 0o644), Ok(0o755));
        assert!(apply_symbolic("u=rx+w", 0o755).is_err());
        assert!(apply_symbolic("q+r", 0o755).is_err());
        assert_eq!(symbolic_text(0o022), "u=rwx,g=rx,o=rx");
        assert_eq!(symbolic_text(0o077), "u=rwx,g=,o=");
    }
}
