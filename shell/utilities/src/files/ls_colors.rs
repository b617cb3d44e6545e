//! `ls --color=always`: names coloured as GNU `ls` colours them, by its
//! built-in table (folders, links, executables, pipes, sockets, devices,
//! set-id and sticky bits; no file extensions: those come from
//! `dircolors`) as `LS_COLORS` changes it. A coloured name is written
//! `ESC[<code>m<name>ESC[0m`, and the first one of a run is preceded by
//! `ESC[0m`, as GNU resets the terminal before its first colour.

use std::cell::Cell;

use goccia_vfs::Node;

/// GNU `ls`'s codes when `LS_COLORS` is not set.
const BUILT_IN: &[(&str, &str)] = &[
    ("di", "01;34"),
    ("ln", "01;36"),
    ("pi", "33"),
    ("so", "01;35"),
    ("bd", "01;33"),
    ("cd", "01;33"),
    ("ex", "01;32"),
    ("do", "01;35"),
    ("su", "37;41"),
    ("sg", "30;43"),
    ("st", "37;44"),
    ("ow", "34;42"),
    ("tw", "30;42"),
];

/// The terminals GNU `ls` colours for with its own table (dircolors'
/// `TERM` lines): without `LS_COLORS`, only these, or a set `COLORTERM`.
const KNOWN_TERMS: &[&str] = &[
    "Eterm",
    "ansi",
    "*color*",
    "con[0-9]*x[0-9]*",
    "cons25",
    "console",
    "cygwin",
    "*direct*",
    "dtterm",
    "gnome",
    "hurd",
    "jfbterm",
    "konsole",
    "kterm",
    "linux",
    "linux-c",
    "mlterm",
    "putty",
    "rxvt*",
    "screen*",
    "st",
    "terminator",
    "tmux*",
    "vt100",
    "xterm*",
];

/// Whether GNU `ls` colours at all, given `LS_COLORS`, `COLORTERM` and
/// `TERM`: with `LS_COLORS` set (not empty), always; else for a terminal
/// it knows or a set `COLORTERM` (the sandbox's `TERM` is `dumb`).
pub(crate) fn colours_for(
    ls_colors: Option<&str>,
    colorterm: Option<&str>,
    term: Option<&str>,
) -> bool {
    let set = |value: Option<&str>| value.is_some_and(|value| !value.is_empty());
    set(ls_colors)
        || set(colorterm)
        || term.is_some_and(|term| {
            KNOWN_TERMS
                .iter()
                .any(|known| goccia_interp::pattern::Pattern::new(known, false).matches(term))
        })
}

/// The colours of one `ls` run.
pub(crate) struct Colors {
    /// Two-letter kinds (`di`, `ln`, …) and their codes.
    kinds: Vec<(String, String)>,
    /// `*SUFFIX` entries, matched without regard to case, last given first.
    suffixes: Vec<(String, String)>,
    /// `ln=target`: a link is coloured as what it points to.
    links_as_target: bool,
    /// Whether a colour was written yet (the reset goes before the first).
    used: Cell<bool>,
}

/// What a listed name is, for its colour.
pub(crate) enum Kind<'a> {
    /// An entry of the listing, with what a link points to (`None`:
    /// dangling).
    Entry(&'a Node, Option<&'a Node>),
    /// The target after `->` in `ls -l` (`None`: missing).
    Target(Option<&'a Node>),
}

impl Colors {
    /// The colours of GNU's table as `LS_COLORS` changes it, or
    /// `None` when an entry is not `KEY=CODE`: GNU then warns and lists
    /// without colour.
    pub(crate) fn new(ls_colors: Option<&str>) -> Option<Colors> {
        let mut colors = Colors {
            kinds: Vec::new(),
            suffixes: Vec::new(),
            links_as_target: false,
            used: Cell::new(false),
        };
        // `LS_COLORS` changes GNU's table; what it leaves out stays.
        colors.kinds = BUILT_IN
            .iter()
            .map(|(kind, code)| (kind.to_string(), code.to_string()))
            .collect();
        for entry in ls_colors
            .unwrap_or("")
            .split(':')
            .filter(|entry| !entry.is_empty())
        {
            let (key, code) = entry.split_once('=')?;
            if let Some(suffix) = key.strip_prefix('*') {
                colors
                    .suffixes
                    .insert(0, (suffix.to_lowercase(), code.to_string()));
            } else if key == "ln" && code == "target" {
                colors.links_as_target = true;
            } else {
                colors.kinds.retain(|(kind, _)| kind != key);
                colors.kinds.push((key.to_string(), code.to_string()));
            }
        }
        Some(colors)
    }

    /// The code of a kind, when it colours (`0` and `00` do not).
    fn code(&self, kind: &str) -> Option<&str> {
        self.kinds
            .iter()
            .find(|(name, _)| name == kind)
            .map(|(_, code)| code.as_str())
            .filter(|code| !code.is_empty() && *code != "0" && *code != "00")
    }

    /// Whether `ls -l` colours link targets: only when it looks at them,
    /// as GNU does when dangling links or missing targets have colours of
    /// their own, or links take their target's.
    pub(crate) fn colours_targets(&self) -> bool {
        self.code("or").is_some() || self.code("mi").is_some() || self.links_as_target
    }

    /// `name` (already quoted as the listing writes it), coloured for
    /// `kind`; `file_name` is the entry's own name, whose suffix picks a
    /// colour for a regular file.
    pub(crate) fn paint(&self, name: &str, file_name: &str, kind: Kind<'_>) -> String {
        let code = match kind {
            Kind::Entry(Node::Link(_), target) => match target {
                Some(target) if self.links_as_target => self.node_code(target, file_name),
                Some(_) => self.code("ln"),
                None => self.code("or").or_else(|| self.code("ln")),
            },
            Kind::Entry(node, _) => self.node_code(node, file_name),
            Kind::Target(Some(target)) if self.colours_targets() => {
                self.node_code(target, file_name)
            }
            Kind::Target(None) if self.colours_targets() => {
                self.code("mi").or_else(|| self.code("or"))
            }
            Kind::Target(_) => None,
        };
        let Some(code) = code else {
            return name.to_string();
        };
        let reset = if self.used.replace(true) {
            ""
        } else {
            "\x1b[0m"
        };
        format!("{reset}\x1b[{code}m{name}\x1b[0m")
    }

    /// The code for a folder or a file by its mode and name.
    fn node_code(&self, node: &Node, file_name: &str) -> Option<&str> {
        let mode = node.meta().mode;
        match node {
            // The first special kind that has a colour, as GNU tries them.
            Node::Dir(_) => {
                let (sticky, writable) = (mode & 0o1000 != 0, mode & 0o002 != 0);
                [("tw", sticky && writable), ("ow", writable), ("st", sticky)]
                    .iter()
                    .filter(|(_, applies)| *applies)
                    .find_map(|(kind, _)| self.code(kind))
                    .or_else(|| self.code("di"))
            }
            Node::Link(_) => self.code("ln"),
            Node::File(_) => {
                let special = [
                    ("su", mode & 0o4000 != 0),
                    ("sg", mode & 0o2000 != 0),
                    ("ex", mode & 0o111 != 0),
                ];
                special
                    .iter()
                    .filter(|(_, applies)| *applies)
                    .find_map(|(kind, _)| self.code(kind))
                    .or_else(|| {
                        let lower = file_name.to_lowercase();
                        self.suffixes
                            .iter()
                            .find(|(suffix, _)| lower.ends_with(suffix.as_str()))
                            .map(|(_, code)| code.as_str())
                            .or_else(|| self.code("fi"))
                    })
            }
        }
    }
}

/// How many columns `text` takes on a terminal, its colour codes left out.
pub(crate) fn shown_width(text: &str) -> usize {
    let mut width = 0;
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '\x1b' => in_code = true,
            'm' if in_code => in_code = false,
            _ if in_code => {}
            _ => width += 1,
        }
    }
    width
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_width_leaves_colour_codes_out() {
        assert_eq!(shown_width("\x1b[0m\x1b[01;34md\x1b[0m/"), 2);
        assert_eq!(shown_width("plain"), 5);
    }

    #[test]
    fn ls_colors_overrides_kinds_adds_suffixes_and_switches_colours_off() {
        assert!(Colors::new(Some("di=01;31:bogus")).is_none());
        let colors = Colors::new(Some("di=01;31:*.GZ=01;35:ex=00:")).unwrap();
        assert_eq!(colors.code("di"), Some("01;31"));
        assert_eq!(colors.code("ex"), None);
        assert_eq!(colors.code("ln"), Some("01;36"));
        assert_eq!(
            colors.suffixes,
            vec![(".gz".to_string(), "01;35".to_string())]
        );
        assert!(colours_for(None, None, Some("xterm-256color")));
        assert!(!colours_for(Some(""), None, Some("dumb")));
        assert!(colours_for(None, Some("truecolor"), Some("dumb")));
        let built_in = Colors::new(None).unwrap();
        assert_eq!(built_in.code("ln"), Some("01;36"));
        assert!(!built_in.colours_targets());
    }
}
