//! `hexdump`, as util-linux's: the display is driven by format strings
//! (`-e`, `-f`, and the canned ones behind `-b -c -C -d -o -x` and the
//! default), applied in turn to each block of input; a block equal to the
//! one before shows as `*` unless `-v`; past the end of the data the
//! conversions print blanks of their width; `%_A` prints the end address.

mod format;

use format::{FormatString, Kind};

use super::Concatenated;
use crate::args::{buffered, finish, parse_options, usage};
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};

/// The canned formats, as util-linux defines them.
fn canned(flag: char) -> Option<&'static [&'static str]> {
    Some(match flag {
        'b' => &[r#""%07.7_Ax\n""#, r#""%07.7_ax " 16/1 "%03o " "\n""#],
        'c' => &[r#""%07.7_Ax\n""#, r#""%07.7_ax " 16/1 "%3_c " "\n""#],
        'd' => &[r#""%07.7_Ax\n""#, r#""%07.7_ax " 8/2 "  %05u " "\n""#],
        'o' => &[r#""%07.7_Ax\n""#, r#""%07.7_ax " 8/2 " %06o " "\n""#],
        'x' => &[r#""%07.7_Ax\n""#, r#""%07.7_ax " 8/2 "   %04x " "\n""#],
        'C' => &[
            r#""%08.8_Ax\n""#,
            r#""%08.8_ax  " 8/1 "%02x " "  " 8/1 "%02x ""#,
            r#""  |" 16/1 "%_p" "|\n""#,
        ],
        _ => return None,
    })
}

const DEFAULT: &[&str] = &[r#""%07.7_Ax\n""#, r#""%07.7_ax " 8/2 "%04x " "\n""#];

pub fn hexdump(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "efnsL",
        &[
            ("format", 'e', true),
            ("format-file", 'f', true),
            ("length", 'n', true),
            ("skip", 's', true),
            ("no-squeezing", 'v', false),
            ("color", 'L', true),
            ("one-byte-octal", 'b', false),
            ("one-byte-char", 'c', false),
            ("canonical", 'C', false),
            ("two-bytes-decimal", 'd', false),
            ("two-bytes-octal", 'o', false),
            ("two-bytes-hex", 'x', false),
        ]
    );
    let mut sources: Vec<String> = Vec::new();
    for (option, value) in &parsed.sequence {
        match (option, value) {
            ('e', Some(text)) => sources.push(text.clone()),
            ('f', Some(path)) => {
                let Ok(mut file) = open_source(shell, "hexdump", path) else {
                    return Ok(1);
                };
                let text = match file.read_all() {
                    Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    Err(error) => {
                        let message = format!("{path}: {error}");
                        return Ok(shell.fail_command("hexdump", &message, 1));
                    }
                };
                sources.extend(
                    text.lines()
                        .map(str::trim)
                        .filter(|line| !line.is_empty() && !line.starts_with('#'))
                        .map(str::to_string),
                );
            }
            ('v', None) | (_, Some(_)) => {}
            (flag, None) => match canned(*flag) {
                Some(strings) => sources.extend(strings.iter().map(|s| s.to_string())),
                None => return usage(shell, "hexdump", &format!("invalid option -- '{flag}'"), 1),
            },
        }
    }
    if sources.is_empty() {
        sources.extend(DEFAULT.iter().map(|s| s.to_string()));
    }
    let mut strings = Vec::new();
    for source in &sources {
        match format::parse(source) {
            Ok(string) => strings.push(string),
            Err(message) => return Ok(shell.fail_command("hexdump", &message, 1)),
        }
    }
    let mut counts = [None, None];
    for (slot, option, what) in [(0, 's', "offset"), (1, 'n', "length")] {
        if let Some(text) = parsed.value(option) {
            match super::parse_count(text) {
                Some(count) => counts[slot] = Some(count),
                None => {
                    let message = format!("failed to parse {what}: '{text}'");
                    return Ok(shell.fail_command("hexdump", &message, 1));
                }
            }
        }
    }
    let dump = Dump::new(strings, !parsed.has('v'));
    let most = shell.context().limits.max_buffered_input;
    if dump.block_size > most {
        let message = format!(
            "the formats make a block of {} bytes, more than the {most} the shell buffers",
            dump.block_size
        );
        return Ok(shell.fail_command("hexdump", &message, 1));
    }
    let mut input = Concatenated::new("hexdump", &parsed.operands);
    dump.run(shell, &mut input, counts[0].unwrap_or(0), counts[1])
}

/// The format strings fitted to one block size.
struct Dump {
    strings: Vec<FormatString>,
    block_size: usize,
    squeeze: bool,
}

impl Dump {
    fn new(mut strings: Vec<FormatString>, squeeze: bool) -> Dump {
        let block_size = strings
            .iter()
            .map(FormatString::block_size)
            .max()
            .unwrap_or(0);
        for string in &mut strings {
            string.fit(block_size);
        }
        Dump {
            strings,
            block_size,
            squeeze,
        }
    }

    fn run(
        mut self,
        shell: &mut ShellView,
        input: &mut Concatenated,
        skip: u64,
        length: Option<u64>,
    ) -> ExecResult {
        let mut out = buffered(shell);
        let mut address = skip - input.skip(shell, skip);
        let mut end_address = None;
        let mut left = length;
        let mut previous: Option<Vec<u8>> = None;
        let mut starred = false;
        // Room past the block: a conversion may read a little beyond it.
        let mut block = vec![0u8; self.block_size + 16];
        while self.block_size > 0 && !goccia_interp::interrupt::stopped() {
            let want = left.map_or(self.block_size, |l| l.min(self.block_size as u64) as usize);
            let got = if want == 0 {
                0
            } else {
                input.fill(shell, &mut block[..want])
            };
            if got == 0 {
                break;
            }
            if let Some(l) = &mut left {
                *l -= got as u64;
            }
            block[got..].fill(0);
            if got < self.block_size {
                end_address = Some(address + got as u64);
            } else if self.squeeze && previous.as_deref() == Some(&block[..]) {
                if !starred {
                    let _ = std::io::Write::write_all(&mut out, b"*\n");
                    starred = true;
                }
                address += self.block_size as u64;
                continue;
            }
            starred = false;
            if self.block(&block, address, end_address, &mut out).is_err() {
                break;
            }
            previous = Some(block.clone());
            address += got as u64;
            if got < self.block_size {
                break;
            }
        }
        let mut tail = Vec::new();
        self.end(end_address.unwrap_or(address), &mut tail);
        let _ = std::io::Write::write_all(&mut out, &tail);
        finish(shell, "hexdump", out, i32::from(input.failed))
    }

    /// Every format string over one block.
    fn block(
        &mut self,
        block: &[u8],
        address: u64,
        end: Option<u64>,
        out: &mut impl std::io::Write,
    ) -> std::io::Result<()> {
        let mut line = Vec::new();
        for string in &mut self.strings {
            let mut at = address;
            let mut position = 0;
            for unit in &mut string.units {
                if unit.at_end {
                    break;
                }
                let last_piece = unit.pieces.len().saturating_sub(1);
                for rep in (1..=unit.reps).rev() {
                    // A unit may repeat text a huge number of times.
                    if line.len() >= 64 << 10 {
                        out.write_all(&line)?;
                        line.clear();
                    }
                    if goccia_interp::interrupt::stopped() {
                        return Ok(());
                    }
                    for (index, piece) in unit.pieces.iter_mut().enumerate() {
                        let mut text: &[u8] = &piece.text;
                        if rep == 1
                            && unit.reps > 1
                            && index == last_piece
                            && piece.conversion.is_none()
                            && text.last().is_some_and(u8::is_ascii_whitespace)
                        {
                            text = &text[..text.len() - 1];
                        }
                        line.extend(text);
                        if let Some(conversion) = &mut piece.conversion {
                            if end.is_some_and(|end| at >= end) {
                                conversion.blank = true;
                            }
                            let bytes = conversion.bytes;
                            let data = &block[position.min(block.len())..];
                            let data = &data[..bytes.min(data.len())];
                            conversion.render(data, at, &mut line);
                            at += bytes as u64;
                            position += bytes;
                        }
                    }
                }
            }
        }
        out.write_all(&line)
    }

    /// The `%_A` unit, once, with the end address (nothing for empty
    /// input).
    fn end(&self, address: u64, out: &mut Vec<u8>) {
        if address == 0 {
            return;
        }
        let Some(unit) = self
            .strings
            .iter()
            .flat_map(|s| &s.units)
            .rfind(|u| u.at_end)
        else {
            return;
        };
        for piece in &unit.pieces {
            match &piece.conversion {
                None => out.extend(&piece.text),
                Some(conversion) if matches!(conversion.kind, Kind::Address(_)) => {
                    out.extend(&piece.text);
                    conversion.render(&[], address, out);
                }
                Some(_) => {}
            }
        }
    }
}
