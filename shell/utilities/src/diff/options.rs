//! `diff`'s command line, read as GNU diffutils 3.8 reads it: clustered
//! short flags (`-Naur`), obsolete context counts (`-3`, `-u0`), long
//! options by unambiguous prefix, and one output style at a time
//! ("conflicting output style options" otherwise).

use std::time::Instant;

use goccia_interp::interp::ShellView;
use goccia_interp::pattern::Pattern;

use super::formats::LineFormats;
use super::script::{Compare, Ignore};
use super::side::SideBySide;
use crate::args::{Long, getopt};
use crate::matcher::{Matcher, Syntax};

/// How the differences are written.
#[derive(Clone)]
pub(super) enum Style {
    Normal,
    Unified,
    Context,
    /// `-e`: an `ed` script, last change first.
    Ed,
    /// `-f`: the same commands in file order, the letter first.
    ForwardEd,
    /// `-n`: RCS's `d`/`a` commands with line counts.
    Rcs,
    SideBySide(SideBySide),
    /// `--line-format`, `--old-group-format`, …
    Formats(Box<LineFormats>),
}

/// How output lines are written (`-t`, `-T`, `--tabsize`).
#[derive(Clone, Copy)]
pub(super) struct Layout {
    pub expand_tabs: bool,
    pub initial_tab: bool,
    pub tab_size: usize,
}

pub(super) struct Options {
    pub style: Style,
    /// Lines of context for `-u` and `-c` (3 unless given).
    pub context: usize,
    /// `-q`: only whether files differ.
    pub brief: bool,
    /// `-d`: the smallest set of changes, however long it takes.
    pub minimal: bool,
    /// `-s`: say so when two files are the same.
    pub report_identical: bool,
    pub recursive: bool,
    /// `-N`: an absent file or folder on either side is empty;
    /// `--unidirectional-new-file`: only on the first side.
    pub absent: Absent,
    pub compare: Compare,
    pub layout: Layout,
    /// `-B`, `-I`: changes that are not differences.
    pub ignore: Ignore,
    /// `-p`, `-F RE`: the line a unified or context hunk is labelled with.
    pub function_line: Option<Matcher>,
    /// `-x`, `-X`: names a directory comparison leaves out.
    pub excludes: Vec<Pattern>,
    pub labels: Vec<String>,
    /// The options as given, which a recursive comparison repeats in the
    /// `diff …` line before each pair of files that differ.
    pub given: Vec<String>,
    /// The clock header times are shown on (`TZ`).
    pub zone: goccia_interp::time::Zone,
    /// The run's deadline.
    pub deadline: Option<Instant>,
    pub operands: Vec<String>,
}

/// What an absent operand (or an entry only one folder has) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Absent {
    /// An error, or `Only in` inside folders.
    Missing,
    /// Empty (a file dated at the epoch, or a folder), on either side.
    Empty,
    /// Empty on the first side only.
    EmptyFirst,
}

impl Absent {
    /// Whether an absent operand on `side` (0 or 1) is taken as empty.
    pub(super) fn empty_on(self, side: usize) -> bool {
        match self {
            Absent::Missing => false,
            Absent::Empty => true,
            Absent::EmptyFirst => side == 0,
        }
    }
}

// Long options without a short form, as private characters for `getopt`.
const LABEL: char = '\u{e000}';
const STRIP_CR: char = '\u{e001}';
const SUPPRESS_COMMON: char = '\u{e002}';
const LEFT_COLUMN: char = '\u{e003}';
const NORMAL: char = '\u{e004}';
const COLOR: char = '\u{e005}';
const TAB_SIZE: char = '\u{e006}';
const IGNORED: char = '\u{e007}';
const IGNORED_WITH_VALUE: char = '\u{e008}';
const LINE_FORMAT: char = '\u{e010}';
const OLD_LINE_FORMAT: char = '\u{e011}';
const NEW_LINE_FORMAT: char = '\u{e012}';
const UNCHANGED_LINE_FORMAT: char = '\u{e013}';
const OLD_GROUP_FORMAT: char = '\u{e014}';
const NEW_GROUP_FORMAT: char = '\u{e015}';
const CHANGED_GROUP_FORMAT: char = '\u{e016}';
const UNCHANGED_GROUP_FORMAT: char = '\u{e017}';
const FIRST_ABSENT: char = '\u{e018}';

const LONGS: &[Long] = &[
    ("unified", 'u', false),
    ("context", 'c', false),
    ("brief", 'q', false),
    ("recursive", 'r', false),
    ("new-file", 'N', false),
    ("unidirectional-new-file", FIRST_ABSENT, false),
    ("ignore-case", 'i', false),
    ("ignore-space-change", 'b', false),
    ("ignore-all-space", 'w', false),
    ("ignore-blank-lines", 'B', false),
    ("ignore-trailing-space", 'Z', false),
    ("ignore-tab-expansion", 'E', false),
    ("ignore-matching-lines", 'I', true),
    ("text", 'a', false),
    ("report-identical-files", 's', false),
    ("side-by-side", 'y', false),
    ("width", 'W', true),
    ("expand-tabs", 't', false),
    ("initial-tab", 'T', false),
    ("ed", 'e', false),
    ("forward-ed", 'f', false),
    ("rcs", 'n', false),
    ("ifdef", 'D', true),
    ("show-c-function", 'p', false),
    ("show-function-line", 'F', true),
    ("exclude", 'x', true),
    ("exclude-from", 'X', true),
    ("minimal", 'd', false),
    ("label", LABEL, true),
    ("strip-trailing-cr", STRIP_CR, false),
    ("suppress-common-lines", SUPPRESS_COMMON, false),
    ("left-column", LEFT_COLUMN, false),
    ("normal", NORMAL, false),
    ("color", COLOR, false),
    ("tabsize", TAB_SIZE, true),
    ("speed-large-files", IGNORED, false),
    ("no-dereference", IGNORED, false),
    ("suppress-blank-empty", IGNORED, false),
    ("horizon-lines", IGNORED_WITH_VALUE, true),
    ("palette", IGNORED_WITH_VALUE, true),
    ("line-format", LINE_FORMAT, true),
    ("old-line-format", OLD_LINE_FORMAT, true),
    ("new-line-format", NEW_LINE_FORMAT, true),
    ("unchanged-line-format", UNCHANGED_LINE_FORMAT, true),
    ("old-group-format", OLD_GROUP_FORMAT, true),
    ("new-group-format", NEW_GROUP_FORMAT, true),
    ("changed-group-format", CHANGED_GROUP_FORMAT, true),
    ("unchanged-group-format", UNCHANGED_GROUP_FORMAT, true),
];

/// Short options that take a value.
const WITH_VALUE: &str = "UCWIFxXSD";

/// The default `-p` expression: a line starting with a letter, `$` or `_`.
const C_FUNCTION: &str = "^[[:alpha:]$_]";

/// Why the command line was refused: GNU's words, and whether the
/// `--help` hint follows them (not after a bad expression).
pub(super) struct Refusal {
    pub message: String,
    pub hint: bool,
}

impl From<String> for Refusal {
    fn from(message: String) -> Refusal {
        Refusal {
            message,
            hint: true,
        }
    }
}

/// Reads `args`, or says why they are wrong.
pub(super) fn parse(shell: &mut ShellView, args: &[String]) -> Result<Options, Refusal> {
    let parsed = getopt(args, WITH_VALUE, LONGS)?;
    let mut options = Options {
        style: Style::Normal,
        context: 3,
        brief: false,
        minimal: false,
        report_identical: false,
        recursive: false,
        absent: Absent::Missing,
        compare: Compare::default(),
        ignore: Ignore::default(),
        layout: Layout {
            expand_tabs: false,
            initial_tab: false,
            tab_size: 8,
        },
        function_line: None,
        excludes: Vec::new(),
        labels: Vec::new(),
        given: given_options(args),
        zone: shell.time_zone(),
        deadline: Some(shell.watch().deadline()),
        operands: parsed.operands.clone(),
    };
    // One style at a time: a second kind of style is refused.
    let mut style: Option<Style> = None;
    let mut set_style = |wanted: Style| -> Result<(), Refusal> {
        match &style {
            Some(old) if std::mem::discriminant(old) != std::mem::discriminant(&wanted) => {
                Err("conflicting output style options".to_string().into())
            }
            Some(_) => Ok(()),
            None => {
                style = Some(wanted);
                Ok(())
            }
        }
    };
    let mut width = 130;
    let mut side = SideBySide::default();
    let mut formats = LineFormats::default();
    let mut templates = Templates::default();
    let mut digits: Option<usize> = None;
    for (option, value) in &parsed.sequence {
        let value = value.as_deref().unwrap_or("");
        if let Some(digit) = option.to_digit(10) {
            let count = digits.unwrap_or(0).saturating_mul(10) + digit as usize;
            digits = Some(count);
            options.context = count;
            continue;
        }
        digits = None;
        match *option {
            // `--unified=N` and `--context=N` take their count attached.
            'u' | 'c' if value.is_empty() => set_style(if *option == 'u' {
                Style::Unified
            } else {
                Style::Context
            })?,
            'U' | 'C' | 'u' | 'c' => {
                set_style(if option.eq_ignore_ascii_case(&'u') {
                    Style::Unified
                } else {
                    Style::Context
                })?;
                options.context = value
                    .parse()
                    .map_err(|_| format!("invalid context length '{value}'"))?;
            }
            'e' => set_style(Style::Ed)?,
            'f' => set_style(Style::ForwardEd)?,
            'n' => set_style(Style::Rcs)?,
            'y' => set_style(Style::SideBySide(SideBySide::default()))?,
            NORMAL => set_style(Style::Normal)?,
            'q' => options.brief = true,
            'r' => options.recursive = true,
            'N' => options.absent = Absent::Empty,
            FIRST_ABSENT if options.absent == Absent::Missing => {
                options.absent = Absent::EmptyFirst;
            }
            FIRST_ABSENT => {}
            'i' => options.compare.ignore_case = true,
            'b' => options.compare.ignore_space_change = true,
            'w' => options.compare.ignore_all_space = true,
            'Z' => options.compare.ignore_trailing_space = true,
            'E' => options.compare.ignore_tab_expansion = true,
            STRIP_CR => options.compare.strip_trailing_cr = true,
            'B' => options.ignore.blank_lines = true,
            'I' => options.ignore.matching.push(basic_regex(value)?),
            'p' => options.function_line = Some(basic_regex(C_FUNCTION)?),
            'F' => options.function_line = Some(basic_regex(value)?),
            's' => options.report_identical = true,
            't' => options.layout.expand_tabs = true,
            'T' => options.layout.initial_tab = true,
            TAB_SIZE => {
                options.layout.tab_size = value
                    .parse()
                    .ok()
                    .filter(|size| *size > 0)
                    .ok_or_else(|| format!("invalid tabsize '{value}'"))?;
            }
            'W' => {
                width = value
                    .parse()
                    .ok()
                    .filter(|width| *width > 0)
                    .ok_or_else(|| format!("invalid width '{value}'"))?;
            }
            SUPPRESS_COMMON => side.suppress_common = true,
            LEFT_COLUMN => side.left_column = true,
            LABEL => options.labels.push(value.to_string()),
            'x' => options.excludes.push(Pattern::new(value, false)),
            'X' => {
                let listed = goccia_interp::input::open_quiet(shell, value)
                    .and_then(|mut source| source.read_all().map_err(|_| "Input/output error"))
                    .map_err(|reason| format!("{value}: {reason}"))?;
                let listed = goccia_interp::raw::decode(&listed);
                options.excludes.extend(
                    listed
                        .lines()
                        .filter(|l| !l.is_empty())
                        .map(|glob| Pattern::new(glob, false)),
                );
            }
            // Nothing is coloured: output never goes to a terminal.
            COLOR => {
                if let Some((_, when)) = parsed.values.iter().rev().find(|(o, _)| *o == COLOR)
                    && !["never", "auto", "always"].contains(&when.as_str())
                {
                    return Err(format!("invalid color '{when}'").into());
                }
            }
            LINE_FORMAT
            | OLD_LINE_FORMAT
            | NEW_LINE_FORMAT
            | UNCHANGED_LINE_FORMAT
            | OLD_GROUP_FORMAT
            | NEW_GROUP_FORMAT
            | CHANGED_GROUP_FORMAT
            | UNCHANGED_GROUP_FORMAT => {
                set_style(Style::Formats(Box::default()))?;
                let name = LONGS
                    .iter()
                    .find(|(_, short, _)| short == option)
                    .map_or(String::new(), |(name, _, _)| format!("--{name}"));
                templates.specify(&mut formats, format_slot(*option), value, &name)?;
            }
            'd' => options.minimal = true,
            'a' | IGNORED | IGNORED_WITH_VALUE => {}
            // GNU's `-D NAME` is four group formats: a merged file whose
            // old lines stand under `#ifndef NAME`, its new under `#ifdef`.
            'D' => {
                use super::formats::Slot;
                set_style(Style::Formats(Box::default()))?;
                let groups = [
                    (Slot::UnchangedGroup, "%=".to_string()),
                    (
                        Slot::OldGroup,
                        format!("#ifndef {value}\n%<#endif /* ! {value} */\n"),
                    ),
                    (
                        Slot::NewGroup,
                        format!("#ifdef {value}\n%>#endif /* {value} */\n"),
                    ),
                    (
                        Slot::ChangedGroup,
                        format!("#ifndef {value}\n%<#else /* {value} */\n%>#endif /* {value} */\n"),
                    ),
                ];
                for (slot, template) in groups {
                    templates.specify(&mut formats, slot, &template, "-D")?;
                }
            }
            'S' => return Err(format!("option '-{option}' is not supported").into()),
            other => return Err(format!("invalid option -- '{other}'").into()),
        }
    }
    options.style = match style.unwrap_or(Style::Normal) {
        Style::SideBySide(_) => {
            side.set_width(width, options.layout.expand_tabs);
            side.expand_tabs = options.layout.expand_tabs;
            Style::SideBySide(side)
        }
        Style::Formats(_) => Style::Formats(Box::new(formats)),
        other => other,
    };
    Ok(options)
}

/// The templates given so far, each set once: GNU's `specify_value`
/// refuses a second, different value ("conflicting … option value").
#[derive(Default)]
struct Templates {
    given: [Option<String>; 7],
}

impl Templates {
    fn specify(
        &mut self,
        formats: &mut LineFormats,
        slot: super::formats::Slot,
        template: &str,
        option: &str,
    ) -> Result<(), Refusal> {
        use super::formats::Slot;
        let slots: &[usize] = match slot {
            Slot::AllLines => &[0, 1, 2],
            Slot::OldLine => &[0],
            Slot::NewLine => &[1],
            Slot::UnchangedLine => &[2],
            Slot::OldGroup => &[3],
            Slot::NewGroup => &[4],
            Slot::ChangedGroup => &[5],
            Slot::UnchangedGroup => &[6],
        };
        for &index in slots {
            match &self.given[index] {
                Some(earlier) if earlier != template => {
                    return Err(format!("conflicting {option} option value '{template}'").into());
                }
                _ => self.given[index] = Some(template.to_string()),
            }
        }
        formats.set(slot, template);
        Ok(())
    }
}

fn format_slot(option: char) -> super::formats::Slot {
    use super::formats::Slot;
    match option {
        LINE_FORMAT => Slot::AllLines,
        OLD_LINE_FORMAT => Slot::OldLine,
        NEW_LINE_FORMAT => Slot::NewLine,
        UNCHANGED_LINE_FORMAT => Slot::UnchangedLine,
        OLD_GROUP_FORMAT => Slot::OldGroup,
        NEW_GROUP_FORMAT => Slot::NewGroup,
        CHANGED_GROUP_FORMAT => Slot::ChangedGroup,
        _ => Slot::UnchangedGroup,
    }
}

/// A `-I` or `-F` expression: GNU diff reads them as basic regular
/// expressions, as grep does.
fn basic_regex(pattern: &str) -> Result<Matcher, Refusal> {
    Matcher::from_rust(&Syntax::Basic.to_rust(pattern), false).map_err(|_| Refusal {
        message: format!("{pattern}: invalid regular expression"),
        hint: false,
    })
}

/// The options as written (`-Naur`, `-U 5`), for the `diff …` lines of a
/// recursive comparison.
fn given_options(args: &[String]) -> Vec<String> {
    let mut given = Vec::new();
    let mut taking_value = false;
    for arg in &args[1..] {
        if arg == "--" {
            break;
        }
        if taking_value || (arg.starts_with('-') && arg.len() > 1) {
            given.push(arg.clone());
            taking_value = arg.len() == 2 && WITH_VALUE.contains(&arg[1..])
                || (arg.starts_with("--")
                    && !arg.contains('=')
                    && LONGS
                        .iter()
                        .any(|(name, _, takes)| *takes && arg[2..] == **name));
        }
    }
    given
}
