//! Linux's signal names and numbers as bash shows them (`kill -l`,
//! `trap -l`), and the parsing of a signal given by name or number.

/// Names of signals 1–31 (index + 1 is the number).
const CLASSIC: [&str; 31] = [
    "HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
    "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG",
    "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS",
];

/// The first and last real-time signals (32 and 33 belong to the C
/// library and have no name).
const RTMIN: u32 = 34;
const RTMAX: u32 = 64;

/// The name of signal `number` without `SIG` (`RTMIN+3`), `None` when
/// Linux has no such signal.
pub fn name(number: u32) -> Option<String> {
    match number {
        1..=31 => Some(CLASSIC[number as usize - 1].to_string()),
        RTMIN => Some("RTMIN".to_string()),
        RTMAX => Some("RTMAX".to_string()),
        n if (RTMIN..=RTMIN + 15).contains(&n) => Some(format!("RTMIN+{}", n - RTMIN)),
        n if (RTMIN + 16..RTMAX).contains(&n) => Some(format!("RTMAX-{}", RTMAX - n)),
        _ => None,
    }
}

/// The number of the signal called `text` (`TERM`, `SIGterm`, `15`,
/// `RTMIN+2`), case-insensitively; `0`/`EXIT` is 0.
pub fn number(text: &str) -> Option<u32> {
    if let Ok(n) = text.parse::<u32>() {
        return (n == 0 || name(n).is_some()).then_some(n);
    }
    let upper = text.to_ascii_uppercase();
    let bare = upper.strip_prefix("SIG").unwrap_or(&upper);
    if bare == "EXIT" {
        return Some(0);
    }
    (1..=RTMAX).find(|&n| name(n).as_deref() == Some(bare))
}

/// Every signal with its number, as `kill -l` lists them: five to a line,
/// tab-separated.
pub fn table() -> String {
    let entries: Vec<String> = (1..=RTMAX)
        .filter_map(|n| name(n).map(|name| format!("{n:>2}) SIG{name}")))
        .collect();
    let mut out = String::new();
    for line in entries.chunks(5) {
        out.push_str(&line.join("\t"));
        if line.len() < 5 {
            out.push('\t');
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_round_trip() {
        for n in 1..=RTMAX {
            if let Some(name) = name(n) {
                assert_eq!(number(&name), Some(n), "{name}");
                assert_eq!(number(&format!("sig{name}")), Some(n));
            }
        }
        assert_eq!(name(32), None);
        assert_eq!(number("0"), Some(0));
        assert_eq!(number("128"), None);
        assert_eq!(number("BAD"), None);
    }

    #[test]
    fn the_table_is_bashs() {
        let table = table();
        assert!(table.starts_with(" 1) SIGHUP\t 2) SIGINT\t"));
        assert!(table.contains("31) SIGSYS\t34) SIGRTMIN\t35) SIGRTMIN+1"));
        assert!(table.ends_with("63) SIGRTMAX-1\t64) SIGRTMAX\t\n"));
    }
}
