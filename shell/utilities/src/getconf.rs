//! `getconf`: the system's configuration values as glibc's `getconf`
//! names and prints them, for the machine a sandbox presents (x86_64
//! Linux with glibc 2.36, one processor as `nproc` says, the VFS's limits
//! for paths). Values that would describe the host (its processors, its
//! open-file limit) are the sandbox's, not the host's.

use goccia_interp::interp::{ExecResult, ShellView};

const USAGE: &str =
    "Usage: getconf [-v specification] variable_name [pathname]\n       getconf -a [pathname]";

/// Values of the system (no path operand).
const SYSTEM: &[(&str, &str)] = &[
    ("ARG_MAX", "2097152"),
    ("CHAR_BIT", "8"),
    ("CHAR_MAX", "127"),
    ("CHAR_MIN", "-128"),
    ("CLK_TCK", "100"),
    ("GNU_LIBC_VERSION", "glibc 2.36"),
    ("GNU_LIBPTHREAD_VERSION", "NPTL 2.36"),
    ("HOST_NAME_MAX", "64"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "-2147483648"),
    ("LINE_MAX", "2048"),
    ("LOGIN_NAME_MAX", "256"),
    ("LONG_BIT", "64"),
    ("NGROUPS_MAX", "65536"),
    ("OPEN_MAX", "1024"),
    ("PAGESIZE", "4096"),
    ("PAGE_SIZE", "4096"),
    ("PATH", "/bin:/usr/bin"),
    ("SCHAR_MAX", "127"),
    ("SCHAR_MIN", "-128"),
    ("SHRT_MAX", "32767"),
    ("SHRT_MIN", "-32768"),
    ("UCHAR_MAX", "255"),
    ("UINT_MAX", "4294967295"),
    ("USHRT_MAX", "65535"),
    ("WORD_BIT", "32"),
    ("_NPROCESSORS_CONF", "1"),
    ("_NPROCESSORS_ONLN", "1"),
    ("_POSIX_VERSION", "200809"),
];

/// Values of a file system (a path operand is required).
const PATHS: &[(&str, &str)] = &[
    ("FILESIZEBITS", "64"),
    ("NAME_MAX", "255"),
    ("PATH_MAX", "4096"),
    ("PIPE_BUF", "4096"),
];

pub fn getconf(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let operands: Vec<&str> = args[1..].iter().map(String::as_str).collect();
    // glibc writes its usage without the program's name before it.
    let usage = |shell: &mut ShellView| {
        shell.write_stderr(format!("{USAGE}\n").as_bytes());
        Ok(2)
    };
    match operands.as_slice() {
        ["-a", ..] => Ok(shell.fail_command(
            "getconf",
            "-a (every variable) is not supported here; name one",
            2,
        )),
        [name] if PATHS.iter().any(|(known, _)| known == name) => usage(shell),
        [name] => match SYSTEM.iter().find(|(known, _)| known == name) {
            Some((_, value)) => crate::args::print_text(shell, "getconf", &format!("{value}\n"), 0),
            None => unrecognised(shell, name),
        },
        [name, path] => match PATHS.iter().find(|(known, _)| known == name) {
            Some((_, value)) => {
                let exists = shell
                    .cwd()
                    .resolve(path)
                    .is_ok_and(|at| shell.context().vfs.lock().lookup(&at).is_ok());
                if !exists {
                    let message = format!("pathconf: {path}: No such file or directory");
                    return Ok(shell.fail_command("getconf", &message, 3));
                }
                crate::args::print_text(shell, "getconf", &format!("{value}\n"), 0)
            }
            None if SYSTEM.iter().any(|(known, _)| known == name) => usage(shell),
            None => unrecognised(shell, name),
        },
        _ => usage(shell),
    }
}

fn unrecognised(shell: &mut ShellView, name: &str) -> ExecResult {
    let message = format!("Unrecognized variable `{name}'");
    Ok(shell.fail_command("getconf", &message, 2))
}
