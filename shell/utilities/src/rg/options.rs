//! rg's command line: the flags of ripgrep's common surface, in its forms
//! (`-n`, `-inw`, `-A2`, `-A 2`, `--after-context=2`, `-tpy`, `-uuu`).

/// What to print.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Matching lines (the default).
    Lines,
    /// `-c`: a count of matching lines per file.
    Count,
    /// `--count-matches`: a count of matches per file.
    CountMatches,
    /// `-l`: files with a match.
    FilesWithMatches,
    /// `--files-without-match`.
    FilesWithoutMatch,
    /// `-q`: nothing; the status says.
    Quiet,
    /// `--files`: the files that would be searched.
    Files,
    /// `--type-list`.
    TypeList,
    /// `--json`: JSON Lines, as ripgrep writes them.
    Json,
}

/// Case sensitivity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Case {
    Sensitive,
    Insensitive,
    /// `-S`: insensitive unless a pattern has an upper-case letter.
    Smart,
}

/// Everything rg was asked.
#[derive(Debug)]
pub struct Options {
    pub patterns: Vec<String>,
    pub pattern_files: Vec<String>,
    pub paths: Vec<String>,
    pub mode: Mode,
    pub case: Case,
    pub fixed: bool,
    pub word: bool,
    pub line: bool,
    pub invert: bool,
    pub multiline: bool,
    pub multiline_dotall: bool,
    pub only_matching: bool,
    pub line_numbers: Option<bool>,
    pub column: bool,
    pub with_filename: Option<bool>,
    pub heading: bool,
    pub null: bool,
    pub after: usize,
    pub before: usize,
    pub max_count: Option<u64>,
    pub max_depth: Option<usize>,
    pub replace: Option<String>,
    pub hidden: bool,
    pub no_ignore: bool,
    pub no_ignore_vcs: bool,
    pub text: bool,
    pub types: Vec<String>,
    pub types_not: Vec<String>,
    pub type_add: Vec<String>,
    pub globs: Vec<(String, bool)>,
    pub trim: bool,
    pub vimgrep: bool,
    pub byte_offset: bool,
    pub sort_reverse: bool,
    pub version: bool,
    pub help: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            patterns: Vec::new(),
            pattern_files: Vec::new(),
            paths: Vec::new(),
            mode: Mode::Lines,
            case: Case::Sensitive,
            fixed: false,
            word: false,
            line: false,
            invert: false,
            multiline: false,
            multiline_dotall: false,
            only_matching: false,
            line_numbers: None,
            column: false,
            with_filename: None,
            heading: false,
            null: false,
            after: 0,
            before: 0,
            max_count: None,
            max_depth: None,
            replace: None,
            hidden: false,
            no_ignore: false,
            no_ignore_vcs: false,
            text: false,
            types: Vec::new(),
            types_not: Vec::new(),
            type_add: Vec::new(),
            globs: Vec::new(),
            trim: false,
            vimgrep: false,
            byte_offset: false,
            sort_reverse: false,
            version: false,
            help: false,
        }
    }
}

/// Flags that take a value, by long name, with their short letter.
const VALUED: &[(&str, Option<char>)] = &[
    ("regexp", Some('e')),
    ("file", Some('f')),
    ("after-context", Some('A')),
    ("before-context", Some('B')),
    ("context", Some('C')),
    ("max-count", Some('m')),
    ("max-depth", Some('d')),
    ("type", Some('t')),
    ("type-not", Some('T')),
    ("type-add", None),
    ("glob", Some('g')),
    ("iglob", None),
    ("replace", Some('r')),
    ("threads", Some('j')),
    ("sort", None),
    ("sortr", None),
    ("color", None),
    ("colors", None),
    ("max-columns", Some('M')),
    ("encoding", Some('E')),
    ("max-filesize", None),
    ("path-separator", None),
    ("context-separator", None),
    ("field-match-separator", None),
    ("field-context-separator", None),
    ("engine", None),
    ("dfa-size-limit", None),
    ("regex-size-limit", None),
];

fn count(name: &str, value: &str) -> Result<usize, String> {
    value
        .parse()
        .map_err(|_| format!("failed to parse the value of --{name}: invalid number: {value}"))
}

impl Options {
    fn set_flag(&mut self, name: &str) -> Result<(), String> {
        match name {
            "count" => self.mode = Mode::Count,
            "count-matches" => self.mode = Mode::CountMatches,
            "files-with-matches" => self.mode = Mode::FilesWithMatches,
            "files-without-match" => self.mode = Mode::FilesWithoutMatch,
            "quiet" => self.mode = Mode::Quiet,
            "files" => self.mode = Mode::Files,
            "type-list" => self.mode = Mode::TypeList,
            "json" => self.mode = Mode::Json,
            "no-json" => self.mode = Mode::Lines,
            "ignore-case" => self.case = Case::Insensitive,
            "case-sensitive" => self.case = Case::Sensitive,
            "smart-case" => self.case = Case::Smart,
            "fixed-strings" => self.fixed = true,
            "no-fixed-strings" => self.fixed = false,
            "word-regexp" => self.word = true,
            "line-regexp" => self.line = true,
            "invert-match" => self.invert = true,
            "multiline" => self.multiline = true,
            "no-multiline" => self.multiline = false,
            "multiline-dotall" => self.multiline_dotall = true,
            "only-matching" => self.only_matching = true,
            "line-number" => self.line_numbers = Some(true),
            "no-line-number" => self.line_numbers = Some(false),
            "column" => {
                self.column = true;
                self.line_numbers = Some(true);
            }
            "no-column" => self.column = false,
            "with-filename" => self.with_filename = Some(true),
            "no-filename" => self.with_filename = Some(false),
            "heading" => self.heading = true,
            "no-heading" => self.heading = false,
            "null" => self.null = true,
            "hidden" => self.hidden = true,
            "no-hidden" => self.hidden = false,
            "no-ignore" => self.no_ignore = true,
            "ignore" => self.no_ignore = false,
            "no-ignore-vcs" => self.no_ignore_vcs = true,
            "text" => self.text = true,
            "no-text" => self.text = false,
            "binary" | "no-binary" => {}
            "trim" => self.trim = true,
            "no-trim" => self.trim = false,
            "vimgrep" => {
                self.vimgrep = true;
                self.column = true;
                self.line_numbers = Some(true);
            }
            "byte-offset" => self.byte_offset = true,
            "version" => self.version = true,
            "help" => self.help = true,
            "unrestricted" => self.unrestrict(),
            // Accepted and without effect here: the output is never a
            // terminal, there are no links in the VFS to follow, and the
            // search is always in path order on one thread.
            "no-messages"
            | "no-config"
            | "follow"
            | "no-follow"
            | "sort-files"
            | "pretty"
            | "no-unicode"
            | "crlf"
            | "no-crlf"
            | "search-zip"
            | "no-search-zip"
            | "mmap"
            | "no-mmap"
            | "one-file-system"
            | "no-ignore-parent"
            | "no-ignore-dot"
            | "no-ignore-global"
            | "no-ignore-exclude"
            | "no-ignore-files"
            | "no-require-git"
            | "stats"
            | "no-pcre2"
            | "line-buffered"
            | "block-buffered"
            | "passthru"
            | "ignore-file-case-insensitive"
            | "no-pre"
            | "auto-hybrid-regex"
            | "debug"
            | "trace" => {}
            other => return Err(format!("unrecognized flag --{other}")),
        }
        Ok(())
    }

    fn unrestrict(&mut self) {
        if !self.no_ignore {
            self.no_ignore = true;
        } else if !self.hidden {
            self.hidden = true;
        } else {
            self.text = true;
        }
    }

    fn set_value(&mut self, name: &str, value: String) -> Result<(), String> {
        match name {
            "regexp" => self.patterns.push(value),
            "file" => self.pattern_files.push(value),
            "after-context" => self.after = count(name, &value)?,
            "before-context" => self.before = count(name, &value)?,
            "context" => {
                self.after = count(name, &value)?;
                self.before = self.after;
            }
            "max-count" => self.max_count = Some(count(name, &value)? as u64),
            "max-depth" => self.max_depth = Some(count(name, &value)?),
            "type" => self.types.push(value),
            "type-not" => self.types_not.push(value),
            "type-add" => self.type_add.push(value),
            "glob" => self.globs.push((value, false)),
            "iglob" => self.globs.push((value, true)),
            "replace" => self.replace = Some(value),
            "sortr" => self.sort_reverse = value == "path",
            "sort" => self.sort_reverse = false,
            _ => {}
        }
        Ok(())
    }
}

fn short_flag(c: char) -> Option<&'static str> {
    Some(match c {
        'c' => "count",
        'l' => "files-with-matches",
        'q' => "quiet",
        'i' => "ignore-case",
        's' => "case-sensitive",
        'S' => "smart-case",
        'F' => "fixed-strings",
        'w' => "word-regexp",
        'x' => "line-regexp",
        'v' => "invert-match",
        'U' => "multiline",
        'o' => "only-matching",
        'n' => "line-number",
        'N' => "no-line-number",
        'H' => "with-filename",
        'I' => "no-filename",
        '0' => "null",
        '.' => "hidden",
        'a' => "text",
        'u' => "unrestricted",
        'p' => "pretty",
        'L' => "follow",
        'b' => "byte-offset",
        'V' => "version",
        'h' => "help",
        'z' => "search-zip",
        _ => return None,
    })
}

/// Parses `args` (`args[0]` is the command name).
pub fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options::default();
    let mut positional = Vec::new();
    let mut i = 1;
    let mut only_positional = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if only_positional || arg == "-" || !arg.starts_with('-') {
            positional.push(arg.clone());
            continue;
        }
        if arg == "--" {
            only_positional = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((name, value)) => (name, Some(value.to_string())),
                None => (long, None),
            };
            if VALUED.iter().any(|(long, _)| *long == name) {
                let value = match inline {
                    Some(value) => value,
                    None => {
                        let value = args
                            .get(i)
                            .cloned()
                            .ok_or_else(|| format!("flag --{name} requires a value"))?;
                        i += 1;
                        value
                    }
                };
                options.set_value(name, value)?;
            } else if inline.is_some() {
                return Err(format!("flag --{name} does not take a value"));
            } else {
                options.set_flag(name)?;
            }
            continue;
        }
        let chars: Vec<char> = arg[1..].chars().collect();
        let mut j = 0;
        while j < chars.len() {
            let c = chars[j];
            j += 1;
            if let Some((long, _)) = VALUED.iter().find(|(_, short)| *short == Some(c)) {
                let value = if j < chars.len() {
                    let rest: String = chars[j..].iter().collect();
                    j = chars.len();
                    rest
                } else {
                    let value = args
                        .get(i)
                        .cloned()
                        .ok_or_else(|| format!("flag -{c} requires a value"))?;
                    i += 1;
                    value
                };
                options.set_value(long, value)?;
                continue;
            }
            match short_flag(c) {
                Some(long) => options.set_flag(long)?,
                None => return Err(format!("unrecognized flag -{c}")),
            }
        }
    }
    if options.patterns.is_empty()
        && options.pattern_files.is_empty()
        && !matches!(options.mode, Mode::Files | Mode::TypeList)
        && !options.version
        && !options.help
    {
        if positional.is_empty() {
            return Err("no pattern given".to_string());
        }
        options.patterns.push(positional.remove(0));
    }
    options.paths = positional;
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        std::iter::once("rg")
            .chain(line.split(' '))
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn forms_of_flags_as_ripgrep_takes_them() {
        let o = parse(&args(
            "-inw -A2 -B 1 --max-count=3 -tpy -g !*.md foo src lib",
        ))
        .unwrap();
        assert_eq!(o.case, Case::Insensitive);
        assert!(o.word);
        assert_eq!((o.after, o.before, o.max_count), (2, 1, Some(3)));
        assert_eq!(o.types, ["py"]);
        assert_eq!(o.globs, [("!*.md".to_string(), false)]);
        assert_eq!(o.patterns, ["foo"]);
        assert_eq!(o.paths, ["src", "lib"]);
        let o = parse(&args("-uuu -e a -e b")).unwrap();
        assert!(o.no_ignore && o.hidden && o.text);
        assert_eq!(o.patterns, ["a", "b"]);
        assert!(o.paths.is_empty());
        assert_eq!(parse(&args("--files")).unwrap().mode, Mode::Files);
        assert_eq!(parse(&args("-k x")).unwrap_err(), "unrecognized flag -k");
        assert_eq!(parse(&args("-A")).unwrap_err(), "flag -A requires a value");
    }
}
