//! The stdio framing in front of the protocol: one JSON-RPC message per
//! line. A line that is not JSON, or not a JSON-RPC message, is answered
//! here with the JSON-RPC error it deserves (`-32700` parse error,
//! `-32600` invalid request) instead of being dropped without a word, and
//! the session goes on. Lines that are messages pass through unchanged;
//! so do the protocol's own lines on the way out, whole, so an error line
//! never lands inside one of them.

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

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

/// Copies `client` to `protocol_in` line by line, answering lines that
/// are not messages through `refusals`.
pub async fn inbound(
    client: impl AsyncRead + Unpin,
    mut protocol_in: impl AsyncWrite + Unpin,
    refusals: mpsc::UnboundedSender<Value>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(client);
    let mut line = Vec::new();
    loop {
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut line)
            .await?;
        if read == 0 {
            return Ok(());
        }
        if line.len() > MAX_LINE && !line.ends_with(b"\n") {
            let _ = refusals.send(error(
                Value::Null,
                -32600,
                &format!("invalid request: a line longer than {MAX_LINE} bytes"),
            ));
            // Skip the rest of the oversize line.
            loop {
                line.clear();
                let read = (&mut reader)
                    .take(MAX_LINE as u64)
                    .read_until(b'\n', &mut line)
                    .await?;
                if read == 0 {
                    return Ok(());
                }
                if line.ends_with(b"\n") {
                    break;
                }
            }
            continue;
        }
        match classify(&line) {
            Line::Message => {
                if !line.ends_with(b"\n") {
                    line.push(b'\n');
                }
                protocol_in.write_all(&line).await?;
                protocol_in.flush().await?;
            }
            Line::Blank => {}
            Line::Refuse(response) => {
                let _ = refusals.send(response);
            }
        }
    }
}

/// Copies the protocol's lines to `client`, with refusals between them.
pub async fn outbound(
    protocol_out: impl AsyncRead + Unpin,
    mut client: impl AsyncWrite + Unpin,
    mut refusals: mpsc::UnboundedReceiver<Value>,
) -> std::io::Result<()> {
    let mut reader = BufReader::new(protocol_out);
    let mut line = Vec::new();
    let mut refusals_open = true;
    loop {
        line.clear();
        tokio::select! {
            read = reader.read_until(b'\n', &mut line) => {
                if read? == 0 {
                    return client.flush().await;
                }
                client.write_all(&line).await?;
                client.flush().await?;
            }
            refusal = refusals.recv(), if refusals_open => match refusal {
                Some(response) => {
                    let mut text = response.to_string().into_bytes();
                    text.push(b'\n');
                    client.write_all(&text).await?;
                    client.flush().await?;
                }
                None => refusals_open = false,
            },
        }
    }
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
        let input = b"{bad\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n".to_vec();
        let (protocol_in, mut protocol_side) = tokio::io::duplex(1024);
        let (send, mut receive) = mpsc::unbounded_channel();
        inbound(&input[..], protocol_in, send).await.unwrap();
        let mut forwarded = String::new();
        tokio::io::AsyncReadExt::read_to_string(&mut protocol_side, &mut forwarded)
            .await
            .unwrap();
        assert_eq!(
            forwarded,
            "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n"
        );
        assert_eq!(receive.recv().await.unwrap()["error"]["code"], -32700);
    }
}
