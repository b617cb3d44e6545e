//! The tests shared by `test`/`[` and `[[ ]]`: file tests over the VFS,
//! string and integer comparisons, and `test`'s argument grammar.

use goccia_vfs::{Node, VfsPath};

use super::Shell;

pub(crate) fn lookup(shell: &Shell, path: &str) -> Option<Node> {
    if path.is_empty() {
        return None;
    }
    let resolved: VfsPath = shell.cwd.resolve(path).ok()?;
    shell.ctx.vfs.lock().lookup(&resolved).ok()
}

/// The node at `path` itself, a link not followed (`-h`, `-L`).
fn lookup_link(shell: &Shell, path: &str) -> Option<Node> {
    if path.is_empty() {
        return None;
    }
    let resolved: VfsPath = shell.cwd.resolve(path).ok()?;
    shell.ctx.vfs.lock().lookup_link(&resolved).ok()
}

/// Whether `path` exists with any of the mode bits of `mask` set.
fn has_mode_bit(shell: &Shell, path: &str, mask: u32) -> bool {
    lookup(shell, path).is_some_and(|node| node.meta().mode & mask != 0)
}

/// The character devices the shell provides without a VFS node.
pub fn is_device(path: &str) -> bool {
    matches!(
        path,
        "/dev/null"
            | "/dev/zero"
            | "/dev/stdin"
            | "/dev/stdout"
            | "/dev/stderr"
            | "/dev/urandom"
            | "/dev/random"
            | "/dev/tty"
    )
}

/// The descriptor `/dev/fd/N` names, if open.
fn open_descriptor<'a>(shell: &'a Shell, path: &str) -> Option<&'a crate::io::Fd> {
    let fd = path.strip_prefix("/dev/fd/")?.parse::<usize>().ok()?;
    shell.fds.get(fd)
}

/// The descriptor `/dev/fd/N`, `/dev/stdin`, `/dev/stdout` or
/// `/dev/stderr` names, if open.
fn descriptor_named<'a>(shell: &'a Shell, path: &str) -> Option<&'a crate::io::Fd> {
    match path {
        "/dev/stdin" => shell.fds.get(0),
        "/dev/stdout" => shell.fds.get(1),
        "/dev/stderr" => shell.fds.get(2),
        _ => open_descriptor(shell, path),
    }
}

/// A path such as `/usr/bin/git` where a utility is taken to live (and
/// the VFS holds nothing): `-e`, `-f`, `-r`, `-s` and `-x` see a program
/// file there, so `[ -x "$(command -v git)" ]` agrees with `command -v`.
fn is_utility_path(shell: &mut Shell, path: &str) -> bool {
    shell.system_program_at(path).is_some()
}

/// A unary test; `None` for an unknown operator.
pub fn unary(shell: &mut Shell, op: &str, arg: &str) -> Option<bool> {
    Some(match op {
        "-z" => arg.is_empty(),
        "-n" => !arg.is_empty(),
        "-e" | "-a" => {
            is_device(arg)
                || arg == "/dev"
                || open_descriptor(shell, arg).is_some()
                || lookup(shell, arg).is_some()
                || is_utility_path(shell, arg)
        }
        "-f" => {
            matches!(lookup(shell, arg), Some(Node::File(_)))
                || matches!(
                    descriptor_named(shell, arg),
                    Some(crate::io::Fd::File { .. })
                )
                || is_utility_path(shell, arg)
        }
        "-d" => arg == "/dev" || matches!(lookup(shell, arg), Some(Node::Dir(_))),
        "-s" => match lookup(shell, arg) {
            Some(Node::File(file)) => !file.is_empty(),
            Some(Node::Dir(_) | Node::Link(_)) => true,
            None => is_utility_path(shell, arg),
        },
        // An open `/dev/fd/N` is readable and writable as its object is:
        // a pipe (either end) both, as bash's access() on it says; a file
        // read from (`< file`) readable; the shell's other streams both.
        "-r" => {
            is_device(arg)
                || open_descriptor(shell, arg).is_some()
                || lookup(shell, arg).is_some()
                || is_utility_path(shell, arg)
        }
        "-w" => {
            is_device(arg)
                || open_descriptor(shell, arg)
                    .is_some_and(|fd| !matches!(fd, crate::io::Fd::File { .. }))
                || lookup(shell, arg).is_some()
        }
        "-x" => has_mode_bit(shell, arg, 0o111) || is_utility_path(shell, arg),
        "-O" | "-G" => lookup(shell, arg).is_some(),
        "-N" => lookup(shell, arg).is_some(),
        "-c" => matches!(
            arg,
            "/dev/null" | "/dev/zero" | "/dev/tty" | "/dev/urandom" | "/dev/random"
        ),
        "-h" | "-L" => matches!(lookup_link(shell, arg), Some(Node::Link(_))),
        "-k" => has_mode_bit(shell, arg, 0o1000),
        "-u" => has_mode_bit(shell, arg, 0o4000),
        "-g" => has_mode_bit(shell, arg, 0o2000),
        "-p" => descriptor_named(shell, arg).is_some_and(crate::io::Fd::is_pipe),
        "-S" | "-b" => false,
        "-t" => false,
        "-v" => {
            if let Some((name, index)) = super::variables::split_subscript(arg) {
                match shell.subscript_key(name, index) {
                    Ok(key) => shell.get_element(name, &key).is_some(),
                    Err(_) => false,
                }
            } else {
                match shell.get_value(arg) {
                    Some(value) => {
                        !value.is_empty() || matches!(value, crate::vars::Value::Scalar(_))
                    }
                    None => shell.get_var(arg).is_some(),
                }
            }
        }
        "-R" => shell.vars.get_raw(arg).is_some_and(|v| v.attrs.nameref),
        "-o" => shell.opts.is_set(arg),
        _ => return None,
    })
}

pub fn compare_numbers(op: &str, a: i64, b: i64) -> bool {
    match op {
        "-eq" => a == b,
        "-ne" => a != b,
        "-lt" => a < b,
        "-le" => a <= b,
        "-gt" => a > b,
        _ => a >= b,
    }
}

fn mtime(shell: &Shell, path: &str) -> Option<i64> {
    lookup(shell, path).map(|n| n.meta().mtime_ns)
}

/// A binary test (not the integer ones of `[[ ]]`, which evaluate
/// arithmetic).
pub fn binary(shell: &mut Shell, left: &str, op: &str, right: &str) -> Result<bool, String> {
    Ok(match op {
        "=" | "==" => left == right,
        "!=" => left != right,
        "<" => left < right,
        ">" => left > right,
        "-eq" | "-ne" | "-lt" | "-le" | "-gt" | "-ge" => {
            let parse = |text: &str| -> Result<i64, String> {
                text.trim()
                    .parse::<i64>()
                    .map_err(|_| format!("{text}: integer expression expected"))
            };
            compare_numbers(op, parse(left)?, parse(right)?)
        }
        "-nt" => match (mtime(shell, left), mtime(shell, right)) {
            (Some(a), Some(b)) => a > b,
            (Some(_), None) => true,
            _ => false,
        },
        "-ot" => match (mtime(shell, left), mtime(shell, right)) {
            (Some(a), Some(b)) => a < b,
            (None, Some(_)) => true,
            _ => false,
        },
        "-ef" => {
            let a = shell.cwd.resolve(left).ok();
            let b = shell.cwd.resolve(right).ok();
            a.is_some() && a == b && lookup(shell, left).is_some()
        }
        _ => return Err(format!("{op}: binary operator expected")),
    })
}

const BINARY_OPS: &[&str] = &[
    "=", "==", "!=", "<", ">", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef",
];

fn is_unary_op(op: &str) -> bool {
    matches!(
        op,
        "-z" | "-n"
            | "-e"
            | "-a"
            | "-f"
            | "-d"
            | "-s"
            | "-r"
            | "-w"
            | "-x"
            | "-O"
            | "-G"
            | "-N"
            | "-c"
            | "-h"
            | "-L"
            | "-p"
            | "-S"
            | "-b"
            | "-k"
            | "-u"
            | "-g"
            | "-t"
            | "-v"
            | "-R"
            | "-o"
    )
}

/// `test` / `[`: returns 0 (true), 1 (false) or 2 (usage error, with the
/// message).
pub fn run_test(shell: &mut Shell, args: &[String]) -> Result<bool, String> {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut parser = TestParser {
        shell,
        args: &args,
        pos: 0,
    };
    if args.is_empty() {
        return Ok(false);
    }
    let result = parser.posix(args.len())?;
    Ok(result)
}

struct TestParser<'a, 'b> {
    shell: &'a mut Shell,
    args: &'b [&'b str],
    pos: usize,
}

impl<'b> TestParser<'_, 'b> {
    /// POSIX's rules by argument count, falling back to the full grammar.
    fn posix(&mut self, count: usize) -> Result<bool, String> {
        let a = self.args;
        match count {
            1 => Ok(!a[0].is_empty()),
            2 => {
                if a[0] == "!" {
                    return Ok(a[1].is_empty());
                }
                if is_unary_op(a[0]) {
                    return unary(self.shell, a[0], a[1])
                        .ok_or_else(|| format!("{}: unary operator expected", a[0]));
                }
                Err(format!("{}: unary operator expected", a[0]))
            }
            3 => {
                if BINARY_OPS.contains(&a[1]) {
                    return binary(self.shell, a[0], a[1], a[2]);
                }
                if a[1] == "-a" || a[1] == "-o" {
                    let (l, r) = (!a[0].is_empty(), !a[2].is_empty());
                    return Ok(if a[1] == "-a" { l && r } else { l || r });
                }
                if a[0] == "!" {
                    self.pos = 1;
                    return self.posix_sub(2).map(|r| !r);
                }
                if a[0] == "(" && a[2] == ")" {
                    return Ok(!a[1].is_empty());
                }
                Err(format!("{}: binary operator expected", a[1]))
            }
            4 if a[0] == "!" => {
                self.pos = 1;
                self.posix_sub(3).map(|r| !r)
            }
            4 if a[0] == "(" && a[3] == ")" => {
                self.pos = 1;
                self.posix_sub(2)
            }
            _ => {
                let result = self.or()?;
                if self.pos < self.args.len() {
                    return Err(format!("{}: too many arguments", self.args[self.pos]));
                }
                Ok(result)
            }
        }
    }

    fn posix_sub(&mut self, count: usize) -> Result<bool, String> {
        let slice = &self.args[self.pos..self.pos + count];
        let mut sub = TestParser {
            shell: self.shell,
            args: slice,
            pos: 0,
        };
        sub.posix(count)
    }

    fn peek(&self) -> Option<&'b str> {
        self.args.get(self.pos).copied()
    }

    fn or(&mut self) -> Result<bool, String> {
        let mut value = self.and()?;
        while self.peek() == Some("-o") {
            self.pos += 1;
            let right = self.and()?;
            value = value || right;
        }
        Ok(value)
    }

    fn and(&mut self) -> Result<bool, String> {
        let mut value = self.not()?;
        while self.peek() == Some("-a") {
            self.pos += 1;
            let right = self.not()?;
            value = value && right;
        }
        Ok(value)
    }

    fn not(&mut self) -> Result<bool, String> {
        if self.peek() == Some("!") {
            self.pos += 1;
            return Ok(!self.not()?);
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<bool, String> {
        let Some(first) = self.peek() else {
            return Err("argument expected".to_string());
        };
        if first == "(" {
            self.pos += 1;
            let value = self.or()?;
            if self.peek() != Some(")") {
                return Err("`)' expected".to_string());
            }
            self.pos += 1;
            return Ok(value);
        }
        if let Some(op) = self.args.get(self.pos + 1).copied()
            && BINARY_OPS.contains(&op)
            && self.args.get(self.pos + 2).is_some()
        {
            let (left, right) = (first, self.args[self.pos + 2]);
            self.pos += 3;
            return binary(self.shell, left, op, right);
        }
        if is_unary_op(first)
            && let Some(operand) = self.args.get(self.pos + 1).copied()
        {
            self.pos += 2;
            return unary(self.shell, first, operand)
                .ok_or_else(|| format!("{first}: unary operator expected"));
        }
        self.pos += 1;
        Ok(!first.is_empty())
    }
}
