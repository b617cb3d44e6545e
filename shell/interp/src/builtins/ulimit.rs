//! `ulimit`: shows and sets the shell's resource limits
//! ([`crate::interp::resources`]) as bash's builtin does — options that
//! may take their value from the next word, `-S`/`-H`, `unlimited`,
//! `hard`, `soft`, and the errors of an unprivileged user.

use crate::builtins::common::write_out;
use crate::interp::resources::{LimitValue, RESOURCES, resource_index};
use crate::interp::{ExecResult, Shell};

const USAGE: &str = "ulimit: usage: ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]\n";

/// Which of the pair a command reads or sets.
#[derive(Clone, Copy, Default)]
struct Which {
    soft: bool,
    hard: bool,
}

pub fn ulimit(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut which = Which::default();
    let mut all = false;
    // (resource index, value word) in the order given.
    let mut commands: Vec<(usize, Option<String>)> = Vec::new();
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        if arg == "--" {
            index += 1;
            break;
        }
        let Some(letters) = arg.strip_prefix('-').filter(|l| !l.is_empty()) else {
            break;
        };
        index += 1;
        let letters: Vec<char> = letters.chars().collect();
        for (position, &letter) in letters.iter().enumerate() {
            match letter {
                'S' => which.soft = true,
                'H' => which.hard = true,
                'a' => all = true,
                _ => {
                    let Some(resource) = resource_index(letter) else {
                        shell.fail("ulimit", &format!("-{letter}: invalid option"), 2);
                        shell.write_stderr(USAGE.as_bytes());
                        return Ok(2);
                    };
                    // The value: the rest of this word, or the next word
                    // when it is no option.
                    let rest: String = letters[position + 1..].iter().collect();
                    let value = if !rest.is_empty() {
                        Some(rest)
                    } else if let Some(next) = args.get(index).filter(|n| !n.starts_with('-')) {
                        index += 1;
                        Some(next.clone())
                    } else {
                        None
                    };
                    let took_rest = value.is_some() && position + 1 < letters.len();
                    commands.push((resource, value));
                    if took_rest {
                        break;
                    }
                }
            }
        }
    }
    let mut operands = args[index.min(args.len())..].iter();
    if all {
        let text: String = (0..RESOURCES.len())
            .map(|resource| described(shell, resource, which))
            .collect();
        return write_out(shell, "ulimit", &text);
    }
    if commands.is_empty() {
        let file_size = resource_index('f').unwrap_or(0);
        commands.push((file_size, operands.next().cloned()));
    }
    // An operand after the last option is that option's value (POSIX).
    if let Some(last) = commands.last_mut()
        && last.1.is_none()
    {
        last.1 = operands.next().cloned();
    }
    let several = commands.len() > 1;
    for (resource, value) in commands {
        let status = match value {
            None => {
                let text = if several {
                    described(shell, resource, which)
                } else {
                    format!("{}\n", shown(current(shell, resource, which)))
                };
                write_out(shell, "ulimit", &text)?
            }
            Some(value) => set(shell, resource, &value, which),
        };
        if status != 0 {
            return Ok(status);
        }
    }
    Ok(0)
}

/// The limit shown: the hard one with `-H` alone, else the soft one.
fn current(shell: &Shell, resource: usize, which: Which) -> LimitValue {
    let (soft, hard) = shell.resource_limits.get(resource);
    if which.hard && !which.soft {
        hard
    } else {
        soft
    }
}

fn shown(value: LimitValue) -> String {
    value.map_or_else(|| "unlimited".to_string(), |v| v.to_string())
}

/// A line of `ulimit -a`: description, unit and letter, value.
fn described(shell: &Shell, resource: usize, which: Which) -> String {
    let info = &RESOURCES[resource];
    let label = match info.unit {
        Some(unit) => format!("({unit}, -{}) ", info.letter),
        None => format!("(-{}) ", info.letter),
    };
    let value = shown(current(shell, resource, which));
    format!("{:<20} {:>20}{value}\n", info.description, label)
}

fn set(shell: &mut Shell, resource: usize, word: &str, which: Which) -> i32 {
    let (soft, hard) = shell.resource_limits.get(resource);
    let value = match word {
        "unlimited" => None,
        "hard" => hard,
        "soft" => soft,
        _ if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) => {
            // The value in bytes must fit the system's type, and stay
            // below its "unlimited".
            // The digits wrap as bash's conversion does; only the bytes
            // are checked.
            let factor = RESOURCES[resource].factor;
            let number = word.bytes().fold(0u64, |n, digit| {
                n.wrapping_mul(10).wrapping_add(u64::from(digit - b'0'))
            });
            let fits = Some(number)
                .filter(|n| n.checked_mul(factor).is_some_and(|bytes| bytes != u64::MAX));
            match fits {
                Some(n) => Some(n),
                None => return shell.fail("ulimit", &format!("{word}: limit out of range"), 1),
            }
        }
        _ => return shell.fail("ulimit", &format!("{word}: invalid number"), 1),
    };
    // Neither -S nor -H: both.
    let both = !which.soft && !which.hard;
    match shell
        .resource_limits
        .set(resource, value, which.soft || both, which.hard || both)
    {
        Ok(()) => 0,
        Err(refused) => {
            let message = format!(
                "{}: cannot modify limit: {}",
                RESOURCES[resource].description,
                refused.message()
            );
            shell.fail("ulimit", &message, 1)
        }
    }
}
