//! The two transports: stdio (one session for the life of the process)
//! and streamable HTTP (a session per MCP session id, each with its own
//! sandbox), the latter only with a bearer token.

use std::future::Future;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::ServiceExt;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use crate::config::McpConfig;
use crate::framing;
use crate::handles::Caller;
use crate::tools::{GocciaMcp, Shared};

/// Why a server stopped or could not start.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    /// The sandbox could not be made from the options (nothing served).
    #[error("{0}")]
    Setup(#[from] goccia::SetupError),
    /// The client never completed the handshake.
    #[error("the MCP handshake failed: {0}")]
    Handshake(String),
    /// Reading or writing the transport failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Serves one session on stdin/stdout until the client closes it, on a
/// runtime of its own: one worker thread with the stack the shell needs
/// ([`goccia::deep_stack`]), so a `shell` call runs in place on it while
/// the sandbox's session is idle — no thread is woken to run it, or to
/// hear its answer (bench/README.md, issue 46). While a call runs the
/// server reads nothing else; a question for the client (an escalation)
/// hands the worker's other tasks to another thread while it waits
/// ([`crate::approval::wait_aside`]), and other tools block aside as before.
pub fn run_stdio(config: McpConfig) -> Result<(), McpError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_stack_size(goccia::deep_stack::STACK)
        .on_thread_start(|| {
            goccia::deep_stack::adopt_current();
        })
        .enable_all()
        .build()?;
    let served = runtime.block_on(serve_stdio(config));
    // Blocking threads may still hold a finished session's sandbox.
    runtime.shutdown_background();
    served
}

/// Serves one session on stdin/stdout until the client closes it. Lines
/// that are not JSON-RPC messages are answered with protocol errors
/// ([`crate::framing`]) and the session goes on.
async fn serve_stdio(config: McpConfig) -> Result<(), McpError> {
    let session = GocciaMcp::new(&config)?;
    // Pipes (how clients start servers) are driven by the IO reactor, not
    // the blocking pool: no thread hand-off per message.
    let (stdin, stdout) = rmcp::transport::io::stdio_pipes();
    let running = match session.serve(framing::transport(stdin, stdout)).await {
        Ok(running) => running,
        // The client left before saying anything: nothing to serve.
        Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(error) => return Err(McpError::Handshake(error.to_string())),
    };
    let quit = running.waiting().await;
    quit.map_err(|error| McpError::Io(std::io::Error::other(error)))?;
    Ok(())
}

/// Serves streamable HTTP at `/mcp` on `listener` until `shutdown`
/// completes. Every request must carry `Authorization: Bearer <token>`
/// with one of `tokens` (else 401, before the protocol sees it); each
/// token is a caller of its own, whose sandbox handles no other token
/// opens. Each MCP session gets its own sandbox; the factory is tried once
/// before serving.
pub async fn serve_http(
    config: McpConfig,
    listener: tokio::net::TcpListener,
    tokens: Vec<String>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), McpError> {
    // One state for every request: handles outlive the request that
    // opened them (the 2026-07-28 revision has no session to hold them).
    let shared = Shared::new(&config)?;
    let cancel = CancellationToken::new();
    let service = StreamableHttpService::new(
        move || Ok(GocciaMcp::with_shared(shared.clone())),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_cancellation_token(cancel.child_token()),
    );
    let expected: Arc<Vec<String>> = Arc::new(
        tokens
            .iter()
            .map(|token| format!("Bearer {token}"))
            .collect(),
    );
    let router =
        axum::Router::new()
            .nest_service("/mcp", service)
            .layer(axum::middleware::from_fn(
                move |request: Request, next: Next| {
                    let expected = expected.clone();
                    async move { authorize(&expected, request, next).await }
                },
            ));
    axum::serve(listener, router)
        .with_graceful_shutdown(async move {
            shutdown.await;
            cancel.cancel();
        })
        .await?;
    Ok(())
}

async fn authorize(expected: &[String], mut request: Request, next: Next) -> Response {
    let given = request
        .headers()
        .get(header::AUTHORIZATION)
        .map(|value| value.as_bytes().to_vec())
        .unwrap_or_default();
    // Every token is compared (no early exit): the time taken does not
    // tell which one a guess came close to.
    let matched = expected
        .iter()
        .map(|token| constant_time_eq(&given, token.as_bytes()))
        .fold(false, |any, this| any | this);
    if matched {
        // The caller is the token, hashed: handles are bound to it.
        let caller = Caller(blake3::hash(&given).to_hex().to_string());
        request.extensions_mut().insert(caller);
        return next.run(request).await;
    }
    let message = if given.is_empty() {
        "this MCP server requires Authorization: Bearer <token> (the token of --token-file)"
    } else {
        "the bearer token is not this server's"
    };
    (
        StatusCode::UNAUTHORIZED,
        [
            (header::WWW_AUTHENTICATE, "Bearer"),
            (header::CONTENT_TYPE, "application/json"),
        ],
        serde_json::json!({"error": "TOKEN_INVALID", "message": message}).to_string(),
    )
        .into_response()
}

/// Compares without an early exit on the first differing byte, so the
/// time taken does not tell how much of a guess was right.
fn constant_time_eq(given: &[u8], expected: &[u8]) -> bool {
    if given.len() != expected.len() {
        return false;
    }
    given
        .iter()
        .zip(expected)
        .fold(0u8, |acc, (a, b)| acc | (a ^ b))
        == 0
}

#[cfg(test)]
mod tests {
    use super::constant_time_eq;

    #[test]
    fn tokens_compare_exactly() {
        assert!(constant_time_eq(b"Bearer abc", b"Bearer abc"));
        assert!(!constant_time_eq(b"Bearer abd", b"Bearer abc"));
        assert!(!constant_time_eq(b"Bearer ab", b"Bearer abc"));
        assert!(!constant_time_eq(b"", b"Bearer abc"));
    }
}
