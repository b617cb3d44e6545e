//! `find`'s expression: its tests, actions and options, parsed from the
//! words after the starting points, as GNU find reads them.

use goccia_interp::regex_compat::{bre_to_rust, ere_to_rust};

#[derive(Clone, Debug)]
pub(super) enum Expr {
    True,
    False,
    Name(String, bool),
    Path(String, bool),
    Regex(regex::Regex),
    /// `-type`, `-xtype` (`true`: of what a link points at): any of these
    /// letters.
    Type(Vec<char>, bool),
    /// `-lname`, `-ilname`: a link whose target matches.
    LinkName(String, bool),
    /// `-samefile`: the entry is this place of the tree (links followed
    /// under `-L`, as GNU then compares what they point at).
    SameFile(goccia_vfs::VfsPath, bool),
    Size(i8, u64, u64),
    Empty,
    Newer(i64),
    Mtime(i8, i64, i64),
    /// `-links`: how the count compares (`+`, `-`, exact) and the count.
    Links(i8, u64),
    Perm(u32, Option<char>),
    Executable,
    /// `-print`, `-print0` (`true`), `-fprint`, `-fprint0`: to stdout or
    /// to one of the files the expression names.
    Print(bool, Sink),
    Printf(super::printf::Format, Sink),
    /// `-ls`, `-fls`
    Ls(Sink),
    Exec {
        command: Vec<String>,
        /// `{} +`: many entries per command.
        batch: bool,
        /// `-execdir`, `-okdir`: in the entry's folder, named `./NAME`.
        in_dir: bool,
        /// `-ok`, `-okdir`: only when the answer to a prompt is yes.
        ask: bool,
    },
    Delete,
    Prune,
    Quit,
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
}

pub(super) struct Options {
    pub(super) max_depth: usize,
    pub(super) min_depth: usize,
    pub(super) depth_first: bool,
    pub(super) follow: Follow,
    /// `-daystart`: ages are counted from the start of tomorrow (local
    /// time), as GNU find counts them, not from now.
    pub(super) day_start: bool,
}

/// Which symbolic links `find` follows: none (`-P`, the default), the
/// starting points only (`-H`), or all of them (`-L`, `-follow`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Follow {
    Never,
    Starts,
    Always,
}

/// Where an action writes: stdout, or the file at this index of
/// [`Parser::files`].
pub(super) type Sink = Option<usize>;

pub(super) struct Parser<'a> {
    pub(super) args: &'a [String],
    /// The files `-fprint`, `-fprint0`, `-fprintf` and `-fls` write, in the
    /// order first named (one stream per name, as GNU shares them).
    pub(super) files: Vec<String>,
    /// Where an existing operand is in the tree, its last link followed
    /// or not.
    pub(super) place_of: &'a dyn Fn(&str, bool) -> Option<goccia_vfs::VfsPath>,
    pub(super) pos: usize,
    pub(super) has_action: bool,
    pub(super) options: Options,
    /// Modification time (ns) of a `-newer` reference file, resolved against the VFS.
    pub(super) mtime_of: &'a dyn Fn(&str) -> Option<i64>,
    /// A `-newermt` date (seconds), read on the shell's clock.
    pub(super) date_of: &'a dyn Fn(&str) -> Option<i64>,
    /// The syntax of the `-regex` tests that follow (`-regextype`).
    pub(super) regex_type: RegexType,
}

/// The regular expression syntaxes of `-regextype`, as GNU find names
/// them; the default (`findutils-default`) is Emacs's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum RegexType {
    #[default]
    Emacs,
    Basic,
    Extended,
}

const REGEX_TYPES: &[(&str, RegexType)] = &[
    ("findutils-default", RegexType::Emacs),
    ("ed", RegexType::Basic),
    ("emacs", RegexType::Emacs),
    ("gnu-awk", RegexType::Extended),
    ("grep", RegexType::Basic),
    ("posix-awk", RegexType::Extended),
    ("awk", RegexType::Extended),
    ("posix-basic", RegexType::Basic),
    ("posix-egrep", RegexType::Extended),
    ("egrep", RegexType::Extended),
    ("posix-extended", RegexType::Extended),
    ("posix-minimal-basic", RegexType::Basic),
    ("sed", RegexType::Basic),
];

/// The names and ids `-user`/`-group` know: everything in the VFS is the
/// sandbox user's (docs/shell.md), and `root` exists but owns nothing.
const OWNERS: &[(&str, &str, bool)] = &[("user", "1000", true), ("root", "0", false)];

/// Emacs syntax (find's default) as ERE: `\|`, `\(`, `\)` are the
/// operators and the bare characters literal; bracket expressions are the
/// same in both.
fn emacs_to_ere(pattern: &str) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::new();
    let mut at = 0;
    while at < chars.len() {
        match chars[at] {
            '\\' if at + 1 < chars.len() => {
                let next = chars[at + 1];
                match next {
                    '|' | '(' | ')' => out.push(next),
                    '<' | '>' => out.push_str("\\b"),
                    _ => {
                        out.push('\\');
                        out.push(next);
                    }
                }
                at += 2;
            }
            '|' | '(' | ')' | '{' | '}' => {
                out.push('\\');
                out.push(chars[at]);
                at += 1;
            }
            '[' => {
                // Copied whole: `]` first (after `^`) is a member, and a
                // `[:class:]` holds a `]` of its own.
                let start = at;
                at += 1;
                if chars.get(at) == Some(&'^') {
                    at += 1;
                }
                if chars.get(at) == Some(&']') {
                    at += 1;
                }
                while at < chars.len() && chars[at] != ']' {
                    if chars[at] == '[' && matches!(chars.get(at + 1), Some(':' | '.' | '=')) {
                        let close = chars[at + 1];
                        at += 2;
                        while at + 1 < chars.len() && !(chars[at] == close && chars[at + 1] == ']')
                        {
                            at += 1;
                        }
                        at += 2;
                    } else {
                        at += 1;
                    }
                }
                at = (at + 1).min(chars.len());
                out.extend(&chars[start..at]);
            }
            other => {
                out.push(other);
                at += 1;
            }
        }
    }
    out
}

fn compare_prefix(text: &str) -> (i8, &str) {
    match text.chars().next() {
        Some('+') => (1, &text[1..]),
        Some('-') => (-1, &text[1..]),
        _ => (0, text),
    }
}

impl Parser<'_> {
    fn peek(&self) -> Option<&str> {
        self.args.get(self.pos).map(String::as_str)
    }

    fn value(&mut self, what: &str) -> Result<String, String> {
        self.pos += 1;
        let value = self
            .args
            .get(self.pos)
            .cloned()
            .ok_or_else(|| format!("missing argument to `{what}'"))?;
        self.pos += 1;
        Ok(value)
    }

    pub(super) fn or(&mut self) -> Result<Expr, String> {
        let mut left = self.and()?;
        while matches!(self.peek(), Some("-o") | Some("-or")) {
            self.pos += 1;
            let right = self.and()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut left = self.not()?;
        loop {
            match self.peek() {
                None | Some("-o") | Some("-or") | Some(")") | Some(",") => return Ok(left),
                Some("-a") | Some("-and") => self.pos += 1,
                _ => {}
            }
            let right = self.not()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
    }

    fn not(&mut self) -> Result<Expr, String> {
        if matches!(self.peek(), Some("!") | Some("-not")) {
            self.pos += 1;
            return Ok(Expr::Not(Box::new(self.not()?)));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let Some(token) = self.peek().map(str::to_string) else {
            return Err("expected an expression".to_string());
        };
        let expr = match token.as_str() {
            "(" => {
                self.pos += 1;
                let inner = self.or()?;
                if self.peek() != Some(")") {
                    return Err("invalid expression; I was expecting to find a ')' somewhere but did not see one.".to_string());
                }
                self.pos += 1;
                return Ok(inner);
            }
            "-name" | "-iname" => Expr::Name(self.value(&token)?, token == "-iname"),
            "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                Expr::Path(self.value(&token)?, token.starts_with("-i"))
            }
            "-regex" | "-iregex" => {
                let text = self.value(&token)?;
                let rust = match self.regex_type {
                    RegexType::Emacs => ere_to_rust(&emacs_to_ere(&text)),
                    RegexType::Basic => bre_to_rust(&text),
                    RegexType::Extended => ere_to_rust(&text),
                };
                let translated = format!("^(?:{rust})$");
                Expr::Regex(
                    regex::RegexBuilder::new(&translated)
                        .case_insensitive(token == "-iregex")
                        .build()
                        .map_err(|e| e.to_string())?,
                )
            }
            "-type" | "-xtype" => {
                let list = self.value(&token)?;
                Expr::Type(type_letters(&token, &list)?, token == "-xtype")
            }
            "-lname" | "-ilname" => Expr::LinkName(self.value(&token)?, token == "-ilname"),
            "-samefile" => {
                let file = self.value(&token)?;
                let follow = self.options.follow == Follow::Always;
                let place = (self.place_of)(&file, follow)
                    .ok_or_else(|| format!("\u{2018}{file}\u{2019}: No such file or directory"))?;
                Expr::SameFile(place, follow)
            }
            "-size" => {
                let text = self.value("-size")?;
                let (sign, rest) = compare_prefix(&text);
                let unit = rest
                    .chars()
                    .last()
                    .filter(|c| c.is_ascii_alphabetic())
                    .unwrap_or('b');
                let digits = rest.trim_end_matches(|c: char| c.is_ascii_alphabetic());
                let count: u64 = digits
                    .parse()
                    .map_err(|_| format!("invalid argument `{text}' to `-size'"))?;
                let unit_bytes = match unit {
                    'c' => 1,
                    'w' => 2,
                    'k' => 1024,
                    'M' => 1 << 20,
                    'G' => 1 << 30,
                    _ => 512,
                };
                Expr::Size(sign, count, unit_bytes)
            }
            "-empty" => {
                self.pos += 1;
                Expr::Empty
            }
            // The VFS keeps one time per entry, the modification time:
            // access, change and birth times are that time too.
            "-newer" | "-anewer" | "-cnewer" => {
                let file = self.value(&token)?;
                Expr::Newer(self.reference_time(&file)?)
            }
            newer if newer.starts_with("-newer") && newer.len() == 8 => {
                let mut which = newer[6..].chars();
                let (mine, theirs) = (which.next(), which.next());
                if !matches!(mine, Some('a' | 'B' | 'c' | 'm'))
                    || !matches!(theirs, Some('a' | 'B' | 'c' | 'm' | 't'))
                {
                    return Err(format!("invalid predicate `{newer}'"));
                }
                // The VFS keeps no birth time; GNU find says so where the
                // file system keeps none either.
                if mine == Some('B') || theirs == Some('B') {
                    return Err(format!(
                        "This system does not provide a way to find the birth time of a file.\nfind: invalid predicate `{newer}'"
                    ));
                }
                let reference = self.value(newer)?;
                if theirs == Some('t') {
                    let seconds = (self.date_of)(&reference).ok_or_else(|| {
                        format!(
                            "I cannot figure out how to interpret ‘{reference}’ as a date or time"
                        )
                    })?;
                    Expr::Newer(seconds.saturating_mul(1_000_000_000))
                } else {
                    Expr::Newer(self.reference_time(&reference)?)
                }
            }
            "-mtime" | "-mmin" | "-atime" | "-amin" | "-ctime" | "-cmin" => {
                let text = self.value(&token)?;
                let (sign, rest) = compare_prefix(&text);
                let n: i64 = rest
                    .parse()
                    .map_err(|_| format!("invalid argument `{text}' to `{token}'"))?;
                Expr::Mtime(sign, n, if token.ends_with("time") { 86400 } else { 60 })
            }
            "-links" => {
                let text = self.value(&token)?;
                let (sign, rest) = compare_prefix(&text);
                let n: u64 = rest
                    .parse()
                    .map_err(|_| format!("invalid argument `{text}' to `-links'"))?;
                Expr::Links(sign, n)
            }
            "-user" | "-group" | "-uid" | "-gid" => {
                let wanted = self.value(&token)?;
                let by_id = token == "-uid" || token == "-gid";
                let known = OWNERS
                    .iter()
                    .find(|(name, id, _)| *id == wanted || (!by_id && *name == wanted));
                match known {
                    Some((_, _, owns)) => {
                        if *owns {
                            Expr::True
                        } else {
                            Expr::False
                        }
                    }
                    // An unknown number owns nothing; an unknown name is
                    // an error, as GNU words it.
                    None if wanted.parse::<u32>().is_ok() => Expr::False,
                    None if by_id => {
                        return Err(format!("invalid argument `{wanted}' to `{token}'"));
                    }
                    None if token == "-user" => {
                        return Err(format!("‘{wanted}’ is not the name of a known user"));
                    }
                    None => return Err(format!("‘{wanted}’ is not the name of an existing group")),
                }
            }
            "-nouser" | "-nogroup" => {
                self.pos += 1;
                Expr::False
            }
            "-daystart" => {
                self.pos += 1;
                self.options.day_start = true;
                Expr::True
            }
            "-regextype" => {
                let name = self.value(&token)?;
                self.regex_type = match REGEX_TYPES.iter().find(|(known, _)| *known == name) {
                    Some((_, kind)) => *kind,
                    None => {
                        let valid = REGEX_TYPES
                            .iter()
                            .map(|(known, _)| format!("‘{known}’"))
                            .collect::<Vec<_>>()
                            .join(", ");
                        return Err(format!(
                            "Unknown regular expression type ‘{name}’; valid types are {valid}."
                        ));
                    }
                };
                Expr::True
            }
            "-perm" => {
                let text = self.value("-perm")?;
                let (mode_text, kind) = match text.chars().next() {
                    Some(c @ ('-' | '/')) => (&text[1..], Some(c)),
                    _ => (text.as_str(), None),
                };
                let mode = crate::files::info::parse_mode(mode_text, 0, false)
                    .ok_or_else(|| format!("invalid mode `{text}'"))?;
                Expr::Perm(mode, kind)
            }
            "-executable" => {
                self.pos += 1;
                Expr::Executable
            }
            "-readable" | "-writable" | "-true" => {
                self.pos += 1;
                Expr::True
            }
            "-false" => {
                self.pos += 1;
                Expr::False
            }
            "-print" | "-print0" => {
                self.pos += 1;
                self.has_action = true;
                Expr::Print(token == "-print0", None)
            }
            "-fprint" | "-fprint0" => {
                self.has_action = true;
                let sink = self.file(&token)?;
                Expr::Print(token == "-fprint0", sink)
            }
            "-printf" => {
                self.has_action = true;
                Expr::Printf(super::printf::Format::parse(&self.value("-printf")?), None)
            }
            "-fprintf" => {
                self.has_action = true;
                let sink = self.file(&token)?;
                self.pos -= 1;
                Expr::Printf(super::printf::Format::parse(&self.value(&token)?), sink)
            }
            "-ls" => {
                self.pos += 1;
                self.has_action = true;
                Expr::Ls(None)
            }
            "-fls" => {
                self.has_action = true;
                Expr::Ls(self.file(&token)?)
            }
            "-delete" => {
                self.pos += 1;
                self.has_action = true;
                self.options.depth_first = true;
                Expr::Delete
            }
            "-prune" => {
                self.pos += 1;
                Expr::Prune
            }
            "-quit" => {
                self.pos += 1;
                Expr::Quit
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                self.pos += 1;
                self.has_action = true;
                let mut command = Vec::new();
                let mut batch = false;
                loop {
                    let Some(word) = self.peek().map(str::to_string) else {
                        return Err(format!("missing argument to `{token}'"));
                    };
                    self.pos += 1;
                    if word == ";" {
                        break;
                    }
                    // `-ok` and `-okdir` take no `+`: it is a word.
                    if word == "+"
                        && !token.starts_with("-ok")
                        && command.last().map(String::as_str) == Some("{}")
                    {
                        batch = true;
                        break;
                    }
                    command.push(word);
                }
                if command.is_empty() {
                    return Err(format!("missing argument to `{token}'"));
                }
                let ask = token.starts_with("-ok");
                Expr::Exec {
                    command,
                    batch,
                    in_dir: token.ends_with("dir"),
                    ask,
                }
            }
            "-maxdepth" | "-mindepth" => {
                let value = self.value(&token)?;
                let depth: usize = value.parse().map_err(|_| {
                    format!(
                        "Expected a positive decimal integer argument to {token}, but got `{value}'"
                    )
                })?;
                if token == "-maxdepth" {
                    self.options.max_depth = depth;
                } else {
                    self.options.min_depth = depth;
                }
                Expr::True
            }
            "-depth" => {
                self.pos += 1;
                self.options.depth_first = true;
                Expr::True
            }
            "-follow" => {
                self.pos += 1;
                self.options.follow = Follow::Always;
                Expr::True
            }
            "-xdev" | "-mount" | "-noleaf" => {
                self.pos += 1;
                Expr::True
            }
            other => return Err(format!("unknown predicate `{other}'")),
        };
        Ok(expr)
    }

    fn reference_time(&self, file: &str) -> Result<i64, String> {
        (self.mtime_of)(file)
            .ok_or_else(|| format!("\u{2018}{file}\u{2019}: No such file or directory"))
    }

    /// The file operand of `-fprint` and its kin (one stream per name).
    fn file(&mut self, action: &str) -> Result<Sink, String> {
        let name = self.value(action)?;
        let index = match self.files.iter().position(|known| *known == name) {
            Some(index) => index,
            None => {
                self.files.push(name);
                self.files.len() - 1
            }
        };
        Ok(Some(index))
    }
}

/// `-type`'s letters, comma-separated, as GNU reads them and refuses them.
fn type_letters(action: &str, list: &str) -> Result<Vec<char>, String> {
    let mut letters = Vec::new();
    let mut chars = list.chars().peekable();
    while let Some(letter) = chars.next() {
        if !"bcdpflsD".contains(letter) {
            return Err(format!("Unknown argument to {action}: {letter}"));
        }
        letters.push(letter);
        match chars.next() {
            None => {}
            Some(',') if chars.peek().is_none() => {
                return Err(format!(
                    "Last file type in list argument to {action} is missing, i.e., list is ending on: ','"
                ));
            }
            Some(',') => {}
            Some(_) => {
                return Err(format!(
                    "Must separate multiple arguments to {action} using: ','"
                ));
            }
        }
    }
    if letters.is_empty() {
        return Err(format!(
            "Arguments to {action} should contain at least one letter"
        ));
    }
    Ok(letters)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(words: &[&str]) -> Result<Expr, String> {
        let args: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let mut parser = Parser {
            args: &args,
            pos: 0,
            has_action: false,
            options: Options {
                max_depth: usize::MAX,
                min_depth: 0,
                depth_first: false,
                follow: Follow::Never,
                day_start: false,
            },
            files: Vec::new(),
            place_of: &|_, _| None,
            mtime_of: &|_| None,
            date_of: &|_| None,
            regex_type: RegexType::default(),
        };
        parser.or()
    }

    /// Everything is the sandbox user's: `-user user` holds for all,
    /// `root` (known) for none, a name nobody has is GNU's error (the
    /// differential cases cannot show it: their bash runs as root).
    #[test]
    fn owners_are_the_sandbox_users() {
        assert!(matches!(parse(&["-user", "user"]), Ok(Expr::True)));
        assert!(matches!(parse(&["-group", "1000"]), Ok(Expr::True)));
        assert!(matches!(parse(&["-uid", "1000"]), Ok(Expr::True)));
        assert!(matches!(parse(&["-user", "root"]), Ok(Expr::False)));
        assert!(matches!(parse(&["-gid", "0"]), Ok(Expr::False)));
        assert!(matches!(parse(&["-user", "4242"]), Ok(Expr::False)));
        assert!(matches!(parse(&["-nouser"]), Ok(Expr::False)));
        let error = parse(&["-user", "mallory"]).unwrap_err();
        assert_eq!(error, "‘mallory’ is not the name of a known user");
        let error = parse(&["-group", "mallory"]).unwrap_err();
        assert_eq!(error, "‘mallory’ is not the name of an existing group");
        assert!(parse(&["-uid", "x"]).is_err());
    }

    #[test]
    fn type_lists_are_read_and_refused_as_gnu_does() {
        assert!(
            matches!(parse(&["-type", "f,d"]), Ok(Expr::Type(letters, false)) if letters == ['f', 'd'])
        );
        let refusal = |list: &str| parse(&["-type", list]).unwrap_err();
        assert_eq!(refusal("x"), "Unknown argument to -type: x");
        assert_eq!(
            refusal("fd"),
            "Must separate multiple arguments to -type using: ','"
        );
        assert!(refusal("f,").starts_with("Last file type in list argument to -type is missing"));
        assert_eq!(
            refusal(""),
            "Arguments to -type should contain at least one letter"
        );
    }

    #[test]
    fn emacs_syntax_becomes_ere() {
        assert_eq!(emacs_to_ere(r".*\.\(c\|h\)"), r".*\.(c|h)");
        assert_eq!(emacs_to_ere("a(b)|{c}"), r"a\(b\)\|\{c\}");
        // Bracket expressions pass whole, `]` first and classes included.
        assert_eq!(emacs_to_ere(r"[](|][[:alpha:]|]x"), r"[](|][[:alpha:]|]x");
        assert_eq!(emacs_to_ere(r"\<w\>"), r"\bw\b");
    }
}
