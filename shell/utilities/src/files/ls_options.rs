//! `ls`'s options beyond single letters (docs/shell.md): the long ones
//! with a word (`--format=`, `--sort=`, `--indicator-style=`,
//! `--time-style=`, `--color=`), the patterns that hide names (`-I`,
//! `--hide`, `-B`), the width `-C`/`-x` fill, and how a name is written
//! (`-Q`). The word options become the letters they stand for, in the
//! order given, so "the last of `-1`, `-C`, `-x`, `-l`" keeps holding.

use crate::args::{Long, Parsed};
use goccia_interp::pattern::Pattern;
use goccia_interp::time::Zone;

// Long options without a letter of their own, as private characters
// (nobody types them as short flags).
const FORMAT: char = '\u{e000}';
const SORT: char = '\u{e001}';
const INDICATOR: char = '\u{e002}';
const TIME_STYLE: char = '\u{e003}';
const FULL_TIME: char = '\u{e004}';
const COLOR: char = '\u{e005}';
const GROUP_FOLDERS: char = '\u{e006}';
const HIDE: char = '\u{e007}';
const FILE_TYPE: char = '\u{e008}';
/// `--show-control-chars`: names as they are, the default off a terminal.
const SHOW_CONTROL: char = '\u{e009}';
const SI: char = '\u{e00a}';
const BLOCK_SIZE: char = '\u{e00b}';

/// Options `ls` takes with a value, as letters.
pub(crate) const WITH_VALUE: &str = "IwT";

/// Every long option `ls` knows.
pub(crate) const LONGS: &[Long] = &[
    ("all", 'a', false),
    ("almost-all", 'A', false),
    ("recursive", 'R', false),
    ("reverse", 'r', false),
    ("human-readable", 'h', false),
    ("directory", 'd', false),
    ("classify", 'F', false),
    ("numeric-uid-gid", 'n', false),
    ("no-group", 'G', false),
    ("kibibytes", 'k', false),
    ("dereference", 'L', false),
    ("quote-name", 'Q', false),
    ("literal", 'N', false),
    ("hide-control-chars", 'q', false),
    ("show-control-chars", SHOW_CONTROL, false),
    ("ignore-backups", 'B', false),
    ("inode", 'i', false),
    ("size", 's', false),
    ("ignore", 'I', true),
    ("width", 'w', true),
    ("tabsize", 'T', true),
    ("format", FORMAT, true),
    ("sort", SORT, true),
    ("indicator-style", INDICATOR, true),
    ("time-style", TIME_STYLE, true),
    ("full-time", FULL_TIME, false),
    ("color", COLOR, false),
    ("group-directories-first", GROUP_FOLDERS, false),
    ("hide", HIDE, true),
    ("file-type", FILE_TYPE, false),
    ("si", SI, false),
    ("block-size", BLOCK_SIZE, true),
];

/// The single letters `ls` takes.
pub(crate) const LETTERS: &str = "laARrtShdF1pCxmiUsngoGkLQNBXvq";

/// How `ls -l` writes a time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TimeStyle {
    /// `Mar  4 05:06` for the last six months, else `Mar  4  2024`.
    Locale,
    /// `2024-03-04 05:06:07.000000000 +0000`.
    FullIso,
    /// `2024-03-04 05:06`.
    LongIso,
    /// `03-04 05:06` for the last six months, else `2024-03-04 `.
    Iso,
    /// `+FORMAT`, or `+OLD\nRECENT`: `date`'s directives.
    Format { old: String, recent: String },
}

impl TimeStyle {
    fn parse(word: &str) -> Result<TimeStyle, Refusal> {
        // `posix-` styles are the plain ones outside a POSIX locale.
        let word = word.strip_prefix("posix-").unwrap_or(word);
        Ok(match word {
            "full-iso" => TimeStyle::FullIso,
            "long-iso" => TimeStyle::LongIso,
            "iso" => TimeStyle::Iso,
            "locale" => TimeStyle::Locale,
            format if format.starts_with('+') => {
                let format = &format[1..];
                let (old, recent) = format.split_once('\n').unwrap_or((format, format));
                TimeStyle::Format {
                    old: old.to_string(),
                    recent: recent.to_string(),
                }
            }
            other => {
                return Err(Refusal {
                    message: format!(
                        "invalid argument \u{2018}{other}\u{2019} for \u{2018}time style\u{2019}\n\
                         Valid arguments are:\n  - [posix-]full-iso\n  - [posix-]long-iso\n  \
                         - [posix-]iso\n  - [posix-]locale\n  \
                         - +FORMAT (e.g., +%H:%M) for a 'date'-style format"
                    ),
                    status: 2,
                    hint: true,
                });
            }
        })
    }

    /// `mtime_ns` written in this style, `recent` if in the last six
    /// months.
    pub(crate) fn format(&self, mtime_ns: i64, recent: bool, zone: &Zone) -> String {
        let seconds = mtime_ns.div_euclid(1_000_000_000);
        let at = |format: &str| goccia_interp::time::strftime_at(format, seconds, zone);
        match self {
            TimeStyle::Locale if recent => at("%b %e %H:%M"),
            TimeStyle::Locale => at("%b %e  %Y"),
            TimeStyle::FullIso => {
                let nanos = mtime_ns.rem_euclid(1_000_000_000);
                format!("{}.{nanos:09} {}", at("%Y-%m-%d %H:%M:%S"), at("%z"))
            }
            TimeStyle::LongIso => at("%Y-%m-%d %H:%M"),
            TimeStyle::Iso if recent => at("%m-%d %H:%M"),
            TimeStyle::Iso => at("%Y-%m-%d "),
            TimeStyle::Format { recent: format, .. } if recent => at(format),
            TimeStyle::Format { old, .. } => at(old),
        }
    }
}

/// What `ls`'s word options and patterns say, beside its letters.
pub(crate) struct Extras {
    pub time_style: TimeStyle,
    pub folders_first: bool,
    /// `-F` without the `*` of executables (`--file-type`,
    /// `--indicator-style=file-type`).
    pub file_type_only: bool,
    /// Hidden always (`-I`, and `-B`'s `*~` and `.*~`).
    pub ignore: Vec<Pattern>,
    /// Hidden unless `-a`/`-A` (`--hide`).
    pub hide: Vec<Pattern>,
    /// The width `-C`/`-x` fill (0: no limit).
    pub width: Option<usize>,
    /// `--sort=width`: the shortest name first.
    pub by_width: bool,
    /// Where `-C`/`-x` may pad with tabs (`-T`; 0: spaces only).
    pub tab_size: usize,
    /// `-q`: a character that does not print is shown as `?` (the last
    /// of `-q` and `--show-control-chars` decides).
    pub hide_control: bool,
    /// `--color` or `--color=always`: names coloured (`auto` never
    /// colours: output is never a terminal here).
    pub color: bool,
    /// How sizes and blocks are written, if an option said (the last of
    /// `-h`, `--si` and `--block-size`).
    pub sizes: Option<SizeScale>,
}

/// How `ls` writes sizes (`-l`) and blocks (`-s`, `total`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SizeScale {
    /// Sizes in bytes, blocks in KiB: the default.
    Plain,
    /// `-h` (powers of 1024) and `--si` (of 1000): rounded up, one unit
    /// letter.
    Human { base: u64 },
    /// `--block-size=SIZE`: rounded up to whole units, with the unit's
    /// name after each number when it was given without digits (`K`,
    /// `KB`, `MiB`), as GNU writes them.
    Units { unit: u64, suffix: String },
}

impl SizeScale {
    /// `--block-size`'s argument (or `BLOCK_SIZE`'s), or None for one GNU
    /// refuses.
    pub(crate) fn parse(text: &str) -> Option<SizeScale> {
        match text {
            "human-readable" => return Some(SizeScale::Human { base: 1024 }),
            "si" => return Some(SizeScale::Human { base: 1000 }),
            _ => {}
        }
        let digits_end = text
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len());
        let (digits, suffix) = text.split_at(digits_end);
        let count: u64 = if digits.is_empty() {
            1
        } else {
            digits.parse().ok()?
        };
        let letters = "KMGTPE";
        let multiplier = match suffix {
            "" => 1,
            _ => {
                let letter = suffix.chars().next()?.to_ascii_uppercase();
                let power = letters.find(letter)? as u32 + 1;
                let base: u64 = match &suffix[1..] {
                    "" | "iB" => 1024,
                    "B" => 1000,
                    _ => return None,
                };
                base.checked_pow(power)?
            }
        };
        let unit = count.checked_mul(multiplier).filter(|unit| *unit > 0)?;
        let suffix = match (digits.is_empty(), suffix) {
            (false, _) => String::new(),
            (true, "k") => "K".to_string(),
            (true, "KB") => "kB".to_string(),
            (true, other) => other.to_string(),
        };
        Some(SizeScale::Units { unit, suffix })
    }

    /// A file's size as `-l` writes it.
    pub(crate) fn size(&self, bytes: u64) -> String {
        match self {
            SizeScale::Plain => bytes.to_string(),
            _ => self.blocks(bytes),
        }
    }

    /// Space taken, `bytes` of whole blocks, as `-s` and `total` write it.
    pub(crate) fn blocks(&self, bytes: u64) -> String {
        match self {
            SizeScale::Plain => bytes.div_ceil(1024).to_string(),
            SizeScale::Human { base } => crate::files::sizes::human_size_in(bytes, *base),
            SizeScale::Units { unit, suffix } => format!("{}{suffix}", bytes.div_ceil(*unit)),
        }
    }
}

impl Extras {
    /// The width `-C`, `-x` and `-m` fill: `-w`'s (0: no limit), else 80,
    /// a terminal's default (output is never a terminal here).
    pub fn line_width(&self) -> usize {
        match self.width {
            Some(0) => usize::MAX,
            Some(width) => width,
            None => 80,
        }
    }
}

/// Why `ls`'s options were refused: the message, the status, and whether
/// GNU adds its `--help` hint.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub message: String,
    pub status: i32,
    pub hint: bool,
}

/// The words of an option, in GNU's order, synonyms together.
type Words = &'static [(&'static [&'static str], char)];

const FORMATS: Words = &[
    (&["verbose", "long"], 'l'),
    (&["commas"], 'm'),
    (&["horizontal", "across"], 'x'),
    (&["vertical"], 'C'),
    (&["single-column"], '1'),
];
const SORTS: Words = &[
    (&["none"], 'U'),
    (&["time"], 't'),
    (&["size"], 'S'),
    (&["extension"], 'X'),
    (&["version"], 'v'),
    (&["width"], 'W'),
];
const INDICATORS: Words = &[
    (&["none"], ' '),
    (&["slash"], 'p'),
    (&["file-type"], 'T'),
    (&["classify"], 'F'),
];
const COLORS: Words = &[
    (&["always", "yes", "force"], 'y'),
    (&["never", "no", "none"], 'n'),
    (&["auto", "tty", "if-tty"], 'a'),
];

/// Turns the word options into the letters they stand for, in place and
/// in order, and gathers the rest.
pub(crate) fn normalise(parsed: &mut Parsed) -> Result<Extras, Refusal> {
    let mut extras = Extras {
        time_style: TimeStyle::Locale,
        folders_first: false,
        file_type_only: false,
        by_width: false,
        tab_size: 8,
        ignore: Vec::new(),
        hide: Vec::new(),
        width: None,
        hide_control: false,
        color: false,
        sizes: None,
    };
    let mut flags = Vec::new();
    for (option, value) in &parsed.sequence {
        let value = value.as_deref().unwrap_or("");
        match *option {
            FORMAT => flags.push(pick("--format", value, FORMATS)?),
            SORT => match pick("--sort", value, SORTS)? {
                'W' => extras.by_width = true,
                letter => flags.push(letter),
            },
            // The last indicator option given decides.
            INDICATOR | FILE_TYPE | 'F' | 'p' => {
                let letter = match *option {
                    INDICATOR => pick("--indicator-style", value, INDICATORS)?,
                    FILE_TYPE => 'T',
                    letter => letter,
                };
                flags.retain(|flag| !"Fp".contains(*flag));
                extras.file_type_only = letter == 'T';
                if "Fp".contains(letter) {
                    flags.push(letter);
                }
            }
            TIME_STYLE => extras.time_style = TimeStyle::parse(value)?,
            // `--color` alone is `always`; the last one given decides.
            COLOR if value.is_empty() => extras.color = true,
            COLOR => extras.color = pick("--color", value, COLORS)? == 'y',
            FULL_TIME => {
                flags.push('l');
                extras.time_style = TimeStyle::FullIso;
            }
            GROUP_FOLDERS => extras.folders_first = true,
            HIDE => extras.hide.push(Pattern::new(value, false)),
            'I' => extras.ignore.push(Pattern::new(value, false)),
            'B' => {
                extras.ignore.push(Pattern::new("*~", false));
                extras.ignore.push(Pattern::new(".*~", false));
            }
            'w' => extras.width = Some(count(value, "line width")?),
            'T' => extras.tab_size = count(value, "tab size")?,
            'h' => {
                extras.sizes = Some(SizeScale::Human { base: 1024 });
                flags.push('h');
            }
            SI => extras.sizes = Some(SizeScale::Human { base: 1000 }),
            BLOCK_SIZE => {
                extras.sizes = Some(SizeScale::parse(value).ok_or_else(|| Refusal {
                    message: format!("invalid --block-size argument '{value}'"),
                    status: 2,
                    hint: false,
                })?);
            }
            'q' => extras.hide_control = true,
            SHOW_CONTROL => extras.hide_control = false,
            letter => flags.push(letter),
        }
    }
    parsed.flags = flags;
    Ok(extras)
}

/// A count `-w` or `-T` takes, or GNU's complaint (status 2, no hint).
fn count(value: &str, what: &str) -> Result<usize, Refusal> {
    value.parse().map_err(|_| Refusal {
        message: format!("invalid {what}: \u{2018}{value}\u{2019}"),
        status: 2,
        hint: false,
    })
}

/// The letter `word` stands for among `words`, or GNU's complaint.
fn pick(option: &str, word: &str, words: Words) -> Result<char, Refusal> {
    let names: Vec<&[&str]> = words.iter().map(|(names, _)| *names).collect();
    crate::args::argmatch(option, word, &names)
        .map(|index| words[index].1)
        .map_err(|message| Refusal {
            message,
            status: 1,
            hint: true,
        })
}

/// A name as `-Q` writes it: in double quotes, with C's escapes.
pub(crate) fn quoted(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    out.push('"');
    for c in name.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\{:03o}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `name`'s extension as `-X` sorts by it (none: empty, sorted first).
pub(crate) fn extension(name: &str) -> &str {
    match name.rfind('.') {
        Some(0) | None => "",
        Some(dot) => &name[dot + 1..],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_and_quotes() {
        let zone = Zone::default();
        let at = 1_709_528_767_000_000_123; // 2024-03-04 05:06:07 UTC
        assert_eq!(
            TimeStyle::FullIso.format(at, false, &zone),
            "2024-03-04 05:06:07.000000123 +0000"
        );
        assert_eq!(
            TimeStyle::LongIso.format(at, true, &zone),
            "2024-03-04 05:06"
        );
        assert_eq!(TimeStyle::Iso.format(at, false, &zone), "2024-03-04 ");
        assert_eq!(
            TimeStyle::parse("+%Y\n%H").unwrap().format(at, true, &zone),
            "05"
        );
        assert!(TimeStyle::parse("bogus").is_err_and(|refusal| refusal.status == 2));
        assert_eq!(quoted("a \"b\"\n"), "\"a \\\"b\\\"\\n\"");
        assert_eq!(
            (extension("a.tar.gz"), extension(".bashrc"), extension("x")),
            ("gz", "", "")
        );
    }
}
