//! Word expansion, in bash's order: brace expansion, then tilde,
//! parameter, command and arithmetic expansion, then word splitting on
//! `IFS`, pathname expansion and quote removal.

use std::borrow::Cow;

use goccia_core::{LimitKind, Stop};
use goccia_vfs::{NodeType, VfsPath};

use super::brace::BraceError;
use super::{ExecResult, Flow, Shell};
use crate::arith;
use crate::ast::*;
use crate::io::{CaptureWriter, Fd};
use crate::pattern::{self, Pattern};

/// A field being built. `pattern` is `text` with quoted characters escaped
/// for the glob matcher.
#[derive(Clone, Debug, Default)]
struct Field {
    text: String,
    /// `None` while `pattern` would be `text` itself (no quoted character
    /// needed escaping so far): most fields, which then cost one string.
    pattern: Option<String>,
    /// Some quoted part contributed (even an empty one): keep the field.
    quoted: bool,
    /// Created by a non-whitespace IFS delimiter: keep even when empty.
    forced: bool,
}

impl Field {
    fn push(&mut self, text: &str, quoted: bool) {
        if quoted && pattern::needs_escape(text) {
            let pattern = self.pattern.get_or_insert_with(|| self.text.clone());
            pattern::escape_into(text, pattern);
        } else if let Some(pattern) = &mut self.pattern {
            pattern.push_str(text);
        }
        self.text.push_str(text);
    }

    fn pattern(&self) -> &str {
        self.pattern.as_deref().unwrap_or(&self.text)
    }

    fn into_pattern(self) -> String {
        self.pattern.unwrap_or(self.text)
    }

    fn keep(&self) -> bool {
        !self.text.is_empty() || self.quoted || self.forced
    }
}

/// What the result of an expansion is for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Command arguments: split and globbed.
    Fields,
    /// Assignments, here-documents, `case` words: one string.
    Single,
}

struct Builder {
    mode: Mode,
    fields: Vec<Field>,
    current: Field,
}

impl Builder {
    fn new(mode: Mode) -> Self {
        Builder {
            mode,
            fields: Vec::new(),
            current: Field::default(),
        }
    }

    fn push(&mut self, text: &str, quoted: bool) {
        self.current.push(text, quoted);
        if quoted {
            self.current.quoted = true;
        }
    }

    fn break_field(&mut self) {
        let field = std::mem::take(&mut self.current);
        if field.keep() {
            self.fields.push(field);
        }
    }

    /// An unquoted expansion result: split on IFS (in field mode).
    fn push_split(&mut self, value: &str, ifs: &str) {
        if self.mode == Mode::Single || ifs.is_empty() {
            self.push(value, false);
            return;
        }
        let is_ws = |c: char| (c == ' ' || c == '\t' || c == '\n') && ifs.contains(c);
        let is_delim = |c: char| ifs.contains(c);
        let chars: Vec<char> = value.chars().collect();
        let mut i = 0;
        // Leading whitespace ends the field before it.
        if chars.first().is_some_and(|c| is_ws(*c)) {
            while i < chars.len() && is_ws(chars[i]) {
                i += 1;
            }
            self.break_field();
        }
        let mut piece = String::new();
        while i < chars.len() {
            let c = chars[i];
            if !is_delim(c) {
                piece.push(c);
                i += 1;
                continue;
            }
            // A delimiter: whitespace*, at most one non-whitespace IFS
            // character, whitespace*.
            let mut hard = false;
            while i < chars.len() && is_ws(chars[i]) {
                i += 1;
            }
            if i < chars.len() && is_delim(chars[i]) && !is_ws(chars[i]) {
                hard = true;
                i += 1;
                while i < chars.len() && is_ws(chars[i]) {
                    i += 1;
                }
            }
            self.push(&std::mem::take(&mut piece), false);
            if hard {
                self.current.forced = true;
            }
            self.break_field();
        }
        self.push(&piece, false);
    }

    fn finish(mut self) -> Vec<Field> {
        self.break_field();
        self.fields
    }
}

/// The result of a parameter expansion.
pub(crate) enum Expanded {
    /// One value (`None`: unset).
    One(Option<String>),
    /// Several (`$@`, `${a[@]}`); `star` joins them with IFS's first
    /// character when quoted. `unsplit` is what an unquoted `*` form joins
    /// them with when IFS is empty (`${!prefix*}` nothing, `${!a[*]}` a
    /// space, as bash does); `None` keeps them separate words.
    Many {
        values: Vec<String>,
        star: bool,
        unsplit: Option<&'static str>,
    },
    /// The operand of `:-` / `:+`, expanded in place: its unquoted text is
    /// split like any expansion result, its quoted parts are not.
    Operand(std::sync::Arc<Word>),
}

impl Shell {
    pub(crate) fn ifs(&mut self) -> String {
        match self.vars.get_raw("IFS") {
            Some(var) => var
                .value
                .as_ref()
                .and_then(|v| v.scalar())
                .unwrap_or("")
                .to_string(),
            None => " \t\n".to_string(),
        }
    }

    /// Command arguments: every word expanded, split and globbed.
    pub(crate) fn expand_words(&mut self, words: &[Word]) -> Result<Vec<String>, Flow> {
        let mut out = Vec::new();
        for word in words {
            for word in self.braces(word)?.iter() {
                let fields = self.expand_fields(word, Mode::Fields)?;
                for field in fields {
                    self.glob_field(field, &mut out)?;
                }
            }
        }
        Ok(out)
    }

    /// Brace expansion within the shell's limit on one value: the words it
    /// makes are built in memory before anything runs, so a product of
    /// sequences (`{1..9}{1..9}...`) must end at a bound, not at the host's
    /// memory.
    fn braces<'w>(&mut self, word: &'w Word) -> Result<Cow<'w, [Word]>, Flow> {
        if !self.opts.braceexpand {
            return Ok(Cow::Borrowed(std::slice::from_ref(word)));
        }
        super::brace::brace_expand(word, self.ctx.limits.max_value_bytes).map_err(|error| {
            match error {
                BraceError::TooLarge => Flow::Stop(Stop::Limit(LimitKind::ShellValue)),
                BraceError::Unclosed(message) => self.abandon_line(&message),
            }
        })
    }

    /// One word as one string (no splitting or globbing).
    pub(crate) fn expand_string(&mut self, word: &Word) -> Result<String, Flow> {
        let fields = self.expand_fields(word, Mode::Single)?;
        Ok(fields
            .into_iter()
            .map(|f| f.text)
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// A word as a pattern: quoted characters are escaped.
    pub(crate) fn expand_pattern(&mut self, word: &Word) -> Result<String, Flow> {
        let fields = self.expand_fields(word, Mode::Single)?;
        Ok(fields
            .into_iter()
            .map(Field::into_pattern)
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// A redirection target: exactly one field.
    pub(crate) fn expand_redirect_target(&mut self, word: &Word) -> Result<Option<String>, Flow> {
        let mut out = Vec::new();
        for word in self.braces(word)?.iter() {
            for field in self.expand_fields(word, Mode::Fields)? {
                self.glob_field(field, &mut out)?;
            }
        }
        Ok(if out.len() == 1 { out.pop() } else { None })
    }

    fn expand_fields(&mut self, word: &Word, mode: Mode) -> Result<Vec<Field>, Flow> {
        let mut builder = Builder::new(mode);
        for (index, part) in word.parts.iter().enumerate() {
            self.expand_part(part, false, index == 0, &mut builder)?;
        }
        let fields = builder.finish();
        if mode == Mode::Single && fields.is_empty() {
            return Ok(vec![Field::default()]);
        }
        Ok(fields)
    }

    fn expand_part(
        &mut self,
        part: &WordPart,
        quoted: bool,
        first: bool,
        out: &mut Builder,
    ) -> Result<(), Flow> {
        match part {
            WordPart::Literal(text) => out.push(text, quoted),
            WordPart::SingleQuoted(text) | WordPart::Escaped(text) => out.push(text, true),
            WordPart::DoubleQuoted(parts) => {
                let lone_at = parts.len() == 1 && is_at_expansion(&parts[0]);
                if !lone_at {
                    out.current.quoted = true;
                }
                for part in parts {
                    self.expand_part(part, true, false, out)?;
                }
            }
            WordPart::Tilde(user) => {
                let home = self.tilde(user);
                out.push(&home, true);
            }
            WordPart::Param(param) => {
                let value = self.expand_param(param, quoted)?;
                let ifs = self.ifs();
                match value {
                    Expanded::Operand(word) => {
                        for part in &word.parts {
                            match part {
                                WordPart::Literal(text) if !quoted => out.push_split(text, &ifs),
                                other => self.expand_part(other, quoted, false, out)?,
                            }
                        }
                    }
                    Expanded::One(text) => {
                        let text = text.unwrap_or_default();
                        if quoted {
                            out.push(&text, true);
                        } else {
                            out.push_split(&text, &ifs);
                        }
                    }
                    Expanded::Many {
                        values,
                        star,
                        unsplit,
                    } => {
                        if let (false, true, Some(sep), true) =
                            (quoted, star, unsplit, ifs.is_empty())
                        {
                            out.push(&values.join(sep), false);
                        } else if quoted && star {
                            let sep = ifs.chars().next().map(String::from).unwrap_or_default();
                            out.push(&values.join(&sep), true);
                        } else if quoted {
                            for (i, value) in values.iter().enumerate() {
                                if i > 0 {
                                    out.break_field();
                                    out.current.quoted = true;
                                }
                                out.push(value, true);
                            }
                        } else if out.mode == Mode::Single {
                            let sep = if star {
                                ifs.chars().next().map(String::from).unwrap_or_default()
                            } else {
                                " ".into()
                            };
                            out.push(&values.join(&sep), false);
                        } else {
                            // bash joins the values with IFS's first
                            // character and splits the result: when that
                            // character is not whitespace, each boundary is
                            // a delimiter that keeps an empty field before
                            // it (`IFS=x; set -- a '' b; echo $*` is 3).
                            let hard = ifs
                                .chars()
                                .next()
                                .is_some_and(|c| !matches!(c, ' ' | '\t' | '\n'));
                            for (i, value) in values.iter().enumerate() {
                                if i > 0 {
                                    out.current.forced |= hard;
                                    out.break_field();
                                }
                                out.push_split(value, &ifs);
                            }
                        }
                    }
                }
            }
            WordPart::CommandSub(list) => {
                let text = self.command_substitution(list)?;
                if quoted {
                    out.push(&text, true);
                } else {
                    let ifs = self.ifs();
                    out.push_split(&text, &ifs);
                }
            }
            WordPart::ArithSub(expr) => {
                let text = self.expand_string(expr)?;
                let value = match arith::eval(&text, self) {
                    Ok(value) => value,
                    Err(error) => return Err(self.arith_failure(&error)),
                };
                if quoted {
                    out.push(&value.to_string(), true);
                } else {
                    let ifs = self.ifs();
                    out.push_split(&value.to_string(), &ifs);
                }
            }
            WordPart::ProcessSub { input, list } => {
                let path = self.process_substitution(*input, list)?;
                out.push(&path, true);
            }
        }
        let _ = first;
        Ok(())
    }

    pub(crate) fn tilde(&mut self, user: &str) -> String {
        match user {
            // Without `$HOME`, bash takes the user's home from the
            // password database: `/home/<user>` here (`/root` for root).
            "" => match self.get_var("HOME") {
                Some(home) => home,
                None => match self.user_name().as_str() {
                    "" => "/".to_string(),
                    "root" => "/root".to_string(),
                    name => format!("/home/{name}"),
                },
            },
            "+" => self.cwd.to_string(),
            "-" => self.get_var("OLDPWD").unwrap_or_else(|| "~-".to_string()),
            "root" => "/root".to_string(),
            // The virtual password database knows root and the shell's
            // user; any other name stays as written, as bash leaves a
            // user it cannot find.
            name if name == self.user_name() => format!("/home/{name}"),
            name => format!("~{name}"),
        }
    }

    /// `$(list)`: runs the list in a subshell and captures its output,
    /// trailing newlines removed.
    pub(crate) fn command_substitution(&mut self, list: &List) -> Result<String, Flow> {
        let capture = CaptureWriter::new(self.ctx.limits.max_substitution_bytes);
        let mut sub = self.subshell();
        sub.substitution_depth += 1;
        sub.fds.set(1, Fd::writer(capture.clone()));
        let result = match file_read_only(list) {
            Some(redirect) => sub.read_redirected_input(redirect, &capture),
            None => sub.run_list(list),
        };
        let status = match result {
            Ok(status)
            | Err(Flow::Exit(status))
            | Err(Flow::Return(status))
            | Err(Flow::Abandon(status))
            | Err(Flow::Discard(status)) => status,
            Err(Flow::Stop(stopped)) => return Err(Flow::Stop(stopped)),
            Err(_) => sub.status,
        };
        let status = match sub.run_exit_trap() {
            Ok(()) => {
                if sub.traps.is_empty() {
                    status
                } else {
                    sub.status
                }
            }
            Err(stopped) => return Err(Flow::Stop(stopped)),
        };
        drop(sub);
        self.status = status;
        self.subst_status = Some(status);
        let mut bytes = capture.take();
        bytes.retain(|b| *b != 0);
        while bytes.last() == Some(&b'\n') {
            bytes.pop();
        }
        Ok(crate::raw::decode_vec(bytes))
    }

    /// `$(< file)`: the file's content, read without running a command
    /// (status 1 when the redirection fails, reported as it would be).
    fn read_redirected_input(
        &mut self,
        redirect: &Redirect,
        capture: &CaptureWriter,
    ) -> ExecResult {
        let saved = match self.apply_redirects(std::slice::from_ref(redirect)) {
            Ok(saved) => saved,
            Err(status) => return Ok(status),
        };
        let limit = self.ctx.limits.max_substitution_bytes;
        let read = self.fds.input(0).map(|reader| {
            let mut reader = reader.lock();
            crate::io::read_to_end_capped(&mut **reader, limit)
        });
        let _ = self.restore_redirects(saved);
        match read {
            Some(Ok(bytes)) => {
                let mut capture = capture.clone();
                let _ = std::io::Write::write_all(&mut capture, &bytes);
                Ok(0)
            }
            Some(Err(error)) => self.io_status("bash", error),
            None => Ok(1),
        }
    }

    /// Pathname expansion of one field.
    fn glob_field(&mut self, field: Field, out: &mut Vec<String>) -> Result<(), Flow> {
        if self.opts.noglob || !pattern::has_magic(field.pattern(), self.opts.extglob) {
            out.push(field.text);
            return Ok(());
        }
        let ignore = self.glob_ignore();
        let mut matches = self.glob(field.pattern(), !ignore.is_empty());
        if !ignore.is_empty() {
            matches.retain(|path| !glob_ignored(path, &ignore, self.opts.extglob));
        }
        if matches.is_empty() {
            if self.opts.failglob {
                self.report_at_line(&format!("no match: {}", field.text));
                return Err(self.fail_line());
            }
            if !self.opts.nullglob {
                out.push(field.text);
            }
            return Ok(());
        }
        out.extend(matches);
        Ok(())
    }

    /// `GLOBIGNORE`'s patterns (none when it is unset or empty).
    fn glob_ignore(&mut self) -> Vec<String> {
        match self.get_var("GLOBIGNORE") {
            Some(value) if !value.is_empty() => split_ignore_list(&value),
            _ => Vec::new(),
        }
    }

    /// Paths in the VFS matching `pattern` (escaped), sorted; `all_dots`
    /// matches names starting with a dot as `dotglob` does (bash does so
    /// while `GLOBIGNORE` is set).
    pub(crate) fn glob(&mut self, pattern: &str, all_dots: bool) -> Vec<String> {
        let dotglob = self.opts.dotglob || all_dots;
        let absolute = pattern.starts_with('/');
        let components: Vec<&str> = pattern.split('/').filter(|c| !c.is_empty()).collect();
        let base = if absolute {
            VfsPath::root()
        } else {
            self.cwd.clone()
        };
        let mut results: Vec<(VfsPath, String)> = vec![(
            base,
            if absolute {
                "/".to_string()
            } else {
                String::new()
            },
        )];
        let vfs = self.ctx.vfs.clone();
        let vfs = vfs.lock();
        let trailing_slash = pattern.ends_with('/') && pattern.len() > 1;
        for (index, component) in components.iter().enumerate() {
            let last = index + 1 == components.len();
            let mut next = Vec::new();
            let magic = pattern::has_magic(component, self.opts.extglob);
            for (dir, shown) in &results {
                let join = |shown: &str, name: &str| {
                    if shown.is_empty() || shown.ends_with('/') {
                        format!("{shown}{name}")
                    } else {
                        format!("{shown}/{name}")
                    }
                };
                if !magic {
                    let name = pattern::unescape(component);
                    if name == "." || name == ".." {
                        let path = dir.resolve(&name).unwrap_or_else(|_| dir.clone());
                        next.push((path, join(shown, &name)));
                        continue;
                    }
                    let path = dir.join(&name);
                    if vfs.exists(&path) {
                        next.push((path, join(shown, &name)));
                    }
                    continue;
                }
                if *component == "**" && self.opts.globstar {
                    let mut stack = vec![(dir.clone(), shown.clone())];
                    while let Some((d, s)) = stack.pop() {
                        next.push((d.clone(), s.clone()));
                        if let Ok(entries) = vfs.read_dir(&d) {
                            for entry in entries.iter().rev() {
                                if entry.name.starts_with('.') && !dotglob {
                                    continue;
                                }
                                let path = d.join(&entry.name);
                                if entry.node_type == NodeType::Directory {
                                    stack.push((path, join(&s, &entry.name)));
                                } else if last {
                                    next.push((path, join(&s, &entry.name)));
                                }
                            }
                        }
                    }
                    continue;
                }
                let Ok(entries) = vfs.read_dir(dir) else {
                    continue;
                };
                let matcher = Pattern::new(&self.locale_chars(component), self.opts.extglob)
                    .nocase(self.opts.nocaseglob);
                let explicit_dot = component.starts_with('.') || component.starts_with("\\.");
                if explicit_dot && !self.opts.globskipdots {
                    for name in [".", ".."] {
                        if matcher.matches(name) {
                            let path = dir.resolve(name).unwrap_or_else(|_| dir.clone());
                            next.push((path, join(shown, name)));
                        }
                    }
                }
                for entry in entries {
                    if entry.name.starts_with('.') && !explicit_dot && !dotglob {
                        continue;
                    }
                    if !last && entry.node_type != NodeType::Directory {
                        continue;
                    }
                    if matcher.matches(&self.locale_chars(&entry.name)) {
                        next.push((dir.join(&entry.name), join(shown, &entry.name)));
                    }
                }
            }
            results = next;
        }
        let mut out: Vec<String> = results
            .into_iter()
            .filter(|(path, _)| !trailing_slash || vfs.is_dir(path))
            .map(|(_, shown)| {
                if trailing_slash {
                    format!("{shown}/")
                } else {
                    shown
                }
            })
            .filter(|s| !s.is_empty())
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// A colon-separated pattern list split as bash splits it: a colon
/// inside a bracket expression (`[[:alnum:]]`) or after a backslash is
/// part of its pattern.
fn split_ignore_list(value: &str) -> Vec<String> {
    let mut patterns = Vec::new();
    let mut current = String::new();
    let mut chars = value.chars().peekable();
    let mut bracket_depth = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                current.push(c);
                if let Some(next) = chars.next() {
                    current.push(next);
                }
            }
            '[' => {
                bracket_depth += 1;
                current.push(c);
            }
            ']' if bracket_depth > 0 => {
                bracket_depth -= 1;
                current.push(c);
            }
            ':' if bracket_depth == 0 => patterns.push(std::mem::take(&mut current)),
            _ => current.push(c),
        }
    }
    patterns.push(current);
    patterns.retain(|p| !p.is_empty());
    patterns
}

/// Whether `GLOBIGNORE` removes `path` from a glob's matches: `.` and
/// `..` always, otherwise a pattern matching the whole path, component by
/// component (a `*` never matches a `/`).
fn glob_ignored(path: &str, patterns: &[String], extglob: bool) -> bool {
    let trimmed = path.trim_end_matches('/');
    let base = trimmed.rsplit('/').next().unwrap_or(trimmed);
    if base == "." || base == ".." {
        return true;
    }
    let names: Vec<&str> = trimmed.split('/').collect();
    patterns.iter().any(|pattern| {
        let parts: Vec<&str> = pattern.split('/').collect();
        parts.len() == names.len()
            && parts
                .iter()
                .zip(&names)
                .all(|(part, name)| Pattern::new(part, extglob).matches(name))
    })
}

fn is_at_expansion(part: &WordPart) -> bool {
    match part {
        WordPart::Param(param) => {
            (param.name == "@" && param.index.is_none() && !param.length && !param.indirect)
                || (param.index.as_ref().and_then(Word::as_plain).as_deref() == Some("@")
                    && !param.length
                    && (!param.indirect || param.op == ParamOp::None))
                // `${!prefix@}`: the names, one word each.
                || param.op == (ParamOp::Names { at: true })
        }
        _ => false,
    }
}

/// The redirection of a command substitution that is only `< file`
/// (`$(< file)`, `` `< file` ``), which bash reads as the file's content.
fn file_read_only(list: &List) -> Option<&Redirect> {
    let [item] = list.items.as_slice() else {
        return None;
    };
    if item.background || !item.and_or.rest.is_empty() {
        return None;
    }
    let pipeline = &item.and_or.first;
    if pipeline.negated || pipeline.timed {
        return None;
    }
    let [Command::Simple(simple)] = pipeline.commands.as_slice() else {
        return None;
    };
    if !simple.words.is_empty() || !simple.assignments.is_empty() {
        return None;
    }
    match simple.redirects.as_slice() {
        [redirect]
            if redirect.op == RedirectOp::Read
                && matches!(redirect.fd, RedirectFd::Default | RedirectFd::Number(0)) =>
        {
            Some(redirect)
        }
        _ => None,
    }
}
