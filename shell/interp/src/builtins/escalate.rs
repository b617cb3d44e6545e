//! `escalate --mode <mode> --justification <text> -- <command...>`: asks
//! the host's approver to run one command under a wider write policy
//! (docs/policy.md). The request is checked before anyone is asked; a grant
//! covers exactly this command (and the threads it starts) and is never
//! kept.

use goccia_vfs::policy::{self, EscalationRequest, Scope, Subject};

use crate::interp::{ExecResult, Shell};

const USAGE: &str = "usage: escalate --mode <mode> --justification <text> -- <command...>";

/// The parsed request: the two fields as given, and the command.
struct Request {
    mode: Option<String>,
    justification: Option<String>,
    command: Vec<String>,
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut request = Request {
        mode: None,
        justification: None,
        command: Vec::new(),
    };
    let mut index = 1;
    while index < args.len() {
        let arg = args[index].as_str();
        if arg == "--" {
            request.command = args[index + 1..].to_vec();
            break;
        }
        let (name, attached) = match arg.split_once('=') {
            Some((name, value)) => (name, Some(value.to_string())),
            None => (arg, None),
        };
        let slot = match name {
            "--mode" => &mut request.mode,
            "--justification" => &mut request.justification,
            _ => return Err(format!("unknown option `{arg}`")),
        };
        let value = match attached {
            Some(value) => value,
            None => {
                index += 1;
                args.get(index)
                    .cloned()
                    .ok_or_else(|| format!("option `{name}` needs a value"))?
            }
        };
        *slot = Some(value);
        index += 1;
    }
    if request.command.is_empty() {
        return Err("no command after `--`".to_string());
    }
    Ok(request)
}

pub fn escalate(shell: &mut Shell, args: &[String]) -> ExecResult {
    let request = match parse(args) {
        Ok(request) => request,
        Err(problem) => {
            return Ok(shell.fail_command("escalate", &format!("{problem}\n{USAGE}"), 2));
        }
    };
    let current = shell.context().vfs.lock().policy().unwrap_or_default();
    let requested = match policy::check_request(
        current.mode(),
        request.mode.as_deref(),
        request.justification.as_deref(),
    ) {
        Ok(Some(mode)) => mode,
        // Both fields absent: nothing to ask; run the command as it is.
        Ok(None) => return shell.dispatch(&request.command),
        Err(error) => return Ok(shell.fail_command("escalate", &error.message, 1)),
    };
    let asked = EscalationRequest {
        requested_mode: requested,
        current_mode: current.mode(),
        justification: request.justification.unwrap_or_default(),
        subject: Subject::Command,
        detail: request.command.join(" "),
    };
    let audit = shell.context().audit.clone();
    audit.record(
        "escalation",
        "request",
        asked.detail.clone(),
        Some(format!(
            "{} ({}): {}",
            asked.requested_mode,
            asked.subject.as_str(),
            asked.justification
        )),
    );
    let granted = policy::escalate(&current, &asked);
    audit.record(
        "escalation",
        "decision",
        asked.detail.clone(),
        Some(match &granted {
            Ok(_) => "allowed-once".to_string(),
            Err(error) => error.code.to_string(),
        }),
    );
    match granted {
        Ok(granted) => {
            let _scope = Scope::enter(granted);
            shell.dispatch(&request.command)
        }
        Err(error) => Ok(shell.fail_command("escalate", &error.message, 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn options_and_the_command_are_read() {
        let request = parse(&args(
            "escalate --mode full --justification=why -- rm -r /x",
        ))
        .unwrap();
        assert_eq!(request.mode.as_deref(), Some("full"));
        assert_eq!(request.justification.as_deref(), Some("why"));
        assert_eq!(request.command, args("rm -r /x"));
        for bad in [
            "escalate --mode full --justification why",
            "escalate --mode full --justification why --",
            "escalate --mode",
            "escalate --bogus x -- true",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
    }
}
