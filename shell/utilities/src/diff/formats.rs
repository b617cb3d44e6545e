//! `--line-format`, `--old-line-format`, … and the group formats: the
//! whole of both files written through templates, as GNU diff's
//! "if-then-else" output does. A group is a run of unchanged lines or one
//! change; its template's `%<`, `%>` and `%=` write its lines through the
//! line templates. Directives: `%%`, `%c'C'` (`%c'\OOO'` octal), `%l` and
//! `%L` (a line without and with its newline), and line numbers as
//! `%[-][WIDTH][.PREC]{d,o,x,X}` followed by a letter: in a line template
//! `n`, the line's number; in a group template `f`, `l`, `n`, `e`, `m`
//! (first, last, count, first − 1, last + 1) of the old lines, capitals
//! of the new; in a group template, GNU's conditional `%(A=B?T:E)` (A and
//! B numbers or those letters; T and E templates, read as GNU reads them:
//! no escapes, T ends at the first `:` of its level).

use std::ops::Range;

use super::script::Script;

/// Which template an option sets.
#[derive(Clone, Copy)]
pub(super) enum Slot {
    /// `--line-format`: the three line templates at once.
    AllLines,
    OldLine,
    NewLine,
    UnchangedLine,
    OldGroup,
    NewGroup,
    ChangedGroup,
    UnchangedGroup,
}

#[derive(Clone)]
pub(super) struct LineFormats {
    old_line: String,
    new_line: String,
    unchanged_line: String,
    old_group: String,
    new_group: String,
    changed_group: String,
    unchanged_group: String,
}

impl Default for LineFormats {
    fn default() -> LineFormats {
        LineFormats {
            old_line: "%l\n".into(),
            new_line: "%l\n".into(),
            unchanged_line: "%l\n".into(),
            old_group: "%<".into(),
            new_group: "%>".into(),
            changed_group: "%<%>".into(),
            unchanged_group: "%=".into(),
        }
    }
}

impl LineFormats {
    pub(super) fn set(&mut self, slot: Slot, template: &str) {
        let template = template.to_string();
        match slot {
            Slot::AllLines => {
                self.old_line = template.clone();
                self.new_line = template.clone();
                self.unchanged_line = template;
            }
            Slot::OldLine => self.old_line = template,
            Slot::NewLine => self.new_line = template,
            Slot::UnchangedLine => self.unchanged_line = template,
            Slot::OldGroup => self.old_group = template,
            Slot::NewGroup => self.new_group = template,
            Slot::ChangedGroup => self.changed_group = template,
            Slot::UnchangedGroup => self.unchanged_group = template,
        }
    }

    /// Both files, group by group.
    pub(super) fn write(&self, script: &Script<'_>, out: &mut String) {
        let (mut old_at, mut new_at) = (0, 0);
        for change in script.hunks(0).into_iter().flatten() {
            let same = change.old.start - old_at;
            if same > 0 {
                let group = Group {
                    old: old_at..change.old.start,
                    new: new_at..new_at + same,
                };
                self.group(&self.unchanged_group, &group, script, out);
            }
            let template = match (change.old.is_empty(), change.new.is_empty()) {
                (true, _) => &self.new_group,
                (_, true) => &self.old_group,
                _ => &self.changed_group,
            };
            let group = Group {
                old: change.old.clone(),
                new: change.new.clone(),
            };
            self.group(template, &group, script, out);
            (old_at, new_at) = (change.old.end, change.new.end);
        }
        if old_at < script.left.len() {
            let group = Group {
                old: old_at..script.left.len(),
                new: new_at..script.right.len(),
            };
            self.group(&self.unchanged_group, &group, script, out);
        }
    }

    fn group(&self, template: &str, group: &Group, script: &Script<'_>, out: &mut String) {
        self.format(template, None, group, script, Some(out));
    }

    /// A group template read up to `end` (at its own level), written to
    /// `out` (`None`: read only, the branch of a conditional not taken);
    /// what follows. As GNU's `format_group`: a `%` that starts no
    /// directive is written as itself and reading goes on after it.
    fn format<'t>(
        &self,
        template: &'t str,
        end: Option<char>,
        group: &Group,
        script: &Script<'_>,
        mut out: Option<&mut String>,
    ) -> &'t str {
        let mut rest = template;
        while let Some(c) = rest.chars().next() {
            if Some(c) == end {
                break;
            }
            rest = &rest[c.len_utf8()..];
            if c != '%' {
                if let Some(out) = out.as_deref_mut() {
                    out.push(c);
                }
                continue;
            }
            let lines = match rest.chars().next() {
                Some('<') => Some((&self.old_line, &script.left, &group.old)),
                Some('>') => Some((&self.new_line, &script.right, &group.new)),
                Some('=') => Some((&self.unchanged_line, &script.left, &group.old)),
                _ => None,
            };
            if let Some((template, file, range)) = lines {
                if let Some(out) = out.as_deref_mut() {
                    for (i, line) in numbered(file, range) {
                        line_template(template, line, i, out);
                    }
                }
                rest = &rest[1..];
                continue;
            }
            if let Some(condition) = rest.strip_prefix('(')
                && let Some((equal, branches)) = test(condition, group)
            {
                // %(A=B?T:E): T up to `:`, E up to `)`, one of them written.
                let (then_out, else_out) = match equal {
                    true => (out.as_deref_mut(), None),
                    false => (None, out.as_deref_mut()),
                };
                rest = self.format(branches, Some(':'), group, script, then_out);
                if let Some(otherwise) = rest.strip_prefix(':') {
                    rest = self.format(otherwise, Some(')'), group, script, else_out);
                    rest = rest.strip_prefix(')').unwrap_or(rest);
                }
                continue;
            }
            let mut scratch = String::new();
            rest = common_directive(rest, out.as_deref_mut().unwrap_or(&mut scratch), |letter| {
                group.number(letter)
            });
        }
        rest
    }
}

/// `A=B?` of a conditional (after `%(`): whether A equals B, each a
/// decimal number or a group's line-number letter, and what follows the
/// `?`; `None` when it is not one (then written as it stands).
fn test<'t>(condition: &'t str, group: &Group) -> Option<(bool, &'t str)> {
    let mut rest = condition;
    let mut values = [0usize; 2];
    for (value, delimiter) in values.iter_mut().zip(['=', '?']) {
        let digits = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        if digits > 0 {
            *value = rest[..digits].parse().ok()?;
            rest = &rest[digits..];
        } else {
            let letter = rest.chars().next()?;
            *value = group.number(letter)?;
            rest = &rest[letter.len_utf8()..];
        }
        rest = rest.strip_prefix(delimiter)?;
    }
    Some((values[0] == values[1], rest))
}

/// The lines of one group in each file (0-based).
struct Group {
    old: Range<usize>,
    new: Range<usize>,
}

impl Group {
    /// A group template's line-number letter (1-based numbers).
    fn number(&self, letter: char) -> Option<usize> {
        let lines = if letter.is_ascii_lowercase() {
            &self.old
        } else {
            &self.new
        };
        let (first, last) = (lines.start + 1, lines.end);
        Some(match letter.to_ascii_lowercase() {
            'f' => first,
            'l' => last,
            'n' => lines.len(),
            'e' => first - 1,
            'm' => last + 1,
            _ => return None,
        })
    }
}

fn numbered<'a>(
    lines: &'a [&'a str],
    range: &Range<usize>,
) -> impl Iterator<Item = (usize, &'a str)> {
    range.clone().map(move |i| (i + 1, lines[i]))
}

/// One line through a line template; `number` is 1-based.
fn line_template(template: &str, line: &str, number: usize, out: &mut String) {
    let mut rest = template;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        rest = &rest[at + 1..];
        match rest.chars().next() {
            Some('l') => {
                out.push_str(line.strip_suffix('\n').unwrap_or(line));
                rest = &rest[1..];
            }
            Some('L') => {
                out.push_str(line);
                rest = &rest[1..];
            }
            _ => rest = common_directive(rest, out, |letter| (letter == 'n').then_some(number)),
        }
    }
    out.push_str(rest);
}

/// `%%`, `%c'C'` and a line number (`number` answers its letter), read
/// from `rest` (just after the `%`); what follows it. Anything else is
/// written as it stands.
fn common_directive<'t>(
    rest: &'t str,
    out: &mut String,
    number: impl Fn(char) -> Option<usize>,
) -> &'t str {
    if let Some(after) = rest.strip_prefix('%') {
        out.push('%');
        return after;
    }
    if let Some(quoted) = rest.strip_prefix("c'")
        && let Some((character, after)) = char_literal(quoted)
    {
        out.push(character);
        return after;
    }
    // %[-][width][.precision]{d,o,x,X}LETTER
    let spec_end = rest
        .find(|c: char| !(c == '-' || c == '.' || c.is_ascii_digit()))
        .unwrap_or(rest.len());
    let mut chars = rest[spec_end..].chars();
    if let (Some(conversion @ ('d' | 'o' | 'x' | 'X')), Some(letter)) = (chars.next(), chars.next())
        && let Some(value) = number(letter)
    {
        out.push_str(&format_number(&rest[..spec_end], conversion, value));
        return &rest[spec_end + 2..];
    }
    out.push('%');
    rest
}

/// `C'` or `\OOO'` (after `%c'`): the character and what follows.
fn char_literal(quoted: &str) -> Option<(char, &str)> {
    if let Some(octal) = quoted.strip_prefix('\\') {
        let digits = octal.find('\'')?;
        let value = u32::from_str_radix(&octal[..digits], 8).ok()?;
        return Some((char::from_u32(value)?, &octal[digits + 1..]));
    }
    let character = quoted.chars().next()?;
    let after = quoted[character.len_utf8()..].strip_prefix('\'')?;
    Some((character, after))
}

/// A number as C's printf writes it with `flags_width` (`-5`, `.3`).
fn format_number(spec: &str, conversion: char, value: usize) -> String {
    let left = spec.starts_with('-');
    let spec = spec.trim_start_matches('-');
    let (width, precision) = match spec.split_once('.') {
        Some((width, precision)) => (width, precision.parse::<usize>().ok()),
        None => (spec, None),
    };
    let zero_pad = width.starts_with('0') && !left && precision.is_none();
    let width: usize = width.parse().unwrap_or(0);
    let mut digits = match conversion {
        'o' => format!("{value:o}"),
        'x' => format!("{value:x}"),
        'X' => format!("{value:X}"),
        _ => value.to_string(),
    };
    if let Some(precision) = precision
        && digits.len() < precision
    {
        digits = format!("{}{digits}", "0".repeat(precision - digits.len()));
    }
    use goccia_interp::pad::{left_pad, right_pad};
    match (left, zero_pad) {
        (true, _) => right_pad(&digits, width, ' '),
        (false, true) => left_pad(&digits, width, '0'),
        (false, false) => left_pad(&digits, width, ' '),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_take_printf_widths() {
        assert_eq!(format_number("", 'd', 7), "7");
        assert_eq!(format_number("4", 'd', 7), "   7");
        assert_eq!(format_number("-4", 'x', 255), "ff  ");
        assert_eq!(format_number("04", 'o', 8), "0010");
        assert_eq!(format_number(".3", 'd', 5), "005");
    }

    #[test]
    fn a_line_template_reads_its_directives() {
        let mut out = String::new();
        line_template("%dn:%l|%c'\\101'%c'x'%%%L", "text\n", 12, &mut out);
        assert_eq!(out, "12:text|Ax%text\n");
    }
}
