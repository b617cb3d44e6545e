//! Redirections: opening VFS files and special devices, duplicating and
//! closing descriptors, here-documents and here-strings. A command's
//! redirections are undone when it ends (except `exec`'s).

use std::io::Write;

use goccia_vfs::{Errno, FsError, Node, VfsPath};

use super::{Flow, Shell};
use crate::ast::*;
use crate::io::{BytesReader, Fd, FdTable, FileWriter};

/// Descriptors as they were before a command's redirections.
pub(crate) type SavedFds = Vec<(usize, Option<Fd>)>;

/// Readable devices: `/dev/null` is empty, `/dev/zero` and
/// `/dev/urandom` are endless (and stop at the deadline like any stream).
pub(crate) fn device_input(path: &str, watch: &goccia_core::Watch) -> Option<Fd> {
    match path {
        "/dev/null" => Some(Fd::null_input()),
        "/dev/zero" | "/dev/full" => Some(Fd::reader(crate::io::ZeroReader::new(watch.clone()))),
        "/dev/urandom" | "/dev/random" => {
            Some(Fd::reader(crate::io::RandomReader::new(watch.clone())))
        }
        _ => None,
    }
}

impl Shell {
    /// Applies `redirects`; on failure reports it and returns the status
    /// (the command does not run; earlier redirections are undone).
    pub(crate) fn apply_redirects(&mut self, redirects: &[Redirect]) -> Result<SavedFds, i32> {
        let mut saved: SavedFds = Vec::new();
        for redirect in redirects {
            if let Err(status) = self.apply_one(redirect, &mut saved) {
                let _ = self.restore_redirects(saved);
                self.status = status;
                return Err(status);
            }
        }
        Ok(saved)
    }

    /// Undoes `saved` redirections, flushing what was written through
    /// them. A write that fails at the flush (a quota, a fence) is said on
    /// stderr as bash says a failed write, and makes the result `false`:
    /// the command's success must not stand for data that never landed.
    pub(crate) fn restore_redirects(&mut self, saved: SavedFds) -> bool {
        let mut landed = true;
        for (fd, old) in saved.into_iter().rev() {
            if let Some(Fd::Output(writer, _)) | Some(Fd::Both(_, writer)) = self.fds.get(fd) {
                let flushed = writer.lock().flush();
                if let Err(error) = flushed
                    && !is_stop(&error)
                {
                    landed = false;
                    let text = format!("{}: write error: {error}\n", self.arg0);
                    self.write_stderr(text.as_bytes());
                }
            }
            match old {
                Some(value) => self.fds.set(fd, value),
                None => self.fds.close(fd),
            }
        }
        landed
    }

    fn save(&self, saved: &mut SavedFds, fd: usize) {
        if !saved.iter().any(|(f, _)| *f == fd) {
            saved.push((fd, self.fds.get(fd).cloned()));
        }
    }

    fn redirect_error(&mut self, target: &str, message: &str) -> i32 {
        // Non-interactive bash names the line (`bash: line 3: /x: ...`).
        let text = if self.interactive {
            format!("{}: {target}: {message}\n", self.arg0)
        } else {
            format!("{}: line {}: {target}: {message}\n", self.arg0, self.line)
        };
        self.write_stderr(text.as_bytes());
        1
    }

    fn apply_one(&mut self, redirect: &Redirect, saved: &mut SavedFds) -> Result<(), i32> {
        let RedirectFd::Variable(name) = &redirect.fd else {
            return self.apply_numbered(redirect, saved);
        };
        // `{name}`: closing uses the descriptor the variable holds;
        // opening takes the lowest free descriptor from 10 and assigns it
        // once the redirection worked. Either way it outlives the command
        // (bash does not undo these), so nothing is saved.
        let closing = matches!(redirect.op, RedirectOp::DupRead | RedirectOp::DupWrite)
            && crate::parse::word_text(&redirect.target) == "-";
        let mut kept = Vec::new();
        if closing {
            let Some(fd) = self
                .get_var(name)
                .and_then(|v| v.trim().parse::<usize>().ok())
            else {
                return Err(self.redirect_error(name, "ambiguous redirect"));
            };
            let numbered = Redirect {
                fd: RedirectFd::Number(fd as i32),
                ..redirect.clone()
            };
            return self.apply_numbered(&numbered, &mut kept);
        }
        let fd = self.fds.free_from(10);
        let numbered = Redirect {
            fd: RedirectFd::Number(fd as i32),
            ..redirect.clone()
        };
        self.apply_numbered(&numbered, &mut kept)?;
        if let Err(message) = self.set_var(name, fd.to_string()) {
            self.fds.close(fd);
            let text = format!(
                "{}: {message}\n{}: {name}: cannot assign fd to variable\n",
                self.arg0, self.arg0
            );
            self.write_stderr(text.as_bytes());
            return Err(1);
        }
        Ok(())
    }

    fn apply_numbered(&mut self, redirect: &Redirect, saved: &mut SavedFds) -> Result<(), i32> {
        let input = matches!(
            redirect.op,
            RedirectOp::Read
                | RedirectOp::DupRead
                | RedirectOp::HereDoc
                | RedirectOp::HereString
                | RedirectOp::ReadWrite
        );
        let fd = match &redirect.fd {
            RedirectFd::Default => usize::from(!input),
            RedirectFd::Number(n) => *n as usize,
            RedirectFd::Variable(_) => unreachable!("numbered by apply_one"),
        };
        // At or above `ulimit -n` (never above the table's own bound); 0
        // to 2 are open already, and a file opened onto them meets the
        // limit when it is opened.
        let over_limit = fd > 2 && fd as u64 >= self.resource_limits.open_files();
        if fd > FdTable::MAX_FD || over_limit {
            return Err(self.redirect_error(&fd.to_string(), "Bad file descriptor"));
        }
        let flow_status = |flow: Flow| match flow {
            Flow::Exit(status)
            | Flow::Return(status)
            | Flow::Abandon(status)
            | Flow::Discard(status) => status,
            _ => 1,
        };
        match redirect.op {
            RedirectOp::HereDoc => {
                let body = redirect
                    .heredoc
                    .as_ref()
                    .map(|doc| doc.body.clone())
                    .unwrap_or_default();
                let text = self.expand_string(&body).map_err(flow_status)?;
                self.save(saved, fd);
                let bytes = crate::raw::encode_string(text);
                self.fds.set(fd, here_document(bytes));
                return Ok(());
            }
            RedirectOp::HereString => {
                let mut text = self.expand_string(&redirect.target).map_err(flow_status)?;
                text.push('\n');
                self.save(saved, fd);
                let bytes = crate::raw::encode_string(text);
                self.fds.set(fd, here_document(bytes));
                return Ok(());
            }
            _ => {}
        }
        let target = match self.expand_redirect_target(&redirect.target) {
            Ok(Some(target)) => target,
            Ok(None) => {
                let shown = crate::parse::word_text(&redirect.target);
                return Err(self.redirect_error(&shown, "ambiguous redirect"));
            }
            Err(flow) => return Err(flow_status(flow)),
        };
        match redirect.op {
            RedirectOp::DupRead | RedirectOp::DupWrite => {
                if target == "-" {
                    self.save(saved, fd);
                    self.fds.close(fd);
                    return Ok(());
                }
                let (number, close_source) = match target.strip_suffix('-') {
                    Some(number) => (number, true),
                    None => (target.as_str(), false),
                };
                if let Ok(source) = number.parse::<usize>() {
                    let Some(value) = self.fds.get(source).cloned() else {
                        return Err(self.redirect_error(number, "Bad file descriptor"));
                    };
                    self.save(saved, fd);
                    self.fds.set(fd, value);
                    // `cmd 6>&7-` moves 7 to 6; bash 5.2 does not reopen 7
                    // after the command (its known bug, kept: scripts
                    // written against it see 7 closed).
                    if close_source {
                        self.fds.close(source);
                    }
                    return Ok(());
                }
                // `>&file` and `1>&file` are `&>file` in bash.
                if redirect.op == RedirectOp::DupWrite
                    && matches!(redirect.fd, RedirectFd::Default | RedirectFd::Number(1))
                {
                    let writer = self.open_output(&target, false)?;
                    self.save(saved, 1);
                    self.save(saved, 2);
                    self.fds.set(1, writer.clone());
                    self.fds.set(2, writer);
                    return Ok(());
                }
                Err(self.redirect_error(&target, "ambiguous redirect"))
            }
            RedirectOp::ReadWrite
                if self.special_fd(&target).is_none() && !target.starts_with("/dev/") =>
            {
                self.descriptor_to_open(&target)?;
                let path = self.redirect_path(&target)?;
                let vfs = self.ctx.vfs.clone();
                let opened = {
                    let mut vfs = vfs.lock();
                    match vfs.read_file(&path) {
                        Ok(_) => Ok(()),
                        // `<>` creates a missing file, but not its folder.
                        Err(error) if error.errno == Errno::NoEnt => {
                            let created = vfs.write_file(&path, Vec::new());
                            match self.mode_for_new(false) {
                                Some(mode) if created.is_ok() => vfs.set_mode(&path, mode),
                                _ => created,
                            }
                        }
                        Err(error) => Err(error),
                    }
                };
                if let Err(error) = opened {
                    let reason = self.fs_reason(&self.arg0.clone(), &error);
                    return Err(self.redirect_error(&target, &reason));
                }
                self.save(saved, fd);
                self.fds.set(fd, Fd::read_write(vfs, path));
                Ok(())
            }
            RedirectOp::Read | RedirectOp::ReadWrite => {
                let reader = self.open_input(&target, redirect.op == RedirectOp::ReadWrite)?;
                self.save(saved, fd);
                self.fds.set(fd, reader);
                Ok(())
            }
            RedirectOp::Write | RedirectOp::Clobber | RedirectOp::Append => {
                if redirect.op == RedirectOp::Write {
                    self.refuse_clobber(&target)?;
                }
                let writer = self.open_output(&target, redirect.op == RedirectOp::Append)?;
                self.save(saved, fd);
                self.fds.set(fd, writer);
                Ok(())
            }
            RedirectOp::WriteBoth | RedirectOp::AppendBoth => {
                if redirect.op == RedirectOp::WriteBoth {
                    self.refuse_clobber(&target)?;
                }
                let writer = self.open_output(&target, redirect.op == RedirectOp::AppendBoth)?;
                self.save(saved, 1);
                self.save(saved, 2);
                self.fds.set(1, writer.clone());
                self.fds.set(2, writer);
                Ok(())
            }
            RedirectOp::HereDoc | RedirectOp::HereString => unreachable!("handled above"),
        }
    }

    /// `set -C`: `>` and `&>` do not truncate an existing regular file
    /// (`>|` does).
    fn refuse_clobber(&mut self, target: &str) -> Result<(), i32> {
        if self.opts.noclobber
            && let Ok(path) = self.cwd.resolve(target)
            && self.ctx.vfs.lock().is_file(&path)
        {
            return Err(self.redirect_error(target, "cannot overwrite existing file"));
        }
        Ok(())
    }

    /// `/dev/fd/N`, `/dev/stdin`: an open descriptor.
    fn special_fd(&self, target: &str) -> Option<usize> {
        match target {
            "/dev/stdin" => Some(0),
            "/dev/stdout" => Some(1),
            "/dev/stderr" => Some(2),
            _ => target.strip_prefix("/dev/fd/").and_then(|n| n.parse().ok()),
        }
    }

    /// Opening a file takes the lowest free descriptor, which must be
    /// under `ulimit -n`.
    fn descriptor_to_open(&mut self, target: &str) -> Result<(), i32> {
        if self.fds.free_from(0) as u64 >= self.resource_limits.open_files() {
            return Err(self.redirect_error(target, "Too many open files"));
        }
        Ok(())
    }

    fn open_input(&mut self, target: &str, create: bool) -> Result<Fd, i32> {
        self.descriptor_to_open(target)?;
        if let Some(fd) = self.special_fd(target) {
            return self
                .fds
                .get(fd)
                .cloned()
                .ok_or_else(|| self.redirect_error(target, "Bad file descriptor"));
        }
        if let Some(device) = device_input(target, &self.watch) {
            return Ok(device);
        }
        let path = self.redirect_path(target)?;
        let vfs = self.ctx.vfs.clone();
        let mut vfs = vfs.lock();
        // One lookup: the content, and the time `gzip < file` stores.
        let opened = vfs.lookup(&path).and_then(|node| match node {
            Node::File(file) => Ok(Fd::regular_file(
                file.data().clone(),
                Some(file.meta().mtime_ns),
            )),
            _ => Err(FsError::new(Errno::IsDir, &path)),
        });
        match opened {
            Ok(fd) => Ok(fd),
            Err(error) if error.errno == Errno::IsDir && !create => Ok(Fd::directory()),
            Err(error) if error.errno == Errno::NoEnt && create => {
                // `<>` creates a missing file, but not its folder.
                match vfs.write_file(&path, Vec::new()) {
                    Ok(()) => Ok(Fd::null_input()),
                    Err(error) => {
                        drop(vfs);
                        let reason = self.fs_reason(&self.arg0.clone(), &error);
                        Err(self.redirect_error(target, &reason))
                    }
                }
            }
            Err(error) => {
                drop(vfs);
                Err(self.redirect_error(target, &error.reason()))
            }
        }
    }

    fn open_output(&mut self, target: &str, append: bool) -> Result<Fd, i32> {
        self.descriptor_to_open(target)?;
        if let Some(fd) = self.special_fd(target) {
            return self
                .fds
                .get(fd)
                .cloned()
                .ok_or_else(|| self.redirect_error(target, "Bad file descriptor"));
        }
        if target == "/dev/null" || target == "/dev/zero" {
            return Ok(Fd::null_output());
        }
        if target == "/dev/full" {
            return Ok(Fd::full_output());
        }
        let path = self.redirect_path(target)?;
        let vfs = self.ctx.vfs.clone();
        let new_mode = self.mode_for_new(false);
        let result = {
            let mut vfs = vfs.lock();
            let created = !vfs.exists(&path);
            let opened = if append {
                vfs.append_file(&path, Vec::new())
            } else {
                vfs.write_file(&path, Vec::new())
            };
            match new_mode {
                Some(mode) if created && opened.is_ok() => vfs.set_mode(&path, mode),
                _ => opened,
            }
        };
        match result {
            Ok(()) => Ok(Fd::writer(FileWriter::new(vfs, path))),
            Err(error) => {
                let reason = self.fs_reason(&self.arg0.clone(), &error);
                Err(self.redirect_error(target, &reason))
            }
        }
    }

    fn redirect_path(&mut self, target: &str) -> Result<VfsPath, i32> {
        self.cwd.resolve(target).map_err(|error| {
            let errno = Errno::from(&error);
            self.redirect_error(target, errno.strerror())
        })
    }
}

/// A stop (deadline, output budget) travelling as an I/O error: the run
/// ends with it; it is no write error to report.
fn is_stop(error: &std::io::Error) -> bool {
    goccia_core::Stop::in_io(error).is_some()
}

/// What bash opens a here-document or here-string as: a pipe when it fits
/// one (64 KiB, a Linux pipe's capacity), else a temporary regular file —
/// which `test -p /dev/stdin`, `test -f /dev/stdin` and `wc`'s widths see.
fn here_document(bytes: Vec<u8>) -> Fd {
    const PIPE_CAPACITY: usize = 64 << 10;
    if bytes.len() <= PIPE_CAPACITY {
        Fd::pipe_reader(BytesReader::new(bytes))
    } else {
        Fd::file(bytes.into())
    }
}
