//! `rg`: ripgrep's common surface over the VFS, on ripgrep's own crates.
//!
//! - `options`: the command line.
//! - `walk`: which files are searched (hidden names, ignore files, globs,
//!   types), with the `ignore` crate's matchers.
//! - `search`: matching, searching and printing with `grep-regex`,
//!   `grep-searcher` and `grep-printer`.
//!
//! As ripgrep does when its output is not a terminal: no colours, no
//! headings, no line numbers unless `-n`. With no path, it searches
//! standard input when that is a pipe or a file, else the working folder.
//! Files are searched in path order (ripgrep's `--sort path`).

mod options;
mod search;
mod walk;

use ignore::overrides::OverrideBuilder;
use ignore::types::TypesBuilder;

use goccia_interp::input::open_quiet;
use goccia_interp::interp::{ExecResult, ShellView};
use options::Mode;
use walk::{Filters, Subject};

/// What `rg --version` says.
const VERSION: &str = "ripgrep 13.0.0 (goccia: ripgrep's interface over the sandbox's files, on ripgrep's crates grep-regex, grep-searcher, grep-printer and ignore)\n";

const HELP: &str = "\
Usage: rg [OPTIONS] PATTERN [PATH ...]
       rg [OPTIONS] -e PATTERN ... [PATH ...]
       rg [OPTIONS] --files [PATH ...]
       rg --type-list

Recursive by default; hidden files and what .gitignore (inside a git
repository), .ignore and .rgignore name are skipped.
  -i -S -s          ignore case, smart case, case sensitive
  -F -w -x -v -U    fixed strings, words, whole lines, invert, multiline
  -e PAT -f FILE    patterns
  -n -N --column    line numbers, none, columns
  -c --count-matches -l --files-without-match -q --json
  -o -r TEXT        only the matches, replaced by TEXT
  -A N -B N -C N    context; -m N at most N matching lines per file
  -t TYPE -T TYPE   file types (--type-list); -g GLOB (! excludes), --iglob
  --files --hidden --no-ignore -u -uu -uuu --max-depth N -H -I --null -a
";

fn fail(shell: &mut ShellView, message: &str) -> ExecResult {
    Ok(shell.fail_command("rg", message, 2))
}

pub fn rg(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut options = match options::parse(args) {
        Ok(options) => options,
        Err(message) => return fail(shell, &message),
    };
    if options.version || options.help {
        let text = if options.version { VERSION } else { HELP };
        return match shell.write_stdout(text.as_bytes()) {
            Ok(()) => Ok(0),
            Err(error) => shell.io_status("rg", error),
        };
    }
    let mut types = TypesBuilder::new();
    types.add_defaults();
    for definition in &options.type_add {
        if let Err(error) = types.add_def(definition) {
            return fail(shell, &error.to_string());
        }
    }
    if options.mode == Mode::TypeList {
        return type_list(shell, &types);
    }
    for name in &options.types {
        types.select(name);
    }
    for name in &options.types_not {
        types.negate(name);
    }
    let types = match types.build() {
        Ok(types) => types,
        Err(error) => return fail(shell, &error.to_string()),
    };
    let cwd = shell.cwd().clone();
    let mut overrides = OverrideBuilder::new(cwd.as_str());
    for (glob, insensitive) in &options.globs {
        let added = overrides
            .case_insensitive(*insensitive)
            .and_then(|builder| builder.add(glob));
        if let Err(error) = added {
            return fail(shell, &error.to_string());
        }
    }
    let overrides = match overrides.build() {
        Ok(overrides) => overrides,
        Err(error) => return fail(shell, &error.to_string()),
    };
    let filters = Filters {
        hidden: options.hidden,
        no_ignore: options.no_ignore,
        no_ignore_vcs: options.no_ignore_vcs,
        types,
        overrides,
        max_depth: options.max_depth,
    };
    for file in std::mem::take(&mut options.pattern_files) {
        match open_quiet(shell, &file).and_then(|mut s| s.read_all().map_err(|_| "read error")) {
            Ok(data) => options
                .patterns
                .extend(String::from_utf8_lossy(&data).lines().map(str::to_string)),
            Err(reason) => return fail(shell, &format!("{file}: {reason}")),
        }
    }
    // With no path: stdin when something is piped or redirected in,
    // else the working folder (named without `./`).
    let implicit = options.paths.is_empty();
    let stdin = implicit && options.mode != Mode::Files && shell.fds().has_data_input(0);
    let mut subjects: Vec<Subject> = Vec::new();
    let mut errored = false;
    let mut searched_folder = false;
    if stdin {
        subjects.push(Subject {
            shown: "<stdin>".to_string(),
            path: None,
            explicit: true,
        });
    } else if implicit {
        searched_folder = true;
        walk::walk(shell, &filters, &cwd, "", &mut subjects);
    }
    for operand in &options.paths {
        if operand == "-" {
            subjects.push(Subject {
                shown: "<stdin>".to_string(),
                path: None,
                explicit: true,
            });
            continue;
        }
        let resolved = shell.cwd().resolve(operand).ok();
        let is_dir = resolved
            .as_ref()
            .is_some_and(|path| shell.context().vfs.lock().is_dir(path));
        let exists = resolved
            .as_ref()
            .is_some_and(|path| shell.context().vfs.lock().exists(path));
        match resolved {
            Some(path) if is_dir => {
                searched_folder = true;
                walk::walk(shell, &filters, &path, operand, &mut subjects);
            }
            Some(path) if exists => subjects.push(Subject {
                shown: operand.clone(),
                path: Some(path),
                explicit: true,
            }),
            _ => {
                // ripgrep 13's words for a path it cannot open.
                shell.write_stderr(
                    format!(
                        "{operand}: IO error for operation on {operand}: No such file or directory (os error 2)\n"
                    )
                    .as_bytes(),
                );
                errored = true;
            }
        }
    }
    if options.sort_reverse {
        subjects.reverse();
    }
    if options.mode == Mode::Files {
        let end = if options.null { '\0' } else { '\n' };
        let text: String = subjects
            .iter()
            .filter(|subject| subject.path.is_some())
            .map(|subject| format!("{}{end}", subject.shown))
            .collect();
        if let Err(error) = shell.write_stdout(text.as_bytes()) {
            return shell.io_status("rg", error);
        }
        return Ok(if errored {
            2
        } else if subjects.is_empty() {
            1
        } else {
            0
        });
    }
    let matcher = match search::matcher(&options, &options.patterns) {
        Ok(matcher) => matcher,
        // ripgrep prints the regex's own report, unprefixed.
        Err(message) => {
            shell.write_stderr(format!("{message}\n").as_bytes());
            return Ok(2);
        }
    };
    let show_path = options
        .with_filename
        .unwrap_or(searched_folder || options.paths.len() > 1);
    let outcome = match search::search_all(shell, &options, &matcher, &subjects, show_path) {
        Ok(outcome) => outcome,
        Err(error) => return shell.io_status("rg", error),
    };
    let errored = errored || outcome.errored;
    Ok(
        if outcome.matched && (options.mode == Mode::Quiet || !errored) {
            0
        } else if errored {
            2
        } else {
            1
        },
    )
}

/// `--type-list`: every type and its globs, by name.
fn type_list(shell: &mut ShellView, types: &TypesBuilder) -> ExecResult {
    let mut definitions = types.definitions();
    definitions.sort_by(|a, b| a.name().cmp(b.name()));
    let text: String = definitions
        .iter()
        .map(|definition| format!("{}: {}\n", definition.name(), definition.globs().join(", ")))
        .collect();
    match shell.write_stdout(text.as_bytes()) {
        Ok(()) => Ok(0),
        Err(error) => shell.io_status("rg", error),
    }
}
