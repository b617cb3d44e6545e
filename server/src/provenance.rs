//! Provenance (docs/server.md): every landed submit appends one record to
//! its workspace's change log — who wrote it (the AI authorship), what the
//! turn cost, a condensed transcript, and each file with its old and new
//! hashes. The log is append-only: in `--state` when the server has one,
//! else `.goccia/changes.jsonl` in the workspace.

use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Who (or what) made the change.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Authorship {
    /// The model's vendor.
    pub vendor: String,
    /// The model.
    pub model: String,
    /// The tool or harness.
    pub tool: String,
    /// What kind of suggestion (`agent`, `completion`, ...).
    pub suggestion_type: String,
    /// Tokens read.
    pub input_tokens: u64,
    /// Tokens written.
    pub output_tokens: u64,
    /// The harness's session.
    pub session: String,
}

/// What the turn that made the change cost, and what it said.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Turn {
    /// Tokens the turn took.
    pub tokens: u64,
    /// Steps (tool calls) it took.
    pub steps: u64,
    /// A condensed transcript.
    pub transcript: String,
}

/// One file of a landed change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangedFile {
    /// Relative to the workspace folder.
    pub path: String,
    /// `create` or `modify`.
    pub kind: String,
    /// `blake3:<hex>` before (none for a new file).
    pub old_hash: Option<String>,
    /// `blake3:<hex>` after.
    pub new_hash: Option<String>,
}

/// One record of the change log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangeRecord {
    /// `chg_` and 16 random bytes, hex.
    pub change_id: String,
    /// When it landed, RFC 3339 UTC.
    pub time: String,
    /// The session that submitted it.
    pub sandbox_id: String,
    /// The root it was made against.
    pub base_root: String,
    /// The root after it.
    pub root: String,
    /// What it wrote.
    pub files: Vec<ChangedFile>,
    /// Who made it.
    pub authorship: Authorship,
    /// The turn, if given.
    pub turn: Option<Turn>,
    /// The submitter's message, if given.
    pub message: Option<String>,
}

/// A workspace's log file when the server has no `--state`.
pub fn log_file(workspace_dir: &Path) -> std::path::PathBuf {
    workspace_dir.join(".goccia").join("changes.jsonl")
}

/// Appends `record` as one line to `path` (the workspace lock is held).
pub fn append_line(path: &Path, record: &ChangeRecord) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let mut line = serde_json::to_string(record).map_err(std::io::Error::other)?;
    line.push('\n');
    let mut file = std::fs::File::options()
        .create(true)
        .append(true)
        .open(path)?;
    // One write of the whole line: readers never see half a record.
    file.write_all(line.as_bytes())?;
    file.sync_data()
}

/// A change log as read: the records that parse, and the lines that do
/// not (a damaged log is read past, never refused whole).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ChangeLog {
    /// The records, oldest first.
    pub records: Vec<ChangeRecord>,
    /// Lines skipped because they are not records.
    pub damaged: Vec<DamagedLine>,
}

/// A line of a change log that is not a record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamagedLine {
    /// Its number, from 1 (for a database store: the record's position).
    pub line: usize,
    /// Why it was not read.
    pub reason: String,
}

impl ChangeLog {
    /// Reads records from lines of JSON: a line that does not parse is
    /// skipped and listed as damaged.
    pub fn from_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> ChangeLog {
        let mut log = ChangeLog::default();
        for (number, line) in lines.into_iter().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            match serde_json::from_str(line) {
                Ok(record) => log.records.push(record),
                Err(error) => log.damaged.push(DamagedLine {
                    line: number + 1,
                    reason: error.to_string(),
                }),
            }
        }
        log
    }
}

/// Reads a log file (missing: empty). Lines that are not records are
/// skipped and named in [`ChangeLog::damaged`]; bytes that are not UTF-8
/// damage only their line.
pub fn read_lines(path: &Path) -> std::io::Result<ChangeLog> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return Ok(ChangeLog::default());
        }
        Err(error) => return Err(error),
    };
    let text = String::from_utf8_lossy(&bytes);
    Ok(ChangeLog::from_lines(text.lines()))
}

/// A fresh change id.
pub fn new_change_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source works");
    format!("chg_{}", crate::workspace::hex(&bytes))
}
