//! `grep --color=always`: GNU grep's markers around the parts of a line,
//! from `GREP_COLORS` (and the deprecated `GREP_COLOR`) over GNU's
//! defaults.

/// The SGR parameters of each part, empty for a part left unmarked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Colors {
    /// Matches in selected lines (`ms`).
    pub(super) selected_match: String,
    /// Matches in context lines (`mc`).
    pub(super) context_match: String,
    /// File names (`fn`).
    pub(super) file_name: String,
    /// Line numbers (`ln`).
    pub(super) line_number: String,
    /// Byte offsets (`bn`).
    pub(super) byte_offset: String,
    /// Separators: `:`, `-` and `--` (`se`).
    pub(super) separator: String,
    /// Whether each marker erases to the end of the line (`\e[K`), which
    /// `ne` turns off.
    erase: bool,
}

impl Default for Colors {
    fn default() -> Self {
        Colors {
            selected_match: "01;31".to_string(),
            context_match: "01;31".to_string(),
            file_name: "35".to_string(),
            line_number: "32".to_string(),
            byte_offset: "32".to_string(),
            separator: "36".to_string(),
            erase: true,
        }
    }
}

impl Colors {
    /// GNU's defaults, then `GREP_COLOR` (both match colours), then each
    /// `name=value` or flag of `GREP_COLORS`. Unknown names are ignored;
    /// `sl`, `cx` and `rv` (whole-line colours) are read and not applied.
    pub(super) fn from_env(grep_colors: Option<&str>, grep_color: Option<&str>) -> Self {
        let mut colors = Colors::default();
        if let Some(both) = grep_color.filter(|value| !value.is_empty()) {
            colors.selected_match = both.to_string();
            colors.context_match = both.to_string();
        }
        for entry in grep_colors.unwrap_or("").split(':') {
            let (name, value) = match entry.split_once('=') {
                Some((name, value)) => (name, Some(value)),
                None => (entry, None),
            };
            let slot = match name {
                "mt" => {
                    if let Some(value) = value {
                        colors.selected_match = value.to_string();
                        colors.context_match = value.to_string();
                    }
                    continue;
                }
                "ne" if value.is_none() => {
                    colors.erase = false;
                    continue;
                }
                "ms" => &mut colors.selected_match,
                "mc" => &mut colors.context_match,
                "fn" => &mut colors.file_name,
                "ln" => &mut colors.line_number,
                "bn" => &mut colors.byte_offset,
                "se" => &mut colors.separator,
                _ => continue,
            };
            if let Some(value) = value {
                *slot = value.to_string();
            }
        }
        colors
    }

    /// `text` between the markers of `sgr`, or as it is when `sgr` is
    /// empty.
    pub(super) fn paint(&self, out: &mut Vec<u8>, sgr: &str, text: &[u8]) {
        if sgr.is_empty() {
            out.extend_from_slice(text);
            return;
        }
        let erase: &[u8] = if self.erase { b"\x1b[K" } else { b"" };
        out.extend_from_slice(b"\x1b[");
        out.extend_from_slice(sgr.as_bytes());
        out.push(b'm');
        out.extend_from_slice(erase);
        out.extend_from_slice(text);
        out.extend_from_slice(b"\x1b[m");
        out.extend_from_slice(erase);
    }
}

/// `--color[=WHEN]`: whether to mark. `auto` and its synonyms never do:
/// a sandbox's output is never a terminal.
pub(super) fn when(value: Option<&str>) -> Result<bool, String> {
    match value {
        None | Some("auto" | "tty" | "if-tty" | "never" | "no" | "none") => Ok(false),
        Some("always" | "yes" | "force") => Ok(true),
        Some(other) => Err(format!(
            "invalid argument \u{2018}{other}\u{2019} for \u{2018}--color\u{2019}\n\
             Valid arguments are:\n  - \u{2018}always\u{2019}, \u{2018}yes\u{2019}, \u{2018}force\u{2019}\n  \
             - \u{2018}never\u{2019}, \u{2018}no\u{2019}, \u{2018}none\u{2019}\n  \
             - \u{2018}auto\u{2019}, \u{2018}tty\u{2019}, \u{2018}if-tty\u{2019}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_environment_overrides_gnus_defaults() {
        let colors = Colors::from_env(Some("ms=04;33:fn=1:bogus=3:ln:se=:ne"), Some("1;32"));
        assert_eq!(colors.selected_match, "04;33");
        assert_eq!(colors.context_match, "1;32");
        assert_eq!(colors.file_name, "1");
        assert_eq!(colors.line_number, "32");
        assert_eq!(colors.separator, "");
        let mut out = Vec::new();
        colors.paint(&mut out, &colors.file_name, b"a.txt");
        colors.paint(&mut out, &colors.separator, b":");
        assert_eq!(out, b"\x1b[1ma.txt\x1b[m:");
        assert_eq!(Colors::from_env(None, None), Colors::default());
    }
}
