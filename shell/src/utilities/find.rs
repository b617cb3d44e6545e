//! `find`: walks the VFS (sorted by name; the VFS has no readdir order)
//! and evaluates an expression of tests and actions per entry.

use goccia_vfs::{Node, NodeType, VfsPath};

use crate::interp::{ExecResult, Flow, Shell};
use crate::pattern::Pattern;

#[derive(Clone, Debug)]
enum Expr {
    True,
    False,
    Name(String, bool),
    Path(String, bool),
    Regex(regex::Regex),
    Type(char),
    Size(i8, u64, u64),
    Empty,
    Newer(i64),
    Mtime(i8, i64, i64),
    Perm(u32, Option<char>),
    Executable,
    Print(bool),
    Printf(String),
    Exec { command: Vec<String>, batch: bool },
    Delete,
    Prune,
    Quit,
    Not(Box<Expr>),
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
}

struct Options {
    max_depth: usize,
    min_depth: usize,
    depth_first: bool,
    follow: Follow,
}

/// Which symbolic links `find` follows: none (`-P`, the default), the
/// starting points only (`-H`), or all of them (`-L`, `-follow`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Follow {
    Never,
    Starts,
    Always,
}

struct Parser<'a> {
    args: &'a [String],
    pos: usize,
    has_action: bool,
    options: Options,
    /// Modification time (ns) of a `-newer` reference file, resolved against the VFS.
    mtime_of: &'a dyn Fn(&str) -> Option<i64>,
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

    fn or(&mut self) -> Result<Expr, String> {
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
                let translated = format!("^(?:{})$", crate::regex_compat::ere_to_rust(&text));
                Expr::Regex(
                    regex::RegexBuilder::new(&translated)
                        .case_insensitive(token == "-iregex")
                        .build()
                        .map_err(|e| e.to_string())?,
                )
            }
            "-type" => {
                let kind = self.value("-type")?;
                Expr::Type(kind.chars().next().unwrap_or('f'))
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
            "-newer" => {
                let file = self.value("-newer")?;
                Expr::Newer(self.reference_time(&file)?)
            }
            "-mtime" | "-mmin" => {
                let text = self.value(&token)?;
                let (sign, rest) = compare_prefix(&text);
                let n: i64 = rest
                    .parse()
                    .map_err(|_| format!("invalid argument `{text}' to `{token}'"))?;
                Expr::Mtime(sign, n, if token == "-mtime" { 86400 } else { 60 })
            }
            "-perm" => {
                let text = self.value("-perm")?;
                let (mode_text, kind) = match text.chars().next() {
                    Some(c @ ('-' | '/')) => (&text[1..], Some(c)),
                    _ => (text.as_str(), None),
                };
                let mode = crate::utilities::files::info::parse_mode(mode_text, 0, false)
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
                Expr::Print(token == "-print0")
            }
            "-printf" => {
                self.has_action = true;
                Expr::Printf(self.value("-printf")?)
            }
            "-ls" => {
                self.pos += 1;
                self.has_action = true;
                Expr::Printf("%M %s %p\n".to_string())
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
                    if word == "+" && command.last().map(String::as_str) == Some("{}") {
                        batch = true;
                        break;
                    }
                    command.push(word);
                }
                if command.is_empty() {
                    return Err(format!("missing argument to `{token}'"));
                }
                Expr::Exec { command, batch }
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
        (self.mtime_of)(file).ok_or_else(|| format!("'{file}': No such file or directory"))
    }
}

/// One entry being visited.
struct Visit<'a> {
    shown: String,
    path: VfsPath,
    node: &'a Node,
    depth: usize,
    start: &'a str,
}

struct Run<'a> {
    shell: &'a mut Shell,
    out: Vec<u8>,
    status: i32,
    quit: bool,
    batches: Vec<(Vec<String>, Vec<String>)>,
    /// The clock `-printf`'s times are shown on (`TZ`).
    zone: crate::time::Zone,
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
            Expr::Type(kind) => match kind {
                'f' => visit.node.node_type() == NodeType::File,
                'd' => visit.node.node_type() == NodeType::Directory,
                'l' => visit.node.node_type() == NodeType::Symlink,
                _ => false,
            },
            Expr::Size(sign, count, unit) => {
                let size = crate::utilities::files::list::node_size(visit.node);
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
                let now = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_secs() as i64)
                    .unwrap_or(0);
                let age =
                    (now - visit.node.meta().mtime_ns.div_euclid(1_000_000_000)).max(0) / unit;
                match sign {
                    1 => age > *n,
                    -1 => age < *n,
                    _ => age == *n,
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
            Expr::Print(null) => {
                self.out.extend_from_slice(visit.shown.as_bytes());
                self.out.push(if *null { 0 } else { b'\n' });
                true
            }
            Expr::Printf(format) => {
                let text = printf(format, visit, &self.zone);
                self.out.extend_from_slice(text.as_bytes());
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
                        |reason| format!("cannot delete '{shown}': {reason}"),
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
            Expr::Exec { command, batch } => {
                if *batch {
                    let key = command.clone();
                    match self.batches.iter_mut().find(|(c, _)| *c == key) {
                        Some((_, items)) => items.push(visit.shown.clone()),
                        None => self.batches.push((key, vec![visit.shown.clone()])),
                    }
                    true
                } else {
                    let words: Vec<String> = command
                        .iter()
                        .map(|w| w.replace("{}", &visit.shown))
                        .collect();
                    self.flush()?;
                    self.exec(&words)? == 0
                }
            }
            Expr::Not(inner) => !self.eval(inner, visit, prune)?,
            Expr::And(a, b) => self.eval(a, visit, prune)? && self.eval(b, visit, prune)?,
            Expr::Or(a, b) => self.eval(a, visit, prune)? || self.eval(b, visit, prune)?,
        })
    }

    fn exec(&mut self, words: &[String]) -> Result<i32, Flow> {
        let mut child = self.shell.child_process();
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

fn printf(format: &str, visit: &Visit<'_>, zone: &crate::time::Zone) -> String {
    let (format, _) = crate::escape::printf_format(format);
    let mut out = String::new();
    let mut chars = format.chars();
    let name = if visit.depth == 0 {
        visit
            .shown
            .rsplit('/')
            .find(|s| !s.is_empty())
            .unwrap_or(&visit.shown)
            .to_string()
    } else {
        visit.path.file_name().unwrap_or("/").to_string()
    };
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('p') => out.push_str(&visit.shown),
            Some('f') => out.push_str(&name),
            Some('h') => out.push_str(&crate::utilities::files::names::dir_name(&visit.shown)),
            Some('P') => out.push_str(
                visit
                    .shown
                    .strip_prefix(visit.start)
                    .unwrap_or(&visit.shown)
                    .trim_start_matches('/'),
            ),
            Some('s') => {
                out.push_str(&crate::utilities::files::list::node_size(visit.node).to_string())
            }
            Some('l') => {
                if let Node::Link(link) = visit.node {
                    out.push_str(link.target());
                }
            }
            Some('d') => out.push_str(&visit.depth.to_string()),
            Some('y') => out.push(match visit.node.node_type() {
                NodeType::Directory => 'd',
                NodeType::Symlink => 'l',
                NodeType::File => 'f',
            }),
            Some('m') => out.push_str(&format!("{:o}", visit.node.meta().mode)),
            Some('M') => out.push_str(&crate::utilities::files::list::mode_string(visit.node)),
            // GNU find shows ten digits of the second: the nanoseconds
            // and a zero.
            Some('t') => out.push_str(&crate::time::strftime(
                "%a %b %e %H:%M:%S.%N0 %Y",
                crate::time::at(
                    visit.node.meta().mtime_ns.div_euclid(1_000_000_000),
                    visit.node.meta().mtime_ns.rem_euclid(1_000_000_000) as u32,
                ),
                zone,
            )),
            Some('T') => {
                if chars.next() == Some('s') {
                    out.push_str(
                        &visit
                            .node
                            .meta()
                            .mtime_ns
                            .div_euclid(1_000_000_000)
                            .to_string(),
                    );
                }
            }
            Some('u') | Some('g') => out.push_str("user"),
            Some('%') => out.push('%'),
            Some(other) => {
                out.push('%');
                out.push(other);
            }
            None => out.push('%'),
        }
    }
    out
}

pub fn find(shell: &mut Shell, args: &[String]) -> ExecResult {
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
    let mut parser = Parser {
        args: &args[index..],
        pos: 0,
        has_action: false,
        mtime_of: &mtime_of,
        options: Options {
            max_depth: usize::MAX,
            min_depth: 0,
            depth_first: false,
            follow,
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
        Expr::And(Box::new(expr), Box::new(Expr::Print(false)))
    };
    let options = parser.options;
    let zone = shell.time_zone();
    let mut run = Run {
        shell,
        out: Vec::new(),
        status: 0,
        quit: false,
        batches: Vec::new(),
        zone,
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
            run.status =
                run.shell
                    .fail_command("find", &format!("'{start}': No such file or directory"), 1);
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
    for (command, items) in std::mem::take(&mut run.batches) {
        let mut words = Vec::new();
        for word in command {
            if word == "{}" {
                words.extend(items.iter().cloned());
            } else {
                words.push(word);
            }
        }
        run.flush()?;
        if run.exec(&words)? != 0 {
            run.status = 1;
        }
    }
    run.flush()?;
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
            run.status =
                run.shell
                    .fail_command("find", &format!("'{shown}': No such file or directory"), 1);
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
                                    "find: File system loop detected; '{child_shown}' is part of the same file system loop as '{}'.\n",
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
