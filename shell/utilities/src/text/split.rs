//! `split`: a stream into files.

use crate::args::parse_options;
use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};

pub fn split(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "lbna",
        &[
            ("lines", 'l', true),
            ("bytes", 'b', true),
            ("number", 'n', true),
            ("numeric-suffixes", 'd', false),
            ("suffix-length", 'a', true),
        ]
    );
    let input = parsed
        .operands
        .first()
        .cloned()
        .unwrap_or_else(|| "-".to_string());
    let prefix = parsed
        .operands
        .get(1)
        .cloned()
        .unwrap_or_else(|| "x".to_string());
    let suffix_length: usize = parsed.value('a').and_then(|v| v.parse().ok()).unwrap_or(2);
    let Ok(mut source) = open_source(shell, "split", &input) else {
        return Ok(1);
    };
    let data = match source.read_all() {
        Ok(data) => data,
        Err(error) => return shell.io_status("split", error),
    };
    let chunks: Vec<Vec<u8>> = if let Some(bytes) = parsed.value('b') {
        let size = crate::args::parse_size_suffix(bytes).unwrap_or(1).max(1) as usize;
        data.chunks(size).map(<[u8]>::to_vec).collect()
    } else if let Some(count) = parsed.value('n') {
        let count: usize = count.parse().unwrap_or(1).max(1);
        let size = data.len().div_ceil(count).max(1);
        data.chunks(size).map(<[u8]>::to_vec).collect()
    } else {
        let lines: usize = parsed
            .value('l')
            .and_then(|v| v.parse().ok())
            .unwrap_or(1000)
            .max(1);
        let all: Vec<&[u8]> = data.split_inclusive(|b| *b == b'\n').collect();
        all.chunks(lines).map(|c| c.concat()).collect()
    };
    let numeric = parsed.has('d');
    for (index, chunk) in chunks.into_iter().enumerate() {
        let suffix = if numeric {
            goccia_interp::pad::left_pad(&index.to_string(), suffix_length, '0')
        } else {
            let mut n = index;
            let mut letters = vec!['a'; suffix_length];
            for slot in letters.iter_mut().rev() {
                *slot = (b'a' + (n % 26) as u8) as char;
                n /= 26;
            }
            letters.into_iter().collect()
        };
        let name = format!("{prefix}{suffix}");
        let path = match shell.cwd().resolve(&name) {
            Ok(path) => path,
            Err(error) => {
                let reason = goccia_vfs::Errno::from(&error).strerror();
                return Ok(shell.fail_command("split", &format!("{name}: {reason}"), 1));
            }
        };
        let written = shell.context().vfs.lock().write_file(&path, chunk);
        if let Err(error) = written {
            return Ok(shell.fail_fs(
                "split",
                &name,
                &error,
                |reason| format!("{name}: {reason}"),
                1,
            ));
        }
    }
    Ok(0)
}
