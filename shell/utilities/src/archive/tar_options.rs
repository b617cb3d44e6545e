//! `tar`'s command line, read as GNU tar reads it: old-style clustered
//! letters, short and long options, members and the `-C` before each;
//! and what options select (exclusions, member operands).

use super::{Filter, member_path};
use goccia_interp::pattern::Pattern;

/// What `tar` is asked to do.
#[derive(Default)]
pub(super) struct TarOptions {
    /// `c`, `x`, `t`, `r`, `u`, or `d` for `--delete`.
    pub(super) mode: Option<char>,
    pub(super) file: Option<String>,
    /// `-z`, `-j`: the compressor the archive goes through.
    pub(super) filter: Option<Filter>,
    pub(super) verbose: bool,
    pub(super) to_stdout: bool,
    pub(super) directory: Option<String>,
    /// Every `-C` in order: GNU tar changes folder at each, relative to
    /// the one before, for the members named after it.
    pub(super) chdirs: Vec<String>,
    pub(super) strip: usize,
    pub(super) members: Vec<String>,
    /// For each member, how many `-C` came before it.
    pub(super) chdirs_before: Vec<usize>,
    /// `-T`/`--files-from`: files naming more members (`-` is stdin).
    pub(super) files_from: Vec<String>,
    /// `--null`: those names end with NUL, not newline.
    pub(super) null: bool,
    /// `--no-recursion`: a folder is archived without its entries.
    pub(super) no_recursion: bool,
    /// `--owner`, `--group`: the names (and ids) written in the headers;
    /// otherwise the sandbox user's.
    pub(super) owner: Option<String>,
    pub(super) group: Option<String>,
    /// `--numeric-owner`: ids without names, written and listed.
    pub(super) numeric_owner: bool,
    /// `--mtime`: the time written for every member, or with
    /// `--clamp-mtime` for those newer than it (read when creating, in
    /// the sandbox's zone).
    pub(super) mtime: Option<String>,
    pub(super) clamp_mtime: bool,
    /// `--format=ustar` (`-H ustar`): POSIX headers instead of GNU's.
    pub(super) ustar: bool,
    /// `--exclude`, and the lines of `-X` files (read before the work):
    /// members whose name, or any tail of it after a `/`, matches.
    pub(super) excludes: Vec<String>,
    pub(super) exclude_files: Vec<String>,
    /// `--wildcards`/`--no-wildcards`: whether member operands of `-t`/`-x`
    /// are patterns (not by default; then GNU warns of a pattern that
    /// matched nothing).
    pub(super) wildcards: Option<bool>,
    /// `-a`: the compressor from the archive's suffix.
    pub(super) auto_compress: bool,
    /// `-k`/`--keep-old-files`, `--skip-old-files`: what extraction does
    /// where a file is there already (by default it is replaced).
    pub(super) keep_old: Option<KeepOld>,
    /// `--overwrite`, which GNU will not take with either of those.
    pub(super) overwrite: bool,
}

/// A file extraction finds in its place, kept.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum KeepOld {
    /// GNU's "Cannot open: File exists", and status 2 at the end.
    Refuse,
    /// Silently.
    Skip,
}

/// What `--exclude-vcs` leaves out: version control's folders and files.
const VCS_NAMES: &[&str] = &[
    "CVS",
    ".cvsignore",
    "RCS",
    "SCCS",
    ".svn",
    ".git",
    ".gitignore",
    ".gitattributes",
    ".gitmodules",
    ".arch-ids",
    "{arch}",
    "=RELEASE-ID",
    "=meta-update",
    "=update",
    ".bzr",
    ".bzrignore",
    ".bzrtags",
    ".hg",
    ".hgignore",
    ".hgtags",
    "_darcs",
];

/// `--exclude`'s patterns, read once: a pattern leaves a member out when
/// it matches the whole name or what follows any `/` in it (GNU's
/// unanchored default), `*` matching `/` too.
#[derive(Clone, Default)]
pub(super) struct Exclusions(Vec<Pattern>);

impl Exclusions {
    pub(super) fn new(patterns: &[String]) -> Exclusions {
        Exclusions(
            patterns
                .iter()
                .map(|pattern| Pattern::new(pattern.trim_end_matches('/'), false))
                .collect(),
        )
    }

    pub(super) fn leave_out(&self, name: &str) -> bool {
        let name = name.trim_end_matches('/');
        if self.0.is_empty() || name.is_empty() {
            return false;
        }
        let tails: Vec<&str> = std::iter::once(name)
            .chain(name.match_indices('/').map(|(at, _)| &name[at + 1..]))
            .collect();
        self.0
            .iter()
            .any(|pattern| tails.iter().any(|tail| pattern.matches(tail)))
    }
}

/// A member operand of `-t`/`-x`, read once: a name that selects itself
/// and what is inside it, or under `--wildcards` a pattern (`*` matching
/// `/` too) tried on the name and each folder above it.
pub(super) enum Wanted {
    /// Compared as members are extracted: `./` and leading slashes aside.
    Exact(String),
    Pattern(Pattern),
}

impl Wanted {
    pub(super) fn new(operand: &str, wildcards: bool) -> Wanted {
        if wildcards {
            Wanted::Pattern(Pattern::new(operand.trim_end_matches('/'), false))
        } else {
            Wanted::Exact(member_path(operand, 0).unwrap_or_default())
        }
    }

    pub(super) fn selects(&self, name: &str) -> bool {
        let name = name.trim_end_matches('/');
        match self {
            Wanted::Pattern(pattern) => std::iter::once(name)
                .chain(name.match_indices('/').map(|(at, _)| &name[..at]))
                .any(|prefix| pattern.matches(prefix)),
            Wanted::Exact(wanted) => {
                let name = member_path(name, 0).unwrap_or_default();
                name == *wanted || name.starts_with(&format!("{wanted}/"))
            }
        }
    }
}

/// The compressor `-a` picks from the archive's name: gzip and bzip2
/// are had; the others GNU would run are not on the sandbox.
pub(super) fn auto_filter(file: &str) -> Result<Option<Filter>, String> {
    let suffix = file.rsplit('.').next().unwrap_or("");
    if !file.contains('.') {
        return Ok(None);
    }
    match suffix {
        "gz" | "tgz" | "taz" => Ok(Some(Filter::Gzip)),
        "bz2" | "tbz" | "tbz2" | "tb2" | "tz2" => Ok(Some(Filter::Bzip2)),
        "xz" | "txz" | "lzma" | "tlz" | "lz" | "lzo" | "tzo" | "zst" | "tzst" | "Z" | "taZ" => {
            let program = match suffix {
                "xz" | "txz" => "xz",
                "lzma" | "tlz" => "lzma",
                "lz" => "lzip",
                "lzo" | "tzo" => "lzop",
                "zst" | "tzst" => "zstd",
                _ => "compress",
            };
            Err(format!(
                "{program}: Cannot exec: No such file or directory (the sandbox has gzip and bzip2)"
            ))
        }
        _ => Ok(None),
    }
}

/// Whether `--format`/`-H` asks for ustar headers: `gnu` and `oldgnu`
/// (GNU tar writes the two alike for short names) are GNU's, `ustar`
/// POSIX's; `pax`/`posix` and `v7` are not written here, and are refused
/// rather than written as something else.
fn archive_format(format: &str) -> Result<bool, String> {
    match format {
        "gnu" | "oldgnu" => Ok(false),
        "ustar" => Ok(true),
        "posix" | "pax" | "v7" => Err(format!(
            "--format={format}: not written here (use gnu or ustar)"
        )),
        _ => Err(format!("{format}: Invalid archive format")),
    }
}

pub(super) fn parse_tar(args: &[String]) -> Result<TarOptions, String> {
    let mut options = TarOptions::default();
    let mut rest: Vec<String> = args[1..].to_vec();
    // Old style: `tar czf out.tar.gz files`.
    if let Some(first) = rest.first()
        && !first.starts_with('-')
        && first.chars().all(|c| "cxtruzjvfOCkTaX".contains(c))
    {
        rest[0] = format!("-{first}");
    }
    let mut i = 0;
    while i < rest.len() {
        let arg = rest[i].clone();
        i += 1;
        let mut value = |name: &str| -> Result<String, String> {
            let value = rest
                .get(i)
                .cloned()
                .ok_or(format!("option requires an argument -- '{name}'"))?;
            i += 1;
            Ok(value)
        };
        if let Some(long) = arg.strip_prefix("--") {
            let (name, attached) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            match name {
                "create" => options.mode = Some('c'),
                "extract" | "get" => options.mode = Some('x'),
                "list" => options.mode = Some('t'),
                "append" => options.mode = Some('r'),
                "update" => options.mode = Some('u'),
                "delete" => set_mode(&mut options, 'd')?,
                "files-from" => options
                    .files_from
                    .push(attached.map_or_else(|| value("T"), Ok)?),
                "null" => options.null = true,
                "keep-old-files" => options.keep_old = Some(KeepOld::Refuse),
                "skip-old-files" => options.keep_old = Some(KeepOld::Skip),
                "overwrite" => options.overwrite = true,
                "no-recursion" => options.no_recursion = true,
                "recursion" => options.no_recursion = false,
                "owner" => options.owner = Some(attached.map_or_else(|| value("owner"), Ok)?),
                "numeric-owner" => options.numeric_owner = true,
                // Members go in name order whatever is asked: the VFS lists
                // a folder that way, so `none` (the file system's order)
                // is that order too.
                "sort" => {
                    let order = attached.map_or_else(|| value("sort"), Ok)?;
                    if !matches!(order.as_str(), "name" | "none" | "inode") {
                        return Err(format!(
                            "invalid argument \u{2018}{order}\u{2019} for \u{2018}--sort\u{2019}\nValid arguments are:\n  - \u{2018}none\u{2019}\n  - \u{2018}name\u{2019}\n  - \u{2018}inode\u{2019}"
                        ));
                    }
                }
                "mtime" => {
                    options.mtime = Some(attached.map_or_else(|| value("mtime"), Ok)?);
                }
                "clamp-mtime" => options.clamp_mtime = true,
                "format" => {
                    let format = attached.map_or_else(|| value("format"), Ok)?;
                    options.ustar = archive_format(&format)?;
                }
                "group" => options.group = Some(attached.map_or_else(|| value("group"), Ok)?),
                "gzip" | "gunzip" | "ungzip" => options.filter = Some(Filter::Gzip),
                "bzip2" => options.filter = Some(Filter::Bzip2),
                "verbose" => options.verbose = true,
                "to-stdout" => options.to_stdout = true,
                "file" => options.file = Some(attached.map_or_else(|| value("f"), Ok)?),
                "directory" => {
                    let dir = attached.map_or_else(|| value("C"), Ok)?;
                    options.chdirs.push(dir.clone());
                    options.directory = Some(dir);
                }
                "exclude" => options
                    .excludes
                    .push(attached.map_or_else(|| value("exclude"), Ok)?),
                "exclude-from" => options
                    .exclude_files
                    .push(attached.map_or_else(|| value("X"), Ok)?),
                "exclude-vcs" => options
                    .excludes
                    .extend(VCS_NAMES.iter().map(|name| name.to_string())),
                "wildcards" => options.wildcards = Some(true),
                "no-wildcards" => options.wildcards = Some(false),
                "auto-compress" => options.auto_compress = true,
                "strip-components" => {
                    let text = attached.map_or_else(|| value("strip-components"), Ok)?;
                    options.strip = text
                        .parse()
                        .map_err(|_| format!("invalid number: {text}"))?;
                }
                _ => return Err(format!("unrecognized option '--{name}'")),
            }
            continue;
        }
        if arg.len() > 1 && arg.starts_with('-') {
            let flags: Vec<char> = arg[1..].chars().collect();
            for (index, flag) in flags.iter().enumerate() {
                match flag {
                    'c' | 'x' | 't' | 'r' | 'u' => set_mode(&mut options, *flag)?,
                    'z' => options.filter = Some(Filter::Gzip),
                    'j' => options.filter = Some(Filter::Bzip2),
                    'v' => options.verbose = true,
                    'O' => options.to_stdout = true,
                    'k' => options.keep_old = Some(KeepOld::Refuse),
                    'a' => options.auto_compress = true,
                    'f' | 'C' | 'T' | 'H' | 'X' => {
                        let attached: String = flags[index + 1..].iter().collect();
                        let text = if attached.is_empty() {
                            value(&flag.to_string())?
                        } else {
                            attached
                        };
                        match flag {
                            'f' => options.file = Some(text),
                            'H' => options.ustar = archive_format(&text)?,
                            'X' => options.exclude_files.push(text),
                            'C' => {
                                options.chdirs.push(text.clone());
                                options.directory = Some(text);
                            }
                            _ => options.files_from.push(text),
                        }
                        break;
                    }
                    other => return Err(format!("invalid option -- '{other}'")),
                }
            }
            continue;
        }
        options.members.push(arg);
        options.chdirs_before.push(options.chdirs.len());
    }
    if options.overwrite
        && let Some(keep) = options.keep_old
    {
        let other = match keep {
            KeepOld::Refuse => "--keep-old-files",
            KeepOld::Skip => "--skip-old-files",
        };
        return Err(format!("'--overwrite' cannot be used with '{other}'"));
    }
    Ok(options)
}

/// What the command line asks for; two different things are refused.
fn set_mode(options: &mut TarOptions, mode: char) -> Result<(), String> {
    if options.mode.is_some_and(|given| given != mode) {
        return Err(
            "You may not specify more than one '-Acdtrux', '--delete' or  '--test-label' option"
                .into(),
        );
    }
    options.mode = Some(mode);
    Ok(())
}
