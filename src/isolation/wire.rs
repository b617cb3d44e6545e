//! The protocol between a goccia process and its isolated worker
//! (docs/isolation.md): frames of at most [`MAX_FRAME`] bytes, each a 4-byte
//! little-endian length and a postcard-encoded message. The parent sends
//! [`Down`] messages on the worker's stdin; the worker answers with [`Up`]
//! messages on its stdout. Nothing a worker sends is trusted: every frame
//! is size-checked before it is read, every path parsed, every count
//! bounded by the receiver.

use std::io::{self, Read, Write};

use goccia_core::{Limits, Stop};
use goccia_vfs::policy::{PolicyMode, Subject};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The largest frame either side accepts.
pub const MAX_FRAME: usize = 8 << 20;

/// File content travels in pieces of at most this many bytes.
pub const CHUNK: usize = 1 << 20;

/// Parent to worker.
#[derive(Debug, Serialize, Deserialize)]
pub enum Down {
    /// The first message: everything about the sandbox but its tree.
    Init(Box<Init>),
    /// Tree steps bringing the worker's replica in step (see [`WireStep`]);
    /// `last` ends a batch.
    Steps {
        /// The steps.
        steps: Vec<WireStep>,
        /// Whether this frame ends the batch.
        last: bool,
    },
    /// Work to do now; one call at a time.
    Call(Box<Call>),
    /// Stop the running call (the caller cancelled it).
    Cancel,
    /// Bytes for a session's standard input.
    Stdin {
        /// The session.
        session: u32,
        /// The bytes.
        #[serde(with = "serde_bytes")]
        bytes: Vec<u8>,
    },
    /// The session's standard input ended.
    StdinEnd {
        /// The session.
        session: u32,
    },
    /// The answer to an [`Up::Fetch`].
    Fetched {
        /// The request's id.
        id: u64,
        /// The response, or why there is none.
        answer: Result<goccia_vm::fetch::FetchResponse, WireFetchError>,
    },
    /// What a host command changed, as tree steps (see
    /// [`Up::HostRun`]); `last` ends the batch.
    HostEdits {
        /// The run.
        id: u64,
        /// The steps.
        steps: Vec<WireStep>,
        /// Whether this frame ends the batch.
        last: bool,
    },
    /// A host command ended.
    HostDone {
        /// The run.
        id: u64,
        /// How.
        outcome: WireInvoked,
    },
    /// The answer to an [`Up::Escalate`].
    Decided {
        /// The request's id.
        id: u64,
        /// `allowed-once`, `rejected`, `cancelled` or `unavailable`.
        decision: String,
    },
}

/// Worker to parent.
#[derive(Debug, Serialize, Deserialize)]
pub enum Up {
    /// The first message, before any input is read: what confinement held.
    Hello(Hello),
    /// Guest output, as produced.
    Output {
        /// stderr rather than stdout.
        stderr: bool,
        /// The bytes.
        #[serde(with = "serde_bytes")]
        bytes: Vec<u8>,
    },
    /// An audit event (one JSON line of the audit trail).
    Audit(String),
    /// The guest called `fetch`: the parent decides and performs it.
    Fetch {
        /// Names the answer.
        id: u64,
        /// The request.
        request: WireRequest,
    },
    /// The guest asked for an escalation: the parent's approver decides.
    Escalate {
        /// Names the answer.
        id: u64,
        /// The request.
        request: WireEscalation,
    },
    /// The tree a host command is to see, as steps from the tree the
    /// call started with (a batch ends with `last`).
    HostTree {
        /// The steps.
        steps: Vec<WireStep>,
        /// Whether this frame ends the batch.
        last: bool,
    },
    /// Run a host command (its three pipe ends were just sent over the
    /// host-command socket): the parent runs it and answers
    /// [`Down::HostEdits`] and [`Down::HostDone`].
    HostRun(Box<WireHostRun>),
    /// Kill a running host command (the guest's deadline or output
    /// budget stopped the shell that ran it).
    HostKill {
        /// The run.
        id: u64,
    },
    /// What the call changed in the tree (a batch ends with `last`).
    Steps {
        /// The steps.
        steps: Vec<WireStep>,
        /// Whether this frame ends the batch.
        last: bool,
    },
    /// The call is over.
    Done(Reply),
}

/// The confinement report a worker sends first.
#[derive(Debug, Serialize, Deserialize)]
pub struct Hello {
    /// The protocol version ([`PROTOCOL`]).
    pub protocol: u32,
    /// Each layer's name and, when it is not in force, why.
    pub layers: Vec<(String, Option<String>)>,
}

/// The version of this protocol; a worker of another version is refused
/// (2: `Init` carries the working folder a child starts in).
pub const PROTOCOL: u32 = 2;

/// Everything about a sandbox except its tree.
#[derive(Debug, Serialize, Deserialize)]
pub struct Init {
    /// Its limits.
    pub limits: Limits,
    /// `--mode bytecode`.
    pub bytecode: bool,
    /// The write policy: mode, writable roots, whether an approver exists.
    pub policy: Option<WirePolicy>,
    /// Exported variables.
    pub env: Vec<(String, String)>,
    /// The folder its shell session starts in (`/` when none).
    pub cwd: Option<String>,
    /// Whether audit events are to be sent.
    pub audit: bool,
    /// The surface's advice for each setting, in `Setting::ALL` order.
    pub advice: Vec<Option<String>>,
    /// Removed nodes still charged (a child sandbox), bytes and nodes.
    pub held: Option<(u64, u64)>,
    /// The host commands the shell may run (they run in the parent).
    pub host_commands: Vec<String>,
}

/// A write policy as it crosses.
#[derive(Debug, Serialize, Deserialize)]
pub struct WirePolicy {
    /// Its mode.
    pub mode: PolicyMode,
    /// The writable roots.
    pub roots: Vec<String>,
    /// Whether the parent has an approver to ask.
    pub approver: bool,
}

/// One call.
#[derive(Debug, Serialize, Deserialize)]
pub struct Call {
    /// The call's deadline from now, in milliseconds.
    pub timeout_ms: u64,
    /// The time the parent's call was given, as a stop states it.
    pub allowed_ms: u64,
    /// Whether that was the call's own timeout (else the sandbox's limit).
    pub own_timeout: bool,
    /// The bytes its output may still take, and whether past them it is
    /// truncated (otherwise the run fails).
    pub output_limit: u64,
    /// Truncate rather than fail past `output_limit`.
    pub truncate: bool,
    /// What to do.
    pub work: Work,
}

/// What a call does.
#[derive(Debug, Serialize, Deserialize)]
pub enum Work {
    /// Run a JS entry (or inline source) on a fresh runtime.
    Script {
        /// The entry's VFS path.
        entry: String,
        /// Inline source for the entry (`run_code`).
        inline: Option<String>,
    },
    /// Open a shell session.
    Open {
        /// Its id.
        session: u32,
        /// Its standard input: none, these bytes, or a stream of
        /// [`Down::Stdin`] frames.
        stdin: WireStdin,
    },
    /// Run a whole script in a session (with this call's stdin, if any).
    RunScript {
        /// The session.
        session: u32,
        /// The script.
        source: String,
        /// Bytes for this call's stdin instead of the session's.
        stdin: Option<Vec<u8>>,
        /// Whether the call's own deadline applies (else the session's).
        own_deadline: bool,
        /// The call's own working folder (checked by the parent).
        cwd: Option<String>,
        /// Variables bound for this call alone.
        env: Vec<(String, String)>,
    },
    /// Set a session's script name (`BASH_SOURCE`).
    ScriptSource {
        /// The session.
        session: u32,
        /// The script's path.
        path: String,
    },
    /// Set `$0` and the positional parameters.
    Positional {
        /// The session.
        session: u32,
        /// `$0`.
        arg0: String,
        /// `$1`...
        args: Vec<String>,
    },
    /// Run one interactive line.
    Line {
        /// The session.
        session: u32,
        /// The line.
        line: String,
    },
    /// End a session (runs its EXIT trap).
    Finish {
        /// The session.
        session: u32,
    },
    /// A session's working directory.
    Cwd {
        /// The session.
        session: u32,
    },
    /// The command names a session knows.
    Commands {
        /// The session.
        session: u32,
    },
    /// Drop a session.
    Close {
        /// The session.
        session: u32,
    },
}

/// A session's standard input.
#[derive(Debug, Serialize, Deserialize)]
pub enum WireStdin {
    /// Nothing.
    Empty,
    /// These bytes.
    Bytes(#[serde(with = "serde_bytes")] Vec<u8>),
    /// Frames that follow.
    Stream,
}

/// How a call ended.
#[derive(Debug, Serialize, Deserialize)]
pub enum Reply {
    /// A run ended.
    Run(WireRun),
    /// An interactive line ended; `exited` when it ran `exit`.
    Line {
        /// How it ended.
        run: WireRun,
        /// Whether the session should end.
        exited: bool,
    },
    /// Text (a working directory).
    Text(String),
    /// Names (commands).
    Names(Vec<String>),
    /// Done, nothing to say.
    Unit,
    /// The call could not start (a bad entry path, a session thread that
    /// is gone): the facade's error, in words.
    Refused(String),
}

/// A finished run.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct WireRun {
    /// The exit code.
    pub exit_code: i32,
    /// The failure, if the run failed.
    pub failure: Option<goccia_vm::Failure>,
    /// What stopped a shell run.
    pub stop: Option<Stop>,
    /// A script's default export, as JSON text.
    pub result: Option<String>,
    /// The QuickJS heap in use at the end (scripts).
    pub memory_used: Option<u64>,
    /// Whether truncation dropped output.
    pub truncated: bool,
}

/// A host command a worker's shell runs.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireHostRun {
    /// Names the answer (and the pipe ends sent with it).
    pub id: u64,
    /// The name and arguments.
    pub words: Vec<String>,
    /// The shell's working directory.
    pub cwd: String,
    /// The variables it exports.
    pub env: Vec<(String, String)>,
    /// The policy mode the command runs under (the parent checks it is
    /// the sandbox's or one its approver granted).
    pub mode: PolicyMode,
    /// Bytes the worker's tree may still take.
    pub room: u64,
}

/// How a host command ended, as it crosses.
#[derive(Debug, Serialize, Deserialize)]
pub enum WireInvoked {
    /// It ran (its edits came in `HostEdits`).
    Ran {
        /// Its status.
        status: i32,
        /// Lines for stderr.
        notes: Vec<String>,
        /// Its stderr said "Read-only file system".
        read_only_refusal: bool,
    },
    /// Stopped and killed.
    Stopped(Stop),
    /// Could not run.
    Failed {
        /// The status.
        status: i32,
        /// The line for stderr.
        message: String,
    },
}

/// A tree step as it crosses (see `goccia_vfs::replica::Step`). A file's
/// content larger than [`CHUNK`] follows in [`WireStep::More`] steps.
#[derive(Debug, Serialize, Deserialize)]
pub enum WireStep {
    /// Remove a path.
    Remove {
        /// Where.
        path: String,
    },
    /// An empty folder.
    Dir {
        /// Where.
        path: String,
        /// Permission bits.
        mode: u32,
        /// Modification time (ns).
        mtime: i64,
    },
    /// A file of `size` bytes; `data` is its first piece.
    File {
        /// Where.
        path: String,
        /// Permission bits.
        mode: u32,
        /// Modification time (ns).
        mtime: i64,
        /// Its whole size.
        size: u64,
        /// The first piece.
        #[serde(with = "serde_bytes")]
        data: Vec<u8>,
    },
    /// The next piece of the file being sent.
    More(#[serde(with = "serde_bytes")] Vec<u8>),
    /// A mode and time.
    Meta {
        /// Where.
        path: String,
        /// Permission bits.
        mode: u32,
        /// Modification time (ns).
        mtime: i64,
    },
    /// A symbolic link.
    Link {
        /// Where.
        path: String,
        /// Permission bits.
        mode: u32,
        /// Modification time (ns).
        mtime: i64,
        /// What it points at.
        target: String,
    },
}

/// A `fetch` request as it crosses.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireRequest {
    /// Uppercase method.
    pub method: String,
    /// The URL.
    pub url: String,
    /// Headers.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Option<Vec<u8>>,
    /// Whether redirects are followed.
    pub follow_redirects: bool,
    /// Whether the method is kept across redirects.
    pub keep_method: bool,
}

/// Why a relayed `fetch` returned no response.
#[derive(Debug, Serialize, Deserialize)]
pub enum WireFetchError {
    /// Refused by the policy (the message).
    Refused(String),
    /// The network failed.
    Failed(String),
    /// The body was over the cap.
    TooLarge {
        /// The cap.
        limit: u64,
        /// The advice suffix.
        advice: String,
    },
    /// Stopped by the deadline or a cancellation.
    Stopped(Stop),
}

/// An escalation request as it crosses.
#[derive(Debug, Serialize, Deserialize)]
pub struct WireEscalation {
    /// The mode asked for.
    pub requested: PolicyMode,
    /// The mode of the call.
    pub current: PolicyMode,
    /// The guest's justification.
    pub justification: String,
    /// What is retried when it is granted.
    pub subject: Subject,
    /// What would run.
    pub detail: String,
}

/// A frame that could not be read.
#[derive(Debug, Error)]
pub enum FrameError {
    /// The stream failed.
    #[error("the worker's pipe failed: {0}")]
    Io(#[from] io::Error),
    /// A frame announced more than [`MAX_FRAME`] bytes.
    #[error("a frame of {0} bytes is over the {MAX_FRAME}-byte maximum")]
    Oversize(u64),
    /// The stream ended inside a frame.
    #[error("the stream ended inside a frame")]
    Truncated,
    /// The bytes are not a message of the protocol.
    #[error("a malformed frame: {0}")]
    Malformed(String),
}

/// Writes one message as a frame (and flushes). A message over
/// [`MAX_FRAME`] is a bug of the sender: an `InvalidData` error.
pub fn write_frame<W: Write + ?Sized, T: Serialize>(out: &mut W, message: &T) -> io::Result<()> {
    let bytes = postcard::to_stdvec(message)
        .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error.to_string()))?;
    if bytes.len() > MAX_FRAME {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("a {}-byte frame is over the maximum", bytes.len()),
        ));
    }
    let mut frame = Vec::with_capacity(4 + bytes.len());
    frame.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    frame.extend_from_slice(&bytes);
    out.write_all(&frame)?;
    out.flush()
}

/// Reads one frame: `Ok(None)` at a clean end of stream (between frames).
pub fn read_frame<R: Read + ?Sized, T: DeserializeOwned>(
    input: &mut R,
) -> Result<Option<T>, FrameError> {
    let mut header = [0u8; 4];
    let mut got = 0;
    while got < header.len() {
        match input.read(&mut header[got..]) {
            Ok(0) if got == 0 => return Ok(None),
            Ok(0) => return Err(FrameError::Truncated),
            Ok(n) => got += n,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error.into()),
        }
    }
    let length = u32::from_le_bytes(header) as usize;
    if length > MAX_FRAME {
        return Err(FrameError::Oversize(length as u64));
    }
    let mut body = vec![0u8; length];
    input
        .read_exact(&mut body)
        .map_err(|error| match error.kind() {
            io::ErrorKind::UnexpectedEof => FrameError::Truncated,
            _ => FrameError::Io(error),
        })?;
    postcard::from_bytes(&body)
        .map(Some)
        .map_err(|error| FrameError::Malformed(error.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_bad_ones_are_named() {
        let mut buffer = Vec::new();
        write_frame(&mut buffer, &Down::Cancel).unwrap();
        write_frame(
            &mut buffer,
            &Up::Output {
                stderr: true,
                bytes: b"hi".to_vec(),
            },
        )
        .unwrap();
        let mut reader = &buffer[..];
        assert!(matches!(
            read_frame::<_, Down>(&mut reader),
            Ok(Some(Down::Cancel))
        ));
        match read_frame::<_, Up>(&mut reader) {
            Ok(Some(Up::Output { stderr, bytes })) => assert!(stderr && bytes == b"hi"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(read_frame::<_, Up>(&mut reader), Ok(None)));

        let oversize = (MAX_FRAME as u32 + 1).to_le_bytes();
        assert!(matches!(
            read_frame::<_, Up>(&mut &oversize[..]),
            Err(FrameError::Oversize(_))
        ));
        let truncated = [5u8, 0, 0, 0, 1];
        assert!(matches!(
            read_frame::<_, Up>(&mut &truncated[..]),
            Err(FrameError::Truncated)
        ));
        let garbage = [3u8, 0, 0, 0, 200, 200, 200];
        assert!(matches!(
            read_frame::<_, Up>(&mut &garbage[..]),
            Err(FrameError::Malformed(_))
        ));
        assert!(matches!(
            read_frame::<_, Up>(&mut &[1u8, 0][..]),
            Err(FrameError::Truncated)
        ));
    }
}
