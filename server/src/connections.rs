//! Accepting connections (docs/security.md, "The server"): each one's
//! request headers must arrive within the server's header-read timeout
//! (default [`HEADER_READ_TIMEOUT`]), and at most
//! [`MAX_CONNECTIONS`] are open at once — a client that opens connections
//! and sends nothing (a slowloris, thousands of idle sockets) holds
//! neither memory nor a task for long. On shutdown, requests in flight
//! finish and idle connections close.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;

/// How long a client may take to send a request's headers, by default.
pub const HEADER_READ_TIMEOUT: Duration = Duration::from_secs(10);

/// Connections open at once; one more is closed as soon as it is accepted.
pub const MAX_CONNECTIONS: usize = 1024;

/// Serves `router` on `listener` until `shutdown` resolves, then lets the
/// requests in flight finish.
pub(crate) async fn serve<L>(
    mut listener: L,
    router: axum::Router,
    header_read_timeout: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()>
where
    L: axum::serve::Listener,
    L::Addr: std::fmt::Debug,
{
    let graceful = GracefulShutdown::new();
    let slots = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (io, _address) = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        // Past the cap the connection is dropped at once (closed).
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            continue;
        };
        let service = TowerToHyperService::new(router.clone());
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder
            .timer(TokioTimer::new())
            .header_read_timeout(header_read_timeout);
        let connection = builder.serve_connection(TokioIo::new(io), service);
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}
