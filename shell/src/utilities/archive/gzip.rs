//! `gzip`, `gunzip` and `zcat`.

use super::{gunzip_bytes, gzip_bytes, write_output};
use crate::interp::{ExecResult, Shell};
use crate::utilities::input::open_quiet;

pub fn gzip(shell: &mut Shell, args: &[String]) -> ExecResult {
    compress_command(shell, args, "gzip", false)
}

pub fn gunzip(shell: &mut Shell, args: &[String]) -> ExecResult {
    compress_command(shell, args, "gunzip", true)
}

pub fn zcat(shell: &mut Shell, args: &[String]) -> ExecResult {
    let mut args = args.to_vec();
    args.insert(1, "-c".to_string());
    compress_command(shell, &args, "zcat", true)
}

fn compress_command(
    shell: &mut Shell,
    args: &[String],
    name: &str,
    mut decompress: bool,
) -> ExecResult {
    let parsed = match crate::utilities::args::getopt(
        args,
        "",
        &[
            ("stdout", 'c', false),
            ("to-stdout", 'c', false),
            ("decompress", 'd', false),
            ("keep", 'k', false),
            ("force", 'f', false),
            ("quiet", 'q', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => return Ok(shell.fail_command(name, &message, 1)),
    };
    decompress |= parsed.has('d');
    let to_stdout = parsed.has('c') || parsed.operands.is_empty();
    let operands = if parsed.operands.is_empty() {
        vec!["-".to_string()]
    } else {
        parsed.operands.clone()
    };
    let limit = shell.context().limits.max_buffered_input;
    let mut status = 0;
    for operand in &operands {
        let data = match open_quiet(shell, operand) {
            Ok(mut source) => match source.read_all() {
                Ok(data) => data,
                Err(error) => {
                    status = shell.fail_command(name, &format!("{operand}: {error}"), 1);
                    continue;
                }
            },
            Err(reason) => {
                status = shell.fail_command(name, &format!("{operand}: {reason}"), 1);
                continue;
            }
        };
        let converted = if decompress {
            match gunzip_bytes(&data, limit) {
                Ok(bytes) => bytes,
                Err(_) => {
                    status = shell.fail_command(name, &format!("{operand}: not in gzip format"), 1);
                    continue;
                }
            }
        } else {
            gzip_bytes(&data)
        };
        if to_stdout || operand == "-" {
            if let Err(error) = shell.write_stdout(&converted) {
                return shell.io_status(name, error);
            }
            continue;
        }
        let target = if decompress {
            match operand
                .strip_suffix(".gz")
                .or_else(|| operand.strip_suffix(".tgz"))
            {
                Some(stem) => stem.to_string(),
                None => {
                    status = shell.fail_command(
                        name,
                        &format!("{operand}: unknown suffix -- ignored"),
                        1,
                    );
                    continue;
                }
            }
        } else {
            format!("{operand}.gz")
        };
        if write_output(shell, name, Some(&target), converted).is_err() {
            status = 1;
            continue;
        }
        if !parsed.has('k')
            && let Ok(path) = shell.cwd().resolve(operand)
        {
            let _ = shell.context().vfs.lock().remove_file(&path);
        }
    }
    Ok(status)
}
