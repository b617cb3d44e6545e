//! `envsubst`, as GNU gettext's: `$NAME` and `${NAME}` replaced by the
//! exported variable's value (nothing when unset); every other `$` form
//! (`${A:-x}`, `$1`, `$$`, an unclosed `${`) stays as written. With a
//! SHELL-FORMAT argument only the variables it names are replaced;
//! `-v` lists the names a SHELL-FORMAT holds.

use std::collections::HashMap;

use crate::args::{parse_options, print_text, usage};
use crate::text::lines::filter_lines;
use goccia_interp::interp::{ExecResult, ShellView};

/// A variable reference at the start of `text` (which begins with `$`):
/// the name and the length of the reference.
fn reference(text: &[u8]) -> Option<(&str, usize)> {
    let is_start = |b: &u8| b.is_ascii_alphabetic() || *b == b'_';
    let is_rest = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_';
    let braced = text.get(1) == Some(&b'{');
    let start = if braced { 2 } else { 1 };
    if !text.get(start).is_some_and(is_start) {
        return None;
    }
    let end = start + text[start..].iter().take_while(|b| is_rest(b)).count();
    let name = std::str::from_utf8(&text[start..end]).ok()?;
    if braced {
        (text.get(end) == Some(&b'}')).then_some((name, end + 1))
    } else {
        Some((name, end))
    }
}

/// The names referenced in `format`, in order, repeats kept.
fn names(format: &str) -> Vec<String> {
    let bytes = format.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'$'
            && let Some((name, len)) = reference(&bytes[i..])
        {
            found.push(name.to_string());
            i += len;
            continue;
        }
        i += 1;
    }
    found
}

/// `line` with the references `values` knows replaced; a name it does
/// not know stays as written when `only` lists names, and is replaced
/// by nothing otherwise.
fn substitute(
    line: &[u8],
    values: &HashMap<String, String>,
    only: Option<&[String]>,
    out: &mut Vec<u8>,
) {
    let mut i = 0;
    while i < line.len() {
        if line[i] == b'$'
            && let Some((name, len)) = reference(&line[i..])
            && only.is_none_or(|names| names.iter().any(|n| n == name))
        {
            if let Some(value) = values.get(name) {
                out.extend(value.as_bytes());
            }
            i += len;
            continue;
        }
        out.push(line[i]);
        i += 1;
    }
}

pub fn envsubst(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "",
        &[("variables", 'v', false), ("help", 'h', false)]
    );
    if let Some(flag) = parsed.flags.iter().find(|f| !matches!(f, 'v' | 'h')) {
        return usage(shell, "envsubst", &format!("invalid option -- '{flag}'"), 1);
    }
    if parsed.operands.len() > 1 {
        return usage(shell, "envsubst", "too many arguments", 1);
    }
    if parsed.has('h') {
        let help = "Usage: envsubst [OPTION] [SHELL-FORMAT]\n\nSubstitutes the values of environment variables.\n\n  -v, --variables             output the variables occurring in SHELL-FORMAT\n";
        return print_text(shell, "envsubst", help, 0);
    }
    let format = parsed.operands.first();
    if parsed.has('v') {
        let Some(format) = format else {
            return usage(shell, "envsubst", "missing arguments", 1);
        };
        let text: String = names(format).iter().map(|n| format!("{n}\n")).collect();
        return print_text(shell, "envsubst", &text, 0);
    }
    let values: HashMap<String, String> = shell.exported().into_iter().collect();
    let only = format.map(|format| names(format));
    filter_lines(shell, "envsubst", &[], |line, out| {
        substitute(line, &values, only.as_deref(), out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, only: Option<&[String]>) -> String {
        let values = HashMap::from([
            ("A".to_string(), "hi".to_string()),
            ("B_1".to_string(), "two".to_string()),
        ]);
        let mut out = Vec::new();
        substitute(text.as_bytes(), &values, only, &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn only_plain_references_are_replaced() {
        assert_eq!(
            run("${A:-x} $A ${A} $$ $1 ${B ${B_1}x $B_1x \\$A $ ${}", None),
            "${A:-x} hi hi $$ $1 ${B twox  \\hi $ ${}"
        );
    }

    #[test]
    fn a_shell_format_limits_the_names() {
        let only = names("$A");
        assert_eq!(run("$A ${B_1} $HOME", Some(&only)), "hi ${B_1} $HOME");
        assert_eq!(names("$A ${B_1} $A ${x"), ["A", "B_1", "A"]);
    }
}
