//! Descriptors across the process boundary, for host commands run by the
//! parent on a worker's behalf: the worker makes three pipes and sends the
//! program's ends over a Unix socket pair (`SCM_RIGHTS`), so the program's
//! stdin and stdout flow straight between the worker's shell and the
//! program, paced by the kernel's pipe buffers.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};

/// The descriptor number of the host-command socket in a worker.
pub const WORKER_SOCKET: RawFd = 3;

fn check(result: libc::c_int) -> io::Result<libc::c_int> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

/// A connected pair of sequenced-packet Unix sockets (close-on-exec).
pub fn socketpair() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: two ints for the kernel to fill.
    check(unsafe {
        libc::socketpair(
            libc::AF_UNIX,
            libc::SOCK_SEQPACKET | libc::SOCK_CLOEXEC,
            0,
            fds.as_mut_ptr(),
        )
    })?;
    // SAFETY: descriptors just returned to us.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// A pipe (close-on-exec): `(read end, write end)`.
pub fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0; 2];
    // SAFETY: two ints for the kernel to fill.
    check(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) })?;
    // SAFETY: descriptors just returned to us.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// Sends `id` and three descriptors over `socket`.
pub fn send(socket: RawFd, id: u64, fds: [&OwnedFd; 3]) -> io::Result<()> {
    let raw: [RawFd; 3] = fds.map(AsRawFd::as_raw_fd);
    let payload = id.to_le_bytes();
    let mut iov = libc::iovec {
        iov_base: payload.as_ptr() as *mut libc::c_void,
        iov_len: payload.len(),
    };
    // SAFETY: CMSG_SPACE of a constant size.
    let space = unsafe { libc::CMSG_SPACE(std::mem::size_of_val(&raw) as u32) } as usize;
    let mut control = vec![0u8; space];
    // SAFETY: a zeroed msghdr we fill.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    message.msg_control = control.as_mut_ptr().cast();
    message.msg_controllen = space as _;
    // SAFETY: the control buffer holds one header with room for the fds.
    unsafe {
        let header = libc::CMSG_FIRSTHDR(&message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of_val(&raw) as u32) as _;
        std::ptr::copy_nonoverlapping(raw.as_ptr(), libc::CMSG_DATA(header).cast(), raw.len());
    }
    // SAFETY: a valid message on our socket.
    check(unsafe { libc::sendmsg(socket, &message, 0) } as libc::c_int)?;
    Ok(())
}

/// Receives an id and exactly three descriptors from `socket`.
pub fn receive(socket: RawFd) -> io::Result<(u64, [OwnedFd; 3])> {
    let mut payload = [0u8; 8];
    let mut iov = libc::iovec {
        iov_base: payload.as_mut_ptr().cast(),
        iov_len: payload.len(),
    };
    // SAFETY: CMSG_SPACE of a constant size.
    let space = unsafe { libc::CMSG_SPACE((3 * std::mem::size_of::<RawFd>()) as u32) } as usize;
    let mut control = vec![0u8; space];
    // SAFETY: a zeroed msghdr we fill.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    message.msg_control = control.as_mut_ptr().cast();
    message.msg_controllen = space as _;
    // SAFETY: a valid message buffer on our socket; descriptors arrive
    // close-on-exec.
    let n = check(unsafe {
        libc::recvmsg(
            socket,
            &mut message,
            libc::MSG_CMSG_CLOEXEC | libc::MSG_DONTWAIT,
        )
    } as libc::c_int)?;
    let mut received = Vec::new();
    // SAFETY: walking the control messages the kernel wrote.
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(&message);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET && (*header).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(header).cast::<RawFd>();
                let count = ((*header).cmsg_len as usize - libc::CMSG_LEN(0) as usize)
                    / std::mem::size_of::<RawFd>();
                for index in 0..count {
                    received.push(OwnedFd::from_raw_fd(*data.add(index)));
                }
            }
            header = libc::CMSG_NXTHDR(&message, header);
        }
    }
    let truncated = message.msg_flags & libc::MSG_CTRUNC != 0;
    match (
        n as usize == payload.len(),
        truncated,
        <[OwnedFd; 3]>::try_from(received),
    ) {
        (true, false, Ok(fds)) => Ok((u64::from_le_bytes(payload), fds)),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not an id and three descriptors",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    #[test]
    fn pipe_ends_cross_a_socket() {
        let (ours, theirs) = socketpair().unwrap();
        let pipes = [pipe().unwrap(), pipe().unwrap(), pipe().unwrap()];
        send(ours.as_raw_fd(), 7, [&pipes[0].1, &pipes[1].1, &pipes[2].1]).unwrap();
        let (id, fds) = receive(theirs.as_raw_fd()).unwrap();
        assert_eq!(id, 7);
        let [first, _, _] = fds;
        std::fs::File::from(first).write_all(b"through").unwrap();
        let mut read = [0u8; 7];
        std::fs::File::from(pipes[0].0.try_clone().unwrap())
            .read_exact(&mut read)
            .unwrap();
        assert_eq!(&read, b"through");
        assert!(
            receive(theirs.as_raw_fd()).is_err(),
            "nothing more to receive"
        );
    }
}
