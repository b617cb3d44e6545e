//! The jail's network (docs/network.md): a network namespace of its own
//! with only loopback in it, made in the forked child before bubblewrap
//! starts, and the proxy's listening socket made inside it and handed back
//! to the parent over a socket pair. A socket keeps the namespace it was
//! made in, so the parent accepts the jail's connections on it while it
//! connects out from its own: nothing else in the jail can reach any
//! network, and nothing inside runs on the proxy's behalf.

use std::ffi::CString;
use std::io;
use std::net::TcpListener;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

/// The port the proxy listens on inside every jail (`127.0.0.1`).
pub const PROXY_PORT: u16 = 3128;

/// The proxy's address as the jail's clients are told it.
pub const PROXY_URL: &str = "http://127.0.0.1:3128";

/// The two ends that carry the listening socket out of the child.
pub struct Handover {
    parent: OwnedFd,
    child: OwnedFd,
    /// `uid_map`/`gid_map` lines for an unprivileged goccia, which needs a
    /// user namespace to own the network namespace (root needs none).
    user_map: Option<(CString, CString)>,
}

impl Handover {
    /// A socket pair, and the user map prepared before the fork.
    pub fn new() -> io::Result<Handover> {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: socketpair fills two descriptors we then own.
        let made = unsafe {
            libc::socketpair(
                libc::AF_UNIX,
                libc::SOCK_DGRAM | libc::SOCK_CLOEXEC,
                0,
                fds.as_mut_ptr(),
            )
        };
        if made != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both were just made and are ours.
        let (parent, child) =
            unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) };
        // SAFETY: geteuid, getuid and getgid take nothing.
        let user_map = (unsafe { libc::geteuid() } != 0).then(|| {
            let (uid, gid) = unsafe { (libc::getuid(), libc::getgid()) };
            (
                CString::new(format!("{uid} {uid} 1\n")).expect("digits"),
                CString::new(format!("{gid} {gid} 1\n")).expect("digits"),
            )
        });
        Ok(Handover {
            parent,
            child,
            user_map,
        })
    }

    /// What the forked child needs (copied before the fork).
    pub fn child_side(&self) -> ChildSide {
        ChildSide {
            fd: self.child.as_raw_fd(),
            user_map: self
                .user_map
                .as_ref()
                .map(|(uid, gid)| (uid.as_ptr(), gid.as_ptr())),
        }
    }

    /// The listening socket the child made, once it has started.
    pub fn receive(self) -> io::Result<TcpListener> {
        drop(self.child);
        let fd = self.parent.as_raw_fd();
        let timeout = libc::timeval {
            tv_sec: Duration::from_secs(5).as_secs() as libc::time_t,
            tv_usec: 0,
        };
        // SAFETY: a valid option value on our own socket.
        unsafe {
            libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_RCVTIMEO,
                (&timeout as *const libc::timeval).cast(),
                std::mem::size_of::<libc::timeval>() as libc::socklen_t,
            );
        }
        let mut byte = [0u8; 1];
        let mut iov = libc::iovec {
            iov_base: byte.as_mut_ptr().cast(),
            iov_len: 1,
        };
        let mut control = [0u8; 64];
        // SAFETY: msghdr is plain data; the buffers outlive the call.
        let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
        message.msg_iov = &mut iov;
        message.msg_iovlen = 1;
        message.msg_control = control.as_mut_ptr().cast();
        message.msg_controllen = control.len() as _;
        // SAFETY: recvmsg into the buffers above.
        let got = unsafe { libc::recvmsg(fd, &mut message, libc::MSG_CMSG_CLOEXEC) };
        if got < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: walking the control messages recvmsg filled in.
        unsafe {
            let header = libc::CMSG_FIRSTHDR(&message);
            if !header.is_null()
                && (*header).cmsg_level == libc::SOL_SOCKET
                && (*header).cmsg_type == libc::SCM_RIGHTS
            {
                let passed = std::ptr::read_unaligned(libc::CMSG_DATA(header) as *const RawFd);
                return Ok(TcpListener::from_raw_fd(passed));
            }
        }
        Err(io::Error::other(
            "the jail did not hand over its proxy socket",
        ))
    }
}

/// The child's side of a [`Handover`]: raw values only, usable after a
/// fork.
#[derive(Clone, Copy)]
pub struct ChildSide {
    fd: RawFd,
    user_map: Option<(*const libc::c_char, *const libc::c_char)>,
}

// SAFETY: the pointers point into the `Handover`, which outlives the spawn
// that uses them; they are only read.
unsafe impl Send for ChildSide {}
// SAFETY: as above.
unsafe impl Sync for ChildSide {}

impl ChildSide {
    /// In the forked child, before the identity drops and bubblewrap
    /// starts: a new network namespace (and, unprivileged, a user
    /// namespace that owns it), loopback up, a listening socket on
    /// [`PROXY_PORT`] handed to the parent. Only async-signal-safe calls.
    ///
    /// # Safety
    /// Call only in the child between fork and exec.
    pub unsafe fn enter(self) -> io::Result<()> {
        let fail = || Err(io::Error::last_os_error());
        // SAFETY (for the block): raw system calls on values made before
        // the fork; each result checked.
        unsafe {
            match self.user_map {
                None => {
                    if libc::unshare(libc::CLONE_NEWNET) != 0 {
                        return fail();
                    }
                }
                Some((uid_map, gid_map)) => {
                    if libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNET) != 0 {
                        return fail();
                    }
                    write_file(c"/proc/self/setgroups".as_ptr(), c"deny".as_ptr())?;
                    write_file(c"/proc/self/uid_map".as_ptr(), uid_map)?;
                    write_file(c"/proc/self/gid_map".as_ptr(), gid_map)?;
                }
            }
            loopback_up()?;
            let listener = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
            if listener < 0 {
                return fail();
            }
            let address = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: PROXY_PORT.to_be(),
                sin_addr: libc::in_addr {
                    s_addr: u32::from_be_bytes([127, 0, 0, 1]).to_be(),
                },
                sin_zero: [0; 8],
            };
            if libc::bind(
                listener,
                (&address as *const libc::sockaddr_in).cast(),
                std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
            ) != 0
                || libc::listen(listener, 128) != 0
            {
                return fail();
            }
            let sent = send_fd(self.fd, listener);
            libc::close(listener);
            sent
        }
    }
}

/// Writes a NUL-terminated `text` to `path` (async-signal-safe).
unsafe fn write_file(path: *const libc::c_char, text: *const libc::c_char) -> io::Result<()> {
    // SAFETY: open/write/close on NUL-terminated strings made before the fork.
    unsafe {
        let fd = libc::open(path, libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        let length = libc::strlen(text);
        let written = libc::write(fd, text.cast(), length);
        libc::close(fd);
        if written != length as isize {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Brings `lo` up in the current network namespace.
unsafe fn loopback_up() -> io::Result<()> {
    // SAFETY: an ioctl pair on a throwaway socket with a zeroed ifreq.
    unsafe {
        let socket = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        if socket < 0 {
            return Err(io::Error::last_os_error());
        }
        let mut request: libc::ifreq = std::mem::zeroed();
        request.ifr_name[0] = b'l' as libc::c_char;
        request.ifr_name[1] = b'o' as libc::c_char;
        let mut result = libc::ioctl(socket, libc::SIOCGIFFLAGS, &mut request);
        if result == 0 {
            request.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
            result = libc::ioctl(socket, libc::SIOCSIFFLAGS, &request);
        }
        let error = io::Error::last_os_error();
        libc::close(socket);
        if result != 0 {
            return Err(error);
        }
    }
    Ok(())
}

/// Sends `fd` over the datagram socket `over` (async-signal-safe).
unsafe fn send_fd(over: RawFd, fd: RawFd) -> io::Result<()> {
    // SAFETY: sendmsg with one SCM_RIGHTS message in a stack buffer.
    unsafe {
        let mut byte = [0u8; 1];
        let mut iov = libc::iovec {
            iov_base: byte.as_mut_ptr().cast(),
            iov_len: 1,
        };
        let mut control = [0u64; 4];
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = &mut iov;
        message.msg_iovlen = 1;
        message.msg_control = control.as_mut_ptr().cast();
        message.msg_controllen = libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) as _;
        let header = libc::CMSG_FIRSTHDR(&message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(header) as *mut RawFd, fd);
        if libc::sendmsg(over, &message, 0) != 1 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
