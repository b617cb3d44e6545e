//! The sqlite3 shell's dot commands: `.tables`, `.schema`, `.indexes`,
//! `.dump`, `.import`, `.read`, `.output`/`.once`, `.open`, `.mode`,
//! `.headers`, `.separator`, `.nullvalue`, `.print`, `.bail`,
//! `.databases`, `.quit`/`.exit`, `.help`. Files are the VFS's.

use rusqlite::types::ValueRef;

use super::output::{Cell, Mode};
use super::{Database, OpenError, Session, Sink};
use goccia_interp::input::open_source;
use goccia_interp::interp::{Flow, ShellView};

/// A dot command's words: blanks separate, quotes group.
fn words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut word = String::new();
        if c == '"' || c == '\'' {
            chars.next();
            for c in chars.by_ref() {
                if c == '\'' || c == '"' {
                    break;
                }
                word.push(c);
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                word.push(c);
                chars.next();
            }
        }
        words.push(word);
    }
    words
}

fn on(word: Option<&String>) -> bool {
    matches!(
        word.map(|w| w.to_ascii_lowercase()).as_deref(),
        Some("on" | "1" | "yes" | "true")
    )
}

/// Runs one dot command; a status when it failed.
pub(super) fn run(
    session: &mut Session,
    shell: &mut ShellView,
    line: &str,
) -> Result<Option<i32>, Flow> {
    let words = words(line.trim_start_matches('.'));
    let Some(command) = words.first().map(String::as_str) else {
        return Ok(None);
    };
    let args = &words[1..];
    let mut out = Vec::new();
    let result: Result<(), String> = match command {
        "tables" => tables(session, args.first(), &mut out),
        "schema" => schema(session, args.first(), &mut out),
        "indexes" | "indices" => indexes(session, args.first(), &mut out),
        "dump" => dump(session, args.first(), &mut out),
        "headers" | "header" => {
            session.format.headers = on(args.first());
            session.format.headers_set = true;
            Ok(())
        }
        "mode" => match args.first().map(|m| (m, Mode::parse(m))) {
            Some((_, Some(mode))) => {
                session.format.set_mode(mode);
                if mode == Mode::Insert {
                    session.format.insert_table =
                        args.get(1).cloned().unwrap_or("table".to_string());
                }
                Ok(())
            }
            Some((name, None)) => Err(format!(
                "Error: mode should be one of: box column csv insert json line list markdown quote table tabs (not \"{name}\")"
            )),
            None => {
                out.extend(
                    format!("current output mode: {:?}\n", session.format.mode)
                        .to_lowercase()
                        .as_bytes(),
                );
                Ok(())
            }
        },
        "separator" => {
            if let Some(column) = args.first() {
                session.format.column_separator = unescape(column);
            }
            if let Some(row) = args.get(1) {
                session.format.row_separator = unescape(row);
            }
            Ok(())
        }
        "nullvalue" => {
            session.format.null_value = args.first().cloned().unwrap_or_default();
            Ok(())
        }
        "print" => {
            out.extend(args.join(" ").as_bytes());
            out.push(b'\n');
            Ok(())
        }
        "bail" => {
            session.bail = on(args.first());
            Ok(())
        }
        "quit" | "exit" => {
            session.quit = Some(args.first().and_then(|c| c.parse().ok()).unwrap_or(0));
            Ok(())
        }
        "databases" => {
            let name = session
                .db
                .file
                .as_ref()
                .map_or(String::new(), |(path, _)| path.to_string());
            let mode = if session.db.readonly { "r/o" } else { "r/w" };
            out.extend(format!("main: {name} {mode}\n").as_bytes());
            Ok(())
        }
        "read" => match args.first() {
            Some(file) => {
                let Ok(mut source) = open_source(shell, "sqlite3", file) else {
                    return Ok(Some(1));
                };
                let text =
                    String::from_utf8_lossy(&source.read_all().unwrap_or_default()).into_owned();
                return session.run_script(shell, &text);
            }
            None => Err("Usage: .read FILE".to_string()),
        },
        "output" | "once" => {
            if let Err(code) = session.close_sink(shell) {
                return Ok(Some(code));
            }
            match args.last().filter(|f| f.as_str() != "stdout") {
                Some(name) => match shell.cwd().resolve(name) {
                    Ok(path) => {
                        session.sink = Sink::File {
                            path,
                            name: name.clone(),
                            data: Vec::new(),
                            once: command == "once",
                        };
                        Ok(())
                    }
                    Err(error) => Err(format!("Error: cannot open \"{name}\": {error}")),
                },
                None => Ok(()),
            }
        }
        "open" => {
            let readonly = args.iter().any(|a| a == "--readonly" || a == "-readonly");
            let new = args.iter().any(|a| a == "--new" || a == "-new");
            let name = args.iter().rfind(|a| !a.starts_with('-')).cloned();
            if let Err(code) = session.db.save(shell) {
                return Ok(Some(code));
            }
            if new
                && let Some(name) = &name
                && let Ok(path) = shell.cwd().resolve(name)
            {
                let _ = shell.context().vfs.lock().remove_file(&path);
            }
            match Database::open(shell, name.as_deref(), readonly) {
                Ok(db) => {
                    session.db = db;
                    Ok(())
                }
                Err(OpenError::Message(message)) => Err(format!("Error: {message}")),
                Err(OpenError::Reported(code)) => return Ok(Some(code)),
            }
        }
        "import" => import(session, shell, args),
        "help" => {
            out.extend(b".bail on|off  .databases  .dump ?TABLE?  .exit ?CODE?  .headers on|off\n.import FILE TABLE  .indexes ?TABLE?  .mode MODE ?TABLE?  .nullvalue STRING\n.once FILE  .open ?--new? ?--readonly? FILE  .output ?FILE?  .print STRING...\n.quit  .read FILE  .schema ?PATTERN?  .separator COL ?ROW?  .tables ?PATTERN?\n");
            Ok(())
        }
        // Settings that change nothing printed here.
        "timer" | "echo" | "changes" | "width" | "show" | "stats" | "eqp" => Ok(()),
        _ => Err(format!(
            "Error: unknown command or invalid arguments:  \"{command}\". Enter \".help\" for help"
        )),
    };
    session.emit(shell, &out)?;
    match result {
        Ok(()) => Ok(None),
        Err(message) => {
            shell.write_stderr(format!("{message}\n").as_bytes());
            session.failed = true;
            Ok(Some(1))
        }
    }
}

/// `\t`, `\n` and `\\` in a separator.
fn unescape(text: &str) -> String {
    text.replace("\\t", "\t")
        .replace("\\n", "\n")
        .replace("\\r", "\r")
        .replace("\\\\", "\\")
}

/// Rows of one text column.
fn names(db: &Database, sql: &str, pattern: Option<&String>) -> Result<Vec<String>, String> {
    let mut statement = db
        .connection
        .prepare(sql)
        .map_err(|e| format!("Error: {e}"))?;
    let pattern = pattern.map_or("%", String::as_str);
    let rows = statement
        .query_map([pattern], |row| row.get::<_, String>(0))
        .map_err(|e| format!("Error: {e}"))?;
    rows.collect::<Result<_, _>>()
        .map_err(|e| format!("Error: {e}"))
}

/// `.tables`: names in columns across 80 characters, down then across.
fn tables(session: &Session, pattern: Option<&String>, out: &mut Vec<u8>) -> Result<(), String> {
    let list = names(
        &session.db,
        "SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite_%' AND name LIKE ?1 ORDER BY 1",
        pattern,
    )?;
    if list.is_empty() {
        return Ok(());
    }
    let width = list.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    let columns = (80 / (width + 2)).max(1);
    let rows = list.len().div_ceil(columns);
    for row in 0..rows {
        let mut line = String::new();
        for (position, index) in (row..list.len()).step_by(rows).enumerate() {
            if position > 0 {
                line.push_str("  ");
            }
            line.push_str(&goccia_interp::pad::right_pad(&list[index], width, ' '));
        }
        out.extend(line.as_bytes());
        out.push(b'\n');
    }
    Ok(())
}

/// `.schema`: each object's SQL, in creation order.
fn schema(session: &Session, pattern: Option<&String>, out: &mut Vec<u8>) -> Result<(), String> {
    let list = names(
        &session.db,
        "SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND tbl_name LIKE ?1 ORDER BY rowid",
        pattern,
    )?;
    for sql in list {
        out.extend(schema_line(&sql).as_bytes());
    }
    Ok(())
}

/// An object's SQL as `.schema` and `.dump` print it: a quoted table name
/// gets `IF NOT EXISTS`, and SQL ending inside a comment is closed before
/// its `;`, as sqlite3 does.
fn schema_line(sql: &str) -> String {
    let mut sql = sql.to_string();
    if sql.contains("/*") || sql.contains("--") {
        for ending in ["", "*/", "\n"] {
            if super::complete(&format!("{sql}{ending};")) {
                sql.push_str(ending);
                break;
            }
        }
    }
    match sql.strip_prefix("CREATE TABLE ") {
        Some(rest) if rest.starts_with(['\'', '"']) => {
            format!("CREATE TABLE IF NOT EXISTS {rest};\n")
        }
        _ => format!("{sql};\n"),
    }
}

fn indexes(session: &Session, table: Option<&String>, out: &mut Vec<u8>) -> Result<(), String> {
    let list = names(
        &session.db,
        "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name LIKE ?1 ORDER BY 1",
        table,
    )?;
    for name in list {
        out.extend(format!("{name}\n").as_bytes());
    }
    Ok(())
}

/// `.dump`: SQL that rebuilds the database (or the tables matching).
fn dump(session: &Session, pattern: Option<&String>, out: &mut Vec<u8>) -> Result<(), String> {
    let connection = &session.db.connection;
    let error = |e: rusqlite::Error| format!("Error: {e}");
    out.extend(b"PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n");
    let pattern = pattern.map_or("%", String::as_str);
    let mut objects = connection
        .prepare("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND tbl_name LIKE ?1 ORDER BY type = 'table' DESC, rowid")
        .map_err(error)?;
    let objects: Vec<(String, String, String)> = objects
        .query_map([pattern], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
        .map_err(error)?
        .collect::<Result<_, _>>()
        .map_err(error)?;
    for (kind, name, sql) in objects {
        out.extend(schema_line(&sql).as_bytes());
        if kind != "table" {
            continue;
        }
        let quoted = name.replace('"', "\"\"");
        let mut rows = connection
            .prepare(&format!("SELECT * FROM \"{quoted}\""))
            .map_err(error)?;
        let columns = rows.column_count();
        let mut rows = rows.raw_query();
        let table = if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            name.clone()
        } else {
            format!("\"{quoted}\"")
        };
        while let Some(row) = rows.next().map_err(error)? {
            let values: Vec<Vec<u8>> = (0..columns)
                .map(|i| Cell::from(row.get_ref(i).unwrap_or(ValueRef::Null)).literal())
                .collect();
            out.extend(format!("INSERT INTO {table} VALUES(").as_bytes());
            out.extend(values.join(&b","[..]));
            out.extend(b");\n");
        }
    }
    out.extend(b"COMMIT;\n");
    Ok(())
}

/// `.import [--csv] [--skip N] FILE TABLE`: rows of a CSV (or, in list
/// mode, separator-split) file into a table, created from the first row
/// when it does not exist.
fn import(session: &mut Session, shell: &mut ShellView, args: &[String]) -> Result<(), String> {
    let mut csv = session.format.mode == Mode::Csv;
    let mut skip = 0usize;
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--csv" | "-csv" => csv = true,
            "--skip" | "-skip" => {
                i += 1;
                skip = args.get(i).and_then(|n| n.parse().ok()).unwrap_or(0);
            }
            other => operands.push(other.to_string()),
        }
        i += 1;
    }
    let [file, table] = operands.as_slice() else {
        return Err("Usage: .import FILE TABLE".to_string());
    };
    let Ok(mut source) = open_source(shell, "sqlite3", file) else {
        return Err(format!("Error: cannot open \"{file}\""));
    };
    let text = String::from_utf8_lossy(&source.read_all().unwrap_or_default()).into_owned();
    let separator = if csv {
        ","
    } else {
        session.format.column_separator.as_str()
    };
    let mut records = if csv {
        parse_csv(&text)
    } else {
        split_records(&text, separator)
    };
    records.drain(..skip.min(records.len()));
    let connection = &session.db.connection;
    let error = |e: rusqlite::Error| format!("Error: {e}");
    let quoted = table.replace('"', "\"\"");
    let exists: bool = connection
        .query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name = ?1",
            [table],
            |row| row.get::<_, i64>(0),
        )
        .map_err(error)?
        > 0;
    let mut records = records.into_iter();
    if !exists {
        let Some(header) = records.next() else {
            return Ok(());
        };
        let columns: Vec<String> = header
            .iter()
            .map(|name| format!("\"{}\" TEXT", name.replace('"', "\"\"")))
            .collect();
        // Laid out as sqlite3 lays it out (it shows in `.schema`).
        connection
            .execute_batch(&format!(
                "CREATE TABLE \"{quoted}\"(\n{})",
                columns.join(", ")
            ))
            .map_err(error)?;
    }
    let count: usize = connection
        .prepare(&format!("SELECT * FROM \"{quoted}\""))
        .map_err(error)?
        .column_count();
    let marks = vec!["?"; count].join(",");
    let mut insert = connection
        .prepare(&format!("INSERT INTO \"{quoted}\" VALUES({marks})"))
        .map_err(error)?;
    for mut record in records {
        shell
            .check_watch()
            .map_err(|_| "Error: interrupted".to_string())?;
        record.resize(count, String::new());
        insert
            .execute(rusqlite::params_from_iter(record.iter()))
            .map_err(error)?;
    }
    Ok(())
}

/// RFC 4180 records: quoted fields may hold separators, quotes (doubled)
/// and newlines.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            ',' if !quoted => record.push(std::mem::take(&mut field)),
            '\r' if !quoted => {}
            '\n' if !quoted => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            other => field.push(other),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

fn split_records(text: &str, separator: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|line| line.split(separator).map(str::to_string).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_may_hold_separators_quotes_and_lines() {
        let records = parse_csv("a,\"b,c\",\"say \"\"hi\"\"\"\r\n1,\"two\nlines\",3\n");
        assert_eq!(records[0], ["a", "b,c", "say \"hi\""]);
        assert_eq!(records[1], ["1", "two\nlines", "3"]);
    }

    #[test]
    fn schema_lines_as_sqlite3_prints_them() {
        assert_eq!(schema_line("CREATE TABLE t(a)"), "CREATE TABLE t(a);\n");
        assert_eq!(
            schema_line("CREATE TABLE \"t\"(a)"),
            "CREATE TABLE IF NOT EXISTS \"t\"(a);\n"
        );
        assert_eq!(
            schema_line("CREATE TABLE t(a -- c)"),
            "CREATE TABLE t(a -- c)\n;\n"
        );
    }

    #[test]
    fn dot_words_group_quotes() {
        assert_eq!(
            words("mode insert 'my table'"),
            ["mode", "insert", "my table"]
        );
    }
}
