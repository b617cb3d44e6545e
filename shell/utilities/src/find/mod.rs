//! `find`: walks the VFS (sorted by name; the VFS has no readdir order)
//! and evaluates an expression of tests and actions per entry. Actions
//! write to stdout or to the files `-fprint` and its kin name; commands
//! run from the working directory (`-exec`) or the entry's folder
//! (`-execdir`), after a yes to a prompt for `-ok` and `-okdir`.

mod parse;
mod printf;

use goccia_vfs::{Node, NodeType, VfsPath};

use goccia_interp::interp::{ExecResult, Flow, ShellView};
use goccia_interp::pattern::Pattern;
use parse::{Expr, Follow, Options, Parser, RegexType};
use std::io::Write;

use crate::output::OpenError;

/// One entry being visited.
struct Visit<'a> {
    shown: String,
    path: VfsPath,
    node: &'a Node,
    depth: usize,
    start: &'a str,
}

/// Commands of `-exec … {} +` and `-execdir … {} +` waiting for more
/// entries: the command, the folder it runs in (`-execdir`), the entries.
type Batch = (Vec<String>, Option<VfsPath>, Vec<String>);

struct Run<'a> {
    shell: &'a mut ShellView,
    out: Vec<u8>,
    /// What `-fprint` and its kin wrote to each of the expression's files.
    files: Vec<Vec<u8>>,
    status: i32,
    quit: bool,
    batches: Vec<Batch>,
    ls_widths: printf::LsWidths,
    /// The clock `-printf`'s times are shown on (`TZ`).
    zone: goccia_interp::time::Zone,
    /// What ages (`-mtime`, `-mmin`) count from, in seconds: now, or with
    /// `-daystart` the start of tomorrow.
    now: i64,
}

impl Run<'_> {
    fn eval(&mut self, expr: &Expr, visit: &Visit<'_>, prune: &mut bool) -> Result<bool, Flow> {
        Ok(match expr {
            Expr::True => true,
            Expr::False => false,
            Expr::Name(pattern, nocase) => {
                let name = visit.path.file_name().unwrap_or("/");
                let name = if visit.depth == 0 {
                    visit
                        .shown
                        .rsplit('/')
                        .find(|s| !s.is_empty())
                        .unwrap_or(&visit.shown)
                } else {
                    name
                };
                Pattern::new(pattern, true).nocase(*nocase).matches(name)
            }
            Expr::Path(pattern, nocase) => Pattern::new(pattern, true)
                .nocase(*nocase)
                .matches(&visit.shown),
            Expr::Regex(regex) => regex.is_match(&visit.shown),
            Expr::Type(letters, of_target) => {
                let node_type = if *of_target {
                    self.target_type(visit)
                } else {
                    visit.node.node_type()
                };
                letters.iter().any(|letter| match letter {
                    'f' => node_type == NodeType::File,
                    'd' => node_type == NodeType::Directory,
                    'l' => node_type == NodeType::Symlink,
                    // The VFS holds no devices, pipes, sockets or doors.
                    _ => false,
                })
            }
            Expr::LinkName(pattern, nocase) => match visit.node {
                Node::Link(link) => Pattern::new(pattern, true)
                    .nocase(*nocase)
                    .matches(link.target()),
                _ => false,
            },
            Expr::SameFile(place, follow) => {
                let vfs = self.shell.context().vfs.lock();
                vfs.resolve(&visit.path, *follow)
                    .is_ok_and(|here| here == *place)
            }
            Expr::Size(sign, count, unit) => {
                let size = crate::files::list::node_size(visit.node);
                let units = size.div_ceil(*unit);
                match sign {
                    1 => units > *count,
                    -1 => units < *count,
                    _ => units == *count,
                }
            }
            Expr::Empty => match visit.node {
                Node::File(file) => file.is_empty(),
                Node::Dir(dir) => dir.is_empty(),
                Node::Link(_) => false,
            },
            Expr::Newer(reference) => visit.node.meta().mtime_ns > *reference,
            Expr::Mtime(sign, n, unit) => {
                let now = self.now;
                let age =
                    (now - visit.node.meta().mtime_ns.div_euclid(1_000_000_000)).max(0) / unit;
                match sign {
                    1 => age > *n,
                    -1 => age < *n,
                    _ => age == *n,
                }
            }
            Expr::Links(sign, n) => {
                let links = crate::files::list::link_count(visit.node);
                match sign {
                    1 => links > *n,
                    -1 => links < *n,
                    _ => links == *n,
                }
            }
            Expr::Perm(mode, kind) => {
                let actual = visit.node.meta().mode & 0o7777;
                match kind {
                    Some('-') => actual & mode == *mode,
                    Some(_) => *mode == 0 || actual & mode != 0,
                    None => actual == *mode,
                }
            }
            Expr::Executable => visit.node.meta().mode & 0o111 != 0,
            Expr::Print(null, sink) => {
                let out = self.sink(*sink);
                out.extend_from_slice(visit.shown.as_bytes());
                out.push(if *null { 0 } else { b'\n' });
                true
            }
            Expr::Printf(format, sink) => {
                let text = format.render(visit, &self.zone);
                self.sink(*sink).extend_from_slice(text.as_bytes());
                true
            }
            Expr::Ls(sink) => {
                let line = printf::ls_line(visit, &self.zone, self.now, &mut self.ls_widths);
                self.sink(*sink).extend_from_slice(line.as_bytes());
                true
            }
            Expr::Delete => {
                let result = self.shell.context().vfs.lock().remove_all(&visit.path);
                if let Err(error) = result {
                    let shown = &visit.shown;
                    self.status = self.shell.fail_fs(
                        "find",
                        shown,
                        &error,
                        |reason| format!("cannot delete \u{2018}{shown}\u{2019}: {reason}"),
                        1,
                    );
                }
                true
            }
            Expr::Prune => {
                *prune = true;
                true
            }
            Expr::Quit => {
                self.quit = true;
                true
            }
            Expr::Exec {
                command,
                batch,
                in_dir,
                ask,
            } => {
                // `-execdir` runs in the entry's folder and names it `./NAME`.
                let (dir, name) = if *in_dir {
                    let dir = visit.path.parent().unwrap_or_else(|| visit.path.clone());
                    (Some(dir), format!("./{}", printf::file_name(visit)))
                } else {
                    (None, visit.shown.clone())
                };
                if *batch {
                    match self
                        .batches
                        .iter_mut()
                        .find(|(c, d, _)| c == command && *d == dir)
                    {
                        Some((_, _, items)) => items.push(name),
                        None => self.batches.push((command.clone(), dir, vec![name])),
                    }
                    true
                } else {
                    let words: Vec<String> =
                        command.iter().map(|w| w.replace("{}", &name)).collect();
                    self.flush()?;
                    if *ask && !self.confirm(&words[0], &visit.shown) {
                        return Ok(false);
                    }
                    self.exec(&words, dir)? == 0
                }
            }
            Expr::Not(inner) => !self.eval(inner, visit, prune)?,
            Expr::And(a, b) => self.eval(a, visit, prune)? && self.eval(b, visit, prune)?,
            Expr::Or(a, b) => self.eval(a, visit, prune)? || self.eval(b, visit, prune)?,
        })
    }

    /// Where an action writes: stdout's buffer or a file's.
    fn sink(&mut self, sink: parse::Sink) -> &mut Vec<u8> {
        match sink {
            Some(index) => &mut self.files[index],
            None => &mut self.out,
        }
    }

    /// The type of what a link points at (`-xtype`); a dangling link's own.
    fn target_type(&self, visit: &Visit<'_>) -> NodeType {
        match visit.node {
            Node::Link(_) => {
                let vfs = self.shell.context().vfs.lock();
                vfs.lookup(&visit.path)
                    .map_or(NodeType::Symlink, |node| node.node_type())
            }
            node => node.node_type(),
        }
    }

    /// `-ok`'s question on stderr, GNU's words; yes when the line read
    /// from stdin starts with `y` or `Y` (no line is no).
    fn confirm(&mut self, command: &str, name: &str) -> bool {
        self.shell
            .write_stderr(format!("< {command} ... {name} > ? ").as_bytes());
        goccia_interp::input::answer_line(self.shell)
            .is_some_and(|line| goccia_interp::input::is_yes(&line))
    }

    fn exec(&mut self, words: &[String], dir: Option<VfsPath>) -> Result<i32, Flow> {
        let mut child = self.shell.child_process();
        if let Some(dir) = dir {
            // GNU's child starts in the folder; a shell there sets `$PWD`.
            let _ = child.export("PWD", dir.as_str());
            child.set_cwd(dir);
        }
        match child.dispatch_command(words) {
            Ok(status) => Ok(status),
            Err(Flow::Exit(status))
            | Err(Flow::Return(status))
            | Err(Flow::Abandon(status))
            | Err(Flow::Discard(status)) => Ok(status),
            Err(other) => Err(other),
        }
    }

    /// Writes what was printed so far (before running a command).
    fn flush(&mut self) -> Result<(), Flow> {
        if self.out.is_empty() {
            return Ok(());
        }
        let data = std::mem::take(&mut self.out);
        if let Err(error) = self.shell.write_stdout(&data) {
            return match self.shell.io_status("find", error) {
                Ok(_) => Ok(()),
                Err(flow) => Err(flow),
            };
        }
        Ok(())
    }
}

pub fn find(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let mut starts = Vec::new();
    let mut index = 1;
    // `-H`, `-L`, `-P` come before the starting points; the last wins.
    let mut follow = Follow::Never;
    while let Some(arg) = args.get(index) {
        follow = match arg.as_str() {
            "-H" => Follow::Starts,
            "-L" => Follow::Always,
            "-P" => Follow::Never,
            _ => break,
        };
        index += 1;
    }
    while let Some(arg) = args.get(index) {
        if arg.starts_with('-') && arg.len() > 1 || arg == "(" || arg == "!" {
            break;
        }
        starts.push(arg.clone());
        index += 1;
    }
    if starts.is_empty() {
        starts.push(".".to_string());
    }
    let mtime_of = |file: &str| {
        let path = shell.cwd().resolve(file).ok()?;
        let stat = shell.context().vfs.lock().stat(&path).ok()?;
        Some(stat.mtime_ns)
    };
    let zone = shell.time_zone();
    let date_of = |text: &str| goccia_interp::time::parse_date(text, &zone);
    let place_of = |file: &str, follow: bool| {
        let path = shell.cwd().resolve(file).ok()?;
        let vfs = shell.context().vfs.lock();
        vfs.lookup_link(&path).ok()?;
        vfs.resolve(&path, follow).ok()
    };
    let mut parser = Parser {
        args: &args[index..],
        files: Vec::new(),
        place_of: &place_of,
        pos: 0,
        has_action: false,
        mtime_of: &mtime_of,
        date_of: &date_of,
        regex_type: RegexType::default(),
        options: Options {
            max_depth: usize::MAX,
            min_depth: 0,
            depth_first: false,
            follow,
            day_start: false,
        },
    };
    let expr = if parser.args.is_empty() {
        Expr::True
    } else {
        match parser.or() {
            Ok(expr) if parser.pos >= parser.args.len() => expr,
            Ok(_) => {
                return Ok(shell.fail_command(
                    "find",
                    &format!(
                        "paths must precede expression: `{}'",
                        parser.args[parser.pos]
                    ),
                    1,
                ));
            }
            Err(message) => return Ok(shell.fail_command("find", &message, 1)),
        }
    };
    let expr = if parser.has_action {
        expr
    } else {
        Expr::And(Box::new(expr), Box::new(Expr::Print(false, None)))
    };
    let options = parser.options;
    // GNU opens (and empties) the files actions write before the walk.
    let mut sinks = Vec::new();
    for file in &parser.files {
        match crate::output::open_sink(shell, file, false) {
            Ok(sink) => sinks.push(sink),
            Err(error) => {
                let reason = match error {
                    OpenError::Fs(error) => shell.fs_reason("find", &error),
                    OpenError::BadDescriptor => "No such file or directory".to_string(),
                    OpenError::Invalid(reason) => reason.to_string(),
                };
                let message = format!("\u{2018}{file}\u{2019}: {reason}");
                return Ok(shell.fail_command("find", &message, 1));
            }
        }
    }
    // GNU warns of a directive it does not know once, before the walk.
    let mut warned = Vec::new();
    for format in printf_formats(&expr) {
        for directive in format.unknown_directives() {
            if !warned.contains(&directive) {
                shell.write_stderr(
                    format!("find: warning: unrecognized format directive `{directive}'\n")
                        .as_bytes(),
                );
                warned.push(directive);
            }
        }
    }
    let now = goccia_interp::time::now().timestamp();
    let now = if options.day_start {
        start_of_tomorrow(now, &zone)
    } else {
        now
    };
    let mut run = Run {
        shell,
        out: Vec::new(),
        files: vec![Vec::new(); sinks.len()],
        ls_widths: printf::LsWidths::default(),
        status: 0,
        quit: false,
        batches: Vec::new(),
        zone,
        now,
    };
    for start in &starts {
        // An empty operand names nothing (GNU find), never the working
        // directory: `find "$unset" -delete` must not walk `.`.
        let resolved = if start.is_empty() {
            None
        } else {
            run.shell.cwd().resolve(start).ok()
        };
        let node = resolved.as_ref().and_then(|p| {
            let vfs = run.shell.context().vfs.lock();
            let node = vfs.lookup_link(p).ok()?;
            match (&node, options.follow) {
                // A dangling link stays what it is.
                (Node::Link(_), Follow::Starts | Follow::Always) => {
                    vfs.lookup(p).ok().or(Some(node))
                }
                _ => Some(node),
            }
        });
        let (Some(path), Some(node)) = (resolved, node) else {
            run.status = run.shell.fail_command(
                "find",
                &format!("\u{2018}{start}\u{2019}: No such file or directory"),
                1,
            );
            continue;
        };
        walk(
            &mut run,
            &expr,
            &options,
            start.clone(),
            path,
            &node,
            0,
            start,
        )?;
        if run.quit {
            break;
        }
    }
    for (command, dir, items) in std::mem::take(&mut run.batches) {
        let mut words = Vec::new();
        for word in command {
            if word == "{}" {
                words.extend(items.iter().cloned());
            } else {
                words.push(word);
            }
        }
        run.flush()?;
        if run.exec(&words, dir)? != 0 {
            run.status = 1;
        }
    }
    run.flush()?;
    for (mut sink, data) in sinks.into_iter().zip(std::mem::take(&mut run.files)) {
        if let Err(error) = sink.write_all(&data).and_then(|()| sink.flush()) {
            run.status = run.shell.io_status("find", error)?;
        }
    }
    Ok(run.status)
}

#[allow(clippy::too_many_arguments)]
fn walk(
    run: &mut Run<'_>,
    expr: &Expr,
    options: &Options,
    shown: String,
    path: VfsPath,
    node: &Node,
    depth: usize,
    start: &str,
) -> Result<(), Flow> {
    if depth.is_multiple_of(64) {
        run.shell.check_watch()?;
    }
    let visit = Visit {
        shown: shown.clone(),
        path: path.clone(),
        node,
        depth,
        start,
    };
    let mut prune = false;
    if !options.depth_first && depth >= options.min_depth {
        run.eval(expr, &visit, &mut prune)?;
    }
    if run.quit {
        return Ok(());
    }
    if let Node::Dir(_) = node
        && depth < options.max_depth
        && !prune
    {
        // The folder is read when find descends into it, after its own
        // actions ran, as GNU find reads it: an `-exec rm -rf {} \;` that
        // removed it makes it an error, never a walk of what it held.
        let current = {
            let vfs = run.shell.context().vfs.lock();
            match node {
                Node::Dir(_) if !matches!(vfs.lookup_link(&path), Ok(Node::Link(_))) => {
                    vfs.lookup_link(&path).ok()
                }
                _ => vfs.lookup(&path).ok(),
            }
        };
        let Some(Node::Dir(dir)) = current else {
            run.status = run.shell.fail_command(
                "find",
                &format!("\u{2018}{shown}\u{2019}: No such file or directory"),
                1,
            );
            return Ok(());
        };
        for (name, child) in dir.iter() {
            let child_shown = if shown.ends_with('/') {
                format!("{shown}{name}")
            } else {
                format!("{shown}/{name}")
            };
            let child_path = path.join(name);
            // With -L a link is what it points at (a dangling one stays a
            // link); a folder already on the way is a loop, not descended.
            let followed = match child {
                Node::Link(_) if options.follow == Follow::Always => {
                    let vfs = run.shell.context().vfs.lock();
                    match (vfs.lookup(&child_path), vfs.resolve(&child_path, true)) {
                        (Ok(target @ Node::Dir(_)), Ok(real))
                            if vfs
                                .resolve(&path, true)
                                .is_ok_and(|here| here.starts_with(&real)) =>
                        {
                            drop(vfs);
                            run.shell.write_stderr(
                                format!(
                                    "find: File system loop detected; \u{2018}{child_shown}\u{2019} is part of the same file system loop as \u{2018}{}\u{2019}.\n",
                                    start
                                )
                                .as_bytes(),
                            );
                            run.status = 1;
                            let _ = target;
                            continue;
                        }
                        (Ok(target), _) => Some(target),
                        (Err(_), _) => None,
                    }
                }
                _ => None,
            };
            walk(
                run,
                expr,
                options,
                child_shown,
                child_path,
                followed.as_ref().unwrap_or(child),
                depth + 1,
                start,
            )?;
            if run.quit {
                return Ok(());
            }
        }
    }
    if options.depth_first && depth >= options.min_depth {
        run.eval(expr, &visit, &mut prune)?;
    }
    Ok(())
}

/// The `-printf` formats of `expr`, in order.
fn printf_formats(expr: &Expr) -> Vec<&printf::Format> {
    match expr {
        Expr::Printf(format, _) => vec![format],
        Expr::Not(inner) => printf_formats(inner),
        Expr::And(a, b) | Expr::Or(a, b) => {
            let mut formats = printf_formats(a);
            formats.extend(printf_formats(b));
            formats
        }
        _ => Vec::new(),
    }
}

/// Local midnight after `now` (GNU find's `-daystart` reference).
fn start_of_tomorrow(now: i64, zone: &goccia_interp::time::Zone) -> i64 {
    let today = goccia_interp::time::strftime_at("%Y-%m-%d", now, zone);
    goccia_interp::time::parse_date(&today, zone).map_or(now, |midnight| midnight + 86_400)
}
