//! The launcher inside the jail: the goccia binary, bound read-only at
//! `/.goccia-launcher`, started as `.goccia-launcher __goccia-host-exec
//! [--write <path>]... [--connect <port>] -- <program> <args>...`. It adds
//! Landlock on top of the jail's mounts — read and execute everywhere the
//! jail shows, write only under the writable paths, `/tmp` and `/dev`, TCP
//! only to the gateway's port when given — and then
//! executes the program in its place. `--probe` reports whether Landlock
//! held instead.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;

/// The argument that makes a goccia binary the launcher.
pub const LAUNCHER_ARG: &str = "__goccia-host-exec";

/// If this process was started as the launcher, runs it (it only returns
/// when the program could not be executed) and returns the exit code;
/// otherwise `None` at once. Call it first thing in `main`.
pub fn run_inside_if_requested() -> Option<i32> {
    let args: Vec<OsString> = std::env::args_os().collect();
    if args.get(1).map(|arg| arg.as_bytes()) != Some(LAUNCHER_ARG.as_bytes()) {
        return None;
    }
    Some(main(&args[2..]))
}

fn main(args: &[OsString]) -> i32 {
    let mut writable: Vec<OsString> = vec!["/tmp".into(), "/dev".into()];
    let mut connect: Vec<u16> = Vec::new();
    let mut probe = false;
    let mut rest = args.iter();
    let program: Vec<OsString> = loop {
        match rest
            .next()
            .map(|arg| arg.to_string_lossy().into_owned())
            .as_deref()
        {
            Some("--write") => match rest.next() {
                Some(path) => writable.push(path.clone()),
                None => return usage("--write needs a path"),
            },
            Some("--connect") => match rest.next().and_then(|port| port.to_str()?.parse().ok()) {
                Some(port) => connect.push(port),
                None => return usage("--connect needs a port"),
            },
            Some("--probe") => probe = true,
            Some("--") => break rest.cloned().collect(),
            Some(other) => return usage(&format!("unknown option {other}")),
            None => break Vec::new(),
        }
    };
    let held = restrict(&writable, &connect);
    if probe {
        match &held {
            Ok(()) => println!("landlock enforced"),
            Err(why) => println!("landlock unavailable: {why}"),
        }
        return 0;
    }
    if let Err(why) = held {
        eprintln!("goccia: Landlock did not hold inside the sandbox: {why}");
        return 126;
    }
    let Some(name) = program.first() else {
        return usage("no program");
    };
    let cstrings: Vec<CString> = program
        .iter()
        .filter_map(|arg| CString::new(arg.as_bytes()).ok())
        .collect();
    if cstrings.len() != program.len() {
        return usage("an argument holds a NUL byte");
    }
    let mut argv: Vec<*const libc::c_char> = cstrings.iter().map(|c| c.as_ptr()).collect();
    argv.push(std::ptr::null());
    // bubblewrap started this launcher with the standard streams only;
    // checked again here, before the program, so that holds whatever
    // bubblewrap's version passes along.
    if let Err(error) = goccia_confine::descriptors::close_on_exec_from(
        3,
        goccia_confine::descriptors::descriptor_ceiling(),
    ) {
        eprintln!("goccia launcher: cannot close inherited descriptors: {error}");
        return 126;
    }
    // SAFETY: a valid, null-terminated argument vector; the environment
    // is the jail's.
    unsafe { libc::execvp(cstrings[0].as_ptr(), argv.as_ptr()) };
    let error = std::io::Error::last_os_error();
    eprintln!("{}: {error}", name.to_string_lossy());
    if error.kind() == std::io::ErrorKind::NotFound {
        127
    } else {
        126
    }
}

fn usage(message: &str) -> i32 {
    eprintln!("goccia launcher: {message}");
    2
}

#[cfg(target_os = "linux")]
fn restrict(writable: &[OsString], connect: &[u16]) -> Result<(), String> {
    use landlock::{
        ABI, Access, AccessFs, AccessNet, NetPort, PathBeneath, PathFd, Ruleset, RulesetAttr,
        RulesetCreatedAttr, RulesetStatus,
    };
    let abi = ABI::V9;
    let text = |error: &dyn std::fmt::Display| error.to_string();
    let read = AccessFs::ReadFile | AccessFs::ReadDir | AccessFs::Execute;
    let root = PathFd::new("/").map_err(|e| text(&e))?;
    let mut ruleset = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .and_then(|ruleset| ruleset.handle_access(AccessNet::from_all(abi)))
        .and_then(|ruleset| ruleset.create())
        .and_then(|ruleset| ruleset.add_rule(PathBeneath::new(root, read)))
        .map_err(|e| text(&e))?;
    for path in writable {
        if let Ok(fd) = PathFd::new(path) {
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, AccessFs::from_all(abi)))
                .map_err(|e| text(&e))?;
        }
    }
    // TCP only to the gateway's proxy, when the jail has it.
    for port in connect {
        ruleset = ruleset
            .add_rule(NetPort::new(*port, AccessNet::ConnectTcp))
            .map_err(|e| text(&e))?;
    }
    let status = ruleset.restrict_self().map_err(|e| text(&e))?;
    match status.ruleset {
        RulesetStatus::NotEnforced => Err("the kernel does not enforce Landlock".to_string()),
        _ => Ok(()),
    }
}

#[cfg(not(target_os = "linux"))]
fn restrict(_writable: &[OsString], _connect: &[u16]) -> Result<(), String> {
    Err("Landlock needs Linux".to_string())
}
