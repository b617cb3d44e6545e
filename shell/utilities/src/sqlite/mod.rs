//! `sqlite3`: the SQLite shell over a database file in the VFS. The file
//! is loaded into an in-memory database when the command starts and,
//! when something changed, written back whole when it ends (so a run
//! stopped half-way leaves the file as it was). SQL comes from the
//! arguments (the first error ends the command with its code, as sqlite3
//! does) or from stdin (each error reported with its line, the script
//! going on unless `-bail`); dot commands and output modes are
//! SQLite 3.40's. What keeps SQLite inside the sandbox is in [`guard`].

mod dot;
mod guard;
mod output;

use std::ffi::CString;

use goccia_core::{LimitKind, Stop};
use goccia_vfs::{Node, VfsPath};
use rusqlite::{Connection, MAIN_DB, ffi};

use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, Flow, ShellView};
use output::{Cell, Format, Mode, Printer};

/// An open database and where it came from.
struct Database {
    connection: Connection,
    /// The VFS file, and the name it was given as.
    file: Option<(VfsPath, String)>,
    /// Its bytes when loaded (written back only if they change).
    original: Vec<u8>,
    readonly: bool,
}

/// Why a database could not be opened.
enum OpenError {
    /// The message to print.
    Message(String),
    /// Already reported (a policy denial); the status.
    Reported(i32),
}

impl Database {
    fn open(
        shell: &mut ShellView,
        name: Option<&str>,
        readonly: bool,
    ) -> Result<Database, OpenError> {
        // sqlite3 words every failure to open alike.
        let unable = |_: String| {
            OpenError::Message(format!(
                "unable to open database \"{}\": unable to open database file",
                name.unwrap_or("")
            ))
        };
        let mut connection = Connection::open_in_memory().map_err(|e| unable(e.to_string()))?;
        let context = shell.context().clone();
        let mut file = None;
        let mut original = Vec::new();
        if let Some(name) = name.filter(|n| !n.is_empty() && *n != ":memory:") {
            let path = shell
                .cwd()
                .resolve(name)
                .map_err(|e| unable(e.to_string()))?;
            let vfs = context.vfs.clone();
            let found = vfs.lock().lookup(&path).map(|node| match node {
                Node::File(file) => Ok(file.data().to_vec()),
                _ => Err(()),
            });
            match found {
                Ok(Ok(bytes)) => original = bytes,
                Ok(Err(())) => return Err(unable("Is a directory".to_string())),
                Err(_) if readonly => return Err(unable("No such file or directory".to_string())),
                // sqlite3 creates the file when it opens it.
                Err(_) => {
                    let created = vfs.lock().write_file(&path, Vec::new());
                    if let Err(error) = created {
                        let status = shell.fail_fs(
                            "sqlite3",
                            name,
                            &error,
                            |reason| format!("Error: unable to open database \"{name}\": {reason}"),
                            1,
                        );
                        return Err(OpenError::Reported(status));
                    }
                }
            }
            // SQLite takes a file shorter than its smallest page for an
            // empty database.
            if original.len() >= 512 {
                load(&mut connection, &original, readonly).map_err(|e| unable(e.to_string()))?;
            } else if readonly {
                connection
                    .execute_batch("PRAGMA query_only = 1")
                    .map_err(|e| unable(e.to_string()))?;
            }
            file = Some((path, name.to_string()));
        }
        let headroom = context.vfs.lock().remaining().max_bytes;
        let most = headroom.saturating_add(original.len() as u64);
        guard::confine(&connection, &context, most).map_err(|e| unable(e.to_string()))?;
        Ok(Database {
            connection,
            file,
            original,
            readonly,
        })
    }

    /// Writes the database back to its file if it changed.
    fn save(&mut self, shell: &mut ShellView) -> Result<(), i32> {
        let Some((path, name)) = &self.file else {
            return Ok(());
        };
        if self.readonly {
            return Ok(());
        }
        let bytes = match self.connection.serialize(MAIN_DB) {
            Ok(data) => data.to_vec(),
            Err(error) => return Err(shell.fail_command("sqlite3", &format!("Error: {error}"), 1)),
        };
        if bytes == self.original || (self.original.is_empty() && self.untouched()) {
            return Ok(());
        }
        let written = shell.context().vfs.lock().write_file(path, bytes.clone());
        match written {
            Ok(()) => {
                self.original = bytes;
                Ok(())
            }
            Err(error) => Err(shell.fail_fs(
                "sqlite3",
                name,
                &error,
                |reason| format!("Error: unable to write \"{name}\": {reason}"),
                1,
            )),
        }
    }
}

impl Database {
    /// A database that was empty and still has no schema and no user
    /// version: its file stays empty, as sqlite3 leaves it.
    fn untouched(&self) -> bool {
        let version = |pragma: &str| {
            self.connection
                .query_row(&format!("PRAGMA {pragma}"), [], |row| row.get::<_, i64>(0))
                .unwrap_or(1)
        };
        version("schema_version") == 0 && version("user_version") == 0
    }
}

/// Loads `bytes` as the main database (a copy SQLite owns and may grow).
fn load(connection: &mut Connection, bytes: &[u8], readonly: bool) -> rusqlite::Result<()> {
    connection.deserialize_read_exact(MAIN_DB, bytes, bytes.len(), readonly)
}

/// Where results go: stdout, or a VFS file (`.output`, `.once`).
enum Sink {
    Stdout,
    File {
        path: VfsPath,
        name: String,
        data: Vec<u8>,
        once: bool,
    },
}

/// The shell's state across commands.
struct Session {
    db: Database,
    format: Format,
    bail: bool,
    sink: Sink,
    /// Whether any error was reported.
    failed: bool,
    /// `.quit`/`.exit` ran (with this status).
    quit: Option<i32>,
}

/// How a failed statement is reported: from the arguments or a script.
#[derive(Clone, Copy, PartialEq)]
enum Source {
    Argument,
    Script,
}

/// A statement that failed: the message and the status it ends with.
struct Failure {
    message: String,
    status: i32,
}

fn failure(error: &rusqlite::Error, prepare: bool, source: Source, line: usize) -> Failure {
    let (message, code) = match error {
        rusqlite::Error::SqliteFailure(raw, message) => (
            message.clone().unwrap_or_else(|| raw.to_string()),
            raw.extended_code & 0xff,
        ),
        other => (other.to_string(), 1),
    };
    let (message, status) = match (source, prepare) {
        (Source::Argument, true) => (format!("Error: in prepare, {message}"), 1),
        (Source::Argument, false) => (format!("Error: stepping, {message} ({code})"), code),
        (Source::Script, true) => (format!("Parse error near line {line}: {message}"), 1),
        (Source::Script, false) => (
            format!("Runtime error near line {line}: {message} ({code})"),
            1,
        ),
    };
    Failure { message, status }
}

/// Splits SQL into complete statements with the line each begins on
/// (relative to `sql`); what is left incomplete at the end comes last.
fn statements(sql: &str) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let bytes = sql.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            quote @ (b'\'' | b'"' | b'`') => {
                i += 1;
                while i < bytes.len() && bytes[i] != quote {
                    i += 1;
                }
            }
            b'[' => {
                while i < bytes.len() && bytes[i] != b']' {
                    i += 1;
                }
            }
            b'-' if bytes.get(i + 1) == Some(&b'-') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 1;
            }
            b';' if complete(&sql[start..=i]) => {
                found.push(piece(sql, start, i + 1));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if !all_blank(&sql[start.min(sql.len())..]) {
        found.push(piece(sql, start, sql.len()));
    }
    found.retain(|(text, _)| !all_blank(text));
    found
}

fn piece(sql: &str, start: usize, end: usize) -> (String, usize) {
    let text = &sql[start..end];
    let line = sql[..start + blank_prefix(text)].matches('\n').count();
    (text.to_string(), line)
}

/// The length of the whitespace and comments `sql` starts with.
fn blank_prefix(sql: &str) -> usize {
    let mut rest = sql.trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("--") {
            rest = after
                .split_once('\n')
                .map_or("", |(_, tail)| tail)
                .trim_start();
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after
                .split_once("*/")
                .map_or("", |(_, tail)| tail)
                .trim_start();
        } else {
            return sql.len() - rest.len();
        }
    }
}

/// SQLite's own test for a complete statement (a `;` that ends it, not
/// one inside a trigger's body).
pub(super) fn complete(sql: &str) -> bool {
    let Ok(text) = CString::new(sql) else {
        return true;
    };
    // SAFETY: a valid NUL-terminated string.
    unsafe { ffi::sqlite3_complete(text.as_ptr()) != 0 }
}

/// Whitespace and comments only.
fn all_blank(sql: &str) -> bool {
    blank_prefix(sql) == sql.len()
}

impl Session {
    /// Runs the statements of `sql` (`line` is where it starts, 1-based).
    fn run_sql(
        &mut self,
        shell: &mut ShellView,
        sql: &str,
        line: usize,
        source: Source,
    ) -> Result<Option<i32>, Flow> {
        for (text, offset) in statements(sql) {
            shell.check_watch()?;
            let mut out = Vec::new();
            let result = self.run_statement(shell, &text, &mut out);
            self.emit(shell, &out)?;
            shell.check_watch()?;
            if let Err((error, prepare)) = result {
                if error.sqlite_error_code() == Some(rusqlite::ErrorCode::OperationInterrupted) {
                    // The progress handler stopped it: the deadline, or
                    // else the memory ceiling (what passed it is freed by
                    // now, so it no longer shows).
                    shell.check_watch()?;
                    return Err(Flow::Stop(Stop::Limit(LimitKind::HostMemory)));
                }
                let failed = failure(&error, prepare, source, line + offset);
                self.failed = true;
                shell.write_stderr(format!("{}\n", failed.message).as_bytes());
                if source == Source::Argument || self.bail {
                    return Ok(Some(failed.status));
                }
            }
        }
        Ok(None)
    }

    /// Prepares and runs one statement, printing its rows into `out`; the
    /// error and whether it came from preparing.
    fn run_statement(
        &mut self,
        shell: &mut ShellView,
        sql: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), (rusqlite::Error, bool)> {
        let mut statement = self.db.connection.prepare(sql).map_err(|e| (e, true))?;
        let columns = statement.column_count();
        if columns == 0 {
            statement.raw_execute().map_err(|e| (e, false))?;
            return Ok(());
        }
        let names: Vec<String> = statement
            .column_names()
            .iter()
            .map(|n| n.to_string())
            .collect();
        let mut printer = Printer::new(&self.format, names);
        let mut rows = statement.raw_query();
        loop {
            match rows.next() {
                Ok(Some(row)) => {
                    let cells: Vec<Cell> = (0..columns)
                        .map(|index| row.get_ref(index).map_or(Cell::Null, Cell::from))
                        .collect();
                    printer.row(&cells, out);
                    // Large results go out as they come.
                    if out.len() > 64 << 10
                        && !self.format.mode.columnar()
                        && matches!(self.sink, Sink::Stdout)
                    {
                        if shell.write_stdout(out).is_err() {
                            break;
                        }
                        out.clear();
                    }
                }
                Ok(None) => break,
                Err(error) => {
                    printer.finish(out);
                    return Err((error, false));
                }
            }
        }
        printer.finish(out);
        Ok(())
    }

    /// Sends printed results where `.output` says.
    fn emit(&mut self, shell: &mut ShellView, bytes: &[u8]) -> Result<(), Flow> {
        match &mut self.sink {
            Sink::Stdout => {
                if let Err(error) = shell.write_stdout(bytes) {
                    let status = shell.io_status("sqlite3", error)?;
                    self.quit = Some(status);
                }
            }
            Sink::File { data, .. } => data.extend_from_slice(bytes),
        }
        Ok(())
    }

    /// A script, line by line: dot commands at the start of a statement,
    /// SQL run as each statement completes.
    fn run_script(&mut self, shell: &mut ShellView, text: &str) -> Result<Option<i32>, Flow> {
        let mut buffer = String::new();
        let mut start = 1;
        for (index, line) in text.split_inclusive('\n').enumerate() {
            if self.quit.is_some() {
                break;
            }
            let number = index + 1;
            if all_blank(&buffer) && line.trim_start().starts_with('.') {
                buffer.clear();
                let code = dot::run(
                    self,
                    shell,
                    line.trim_end_matches(['\n', '\r']).trim_start(),
                )?;
                if let Some(code) = code
                    && self.bail
                {
                    return Ok(Some(code));
                }
                continue;
            }
            if all_blank(&buffer) {
                buffer.clear();
                start = number;
            }
            buffer.push_str(line);
            if complete(&buffer) {
                let code = self.run_sql(shell, &buffer, start, Source::Script)?;
                buffer.clear();
                if code.is_some() {
                    return Ok(code);
                }
            }
        }
        if !all_blank(&buffer) && self.quit.is_none() {
            return self.run_sql(shell, &buffer, start, Source::Script);
        }
        Ok(None)
    }

    /// Ends a `.once` output after one command's results; writes a
    /// finished `.output` file.
    fn close_sink(&mut self, shell: &mut ShellView) -> Result<(), i32> {
        let sink = std::mem::replace(&mut self.sink, Sink::Stdout);
        let Sink::File {
            path, name, data, ..
        } = sink
        else {
            return Ok(());
        };
        let written = shell.context().vfs.lock().write_file(&path, data);
        written.map_err(|error| {
            shell.fail_fs(
                "sqlite3",
                &name,
                &error,
                |reason| format!("Error: cannot open \"{name}\": {reason}"),
                1,
            )
        })
    }
}

/// The command-line options.
struct Options {
    format: Format,
    bail: bool,
    readonly: bool,
    commands: Vec<String>,
    init: Option<String>,
    database: Option<String>,
    sql: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let mut options = Options {
        format: Format::default(),
        bail: false,
        readonly: false,
        commands: Vec::new(),
        init: None,
        database: None,
        sql: Vec::new(),
    };
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        let Some(name) = arg
            .strip_prefix("--")
            .or_else(|| arg.strip_prefix('-'))
            .filter(|_| arg.len() > 1)
        else {
            if options.database.is_none() {
                options.database = Some(arg.clone());
            } else {
                options.sql.push(arg.clone());
            }
            continue;
        };
        let mut value = || {
            let value = args
                .get(i)
                .cloned()
                .ok_or(format!("Error: missing argument to {arg}"));
            i += 1;
            value
        };
        let format = &mut options.format;
        match name {
            "header" | "headers" => {
                format.headers = true;
                format.headers_set = true;
            }
            "noheader" | "noheaders" => {
                format.headers = false;
                format.headers_set = true;
            }
            "separator" => format.column_separator = value()?,
            "newline" => format.row_separator = value()?,
            "nullvalue" => format.null_value = value()?,
            "cmd" => options.commands.push(value()?),
            "init" => options.init = Some(value()?),
            "bail" => options.bail = true,
            "readonly" => options.readonly = true,
            "batch" | "interactive" | "echo" | "stats" | "nofollow" => {}
            "ascii" | "html" => return Err(format!("Error: the -{name} mode is not supported")),
            "version" | "help" => return Err(format!("-{name}")),
            mode => match Mode::parse(mode) {
                // The option sets the mode and its column separator;
                // unlike `.mode`, it keeps the row separator (`-csv` rows
                // end in `\n`, `.mode csv` rows in `\r\n`) and does not
                // turn headers on.
                Some(mode) => {
                    let kept = (
                        format.headers,
                        format.headers_set,
                        format.row_separator.clone(),
                    );
                    format.set_mode(mode);
                    (format.headers, format.headers_set, format.row_separator) = kept;
                }
                None => {
                    return Err(format!(
                        "Error: unknown option: {arg}\nUse -help for a list of options."
                    ));
                }
            },
        }
    }
    Ok(options)
}

pub fn sqlite3(shell: &mut ShellView, args: &[String]) -> ExecResult {
    guard::route_allocations();
    let options = match parse(args) {
        Ok(options) => options,
        Err(flag) if flag == "-version" => {
            let text = format!("{} (goccia: SQLite in the sandbox)\n", rusqlite::version());
            return crate::args::print_text(shell, "sqlite3", &text, 0);
        }
        Err(flag) if flag == "-help" => {
            let text = "Usage: sqlite3 [OPTIONS] FILENAME [SQL]\nFILENAME is the name of an SQLite database in the sandbox's filesystem.\nOptions: -bail -cmd COMMAND -csv -json -line -list -column -box -markdown -table -tabs -quote -header -noheader -separator SEP -newline SEP -nullvalue TEXT -readonly -init FILE -version\n";
            return crate::args::print_text(shell, "sqlite3", text, 0);
        }
        Err(message) => return Ok(shell.fail_command("sqlite3", &message, 1)),
    };
    let db = match Database::open(shell, options.database.as_deref(), options.readonly) {
        Ok(db) => db,
        Err(OpenError::Message(message)) => {
            shell.write_stderr(format!("Error: {message}\n").as_bytes());
            return Ok(1);
        }
        Err(OpenError::Reported(status)) => return Ok(status),
    };
    let mut session = Session {
        db,
        format: options.format.clone(),
        bail: options.bail,
        sink: Sink::Stdout,
        failed: false,
        quit: None,
    };
    let status = run(&mut session, shell, &options)?;
    let saved = session
        .close_sink(shell)
        .and_then(|()| session.db.save(shell));
    match saved {
        Ok(()) => Ok(status),
        Err(code) => Ok(code),
    }
}

/// Runs `-init`, `-cmd`, then the SQL arguments or stdin; the status.
fn run(session: &mut Session, shell: &mut ShellView, options: &Options) -> Result<i32, Flow> {
    if let Some(init) = &options.init {
        let Ok(mut source) = open_source(shell, "sqlite3", init) else {
            return Ok(1);
        };
        let text = String::from_utf8_lossy(&source.read_all().unwrap_or_default()).into_owned();
        if let Some(code) = session.run_script(shell, &text)? {
            return Ok(code);
        }
    }
    let mut arguments: Vec<&String> = options.commands.iter().collect();
    arguments.extend(&options.sql);
    for argument in arguments {
        let code = if argument.trim_start().starts_with('.') {
            dot::run(session, shell, argument.trim())?
        } else {
            session.run_sql(shell, argument, 1, Source::Argument)?
        };
        if let Some(code) = code {
            return Ok(code);
        }
        if let Some(code) = session.quit {
            return Ok(code);
        }
        if let Sink::File { once: true, .. } = session.sink
            && let Err(code) = session.close_sink(shell)
        {
            return Ok(code);
        }
    }
    if options.sql.is_empty() {
        let Ok(mut source) = open_source(shell, "sqlite3", "-") else {
            return Ok(1);
        };
        let text = match source.read_all() {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(error) => return Ok(shell.fail_command("sqlite3", &error.to_string(), 1)),
        };
        if let Some(code) = session.run_script(shell, &text)? {
            return Ok(code);
        }
    }
    if let Some(code) = session.quit {
        return Ok(code);
    }
    Ok(i32::from(session.failed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_split_at_semicolons_outside_quotes_comments_and_triggers() {
        let sql = "select 1; select ';'\n;\n-- a; comment\ncreate trigger t after insert on x begin select 1; end; select";
        let found: Vec<(String, usize)> = statements(sql);
        let texts: Vec<&str> = found.iter().map(|(t, _)| t.trim()).collect();
        assert_eq!(texts[0], "select 1;");
        assert_eq!(texts[1], "select ';'\n;");
        assert!(texts[2].ends_with("end;"), "{texts:?}");
        assert_eq!(texts[3], "select");
        assert_eq!(
            found[2].1, 3,
            "the trigger starts on the fourth line, after its comment"
        );
    }

    #[test]
    fn blank_means_whitespace_and_comments() {
        assert!(all_blank("  -- x\n /* y */ \n"));
        assert!(!all_blank("-- x\nselect 1"));
    }
}
