//! Names as reports for the host show them: a guest chooses its file
//! names, and a name holding a newline or an escape sequence must not
//! forge a line of a report or drive the host's terminal. Control
//! characters and backslashes are escaped (`\n`, `\t`, `\x1b`, `\\`), so
//! every name stays on its report line and reads back unambiguously.

use std::borrow::Cow;
use std::fmt::Write;
use std::path::Path;

/// `text` with control characters and backslashes escaped.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if needs_escape(c) => {
                let _ = write!(out, "\\x{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A host path as [`shown`] shows text (not UTF-8 parts replaced).
pub fn shown_path(path: &Path) -> String {
    shown(&path.to_string_lossy()).into_owned()
}

fn needs_escape(c: char) -> bool {
    c == '\\' || c.is_control() || is_layout_control(c)
}

/// Characters that are not controls to Unicode but move or reorder what a
/// reader sees: line and paragraph separators (a new line in many
/// renderers) and the bidirectional overrides and isolates (text that
/// reads in another order than it is).
fn is_layout_control(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_cannot_break_a_line() {
        assert_eq!(shown("/src/a.txt"), "/src/a.txt");
        assert!(matches!(shown("/plain"), Cow::Borrowed(_)));
        assert_eq!(
            shown("/x\nwrite-back: wrote /etc/passwd"),
            "/x\\nwrite-back: wrote /etc/passwd"
        );
        assert_eq!(shown("a\tb\r\u{1b}[2J\\"), "a\\tb\\r\\x{1b}[2J\\\\");
        assert_eq!(shown("\u{85}é"), "\\x{85}é");
        assert_eq!(
            shown("ok\u{2028}Allow it?\u{202e}txt.exe"),
            "ok\\x{2028}Allow it?\\x{202e}txt.exe"
        );
        assert_eq!(shown_path(Path::new("/h/a\nb")), "/h/a\\nb");
    }
}
