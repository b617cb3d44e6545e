//! `locale`: the locale a command run here gets, as glibc's `locale`
//! reports it: the variables (`LANG`, each `LC_*` as the environment
//! settles it, `LC_ALL`), the locales there are (`-a`: C, C.utf8 and
//! POSIX, as a Debian system without others), the character sets (`-m`),
//! and the C locale's keywords (`charmap`, `decimal_point`, `d_fmt`, …)
//! by name or by category, with `-k` their names and `-c` their
//! categories' (`c_utf8.txt`: glibc's values, the C locale's in
//! `posix_differs.txt`). Whatever a variable names, text is read as
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

/// The C.UTF-8 locale's keywords, as glibc 2.36's `locale -ck` lists each
/// category in turn: the category's name on a line, then `name=value` for
/// each keyword (strings quoted, numbers bare).
const C_UTF8: &str = include_str!("c_utf8.txt");

/// The keywords whose values differ in the C (POSIX) locale, whose
/// character set is ASCII, as its `locale -k` writes them.
const POSIX_DIFFERS: &str = include_str!("posix_differs.txt");

/// One keyword of a category, as `locale -k` writes it.
struct Keyword {
    category: &'static str,
    /// `name=value`.
    line: &'static str,
}

impl Keyword {
    fn name(&self) -> &'static str {
        self.line
            .split_once('=')
            .map_or(self.line, |(name, _)| name)
    }

    /// The value as `locale NAME` writes it: strings without their
    /// quotes (`"a";"b"` is `a;b`).
    fn plain(&self) -> String {
        self.line
            .split_once('=')
            .map_or("", |(_, value)| value)
            .replace('"', "")
    }
}

/// The keywords of the locale a command runs in, in `locale -ck`'s order.
fn keywords(utf8: bool) -> Vec<Keyword> {
    let mut category = "";
    let mut keywords = Vec::new();
    for line in C_UTF8.lines() {
        if !line.contains('=') {
            category = line;
            continue;
        }
        let mut keyword = Keyword { category, line };
        if !utf8
            && let Some(posix) = POSIX_DIFFERS.lines().find(|other| {
                other
                    .split_once('=')
                    .is_some_and(|(name, _)| name == keyword.name())
            })
        {
            keyword.line = posix;
        }
        keywords.push(keyword);
    }
    keywords
}

/// `locale -a -v`: what glibc reads of each compiled locale (C and POSIX
/// are built in and not listed).
const VERBOSE_LOCALES: &str = "locale: C.utf8          directory: /usr/lib/locale/C.utf8
-------------------------------------------------------------------------------
    title | C locale
    email | bug-glibc-locales@gnu.org
 revision | 2.1
     date | 2022-01-30
  codeset | UTF-8
";

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
    if parsed.has('a') && parsed.has('v') {
        return print_text(shell, "locale", VERBOSE_LOCALES, 0);
    }
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
    let keywords = keywords(utf8);
    let show = |keyword: &Keyword, text: &mut String| {
        if parsed.has('k') {
            text.push_str(keyword.line);
        } else {
            text.push_str(&keyword.plain());
        }
        text.push('\n');
    };
    let mut text = String::new();
    for name in &parsed.operands {
        if CATEGORIES.contains(&name.as_str()) {
            if parsed.has('c') {
                text.push_str(&format!("{name}\n"));
            }
            for keyword in keywords.iter().filter(|keyword| keyword.category == name) {
                show(keyword, &mut text);
            }
        } else if let Some(keyword) = keywords.iter().find(|keyword| keyword.name() == name) {
            if parsed.has('c') {
                text.push_str(&format!("{}\n", keyword.category));
            }
            show(keyword, &mut text);
        } else {
            // glibc stops at the first name it does not know, after what
            // the names before it wrote.
            print_text(shell, "locale", &text, 0)?;
            let message = format!("unknown name \"{name}\"");
            return Ok(shell.fail_command("locale", &message, 1));
        }
    }
    print_text(shell, "locale", &text, 0)
}
