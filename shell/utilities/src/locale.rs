//! `locale`: the locale a command run here gets, as glibc's `locale`
//! reports it: the variables (`LANG`, each `LC_*` as the environment
//! settles it, `LC_ALL`), the locales there are (`-a`: C, C.utf8 and
//! POSIX, as a Debian system without others), the character sets (`-m`),
//! and the C locale's keywords (`charmap`, `decimal_point`, `d_fmt`, …),
//! with `-k` their names. Whatever a variable names, text is read as
//! UTF-8 when the name says UTF-8 and byte by byte otherwise.

use crate::args::print_text;
use goccia_interp::interp::{ExecResult, ShellView};

/// The categories, in glibc's order.
const CATEGORIES: &[&str] = &[
    "LC_CTYPE",
    "LC_NUMERIC",
    "LC_TIME",
    "LC_COLLATE",
    "LC_MONETARY",
    "LC_MESSAGES",
    "LC_PAPER",
    "LC_NAME",
    "LC_ADDRESS",
    "LC_TELEPHONE",
    "LC_MEASUREMENT",
    "LC_IDENTIFICATION",
];

/// The C locale's keywords that `locale NAME` answers (numbers unquoted
/// under `-k`, as glibc writes them).
const KEYWORDS: &[(&str, &str)] = &[
    ("decimal_point", "\".\""),
    ("thousands_sep", "\"\""),
    ("grouping", "-1"),
    ("yesexpr", "\"^[yY]\""),
    ("noexpr", "\"^[nN]\""),
    ("yesstr", "\"\""),
    ("nostr", "\"\""),
    ("d_t_fmt", "\"%a %b %e %H:%M:%S %Y\""),
    ("d_fmt", "\"%m/%d/%y\""),
    ("t_fmt", "\"%H:%M:%S\""),
    ("t_fmt_ampm", "\"%I:%M:%S %p\""),
    ("am_pm", "\"AM;PM\""),
    (
        "day",
        "\"Sunday;Monday;Tuesday;Wednesday;Thursday;Friday;Saturday\"",
    ),
    ("abday", "\"Sun;Mon;Tue;Wed;Thu;Fri;Sat\""),
    (
        "mon",
        "\"January;February;March;April;May;June;July;August;September;October;November;December\"",
    ),
    (
        "abmon",
        "\"Jan;Feb;Mar;Apr;May;Jun;Jul;Aug;Sep;Oct;Nov;Dec\"",
    ),
    ("int_curr_symbol", "\"\""),
    ("currency_symbol", "\"\""),
    ("mon_decimal_point", "\"\""),
    ("mon_thousands_sep", "\"\""),
];

pub fn locale(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let parsed = crate::args::getopt(
        args,
        "",
        &[
            ("all-locales", 'a', false),
            ("charmaps", 'm', false),
            ("keyword-name", 'k', false),
            ("category-name", 'c', false),
            ("verbose", 'v', false),
        ],
    )
    .and_then(
        |parsed| match parsed.flags.iter().find(|f| !"amkcv".contains(**f)) {
            Some(flag) => Err(format!("invalid option -- '{flag}'")),
            None => Ok(parsed),
        },
    );
    let parsed = match parsed {
        Ok(parsed) => parsed,
        Err(message) => {
            // argp's words, and its status.
            let message =
                format!("{message}\nTry `locale --help' or `locale --usage' for more information.");
            return Ok(shell.fail_command("locale", &message, 64));
        }
    };
    let environment = shell.exported();
    let variable = |name: &str| {
        environment
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
            .filter(|value| !value.is_empty())
    };
    let utf8 = !shell.bytewise_locale();
    if parsed.has('a') {
        return print_text(shell, "locale", "C\nC.utf8\nPOSIX\n", 0);
    }
    if parsed.has('m') {
        return print_text(shell, "locale", "ANSI_X3.4-1968\nISO-8859-1\nUTF-8\n", 0);
    }
    if parsed.operands.is_empty() {
        let lang = variable("LANG");
        let all = variable("LC_ALL");
        let mut text = format!(
            "LANG={}\nLANGUAGE={}\n",
            lang.clone().unwrap_or_default(),
            variable("LANGUAGE").unwrap_or_default()
        );
        for category in CATEGORIES {
            let line = match (&all, variable(category)) {
                (None, Some(own)) => format!("{category}={own}\n"),
                (Some(all), _) => format!("{category}=\"{all}\"\n"),
                (None, None) => {
                    format!("{category}=\"{}\"\n", lang.as_deref().unwrap_or("POSIX"))
                }
            };
            text.push_str(&line);
        }
        text.push_str(&format!("LC_ALL={}\n", all.unwrap_or_default()));
        return print_text(shell, "locale", &text, 0);
    }
    let charmap = if utf8 {
        "\"UTF-8\""
    } else {
        "\"ANSI_X3.4-1968\""
    };
    let mut text = String::new();
    for name in &parsed.operands {
        let value = match name.as_str() {
            "charmap" => Some(charmap),
            _ => KEYWORDS
                .iter()
                .find(|(keyword, _)| keyword == name)
                .map(|(_, value)| *value),
        };
        match value {
            Some(value) if parsed.has('k') => text.push_str(&format!("{name}={value}\n")),
            Some(value) => text.push_str(&format!("{}\n", value.trim_matches('"'))),
            None => {
                // glibc stops at the first name it does not know, having
                // written nothing.
                let message = format!("unknown name \"{name}\"");
                return Ok(shell.fail_command("locale", &message, 1));
            }
        }
    }
    print_text(shell, "locale", &text, 0)
}
