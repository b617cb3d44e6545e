//! The character sets `iconv` converts between, by glibc's names: UTF-8,
//! ASCII, ISO-8859-1, UTF-16 and UTF-32 (each order, and glibc's reading
//! and writing of a byte-order mark) done here, and the other single- and
//! multi-byte sets through `encoding_rs` (the WHATWG tables, whose
//! ISO-8859-1 and ASCII labels mean windows-1252 and so are taken first).

/// Byte order of a UTF-16 or UTF-32 set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    Big,
    Little,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Charset {
    Utf8,
    Ascii,
    Latin1,
    /// `None`: plain `UTF-16`, read by its mark (little-endian without
    /// one) and written with a mark, little-endian, as glibc on x86.
    Utf16(Option<Order>),
    Utf32(Option<Order>),
    Other(&'static encoding_rs::Encoding),
}

/// Characters written one after another in a set: a set that keeps state
/// between characters (ISO-2022-JP's shifts) keeps it here, and
/// [`Writer::finish`] returns it to its start.
pub(super) struct Writer {
    charset: Charset,
    encoder: Option<encoding_rs::Encoder>,
}

impl Writer {
    pub(super) fn new(charset: Charset) -> Self {
        let encoder = match charset {
            Charset::Other(encoding) => Some(encoding.new_encoder()),
            _ => None,
        };
        Writer { charset, encoder }
    }

    /// Appends `c`; false, and nothing appended, when the set has no such
    /// character.
    pub(super) fn push(&mut self, c: char, out: &mut Vec<u8>) -> bool {
        let Some(encoder) = &mut self.encoder else {
            return self.charset.encode(c, out);
        };
        let mut buffer = [0u8; 16];
        let (result, _, written) = encoder.encode_from_utf8_without_replacement(
            c.encode_utf8(&mut [0; 4]),
            &mut buffer,
            false,
        );
        if !matches!(result, encoding_rs::EncoderResult::InputEmpty) {
            return false;
        }
        out.extend_from_slice(&buffer[..written]);
        true
    }

    /// Ends the output: a stateful set's shift back to its start.
    pub(super) fn finish(&mut self, out: &mut Vec<u8>) {
        if let Some(encoder) = &mut self.encoder {
            let mut buffer = [0u8; 16];
            let (_, _, written) =
                encoder.encode_from_utf8_without_replacement("", &mut buffer, true);
            out.extend_from_slice(&buffer[..written]);
        }
    }
}

/// How decoding stopped short of the end, or that it left bytes out.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// Bytes that are no character of the set, at this offset.
    Illegal(usize),
    /// The input ends inside a character.
    Incomplete,
    /// Bytes that are no character were left out (`-c`, `//IGNORE`), and
    /// the rest decoded.
    Skipped,
}

impl Charset {
    /// The set a name stands for (case and `-`/`_` as glibc ignores them).
    pub(super) fn named(name: &str) -> Option<Charset> {
        let key: String = name
            .chars()
            .filter(|c| !matches!(c, '-' | '_'))
            .map(|c| c.to_ascii_uppercase())
            .collect();
        let charset = match key.as_str() {
            "UTF8" => Charset::Utf8,
            "ASCII" | "USASCII" | "ANSIX3.41968" | "646" | "US" | "ISO646US" => Charset::Ascii,
            "ISO88591" | "LATIN1" | "L1" | "CP819" | "IBM819" | "ISO885911987" => Charset::Latin1,
            "UTF16" => Charset::Utf16(None),
            "UTF16BE" => Charset::Utf16(Some(Order::Big)),
            "UTF16LE" => Charset::Utf16(Some(Order::Little)),
            "UTF32" | "UCS4" => Charset::Utf32(None),
            "UTF32BE" | "UCS4BE" => Charset::Utf32(Some(Order::Big)),
            "UTF32LE" | "UCS4LE" => Charset::Utf32(Some(Order::Little)),
            "LATIN9" | "L9" => Charset::Other(encoding_rs::ISO_8859_15),
            "SJIS" => Charset::Other(encoding_rs::SHIFT_JIS),
            _ => {
                let label = name.to_ascii_lowercase();
                let encoding = encoding_rs::Encoding::for_label_no_replacement(label.as_bytes())
                    .or_else(|| {
                        // glibc's `CP1252`-style names are WHATWG's
                        // `windows-1252`.
                        let number = key.strip_prefix("CP").or(key.strip_prefix("WINDOWS"))?;
                        encoding_rs::Encoding::for_label_no_replacement(
                            format!("windows-{number}").as_bytes(),
                        )
                    })?;
                if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
                    return None;
                }
                Charset::Other(encoding)
            }
        };
        Some(charset)
    }

    /// The characters of `input`, each with the offset of its first byte,
    /// up to where decoding stopped (and why, if before the end). With
    /// `skip_invalid`, bytes that are no character are left out.
    pub(super) fn decode(
        self,
        input: &[u8],
        skip_invalid: bool,
    ) -> (Vec<(char, usize)>, Option<Stop>) {
        match self {
            Charset::Utf8 => decode_utf8(input, skip_invalid),
            Charset::Ascii => fixed_width(input, 1, skip_invalid, |bytes| {
                (bytes[0] < 0x80).then(|| char::from(bytes[0]))
            }),
            Charset::Latin1 => fixed_width(input, 1, false, |bytes| Some(char::from(bytes[0]))),
            Charset::Utf16(order) => decode_utf16(input, order, skip_invalid),
            Charset::Utf32(order) => {
                let (order, start) = match order {
                    Some(order) => (order, 0),
                    None => match input {
                        [0xFF, 0xFE, 0, 0, ..] => (Order::Little, 4),
                        [0, 0, 0xFE, 0xFF, ..] => (Order::Big, 4),
                        _ => (Order::Little, 0),
                    },
                };
                let (chars, stop) = fixed_width(&input[start..], 4, skip_invalid, |bytes| {
                    let bytes = [bytes[0], bytes[1], bytes[2], bytes[3]];
                    char::from_u32(match order {
                        Order::Big => u32::from_be_bytes(bytes),
                        Order::Little => u32::from_le_bytes(bytes),
                    })
                });
                shifted(chars, stop, start)
            }
            Charset::Other(encoding) => decode_other(encoding, input, skip_invalid),
        }
    }

    /// Appends `c` in this set; false when the set has no such character.
    pub(super) fn encode(self, c: char, out: &mut Vec<u8>) -> bool {
        match self {
            Charset::Utf8 => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Charset::Ascii if c.is_ascii() => out.push(c as u8),
            Charset::Latin1 if (c as u32) < 0x100 => out.push(c as u32 as u8),
            Charset::Ascii | Charset::Latin1 => return false,
            Charset::Utf16(order) => {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    out.extend_from_slice(&match order {
                        Some(Order::Big) => unit.to_be_bytes(),
                        _ => unit.to_le_bytes(),
                    });
                }
            }
            Charset::Utf32(order) => out.extend_from_slice(&match order {
                Some(Order::Big) => (c as u32).to_be_bytes(),
                _ => (c as u32).to_le_bytes(),
            }),
            Charset::Other(encoding) => {
                return Writer::new(Charset::Other(encoding)).push(c, out);
            }
        }
        true
    }

    /// What glibc writes before the first character: a byte-order mark for
    /// plain UTF-16 and UTF-32.
    pub(super) fn preamble(self) -> &'static [u8] {
        match self {
            Charset::Utf16(None) => &[0xFF, 0xFE],
            Charset::Utf32(None) => &[0xFF, 0xFE, 0, 0],
            _ => &[],
        }
    }
}

fn decode_utf8(input: &[u8], skip_invalid: bool) -> (Vec<(char, usize)>, Option<Stop>) {
    let mut chars = Vec::with_capacity(input.len());
    let mut offset = 0;
    let mut skipped = None;
    for chunk in input.utf8_chunks() {
        let valid = chunk.valid();
        chars.extend(valid.char_indices().map(|(at, c)| (c, offset + at)));
        offset += valid.len();
        let invalid = chunk.invalid();
        if invalid.is_empty() {
            continue;
        }
        // A sequence cut short by the end of the input is incomplete.
        let at_end = offset + invalid.len() == input.len()
            && goccia_interp::input::incomplete_utf8_tail(input) == invalid.len();
        if at_end {
            return (chars, Some(Stop::Incomplete));
        }
        if !skip_invalid {
            return (chars, Some(Stop::Illegal(offset)));
        }
        skipped = Some(Stop::Skipped);
        offset += invalid.len();
    }
    (chars, skipped)
}

/// A set of `width` bytes a character.
fn fixed_width(
    input: &[u8],
    width: usize,
    skip_invalid: bool,
    character: impl Fn(&[u8]) -> Option<char>,
) -> (Vec<(char, usize)>, Option<Stop>) {
    let mut chars = Vec::with_capacity(input.len() / width);
    let mut skipped = None;
    for (index, bytes) in input.chunks(width).enumerate() {
        if bytes.len() < width {
            return (chars, Some(Stop::Incomplete));
        }
        match character(bytes) {
            Some(c) => chars.push((c, index * width)),
            None if skip_invalid => skipped = Some(Stop::Skipped),
            None => return (chars, Some(Stop::Illegal(index * width))),
        }
    }
    (chars, skipped)
}

fn decode_utf16(
    input: &[u8],
    order: Option<Order>,
    skip_invalid: bool,
) -> (Vec<(char, usize)>, Option<Stop>) {
    let (order, start) = match order {
        Some(order) => (order, 0),
        None => match input {
            [0xFF, 0xFE, ..] => (Order::Little, 2),
            [0xFE, 0xFF, ..] => (Order::Big, 2),
            _ => (Order::Little, 0),
        },
    };
    let body = &input[start..];
    let unit = |at: usize| {
        let pair = [body[at], body[at + 1]];
        match order {
            Order::Big => u16::from_be_bytes(pair),
            Order::Little => u16::from_le_bytes(pair),
        }
    };
    let mut chars = Vec::with_capacity(body.len() / 2);
    let mut skipped = None;
    let mut at = 0;
    while at < body.len() {
        if at + 2 > body.len() {
            return shifted(chars, Some(Stop::Incomplete), start);
        }
        let first = unit(at);
        let (c, width) = match first {
            0xD800..=0xDBFF if at + 4 > body.len() => {
                return shifted(chars, Some(Stop::Incomplete), start);
            }
            0xD800..=0xDBFF => match unit(at + 2) {
                second @ 0xDC00..=0xDFFF => (
                    char::from_u32(
                        0x10000
                            + ((u32::from(first) - 0xD800) << 10)
                            + (u32::from(second) - 0xDC00),
                    ),
                    4,
                ),
                _ => (None, 2),
            },
            0xDC00..=0xDFFF => (None, 2),
            _ => (char::from_u32(u32::from(first)), 2),
        };
        match c {
            Some(c) => chars.push((c, at)),
            None if skip_invalid => skipped = Some(Stop::Skipped),
            None => return shifted(chars, Some(Stop::Illegal(at)), start),
        }
        at += width;
    }
    shifted(chars, skipped, start)
}

/// Offsets counted from the start of the input, past a mark of `start`
/// bytes.
fn shifted(
    mut chars: Vec<(char, usize)>,
    stop: Option<Stop>,
    start: usize,
) -> (Vec<(char, usize)>, Option<Stop>) {
    for (_, offset) in &mut chars {
        *offset += start;
    }
    let stop = match stop {
        Some(Stop::Illegal(at)) => Some(Stop::Illegal(at + start)),
        other => other,
    };
    (chars, stop)
}

fn decode_other(
    encoding: &'static encoding_rs::Encoding,
    input: &[u8],
    skip_invalid: bool,
) -> (Vec<(char, usize)>, Option<Stop>) {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut chars = Vec::with_capacity(input.len());
    let mut read = 0;
    let mut buffer = String::with_capacity(16);
    let mut skipped = None;
    // One byte at a time: each character's first byte is known exactly.
    let mut first_byte = 0;
    while read < input.len() {
        buffer.clear();
        let last = read + 1 == input.len();
        let (result, consumed) =
            decoder.decode_to_string_without_replacement(&input[read..read + 1], &mut buffer, last);
        match result {
            encoding_rs::DecoderResult::Malformed(_, _) => {
                if !skip_invalid {
                    return (chars, Some(Stop::Illegal(first_byte)));
                }
                skipped = Some(Stop::Skipped);
                read += consumed.max(1);
                first_byte = read;
                continue;
            }
            _ => read += consumed.max(1),
        }
        for c in buffer.chars() {
            chars.push((c, first_byte));
        }
        if !buffer.is_empty() {
            first_byte = read;
        }
    }
    (chars, skipped)
}
