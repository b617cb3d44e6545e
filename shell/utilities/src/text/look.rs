//! `look`: the lines of a sorted file that begin with a string, as
//! util-linux 2.38's `look` finds them: a binary search over the file's
//! bytes, then a walk forward, so what an unsorted file gives follows its
//! steps (kept here one for one). `-d` compares only letters, digits and
//! blanks, `-f` ignores case, `-t C` ends the string after its first `C`;
//! with no file, `/usr/share/dict/words` with `-d` and `-f`.

use std::cmp::Ordering;

use crate::args::parse_options;
use goccia_interp::interp::{ExecResult, ShellView};

pub fn look(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "t",
        &[
            ("alternative", 'a', false),
            ("dictionary", 'd', false),
            ("ignore-case", 'f', false),
            ("terminate", 't', true),
        ]
    );
    let Some(string) = parsed.operands.first() else {
        let message = "bad usage\nTry 'look --help' for more information.";
        return Ok(shell.fail_command("look", message, 1));
    };
    let file = match parsed.operands.get(1) {
        Some(file) => file.clone(),
        None if parsed.has('a') => "/usr/share/dict/web2".to_string(),
        None => "/usr/share/dict/words".to_string(),
    };
    // With no file, the dictionary's flags.
    let default_flags = parsed.operands.len() == 1;
    let search = Search {
        dictionary: parsed.has('d') || default_flags,
        fold: parsed.has('f') || default_flags,
    };
    let mut key = string.as_bytes().to_vec();
    if let Some(end) = parsed.value('t').and_then(|t| t.bytes().next())
        && let Some(at) = key.iter().position(|b| *b == end)
    {
        key.truncate(at + 1);
    }
    let key = search.kept(&key);
    let data = match goccia_interp::input::open_quiet(shell, &file)
        .and_then(|mut source| source.read_all().map_err(|_| "Input/output error"))
    {
        Ok(data) => data,
        Err(reason) => return Ok(shell.fail_command("look", &format!("{file}: {reason}"), 1)),
    };
    let found = search.look(&data, &key);
    if found.is_empty() {
        return Ok(1);
    }
    match shell.write_stdout(found) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("look", error),
    }
}

struct Search {
    dictionary: bool,
    fold: bool,
}

impl Search {
    /// Whether `-d` compares the byte `b`.
    fn keeps(&self, b: u8) -> bool {
        !self.dictionary || b.is_ascii_alphanumeric() || matches!(b, b' ' | b'\t')
    }

    /// The bytes `-d` compares.
    fn kept(&self, text: &[u8]) -> Vec<u8> {
        text.iter().copied().filter(|b| self.keeps(*b)).collect()
    }

    /// The matching lines, from the binary search's landing place on.
    fn look<'a>(&self, data: &'a [u8], key: &[u8]) -> &'a [u8] {
        let back = data.len();
        let front = self.binary_search(data, key, 0, back);
        let Some(first) = self.linear_search(data, key, front, back) else {
            return &[];
        };
        let mut end = first;
        while end < back && self.compare(data, end, back, key) == Ordering::Equal {
            end = past_newline(data, end, back);
        }
        &data[first..end]
    }

    fn binary_search(&self, data: &[u8], key: &[u8], mut front: usize, mut back: usize) -> usize {
        let mut p = past_newline(data, front + (back - front) / 2, back);
        while p < back && back > front {
            if self.compare(data, p, back, key) == Ordering::Less {
                front = p;
            } else {
                back = p;
            }
            p = past_newline(data, front + (back - front) / 2, back);
        }
        front
    }

    fn linear_search(
        &self,
        data: &[u8],
        key: &[u8],
        mut front: usize,
        back: usize,
    ) -> Option<usize> {
        while front < back {
            match self.compare(data, front, back, key) {
                Ordering::Equal => return Some(front),
                Ordering::Greater => return None,
                Ordering::Less => front = past_newline(data, front, back),
            }
        }
        None
    }

    /// How the line at `at` compares with the key over the key's length
    /// (`Less`: the line sorts before it, and the search goes on).
    fn compare(&self, data: &[u8], at: usize, back: usize, key: &[u8]) -> Ordering {
        let line = data[at..back].split(|b| *b == b'\n').next().unwrap_or(&[]);
        let fold = |b: u8| if self.fold { b.to_ascii_lowercase() } else { b };
        // As `strncmp`: a line that ends first sorts first.
        let mut kept = line.iter().copied().filter(|b| self.keeps(*b)).map(fold);
        for &wanted in key {
            let ours = kept.next().unwrap_or(0);
            match ours.cmp(&fold(wanted)) {
                Ordering::Equal if ours == 0 => return Ordering::Equal,
                Ordering::Equal => continue,
                other => return other,
            }
        }
        Ordering::Equal
    }
}

/// The start of the line after the one `at` is in (or `back`).
fn past_newline(data: &[u8], at: usize, back: usize) -> usize {
    match data[at..back].iter().position(|b| *b == b'\n') {
        Some(newline) => at + newline + 1,
        None => back,
    }
}
