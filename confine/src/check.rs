//! Functional checks: after a layer is applied, what it should refuse is
//! tried, and the layer counts only if it was refused the right way. A
//! layer the kernel accepted but that does not hold is not reported as
//! enforced.

/// The result of trying something a layer should refuse: the `errno` it
/// failed with, or `None` when it succeeded.
#[cfg(target_os = "linux")]
pub fn errno_of(result: libc::c_int) -> Option<i32> {
    (result < 0).then(|| std::io::Error::last_os_error().raw_os_error().unwrap_or(0))
}

/// Tries to open `/` for reading (Landlock: `EACCES`; seccomp: `EPERM`).
#[cfg(target_os = "linux")]
pub fn open_root() -> Option<i32> {
    let path = c"/";
    // SAFETY: a valid C string; the descriptor is closed at once.
    let fd = unsafe {
        libc::open(
            path.as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    let error = errno_of(fd);
    if fd >= 0 {
        // SAFETY: the descriptor just opened.
        unsafe { libc::close(fd) };
    }
    error
}

/// Tries a TCP connection to 127.0.0.1:9 (Landlock: `EACCES` before any
/// routing; seccomp: `EPERM` at `socket`). Succeeding or being refused by
/// the peer (`ECONNREFUSED`, `ENETUNREACH`) means the layer did not hold.
#[cfg(target_os = "linux")]
pub fn connect_loopback() -> Option<i32> {
    // SAFETY: plain system calls on values built here.
    unsafe {
        let fd = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        if fd < 0 {
            return errno_of(fd);
        }
        let address = libc::sockaddr_in {
            sin_family: libc::AF_INET as libc::sa_family_t,
            sin_port: 9u16.to_be(),
            sin_addr: libc::in_addr {
                s_addr: u32::from_be_bytes([127, 0, 0, 1]).to_be(),
            },
            sin_zero: [0; 8],
        };
        let result = libc::connect(
            fd,
            (&address as *const libc::sockaddr_in).cast(),
            std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
        );
        let error = errno_of(result);
        libc::close(fd);
        error
    }
}

/// Tries to execute `/bin/true` in a forked child (seccomp: `fork` fails
/// with `EPERM`). Returns the `errno` of the first step that failed.
#[cfg(target_os = "linux")]
pub fn fork() -> Option<i32> {
    // SAFETY: the child only exits; a refused fork returns -1.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            libc::_exit(0);
        }
        if pid < 0 {
            return errno_of(-1);
        }
        let mut status = 0;
        libc::waitpid(pid, &mut status, 0);
        None
    }
}

/// Tries to replace the process with `/bin/true` (seccomp: `EPERM`). On
/// success it never returns, which a check can see from outside.
#[cfg(target_os = "linux")]
pub fn exec() -> Option<i32> {
    let program = c"/bin/true";
    let argv = [program.as_ptr(), std::ptr::null()];
    let envp = [std::ptr::null()];
    // SAFETY: valid, null-terminated argument and environment arrays.
    let result = unsafe { libc::execve(program.as_ptr(), argv.as_ptr(), envp.as_ptr()) };
    errno_of(result)
}
