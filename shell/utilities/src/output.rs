//! Opening an operand for writing, as the commands that take output paths
//! need it (`tee`): `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` are the
//! shell's open descriptors (a process substitution's pipe among them),
//! `/dev/null` discards, anything else is a VFS file created or
//! truncated (or appended to).

use std::io::{self, Write};

use goccia_vfs::FsError;

use goccia_interp::interp::ShellView;
use goccia_interp::io::{Fd, FileWriter, SharedWriter};

/// Where an opened operand's bytes go.
pub enum Sink {
    /// An open descriptor of the shell.
    Descriptor(SharedWriter),
    /// A VFS file.
    File(FileWriter),
    /// Nowhere (`/dev/null`).
    Discard,
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Descriptor(writer) => writer.lock().write(buf),
            Sink::File(file) => file.write(buf),
            Sink::Discard => Ok(buf.len()),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Descriptor(writer) => writer.lock().flush(),
            Sink::File(file) => file.flush(),
            Sink::Discard => Ok(()),
        }
    }
}

/// Why an operand cannot be opened for writing.
pub enum OpenError {
    /// A descriptor name that is not open for writing.
    BadDescriptor,
    /// The VFS refused.
    Fs(FsError),
    /// The path does not parse.
    Invalid(&'static str),
}

/// Opens `operand` for writing (`append`: at its end).
pub fn open_sink(shell: &mut ShellView, operand: &str, append: bool) -> Result<Sink, OpenError> {
    let descriptor = match operand {
        "/dev/stdout" => Some(1),
        "/dev/stderr" => Some(2),
        "/dev/null" => return Ok(Sink::Discard),
        _ => operand
            .strip_prefix("/dev/fd/")
            .and_then(|n| n.parse::<usize>().ok()),
    };
    if let Some(fd) = descriptor {
        return match shell.fds().get(fd) {
            Some(Fd::Output(writer, _)) | Some(Fd::Both(_, writer)) => {
                Ok(Sink::Descriptor(writer.clone()))
            }
            _ => Err(OpenError::BadDescriptor),
        };
    }
    let path = shell
        .cwd()
        .resolve(operand)
        .map_err(|error| OpenError::Invalid(goccia_vfs::Errno::from(&error).strerror()))?;
    let vfs = shell.context().vfs.clone();
    let created = {
        let mut vfs = vfs.lock();
        if append {
            vfs.append_file(&path, Vec::new())
        } else {
            vfs.write_file(&path, Vec::new())
        }
    };
    created.map_err(OpenError::Fs)?;
    Ok(Sink::File(FileWriter::new(vfs, path)))
}

/// Opens `operand` as [`open_sink`] does; a refusal is reported as
/// `command: operand: reason` and becomes `status`. An unopened
/// `/dev/fd/N` is `No such file or directory`, as Linux says for it.
pub fn open_sink_or_fail(
    shell: &mut ShellView,
    command: &str,
    operand: &str,
    append: bool,
    status: i32,
) -> Result<Sink, i32> {
    match open_sink(shell, operand, append) {
        Ok(sink) => Ok(sink),
        Err(OpenError::Fs(error)) => Err(shell.fail_fs(
            command,
            operand,
            &error,
            |reason| format!("{operand}: {reason}"),
            status,
        )),
        Err(OpenError::BadDescriptor) => Err(shell.fail_command(
            command,
            &format!("{operand}: No such file or directory"),
            status,
        )),
        Err(OpenError::Invalid(reason)) => {
            Err(shell.fail_command(command, &format!("{operand}: {reason}"), status))
        }
    }
}
