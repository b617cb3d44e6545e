//! The stdio framing in front of the protocol: one JSON-RPC message per
//! line. A line that is not JSON, or not a JSON-RPC message, is answered
//! here with the JSON-RPC error it deserves (`-32700` parse error,
//! `-32600` invalid request) instead of being dropped without a word, and
//! the session goes on. (rmcp's own stdio transport drops lines that are
//! not JSON without an answer.) The protocol's lines go out whole, under
//! the same lock as the answers, so an error line never lands inside one.

use std::sync::Arc;

use futures::{Sink, Stream};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::Mutex;

/// The longest line read from the client (a file written through
/// `write_file` travels in one line).
pub const MAX_LINE: usize = 64 << 20;

/// What to do with one line from the client.
#[derive(Debug, PartialEq)]
pub enum Line {
    /// A JSON-RPC message: hand it to the protocol.
    Message,
    /// Blank: ignore it.
    Blank,
    /// Answer with this error response.
    Refuse(Value),
}

fn error(id: Value, code: i64, message: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
}

/// Sorts one line.
pub fn classify(line: &[u8]) -> Line {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Blank;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(problem) => {
            return Line::Refuse(error(
                Value::Null,
                -32700,
                &format!("parse error: the line is not JSON ({problem})"),
            ));
        }
    };
    let Some(object) = value.as_object() else {
        return Line::Refuse(error(
            Value::Null,
            -32600,
            "invalid request: a message is one JSON object (batches are not part of this protocol revision)",
        ));
    };
    let id = object.get("id").cloned().unwrap_or(Value::Null);
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Line::Refuse(error(
            id,
            -32600,
            "invalid request: \"jsonrpc\" must be \"2.0\"",
        ));
    }
    let is_request = object.get("method").is_some_and(Value::is_string);
    let is_response = object.contains_key("result") || object.contains_key("error");
    if !is_request && !is_response {
        return Line::Refuse(error(
            id,
            -32600,
            "invalid request: a message has a string \"method\", or is a response with \"result\" or \"error\"",
        ));
    }
    Line::Message
}

/// The client's end of the line protocol as rmcp's transport: a stream
/// of the messages it sent, and a sink for ours. Lines that are not
/// messages are answered on the same writer, whole, between ours.
pub fn transport<R, W>(
    client_in: R,
    client_out: W,
) -> (
    impl Sink<TxJsonRpcMessage<RoleServer>, Error = std::io::Error> + Send + Unpin + 'static,
    impl Stream<Item = RxJsonRpcMessage<RoleServer>> + Send + Unpin + 'static,
)
where
    R: AsyncRead + Send + Unpin + 'static,
    W: AsyncWrite + Send + Unpin + 'static,
{
    let writer = Arc::new(Mutex::new(client_out));
    let sink = Box::pin(futures::sink::unfold(
        writer.clone(),
        |writer, message: TxJsonRpcMessage<RoleServer>| async move {
            let line = serde_json::to_vec(&message).map_err(std::io::Error::other)?;
            write_line(&writer, line).await?;
            Ok::<_, std::io::Error>(writer)
        },
    ));
    let reader = Reader {
        lines: BufReader::new(client_in),
        line: Vec::new(),
        writer,
    };
    let stream = Box::pin(futures::stream::unfold(reader, |mut reader| async move {
        let message = reader.next_message().await?;
        Some((message, reader))
    }));
    (sink, stream)
}

async fn write_line<W: AsyncWrite + Unpin>(
    writer: &Mutex<W>,
    mut line: Vec<u8>,
) -> std::io::Result<()> {
    line.push(b'\n');
    let mut writer = writer.lock().await;
    writer.write_all(&line).await?;
    writer.flush().await
}

struct Reader<R, W> {
    lines: BufReader<R>,
    line: Vec<u8>,
    writer: Arc<Mutex<W>>,
}

impl<R: AsyncRead + Unpin, W: AsyncWrite + Unpin> Reader<R, W> {
    /// The next message; `None` at the end of input (or when it cannot be
    /// read or answered). Refused lines are answered on the way.
    async fn next_message(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            let refusal = match self.read_line().await.ok()? {
                ReadLine::End => return None,
                ReadLine::Oversize => error(
                    Value::Null,
                    -32600,
                    &format!("invalid request: a line longer than {MAX_LINE} bytes"),
                ),
                ReadLine::Line => {
                    // The common case parses once, straight to the message.
                    match serde_json::from_slice(&self.line) {
                        Ok(message) => return Some(message),
                        Err(problem) => match classify(&self.line) {
                            Line::Blank => continue,
                            Line::Refuse(response) => response,
                            Line::Message => {
                                let object: Value =
                                    serde_json::from_slice(&self.line).unwrap_or_default();
                                error(
                                    object.get("id").cloned().unwrap_or(Value::Null),
                                    -32600,
                                    &format!("invalid request: {problem}"),
                                )
                            }
                        },
                    }
                }
            };
            let text = refusal.to_string().into_bytes();
            write_line(&self.writer, text).await.ok()?;
        }
    }

    async fn read_line(&mut self) -> std::io::Result<ReadLine> {
        self.line.clear();
        let read = (&mut self.lines)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.line)
            .await?;
        if read == 0 {
            return Ok(ReadLine::End);
        }
        if self.line.len() > MAX_LINE && !self.line.ends_with(b"\n") {
            // Skip the rest of the oversize line.
            loop {
                self.line.clear();
                let read = (&mut self.lines)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut self.line)
                    .await?;
                if read == 0 || self.line.ends_with(b"\n") {
                    return Ok(ReadLine::Oversize);
                }
            }
        }
        Ok(ReadLine::Line)
    }
}

enum ReadLine {
    Line,
    Oversize,
    End,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(line: &str) -> (i64, Value) {
        match classify(line.as_bytes()) {
            Line::Refuse(response) => (
                response["error"]["code"].as_i64().unwrap(),
                response["id"].clone(),
            ),
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn lines_are_sorted() {
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Line::Message
        );
        assert_eq!(
            classify(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#),
            Line::Message
        );
        assert_eq!(classify(b"  \r\n"), Line::Blank);
        assert_eq!(refusal("{not json"), (-32700, Value::Null));
        assert_eq!(refusal("[1,2]"), (-32600, Value::Null));
        assert_eq!(refusal(r#"{"id":7,"method":"ping"}"#), (-32600, json!(7)));
        assert_eq!(
            refusal(r#"{"jsonrpc":"2.0","id":"x"}"#),
            (-32600, json!("x"))
        );
        assert_eq!(
            refusal(r#"{"jsonrpc":"2.0","id":3,"method":4}"#),
            (-32600, json!(3))
        );
    }

    #[tokio::test]
    async fn a_bad_line_is_answered_and_the_next_one_passes() {
        use futures::StreamExt;
        let input: &'static [u8] = b"{bad\n\n{\"jsonrpc\":\"2.0\",\"id\":4}\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n";
        let (out, mut seen) = tokio::io::duplex(4096);
        let (_sink, mut stream) = transport(input, out);
        let message = stream.next().await.expect("the ping");
        assert!(
            serde_json::to_string(&message)
                .unwrap()
                .contains("\"ping\"")
        );
        assert!(stream.next().await.is_none());
        drop(stream);
        drop(_sink);
        let mut answered = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut seen, &mut answered)
            .await
            .unwrap();
        let codes: Vec<i64> = answered
            .lines()
            .map(|line| {
                serde_json::from_str::<Value>(line).unwrap()["error"]["code"]
                    .as_i64()
                    .unwrap()
            })
            .collect();
        assert_eq!(codes, [-32700, -32600]);
    }
}
