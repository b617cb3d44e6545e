//! `--approve prompt`: escalation requests asked on the controlling
//! terminal (docs/policy.md). One key answers: `y` grants the one call, `n`
//! rejects it, Ctrl-C cancels it. Without a terminal nobody can answer, so
//! the request is `unavailable`. The terminal is read in raw mode, so
//! Ctrl-C arrives as a key here instead of cancelling the run.

use std::fs::{File, OpenOptions};
use std::io::{Read, Write};

use goccia::{Decision, EscalationRequest};
use parking_lot::Mutex;
use rustix::termios::{OptionalActions, Termios, tcgetattr, tcsetattr};

/// One question at a time, whichever thread asks (pipeline stages may).
static ASKING: Mutex<()> = Mutex::new(());

/// Asks the user on `/dev/tty` whether `request` may run once.
pub fn ask_on_terminal(request: &EscalationRequest) -> Decision {
    let _one_at_a_time = ASKING.lock();
    let Ok(mut tty) = OpenOptions::new().read(true).write(true).open("/dev/tty") else {
        return Decision::Unavailable;
    };
    let Ok(saved) = tcgetattr(&tty) else {
        return Decision::Unavailable;
    };
    let question = format!(
        "\r\ngoccia: escalate this {} to \"{}\" (now \"{}\")?\r\n  {}\r\n  justification: {}\r\n[y]es once, [n]o, Ctrl-C cancels: ",
        request.subject.as_str(),
        request.requested_mode,
        request.current_mode,
        goccia::shown(&request.detail),
        goccia::shown(&request.justification),
    );
    let mut raw = saved.clone();
    raw.make_raw();
    if tcsetattr(&tty, OptionalActions::Now, &raw).is_err() {
        return Decision::Unavailable;
    }
    let decision = match tty.write_all(question.as_bytes()) {
        Ok(()) => read_answer(&mut tty),
        Err(_) => Decision::Unavailable,
    };
    restore(&tty, &saved);
    let said = match decision {
        Decision::AllowedOnce => "yes, once",
        Decision::Rejected => "no",
        Decision::Cancelled => "cancelled",
        Decision::Unavailable => "no answer",
    };
    let _ = write!(tty, "{said}\r\n");
    decision
}

/// Reads keys until one answers; the terminal closing is no answer.
fn read_answer(tty: &mut File) -> Decision {
    let mut key = [0u8; 1];
    loop {
        match tty.read(&mut key) {
            Ok(1) => match key[0] {
                b'y' | b'Y' => return Decision::AllowedOnce,
                // Ctrl-D: the user declining to go on is a no.
                b'n' | b'N' | 0x04 => return Decision::Rejected,
                0x03 => return Decision::Cancelled,
                _ => {}
            },
            _ => return Decision::Unavailable,
        }
    }
}

fn restore(tty: &File, saved: &Termios) {
    let _ = tcsetattr(tty, OptionalActions::Now, saved);
}
