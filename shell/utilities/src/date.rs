//! `date`: the sandbox's clock is the host's; its zone is the one `TZ`
//! names, UTC without (formatting, zones and parsing are [`goccia_interp::time`]).

use crate::args::getopt;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::time::at;
use goccia_interp::time::now;
use goccia_interp::time::parse_datetime;
use goccia_interp::time::strftime;

pub fn date(shell: &mut ShellView, args: &[String]) -> ExecResult {
    // `-I[FMT]`/`--iso-8601[=FMT]` take an optional, attached argument,
    // which getopt-style parsing cannot express: taken out first.
    let is_iso = |a: &String| a.starts_with("-I") || a.starts_with("--iso-8601");
    let iso_arg = args.iter().skip(1).find(|a| is_iso(a)).cloned();
    let args: Vec<String> = args.iter().filter(|a| !is_iso(a)).cloned().collect();
    let parsed = match getopt(
        &args,
        "dr",
        &[
            ("date", 'd', true),
            ("utc", 'u', false),
            ("universal", 'u', false),
            ("reference", 'r', true),
            ("rfc-2822", 'R', false),
            ("rfc-email", 'R', false),
        ],
    ) {
        Ok(parsed) => parsed,
        Err(message) => {
            return Ok(shell.fail_command(
                "date",
                &format!("{message}\nTry 'date --help' for more information."),
                1,
            ));
        }
    };
    // GNU's operand rules: one operand at most; with `-d` or `-r` it must
    // be a format.
    let usage = |shell: &mut ShellView, message: String| {
        shell.fail_command(
            "date",
            &format!("{message}\nTry 'date --help' for more information."),
            1,
        )
    };
    if let Some(extra) = parsed.operands.get(1) {
        return Ok(usage(
            shell,
            format!("extra operand \u{2018}{extra}\u{2019}"),
        ));
    }
    if let Some(operand) = parsed.operands.first()
        && !operand.starts_with('+')
        && (parsed.value('d').is_some() || parsed.value('r').is_some())
    {
        return Ok(usage(
            shell,
            format!(
                "the argument \u{2018}{operand}\u{2019} lacks a leading '+';\nwhen using an option to specify date(s), any non-option\nargument must be a format string beginning with '+'"
            ),
        ));
    }
    // `-u` is UTC whatever `TZ` says.
    let zone = if parsed.has('u') {
        goccia_interp::time::Zone::default()
    } else {
        shell.time_zone()
    };
    let time = match (parsed.value('d'), parsed.value('r')) {
        (Some(text), _) => match parse_datetime(text, &zone) {
            Some(time) => time,
            None => {
                return Ok(shell.fail_command(
                    "date",
                    &format!("invalid date \u{2018}{text}\u{2019}"),
                    1,
                ));
            }
        },
        (_, Some(file)) => {
            let stat = shell
                .cwd()
                .resolve(file)
                .ok()
                .and_then(|p| shell.context().vfs.lock().stat(&p).ok());
            match stat {
                Some(stat) => at(
                    stat.mtime_ns.div_euclid(1_000_000_000),
                    stat.mtime_ns.rem_euclid(1_000_000_000) as u32,
                ),
                None => {
                    return Ok(shell.fail_command(
                        "date",
                        &format!("{file}: No such file or directory"),
                        1,
                    ));
                }
            }
        }
        _ => now(),
    };
    let iso = iso_arg.as_deref().map(|a| {
        match a
            .strip_prefix("--iso-8601=")
            .or_else(|| a.strip_prefix("-I"))
        {
            Some(fmt) if !fmt.is_empty() && fmt != "--iso-8601" => fmt,
            _ => "date",
        }
    });
    let format = if let Some(format) = parsed.operands.iter().find_map(|o| o.strip_prefix('+')) {
        format.to_string()
    } else if parsed.has('R') {
        "%a, %d %b %Y %H:%M:%S %z".to_string()
    } else if let Some(spec) = iso {
        match spec {
            "hours" => "%Y-%m-%dT%H%:z".to_string(),
            "minutes" => "%Y-%m-%dT%H:%M%:z".to_string(),
            "seconds" => "%Y-%m-%dT%H:%M:%S%:z".to_string(),
            "ns" => "%Y-%m-%dT%H:%M:%S,%N%:z".to_string(),
            _ => "%Y-%m-%d".to_string(),
        }
    } else if let Some(extra) = parsed.operands.first() {
        return Ok(shell.fail_command("date", &format!("invalid date \u{2018}{extra}\u{2019}"), 1));
    } else {
        "%a %b %e %H:%M:%S %Z %Y".to_string()
    };
    let text = format!("{}\n", strftime(&format, time, &zone));
    match shell.write_stdout(&goccia_interp::raw::encode(&text)) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("date", error),
    }
}
