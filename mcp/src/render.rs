//! The text a model reads back: a run's exit code and streams, a file's
//! lines within the output limit, a listing, an edit. Pure functions, so
//! the wording is tested here without a protocol around it.

use goccia::{FailureKind, NodeType, Run};

/// A run as text: the exit code, the failure kind when there is one, the
/// script's result, then each stream between tags (so output that looks
/// like a header cannot be mistaken for one).
pub fn run_text(run: &Run) -> String {
    let mut text = format!("exit code: {}\n", run.exit_code);
    if let Some(kind) = run.failure_kind() {
        text.push_str(&format!("failure: {}\n", kind.as_str()));
    }
    if let Some(result) = &run.result {
        text.push_str(&format!("result: {result}\n"));
    }
    if run.output_truncated {
        text.push_str(
            "output truncated: the middle was replaced by a [goccia: N bytes of output omitted] line\n",
        );
    }
    stream(&mut text, "stdout", &run.stdout);
    stream(&mut text, "stderr", &run.stderr);
    if let Some(failure) = &run.failure {
        // The report (a JS stack trace, the limit that was hit and its
        // value) is what the CLI prints on stderr after the guest's own.
        let report = if failure.report.is_empty() {
            &failure.message
        } else {
            &failure.report
        };
        stream(&mut text, "error", report.as_bytes());
    }
    text
}

fn stream(text: &mut String, name: &str, bytes: &[u8]) {
    if bytes.is_empty() {
        text.push_str(&format!("<{name}></{name}>\n"));
        return;
    }
    let body = String::from_utf8_lossy(bytes);
    let newline = if body.ends_with('\n') { "" } else { "\n" };
    text.push_str(&format!("<{name}>\n{body}{newline}</{name}>\n"));
}

/// Whether a failure means the call could not run at all (nothing of the
/// guest happened), as opposed to a guest that ran and failed.
pub fn is_refusal(run: &Run) -> bool {
    matches!(run.failure_kind(), Some(FailureKind::Usage))
}

/// Lines `offset..offset+limit` (1-based) of `text`, cut at a whole line
/// within `max_bytes`; a closing note says where the file goes on.
pub fn lines(text: &str, offset: u64, limit: Option<u64>, max_bytes: u64) -> String {
    let total = text.lines().count() as u64;
    let first = offset.max(1);
    if first > total.max(1) {
        return format!("[goccia: the file has {total} lines; offset {first} is past its end]\n");
    }
    let wanted = limit.unwrap_or(u64::MAX);
    let mut shown = String::new();
    let mut last = first - 1;
    for line in text
        .split_inclusive('\n')
        .skip((first - 1) as usize)
        .take(wanted.min(usize::MAX as u64) as usize)
    {
        if (shown.len() + line.len()) as u64 > max_bytes && last >= first {
            break;
        }
        shown.push_str(line);
        last += 1;
    }
    if last < total {
        if !shown.ends_with('\n') && !shown.is_empty() {
            shown.push('\n');
        }
        let why = if limit.is_some_and(|limit| last - first + 1 >= limit) {
            String::new()
        } else {
            " (the output limit)".to_string()
        };
        shown.push_str(&format!(
            "[goccia: lines {first}-{last} of {total} shown{why}; read on with offset {}]\n",
            last + 1
        ));
    }
    shown
}

/// Why an edit could not be made.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// `oldText` is empty.
    #[error("oldText is empty: give the exact text to replace")]
    Empty,
    /// `oldText` does not occur.
    #[error(
        "oldText was not found in {path}: nothing changed (read the file and copy the text exactly, whitespace included)"
    )]
    NotFound {
        /// The file.
        path: String,
    },
    /// `oldText` occurs more than once.
    #[error(
        "oldText occurs {count} times in {path}: nothing changed (include more surrounding lines so it occurs exactly once)"
    )]
    Ambiguous {
        /// The file.
        path: String,
        /// How many times.
        count: usize,
    },
}

/// `content` with the one occurrence of `old` replaced by `new`.
pub fn edit(path: &str, content: &str, old: &str, new: &str) -> Result<String, EditError> {
    if old.is_empty() {
        return Err(EditError::Empty);
    }
    let count = content.matches(old).count();
    match count {
        0 => Err(EditError::NotFound {
            path: path.to_string(),
        }),
        1 => Ok(content.replacen(old, new, 1)),
        count => Err(EditError::Ambiguous {
            path: path.to_string(),
            count,
        }),
    }
}

/// One listing line: folders end with `/`, links show their target.
pub fn entry_line(name: &str, node_type: NodeType, size: Option<u64>) -> String {
    match (node_type, size) {
        (NodeType::Directory, _) => format!("{name}/"),
        (_, Some(size)) => format!("{name}  ({size} bytes)"),
        (_, None) => name.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_needs_exactly_one_occurrence() {
        assert_eq!(
            edit("/a", "x = 1\ny = 2\n", "y = 2", "y = 3").unwrap(),
            "x = 1\ny = 3\n"
        );
        assert_eq!(
            edit("/a", "a a", "a", "b").unwrap_err().to_string(),
            "oldText occurs 2 times in /a: nothing changed (include more surrounding lines so it occurs exactly once)"
        );
        assert_eq!(
            edit("/a", "abc", "x", "y").unwrap_err(),
            EditError::NotFound { path: "/a".into() }
        );
        assert_eq!(edit("/a", "abc", "", "y").unwrap_err(), EditError::Empty);
        // Overlapping occurrences count as str::matches counts them.
        assert!(matches!(
            edit("/a", "aaa", "aa", "b"),
            Ok(text) if text == "ba"
        ));
    }

    #[test]
    fn lines_are_cut_by_offset_limit_and_bytes() {
        let text = "1\n2\n3\n4\n5\n";
        assert_eq!(lines(text, 1, None, 1 << 20), text);
        assert_eq!(
            lines(text, 2, Some(2), 1 << 20),
            "2\n3\n[goccia: lines 2-3 of 5 shown; read on with offset 4]\n"
        );
        assert_eq!(lines(text, 4, None, 4), "4\n5\n");
        assert_eq!(
            lines(text, 1, None, 4),
            "1\n2\n[goccia: lines 1-2 of 5 shown (the output limit); read on with offset 3]\n"
        );
        assert_eq!(
            lines(text, 9, None, 100),
            "[goccia: the file has 5 lines; offset 9 is past its end]\n"
        );
        // One line longer than the limit is still shown (never an empty page).
        assert_eq!(
            lines("long line\nb\n", 1, None, 3),
            "long line\n[goccia: lines 1-1 of 2 shown (the output limit); read on with offset 2]\n"
        );
        assert_eq!(lines("", 1, None, 10), "");
        assert_eq!(lines("no newline", 1, None, 100), "no newline");
    }

    #[test]
    fn a_run_shows_code_failure_and_tagged_streams() {
        let run = Run {
            exit_code: 0,
            failure: None,
            stdout: b"hi\n".to_vec(),
            stderr: Vec::new(),
            result: None,
            duration: std::time::Duration::ZERO,
            memory_used: None,
            output_truncated: false,
        };
        assert_eq!(
            run_text(&run),
            "exit code: 0\n<stdout>\nhi\n</stdout>\n<stderr></stderr>\n"
        );
        let stderr = Run {
            stdout: Vec::new(),
            stderr: b"x".to_vec(),
            ..run.clone()
        };
        assert!(run_text(&stderr).ends_with("<stderr>\nx\n</stderr>\n"));
        let cut = Run {
            output_truncated: true,
            ..stderr.clone()
        };
        assert!(run_text(&cut).contains("output truncated"));
        // A guest's own non-zero exit is a script error, as everywhere.
        let exited = Run {
            exit_code: 3,
            ..stderr
        };
        assert!(run_text(&exited).starts_with("exit code: 3\nfailure: script-error\n"));
    }
}
