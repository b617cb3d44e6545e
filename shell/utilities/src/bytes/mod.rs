//! Byte-level utilities, one family per file: copying blocks (`dd`), dumps (`od`, `hexdump`,
//! `xxd`), encodings and digests (`base64`, `*sum`, `cksum`, `sum`), and looking into
//! bytes (`cmp`, `strings`). What they share is here: reading the
//! operands whole or as one concatenated stream.

mod dd;
mod encode;
mod hexdump;
mod inspect;
mod od;
mod sums;
mod xxd;

pub use dd::dd;
pub use encode::{base32, base64, checksum};
pub use hexdump::hexdump;
pub use inspect::{cmp, strings};
pub use od::od;
pub use sums::{cksum, sum};
pub use xxd::xxd;

use goccia_interp::input::{Source, open_source};
use goccia_interp::interp::{ExecResult, ShellView};

/// The operands' bytes, concatenated (stdin when there are none); on an
/// unreadable operand the message is printed and the status returned.
fn read_operands(shell: &mut ShellView, name: &str, operands: &[String]) -> Result<Vec<u8>, i32> {
    let operands = if operands.is_empty() {
        vec!["-".to_string()]
    } else {
        operands.to_vec()
    };
    let mut data = Vec::new();
    for operand in operands {
        let Ok(mut source) = open_source(shell, name, &operand) else {
            return Err(1);
        };
        match source.read_all() {
            Ok(bytes) => data.extend(bytes),
            Err(error) => {
                let reason = error.to_string();
                return Err(shell.fail_command(name, &format!("{operand}: {reason}"), 1));
            }
        }
    }
    Ok(data)
}

fn write(shell: &mut ShellView, name: &str, text: &[u8], status: i32) -> ExecResult {
    match shell.write_stdout(text) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status(name, error),
    }
}

/// A byte count as the dump utilities read it (`od -j/-N`, `hexdump
/// -s/-n`, `xxd -s/-l`): decimal, `0x` hex or `0`
/// octal, with an optional multiplier suffix (`b`, `k`, `K`, `M`, ...).
pub(super) fn parse_count(text: &str) -> Option<u64> {
    let (digits_end, radix, start) =
        if let Some(hex) = text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            let end = hex
                .find(|c: char| !c.is_ascii_hexdigit())
                .unwrap_or(hex.len());
            (end + 2, 16, 2)
        } else {
            let end = text
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(text.len());
            let radix = if text.starts_with('0') && end > 1 {
                8
            } else {
                10
            };
            (end, radix, 0)
        };
    if digits_end == start {
        return None;
    }
    let value = u64::from_str_radix(&text[start..digits_end], radix).ok()?;
    let multiplier = crate::args::parse_size_suffix(&format!("1{}", &text[digits_end..]))?;
    value.checked_mul(multiplier)
}

/// The operands read one after another as a single stream, the way the
/// dump utilities see their input: a block may span two files, and an
/// operand that cannot be opened is reported and skipped (the status
/// becomes 1) without ending the dump. Streaming keeps `yes | od | head`
/// bounded.
struct Concatenated {
    name: &'static str,
    pending: std::vec::IntoIter<String>,
    current: Option<Source>,
    /// Whether an operand could not be read.
    failed: bool,
}

impl Concatenated {
    fn new(name: &'static str, operands: &[String]) -> Concatenated {
        let operands = if operands.is_empty() {
            vec!["-".to_string()]
        } else {
            operands.to_vec()
        };
        Concatenated {
            name,
            pending: operands.into_iter(),
            current: None,
            failed: false,
        }
    }

    /// Fills `buffer` as far as the input goes; the count read (short only
    /// at the end of the last operand).
    fn fill(&mut self, shell: &mut ShellView, buffer: &mut [u8]) -> usize {
        let mut filled = 0;
        while filled < buffer.len() {
            let source = match &mut self.current {
                Some(source) => source,
                None => {
                    let Some(operand) = self.pending.next() else {
                        break;
                    };
                    match open_source(shell, self.name, &operand) {
                        Ok(source) => self.current.insert(source),
                        Err(_) => {
                            self.failed = true;
                            continue;
                        }
                    }
                }
            };
            match source.read_some(&mut buffer[filled..]) {
                Ok(0) => self.current = None,
                Ok(n) => filled += n,
                Err(error) => {
                    shell.fail_command(self.name, &error.to_string(), 1);
                    self.failed = true;
                    self.current = None;
                }
            }
        }
        filled
    }

    /// Skips `count` bytes; how many could not be skipped (past the end).
    fn skip(&mut self, shell: &mut ShellView, mut count: u64) -> u64 {
        let mut scratch = vec![0u8; 64 << 10];
        while count > 0 {
            let want = count.min(scratch.len() as u64) as usize;
            let got = self.fill(shell, &mut scratch[..want]);
            count -= got as u64;
            if got < want {
                break;
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_read_hex_octal_and_suffixes() {
        assert_eq!(parse_count("0x10"), Some(16));
        assert_eq!(parse_count("010"), Some(8));
        assert_eq!(parse_count("2k"), Some(2048));
        assert_eq!(parse_count("1b"), Some(512));
        assert_eq!(parse_count("x"), None);
    }
}
