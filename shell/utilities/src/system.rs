//! The sandbox's view of the system: `env`, `printenv`, `sleep`,
//! `whoami`, `hostname`, `uname`, `id` (fixed values: nothing of the host).

use crate::args::{parse_options, print_text};
use goccia_core::Stop;
use goccia_interp::interp::{ExecResult, Flow, ShellView};
use std::time::Duration;

pub fn env(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut clear = false;
    let mut unset = Vec::new();
    let mut index = 1;
    while let Some(arg) = args.get(index) {
        match arg.as_str() {
            "-i" | "-" => clear = true,
            "-u" => {
                index += 1;
                if let Some(name) = args.get(index) {
                    unset.push(name.clone());
                }
            }
            "--" => {
                index += 1;
                break;
            }
            _ => break,
        }
        index += 1;
    }
    let mut assignments = Vec::new();
    while let Some(arg) = args.get(index) {
        match arg.split_once('=') {
            Some((name, value)) if goccia_interp::is_name(name) => {
                assignments.push((name.to_string(), value.to_string()))
            }
            _ => break,
        }
        index += 1;
    }
    if index >= args.len() {
        let mut vars: Vec<(String, String)> = if clear { Vec::new() } else { shell.exported() };
        vars.retain(|(name, _)| !unset.contains(name));
        for (name, value) in &assignments {
            vars.retain(|(n, _)| n != name);
            vars.push((name.clone(), value.clone()));
        }
        let text: String = vars.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        return print_text(shell, "env", &text, 0);
    }
    let mut child = shell.child_process();
    if clear {
        for (name, _) in child.exported() {
            child.unset(&name);
        }
    }
    for name in &unset {
        child.unset(name);
    }
    for (name, value) in assignments {
        let _ = child.export(&name, value);
    }
    child.dispatch_command(&args[index..])
}

pub fn printenv(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let vars = shell.exported();
    if args.len() == 1 {
        let text: String = vars.iter().map(|(k, v)| format!("{k}={v}\n")).collect();
        return print_text(shell, "printenv", &text, 0);
    }
    let mut status = 0;
    let mut text = String::new();
    for name in &args[1..] {
        match vars.iter().find(|(k, _)| k == name) {
            Some((_, value)) => text.push_str(&format!("{value}\n")),
            None => status = 1,
        }
    }
    print_text(shell, "printenv", &text, 0)?;
    Ok(status)
}

/// Parses `1`, `0.5`, `2m`, `1h`, `1d`.
pub(crate) fn parse_duration(text: &str) -> Option<Duration> {
    let (number, unit) = match text.chars().last()? {
        's' => (&text[..text.len() - 1], 1.0),
        'm' => (&text[..text.len() - 1], 60.0),
        'h' => (&text[..text.len() - 1], 3600.0),
        'd' => (&text[..text.len() - 1], 86400.0),
        _ => (text, 1.0),
    };
    let value: f64 = number.parse().ok()?;
    if value.is_nan() || value < 0.0 || !value.is_finite() {
        return None;
    }
    Some(Duration::from_secs_f64(value * unit))
}

pub fn sleep(shell: &mut ShellView, args: &[String]) -> ExecResult {
    if args.len() < 2 {
        shell.fail_command(
            "sleep",
            "missing operand\nTry 'sleep --help' for more information.",
            1,
        );
        return Ok(1);
    }
    let mut total = Duration::ZERO;
    for arg in &args[1..] {
        match parse_duration(arg) {
            Some(duration) => total += duration,
            None => {
                shell.fail_command(
                    "sleep",
                    &format!(
                        "invalid time interval '{arg}'\nTry 'sleep --help' for more information."
                    ),
                    1,
                );
                return Ok(1);
            }
        }
    }
    sleep_for(shell, total)?;
    Ok(0)
}

/// Sleeps in slices, honouring the deadline and cancellation.
pub(crate) fn sleep_for(shell: &ShellView, total: Duration) -> Result<(), Flow> {
    let end = std::time::Instant::now() + total;
    loop {
        shell.check_watch()?;
        let now = std::time::Instant::now();
        if now >= end {
            return Ok(());
        }
        let remaining = shell.watch().remaining();
        if remaining.is_zero() {
            return Err(Flow::Stop(Stop::DEADLINE));
        }
        std::thread::sleep((end - now).min(Duration::from_millis(20)).min(remaining));
    }
}

pub fn whoami(shell: &mut ShellView, _: &[String]) -> ExecResult {
    let user = shell.user_name();
    print_text(shell, "whoami", &format!("{user}\n"), 0)
}

pub fn hostname(shell: &mut ShellView, _: &[String]) -> ExecResult {
    print_text(
        shell,
        "hostname",
        &format!("{}\n", goccia_interp::interp::HOST_NAME),
        0,
    )
}

/// `tty`: the sandbox has no terminal, so standard input is never one
/// (`-s` only answers with the status).
pub fn tty(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let silent = match args.get(1).map(String::as_str) {
        None => false,
        Some("-s" | "--silent" | "--quiet") if args.len() == 2 => true,
        Some(other) => {
            let what = match other.strip_prefix('-') {
                Some(long) if long.starts_with('-') => format!("unrecognized option '{other}'"),
                Some(letters) if !letters.is_empty() => {
                    let letter = letters
                        .trim_start_matches('s')
                        .chars()
                        .next()
                        .unwrap_or('s');
                    format!("invalid option -- '{letter}'")
                }
                _ => format!("extra operand '{other}'"),
            };
            let message = format!("{what}\nTry 'tty --help' for more information.");
            return Ok(shell.fail_command("tty", &message, 2));
        }
    };
    if silent {
        return Ok(1);
    }
    print_text(shell, "tty", "not a tty\n", 1)
}

pub fn uname(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let all = args.iter().any(|a| a == "-a");
    let mut parts = Vec::new();
    for arg in &args[1..] {
        for c in arg.trim_start_matches('-').chars() {
            parts.push(match c {
                's' => "Linux",
                'n' => "goccia",
                'r' => "6.0.0-goccia",
                'v' => "#1 SMP",
                'm' | 'p' | 'i' => "x86_64",
                'o' => "GNU/Linux",
                _ => continue,
            });
        }
    }
    let text = if all {
        "Linux goccia 6.0.0-goccia #1 SMP x86_64 GNU/Linux".to_string()
    } else if parts.is_empty() {
        "Linux".to_string()
    } else {
        parts.join(" ")
    };
    print_text(shell, "uname", &format!("{text}\n"), 0)
}

pub fn id(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let text = match args.get(1).map(String::as_str) {
        Some("-u") | Some("-g") => "1000",
        Some("-un") | Some("-gn") | Some("-n") => "user",
        _ => "uid=1000(user) gid=1000(user) groups=1000(user)",
    };
    print_text(shell, "id", &format!("{text}\n"), 0)
}

/// `nproc`: one processor, as the sandbox's JavaScript `os.cpus()` says
/// (nothing of the host's identity shows), with GNU's rules around it:
/// `OMP_NUM_THREADS` and `OMP_THREAD_LIMIT` (exported) set it unless
/// `--all`; `--ignore=N` leaves N out, never going below 1.
pub fn nproc(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = parse_options!(
        shell,
        args,
        "i",
        &[("all", 'a', false), ("ignore", 'i', true),]
    );
    if let Some(flag) = parsed.flags.iter().find(|f| **f != 'a') {
        let message = format!("invalid option -- '{flag}'");
        return crate::args::usage(shell, "nproc", &message, 1);
    }
    if let Some(extra) = parsed.operands.first() {
        let message = format!("extra operand '{extra}'");
        return crate::args::usage(shell, "nproc", &message, 1);
    }
    let ignore = match parsed.value('i').map(str::parse::<u64>) {
        None => 0,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            let text = parsed.value('i').unwrap_or_default();
            let message = format!("invalid number: '{text}'");
            return Ok(shell.fail_command("nproc", &message, 1));
        }
    };
    let mut count = 1;
    if !parsed.has('a') {
        let positive = |name: &str| {
            shell
                .exported()
                .into_iter()
                .find(|(key, _)| key == name)
                .and_then(|(_, value)| value.split(',').next()?.trim().parse::<u64>().ok())
                .filter(|n| *n > 0)
        };
        if let Some(threads) = positive("OMP_NUM_THREADS") {
            count = threads;
        }
        if let Some(limit) = positive("OMP_THREAD_LIMIT") {
            count = count.min(limit);
        }
    }
    let count = count.saturating_sub(ignore).max(1);
    print_text(shell, "nproc", &format!("{count}\n"), 0)
}
