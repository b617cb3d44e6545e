//! The old checksums: `cksum` (POSIX's CRC, and with `-a` the others GNU
//! `cksum` 9 names) and `sum` (BSD's rotating sum, SysV's with `-s`),
//! as GNU coreutils prints them. A name is printed for every operand
//! given (`-` too) and left out for standard input read by default.

use crate::args::{parse_options, usage};
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};

/// POSIX `cksum`'s CRC: CRC-32/CKSUM over the data and then its length,
/// least significant byte first, in as few bytes as it takes.
fn posix_crc(data: &[u8]) -> u32 {
    const CKSUM: crc::Crc<u32> = crc::Crc::<u32>::new(&crc::CRC_32_CKSUM);
    let mut digest = CKSUM.digest();
    digest.update(data);
    let mut length = data.len() as u64;
    while length > 0 {
        digest.update(&[(length & 0xff) as u8]);
        length >>= 8;
    }
    digest.finalize()
}

/// BSD `sum`: a 16-bit checksum rotated right before each byte is added,
/// and the size in 1 KiB blocks.
fn bsd_sum(data: &[u8]) -> (u32, u64) {
    let mut sum: u32 = 0;
    for byte in data {
        sum = (sum >> 1) | ((sum & 1) << 15);
        sum = (sum + u32::from(*byte)) & 0xffff;
    }
    (sum, (data.len() as u64).div_ceil(1024))
}

/// SysV `sum -s`: the bytes added, folded to 16 bits, and the size in
/// 512-byte blocks.
fn sysv_sum(data: &[u8]) -> (u32, u64) {
    let total = data
        .iter()
        .fold(0u32, |total, byte| total.wrapping_add(u32::from(*byte)));
    let folded = (total & 0xffff) + (total >> 16);
    (
        (folded & 0xffff) + (folded >> 16),
        (data.len() as u64).div_ceil(512),
    )
}

/// One checksum line in `algorithm`'s form (`named`: with the operand).
fn line(algorithm: &str, data: &[u8], operand: &str, named: bool, untagged: bool) -> String {
    let name = if named {
        format!(" {operand}")
    } else {
        String::new()
    };
    match algorithm {
        "bsd" => {
            let (sum, blocks) = bsd_sum(data);
            format!("{sum:05} {blocks:5}{name}\n")
        }
        "sysv" => {
            let (sum, blocks) = sysv_sum(data);
            format!("{sum} {blocks}{name}\n")
        }
        "crc" => format!("{} {}{name}\n", posix_crc(data), data.len()),
        digest => {
            let hex = super::encode::digest(&format!("{digest}sum"), data);
            match untagged {
                true => format!("{hex}  {operand}\n"),
                false => format!("{} ({operand}) = {hex}\n", digest.to_uppercase()),
            }
        }
    }
}

/// `cksum`.
pub fn cksum(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "a",
        &[("algorithm", 'a', true), ("untagged", 'U', false),]
    );
    if let Some(flag) = parsed.flags.iter().find(|flag| **flag != 'U') {
        return usage(shell, "cksum", &format!("invalid option -- '{flag}'"), 1);
    }
    // GNU's order; its `blake2b` and `sm3` are not here.
    const KNOWN: &[&[&str]] = &[
        &["bsd"],
        &["sysv"],
        &["crc"],
        &["md5"],
        &["sha1"],
        &["sha224"],
        &["sha256"],
        &["sha384"],
        &["sha512"],
    ];
    let algorithm = match parsed.value('a') {
        None => "crc",
        Some(word) => match crate::args::argmatch("--algorithm", word, KNOWN) {
            Ok(index) => KNOWN[index][0],
            Err(message) => return usage(shell, "cksum", &message, 1),
        },
    };
    run(shell, "cksum", algorithm, &parsed.operands, parsed.has('U'))
}

/// `sum`.
pub fn sum(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(shell, args, "", &[("sysv", 's', false)]);
    if let Some(flag) = parsed.flags.iter().find(|flag| !"rs".contains(**flag)) {
        return usage(shell, "sum", &format!("invalid option -- '{flag}'"), 1);
    }
    // The last of -r (BSD) and -s (SysV) wins.
    let algorithm = match parsed.last_of(&['r', 's']) {
        Some('s') => "sysv",
        _ => "bsd",
    };
    run(shell, "sum", algorithm, &parsed.operands, false)
}

fn run(
    shell: &mut ShellView,
    name: &str,
    algorithm: &str,
    operands: &[String],
    untagged: bool,
) -> ExecResult {
    let named = !operands.is_empty();
    let operands = match named {
        true => operands.to_vec(),
        false => vec!["-".to_string()],
    };
    let mut out = String::new();
    let mut status = 0;
    for operand in &operands {
        let data = match open_source(shell, name, operand) {
            Ok(mut source) => match source.read_all() {
                Ok(data) => data,
                Err(error) => {
                    status = shell.fail_command(name, &format!("{operand}: {error}"), 1);
                    continue;
                }
            },
            Err(_) => {
                status = 1;
                continue;
            }
        };
        out.push_str(&line(algorithm, &data, operand, named, untagged));
    }
    match shell.write_stdout(out.as_bytes()) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status(name, error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sums_of_gnu_coreutils() {
        // Figures from GNU coreutils 9.1 on the same bytes.
        let readme = b"# Demo\n\nA demo project.\nTODO: write docs\n";
        assert_eq!(posix_crc(readme), 1_301_058_141);
        assert_eq!(posix_crc(b""), 4_294_967_295);
        assert_eq!(bsd_sum(readme), (7556, 1));
        assert_eq!(sysv_sum(readme), (3263, 1));
    }
}
