//! `unzip`, as Info-ZIP's: extract (`-d` folder, `-j` without folders,
//! `-o` overwrite, `-n` never, otherwise the question read from stdin,
//! as unzip asks it when there is no terminal), `-l` and `-v` listings,
//! `-Z1` names, `-p` to stdout, `-t` test, `-q`/`-qq`, member patterns
//! and `-x` exclusions. Names climbing out with `..` or starting with `/`
//! lose those parts, with unzip's warnings. The extraction is one change:
//! refused whole if the write policy or the quota refuses any of it.

use super::zip::{Entry, ReadError, dos_time, read_archive};
use super::{Member, Refused, extract};
use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, ShellView};
use goccia_interp::pattern::Pattern;

#[derive(Default)]
struct Options {
    list: bool,
    verbose: bool,
    names_only: bool,
    pipe: bool,
    test: bool,
    overwrite: Option<bool>,
    quiet: u8,
    junk_paths: bool,
    nocase: bool,
    directory: Option<String>,
    archive: Option<String>,
    members: Vec<String>,
    excluded: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options::default();
    let mut i = 1;
    let mut excluding = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if let Some(flags) = arg.strip_prefix('-').filter(|f| !f.is_empty()) {
            if flags == "Z1" {
                options.names_only = true;
                continue;
            }
            let chars: Vec<char> = flags.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                match chars[j] {
                    'l' => options.list = true,
                    'v' => options.verbose = true,
                    'p' => options.pipe = true,
                    't' => options.test = true,
                    'o' => options.overwrite = Some(true),
                    'n' => options.overwrite = Some(false),
                    'q' => options.quiet += 1,
                    'j' => options.junk_paths = true,
                    'C' => options.nocase = true,
                    // Before the archive's name, unzip ignores `-x`.
                    'x' => excluding = options.archive.is_some(),
                    'a' | 'b' | 'D' | 'X' | 'K' | 'u' | 'f' | 'L' => {}
                    'd' => {
                        let rest: String = chars[j + 1..].iter().collect();
                        options.directory = Some(if rest.is_empty() {
                            let value = args.get(i).cloned().ok_or("-d needs a folder")?;
                            i += 1;
                            value
                        } else {
                            rest
                        });
                        j = chars.len();
                        continue;
                    }
                    other => return Err(format!("invalid option -- '{other}'")),
                }
                j += 1;
            }
            continue;
        }
        if options.archive.is_none() {
            options.archive = Some(arg.clone());
        } else if excluding {
            options.excluded.push(arg.clone());
        } else {
            options.members.push(arg.clone());
        }
    }
    Ok(options)
}

/// The archive's bytes, trying `NAME`, `NAME.zip` and `NAME.ZIP`.
fn open_archive(shell: &mut ShellView, name: &str) -> Option<Vec<u8>> {
    for candidate in [
        name.to_string(),
        format!("{name}.zip"),
        format!("{name}.ZIP"),
    ] {
        if let Ok(mut source) = open_quiet(shell, &candidate)
            && let Ok(bytes) = source.read_all()
        {
            return Some(bytes);
        }
    }
    None
}

fn show_time(seconds: i64) -> String {
    let time = dos_time(seconds);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}",
        time.year(),
        time.month(),
        time.day(),
        time.hour(),
        time.minute()
    )
}

fn files_word(count: usize) -> String {
    if count == 1 {
        "1 file".to_string()
    } else {
        format!("{count} files")
    }
}

pub fn unzip(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let options = match parse(args) {
        Ok(options) => options,
        Err(message) => return Ok(shell.fail_command("unzip", &message, 10)),
    };
    let Some(name) = options.archive.clone() else {
        let usage = "UnZip 6.00 (goccia). Usage: unzip [-Z] [-opts[modifiers]] file[.zip] [list] [-x xlist] [-d exdir]\n";
        return crate::args::print_text(shell, "unzip", usage, 0);
    };
    let Some(bytes) = open_archive(shell, &name) else {
        let message = format!(" cannot find or open {name}, {name}.zip or {name}.ZIP.");
        return Ok(shell.fail_command("unzip", &message, 9));
    };
    let limit = shell.context().limits.max_buffered_input;
    let entries = match read_archive(&bytes, limit) {
        Ok(entries) => entries,
        Err(ReadError::Invalid(message)) => {
            let message = format!(
                " cannot find zipfile directory in one of {name} or\n        {name}.zip, and cannot find {name}.ZIP, period. ({message})"
            );
            return Ok(shell.fail_command("unzip", &message, 9));
        }
        // unzip's status for running out of memory while inflating.
        Err(ReadError::TooLarge(message)) => return Ok(shell.fail_command("unzip", &message, 5)),
    };
    let pattern = |text: &str| Pattern::new(text, false).nocase(options.nocase);
    let members: Vec<Pattern> = options.members.iter().map(|m| pattern(m)).collect();
    let excluded: Vec<Pattern> = options.excluded.iter().map(|m| pattern(m)).collect();
    let mut matched = vec![false; members.len()];
    let selected: Vec<&Entry> = entries
        .iter()
        .filter(|entry| {
            let mut wanted = members.is_empty();
            for (index, member) in members.iter().enumerate() {
                if member.matches(&entry.name) {
                    matched[index] = true;
                    wanted = true;
                }
            }
            wanted && !excluded.iter().any(|p| p.matches(&entry.name))
        })
        .collect();
    let mut out = String::new();
    let mut status = 0;
    let quiet = options.quiet;
    if options.names_only {
        for entry in &selected {
            out.push_str(&format!("{}\n", entry.name));
        }
    } else if options.list || options.verbose {
        listing(&name, &selected, &options, &mut out);
    } else if options.pipe {
        let mut data = Vec::new();
        for entry in selected.iter().filter(|e| !e.is_dir) {
            data.extend_from_slice(&entry.data);
        }
        if let Err(error) = shell.write_stdout(&data) {
            return shell.io_status("unzip", error);
        }
    } else if options.test {
        if quiet == 0 {
            out.push_str(&format!("Archive:  {name}\n"));
            for entry in &selected {
                let padded = goccia_interp::pad::right_pad(&entry.name, 22, ' ');
                out.push_str(&format!("    testing: {padded}   OK\n"));
            }
        }
        if quiet < 2 {
            out.push_str(&format!(
                "No errors detected in compressed data of {name}.\n"
            ));
        }
    } else {
        match extract_all(shell, &name, &selected, &options, &mut out) {
            Ok(code) => status = code,
            Err(code) => {
                let _ = shell.write_stdout(out.as_bytes());
                return Ok(code);
            }
        }
    }
    if let Err(error) = shell.write_stdout(out.as_bytes()) {
        return shell.io_status("unzip", error);
    }
    for (index, hit) in matched.iter().enumerate() {
        if !hit {
            let message = format!(
                "caution: filename not matched:  {}\n",
                options.members[index]
            );
            shell.write_stderr(message.as_bytes());
            status = 11;
        }
    }
    Ok(status)
}

/// `-l` and `-v`.
fn listing(name: &str, entries: &[&Entry], options: &Options, out: &mut String) {
    let quiet = options.quiet;
    let total: u64 = entries.iter().map(|e| e.data.len() as u64).sum();
    if quiet == 0 {
        out.push_str(&format!("Archive:  {name}\n"));
    }
    if options.verbose {
        let sizes: Vec<u64> = entries.iter().map(|e| e.packed).collect();
        if quiet < 2 {
            out.push_str(" Length   Method    Size  Cmpr    Date    Time   CRC-32   Name\n");
            out.push_str("--------  ------  ------- ---- ---------- ----- --------  ----\n");
        }
        for (entry, size) in entries.iter().zip(&sizes) {
            let length = entry.data.len() as u64;
            let method = if entry.deflated { "Defl:N" } else { "Stored" };
            let size = *size;
            let crc = entry.crc;
            out.push_str(&format!(
                "{length:>8}  {method}  {size:>7} {:>3}% {} {crc:08x}  {}\n",
                super::zip::percent(length, size),
                show_time(entry.mtime),
                entry.name
            ));
        }
        if quiet < 2 {
            let packed: u64 = sizes.iter().sum();
            out.push_str("--------          -------  ---                            -------\n");
            out.push_str(&format!(
                "{total:>8}         {packed:>8} {:>3}%                            {}\n",
                super::zip::percent(total, packed),
                files_word(entries.len())
            ));
        }
        return;
    }
    if quiet < 2 {
        out.push_str("  Length      Date    Time    Name\n");
        out.push_str("---------  ---------- -----   ----\n");
    }
    for entry in entries {
        out.push_str(&format!(
            "{:>9}  {}   {}\n",
            entry.data.len(),
            show_time(entry.mtime),
            entry.name
        ));
    }
    if quiet < 2 {
        out.push_str("---------                     -------\n");
        out.push_str(&format!(
            "{total:>9}                     {}\n",
            files_word(entries.len())
        ));
    }
}

/// The path below the extraction folder: `..` parts and a leading `/`
/// dropped (with unzip's warning), or only the last name with `-j`.
fn extraction_path(shell: &mut ShellView, name: &str, junk: bool) -> Option<String> {
    if name.starts_with('/') {
        let warning = format!("warning:  stripped absolute path spec from {name}\n");
        shell.write_stderr(warning.as_bytes());
    }
    let parts: Vec<&str> = name
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.contains(&"..") {
        let warning = format!("warning:  skipped \"../\" path component(s) in {name}\n");
        shell.write_stderr(warning.as_bytes());
    }
    let kept: Vec<&str> = parts.into_iter().filter(|p| *p != "..").collect();
    if junk {
        return kept.last().map(|s| s.to_string());
    }
    (!kept.is_empty()).then(|| kept.join("/"))
}

/// Extracts the members; the status (1 when the question found no answer).
fn extract_all(
    shell: &mut ShellView,
    name: &str,
    entries: &[&Entry],
    options: &Options,
    out: &mut String,
) -> Result<i32, i32> {
    let quiet = options.quiet > 0;
    if !quiet {
        out.push_str(&format!("Archive:  {name}\n"));
    }
    let base = match shell
        .cwd()
        .resolve(options.directory.as_deref().unwrap_or("."))
    {
        Ok(base) => base,
        Err(_) => return Err(shell.fail_command("unzip", "cannot create extraction directory", 3)),
    };
    let vfs = shell.context().vfs.clone();
    let mut members = Vec::new();
    // The answer that applies to every later question (`A` or `N`).
    let mut for_all: Option<bool> = options.overwrite;
    let mut status = 0;
    for entry in entries {
        shell.check_watch().map_err(|_| 1)?;
        if options.junk_paths && entry.is_dir {
            continue;
        }
        let Some(relative) = extraction_path(shell, &entry.name, options.junk_paths) else {
            continue;
        };
        let target = base.resolve(&relative).ok();
        let exists = target.as_ref().is_some_and(|t| vfs.lock().lstat(t).is_ok());
        if entry.is_dir {
            if !exists && !quiet {
                out.push_str(&format!("   creating: {}/\n", relative));
            }
        } else {
            if exists {
                let replace = match for_all {
                    Some(answer) => answer,
                    None => match ask(shell, &relative) {
                        Answer::Yes => true,
                        Answer::No => false,
                        Answer::All => {
                            for_all = Some(true);
                            true
                        }
                        Answer::None => {
                            for_all = Some(false);
                            false
                        }
                        Answer::Eof => {
                            status = 1;
                            for_all = Some(false);
                            false
                        }
                    },
                };
                if !replace {
                    continue;
                }
            }
            if !quiet {
                let verb = if entry.deflated {
                    "  inflating"
                } else {
                    " extracting"
                };
                let padded = goccia_interp::pad::right_pad(&relative, 22, ' ');
                out.push_str(&format!("{verb}: {padded}  \n"));
            }
        }
        members.push(Member {
            relative,
            is_dir: entry.is_dir,
            link: entry
                .link
                .then(|| String::from_utf8_lossy(&entry.data).into_owned()),
            hard_link: None,
            data: entry.data.clone(),
            mode: if entry.mode == 0 { 0o644 } else { entry.mode },
        });
    }
    let extracted = vfs.lock().all_or_nothing(|vfs| {
        if let Some(missing) = vfs.mkdir_all(&base).err() {
            return Err(Refused::Fs(".".to_string(), missing));
        }
        // A zip has no hard links: every member is written or refused.
        members
            .into_iter()
            .try_for_each(|member| extract(vfs, &base, member).map(drop))
    });
    match extracted {
        Ok(()) => Ok(status),
        Err(Refused::Path(message)) => Err(shell.fail_command("unzip", &message, 50)),
        Err(Refused::Fs(relative, error)) => Err(shell.fail_fs(
            "unzip",
            &relative,
            &error,
            |reason| format!("cannot create {relative}: {reason}"),
            50,
        )),
    }
}

enum Answer {
    Yes,
    No,
    All,
    None,
    Eof,
}

/// unzip's question about an existing file, answered from stdin (what
/// unzip reads when there is no terminal).
fn ask(shell: &mut ShellView, name: &str) -> Answer {
    let question = format!("replace {name}? [y]es, [n]o, [A]ll, [N]one, [r]ename: ");
    shell.write_stderr(question.as_bytes());
    let Some(line) = goccia_interp::input::answer_line(shell) else {
        shell.write_stderr(b" NULL\n(EOF or read error, treating as \"[N]one\" ...)\n");
        return Answer::Eof;
    };
    match line.first() {
        Some(b'y') | Some(b'Y') => Answer::Yes,
        Some(b'A') => Answer::All,
        Some(b'N') => Answer::None,
        _ => Answer::No,
    }
}
