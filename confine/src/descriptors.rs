//! Keeping goccia's own descriptors out of the processes it starts
//! (docs/security.md, "What crosses into a jail or a worker"): whatever
//! the process that started goccia left open without close-on-exec (a
//! shell's `exec 7>>file`, a CI runner's pipes) would otherwise be
//! inherited by the isolated worker and by host commands, past every
//! mount and Landlock rule. A child is started with only the descriptors
//! it is meant to have: call [`close_on_exec_from`] between `fork` and
//! `exec` (a `pre_exec` hook), after the descriptors it should keep were
//! moved below `first`.

use std::io;
use std::os::fd::RawFd;

/// The highest descriptor the fallback walks to when the kernel has no
/// `close_range`: the soft `RLIMIT_NOFILE`, read before the fork (no
/// allocation or lock after it), bounded so a huge limit stays cheap.
pub fn descriptor_ceiling() -> RawFd {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit fills the struct we own.
    let read = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    if read && limit.rlim_cur != libc::RLIM_INFINITY {
        limit.rlim_cur.min(1 << 20) as RawFd
    } else {
        1 << 20
    }
}

/// Marks every descriptor numbered `first` or above close-on-exec, so the
/// program `exec` starts holds none of them. Async-signal-safe: `close_range`
/// with `CLOSE_RANGE_CLOEXEC` (Linux 5.11), else `fcntl` on each number up
/// to `ceiling` (from [`descriptor_ceiling`], read before the fork).
///
/// Close-on-exec rather than closing: the standard library's own report
/// pipe (how a failed `exec` reaches the parent) must stay open until the
/// `exec` itself.
pub fn close_on_exec_from(first: RawFd, ceiling: RawFd) -> io::Result<()> {
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    // SAFETY: close_range only changes descriptor flags of this process.
    let done = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            first as libc::c_uint,
            libc::c_uint::MAX,
            CLOSE_RANGE_CLOEXEC,
        )
    } == 0;
    if done {
        return Ok(());
    }
    for fd in first..ceiling {
        // SAFETY: fcntl on a number that may or may not be open; EBADF is
        // the expected answer for most.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFD);
            if flags >= 0 && flags & libc::FD_CLOEXEC == 0 {
                libc::fcntl(fd, libc::F_SETFD, flags | libc::FD_CLOEXEC);
            }
        }
    }
    Ok(())
}

/// Makes `fd` survive `exec` (clears its close-on-exec flag): for a
/// descriptor `dup2` did not copy because it already sat at its number.
pub fn keep_across_exec(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl on a descriptor the caller holds.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    // SAFETY: as above.
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFD, flags & !libc::FD_CLOEXEC) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;

    #[test]
    fn every_descriptor_from_the_first_becomes_close_on_exec() {
        let file = tempfile_like();
        // SAFETY: dup of a descriptor we hold; the copy has no CLOEXEC.
        let copy = unsafe { libc::dup(file.as_raw_fd()) };
        assert!(copy > 2);
        // SAFETY: as above.
        assert_eq!(
            unsafe { libc::fcntl(copy, libc::F_GETFD) } & libc::FD_CLOEXEC,
            0
        );
        close_on_exec_from(copy, descriptor_ceiling()).unwrap();
        // SAFETY: as above.
        let flags = unsafe { libc::fcntl(copy, libc::F_GETFD) };
        assert_ne!(flags & libc::FD_CLOEXEC, 0);
        keep_across_exec(copy).unwrap();
        // SAFETY: as above.
        assert_eq!(
            unsafe { libc::fcntl(copy, libc::F_GETFD) } & libc::FD_CLOEXEC,
            0
        );
        // SAFETY: our copy.
        unsafe { libc::close(copy) };
    }

    fn tempfile_like() -> std::fs::File {
        std::fs::File::open("/dev/null").unwrap()
    }
}
