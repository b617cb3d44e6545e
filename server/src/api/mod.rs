//! The HTTP API (docs/server.md): small handlers over the shared state.
//! Sandbox work runs on blocking threads, so a slow session never stalls
//! the others. Every error is `{"error": "<CODE>", "message": "..."}`,
//! and every refusal is an audit event.

mod files;
mod sessions;
mod snapshots;
mod submit;

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::BytesRejection;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::access::resolve;
use crate::grants::{Capability, Grant, Refusal};
use crate::server::Shared;

/// Every route of the API, and `more` (the console's, when it is on).
pub(crate) fn router(shared: Arc<Shared>, more: Router<Arc<Shared>>) -> Router {
    let max_body = shared.config.max_body_bytes;
    Router::new()
        .route("/v1/openapi.json", get(openapi))
        .route("/metrics", get(metrics))
        .route("/v1/sandboxes", post(sessions::open))
        .route(
            "/v1/sandboxes/{id}",
            get(sessions::describe).delete(sessions::close),
        )
        .route("/v1/sandboxes/{id}/run", post(sessions::run))
        .route("/v1/sandboxes/{id}/shell", post(sessions::shell))
        .route("/v1/sandboxes/{id}/diff", get(sessions::diff))
        .route(
            "/v1/sandboxes/{id}/snapshots",
            post(snapshots::snapshot).get(snapshots::list),
        )
        .route("/v1/sandboxes/{id}/restore", post(snapshots::restore))
        .route("/v1/sandboxes/{id}/fork", post(snapshots::fork))
        .route("/v1/sandboxes/{id}/renew", post(sessions::renew))
        .route("/v1/sandboxes/{id}/resume", post(sessions::resume))
        .route("/v1/sandboxes/{id}/submit", post(submit::submit))
        .route(
            "/v1/sandboxes/{id}/files/{*path}",
            get(files::read).put(files::write).delete(files::remove),
        )
        .route("/v1/workspaces/{name}/root", get(submit::root))
        .route("/v1/changes", get(submit::changes))
        .merge(more)
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(max_body))
        .with_state(shared)
}

async fn openapi() -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        crate::OPENAPI,
    )
        .into_response()
}

/// `GET /metrics` (admin token): the Prometheus text format.
async fn metrics(
    axum::extract::State(shared): axum::extract::State<Arc<Shared>>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    if !is_admin(&shared, &headers) {
        return Err(refused(
            &shared,
            "/metrics",
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "TOKEN_INVALID",
                "/metrics takes the server's admin token",
            ),
        ));
    }
    let sessions = shared.sessions.all();
    let bytes = sessions
        .iter()
        .map(|session| session.sandbox.usage().bytes)
        .sum();
    let text = shared.metrics.render(sessions.len(), bytes);
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    )
        .into_response())
}

async fn not_found() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "NOT_FOUND", "no such endpoint")
}

/// An error answer.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    /// `VIEW_STALE`'s `currentRoot`.
    current_root: Option<String>,
    /// `VIEW_STALE`'s `files`: what the host changed under the session.
    stale_files: Vec<String>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        ApiError {
            status,
            code,
            message: message.into(),
            current_root: None,
            stale_files: Vec::new(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, "BAD_REQUEST", message)
    }

    pub fn internal(message: impl std::fmt::Display) -> Self {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "INTERNAL",
            message.to_string(),
        )
    }

    /// The store failed or cannot be reached: 503, the request may be
    /// retried; nothing was done that the answer would acknowledge.
    pub fn store(error: crate::store::StoreError) -> Self {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "STORE_UNAVAILABLE",
            error.to_string(),
        )
    }

    /// Whether this is `VIEW_STALE` (the workspace moved under a submit).
    pub fn is_stale(&self) -> bool {
        self.code == "VIEW_STALE"
    }

    pub fn stale(current_root: String) -> Self {
        ApiError {
            current_root: Some(current_root),
            ..ApiError::new(
                StatusCode::CONFLICT,
                "VIEW_STALE",
                "the workspace changed since the root this submit expects; nothing was written",
            )
        }
    }

    /// `409 VIEW_STALE` for files a submit would overwrite that no longer
    /// hold what the session's baseline saw (the root may match: work
    /// landed and the session resubmitted with the new root).
    pub fn stale_files(current_root: String, files: Vec<String>) -> Self {
        ApiError {
            current_root: Some(current_root),
            stale_files: files.clone(),
            ..ApiError::new(
                StatusCode::CONFLICT,
                "VIEW_STALE",
                format!(
                    "these files changed in the workspace since this session saw them: {}; nothing was written",
                    files.join(", ")
                ),
            )
        }
    }

    fn refusal(refusal: &Refusal) -> Self {
        let status = match refusal {
            Refusal::Invalid | Refusal::Expired(_) | Refusal::Revoked => StatusCode::UNAUTHORIZED,
            Refusal::WrongSandbox | Refusal::CapabilityDenied(_) => StatusCode::FORBIDDEN,
        };
        ApiError::new(status, refusal.code(), refusal.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = json!({"error": self.code, "message": self.message});
        if let Some(root) = self.current_root {
            body["currentRoot"] = json!(root);
        }
        if !self.stale_files.is_empty() {
            body["files"] = json!(self.stale_files);
        }
        (self.status, axum::Json(body)).into_response()
    }
}

/// Records a refusal in the audit trail and hands it back.
pub(crate) fn refused(shared: &Shared, subject: &str, error: ApiError) -> ApiError {
    shared.config.audit.record(
        "server",
        "deny",
        subject,
        Some(format!("{}: {}", error.code, error.message)),
    );
    error
}

/// The bearer token of a request.
pub(crate) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?
        .strip_prefix("Bearer ")
        .map(str::trim)
}

/// The grant of a session request needing `capability`, resolved against
/// the store now.
pub(crate) async fn authorize(
    shared: &Shared,
    headers: &HeaderMap,
    sandbox_id: &str,
    capability: Option<Capability>,
) -> Result<Grant, ApiError> {
    let started = std::time::Instant::now();
    let resolved = tracing::Instrument::instrument(
        resolve(
            shared.store.as_ref(),
            shared.now(),
            bearer(headers),
            sandbox_id,
            capability,
        ),
        tracing::info_span!("goccia.store", db.operation.name = "grant"),
    )
    .await
    .map_err(ApiError::store)?;
    shared.metrics.store("grant", started.elapsed());
    resolved.map_err(|refusal| refused(shared, sandbox_id, ApiError::refusal(&refusal)))
}

/// The span of one request on session `id` (docs/telemetry.md): the child
/// of the caller's trace when the request carries a W3C `traceparent`.
pub(crate) fn request_span(headers: &HeaderMap, route: &'static str, id: &str) -> tracing::Span {
    let span = tracing::info_span!("goccia.request", http.route = route, goccia.sandbox.id = id,);
    if let Some(parent) = headers
        .get("traceparent")
        .and_then(|value| value.to_str().ok())
    {
        goccia::telemetry::continue_trace(&span, parent);
    }
    span
}

/// Whether the request carries the admin token (compared in constant time).
pub(crate) fn is_admin(shared: &Shared, headers: &HeaderMap) -> bool {
    let Some(token) = bearer(headers) else {
        return false;
    };
    let expected = shared.config.admin_token.as_bytes();
    let given = token.as_bytes();
    given.len() == expected.len()
        && given
            .iter()
            .zip(expected)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// A JSON body: bounded by the body limit, parsed strictly (unknown fields
/// refused), each problem named.
pub(crate) fn json_body<T: DeserializeOwned>(
    shared: &Shared,
    subject: &str,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let bytes = body_bytes(shared, subject, body)?;
    let invalid = |problem: String| refused(shared, subject, ApiError::bad_request(problem));
    let value: serde_json::Value = serde_json::from_slice(&bytes)
        .map_err(|error| invalid(format!("the request body is not JSON: {error}")))?;
    // serde would also take a struct as an array of its fields.
    if !value.is_object() {
        return Err(invalid(
            "the request body must be a JSON object".to_string(),
        ));
    }
    serde_json::from_value(value)
        .map_err(|error| invalid(format!("the request body is not valid: {error}")))
}

/// [`json_body`] for a request whose every field is optional: an empty
/// body is `{}` (a `renew` with no body renews by the default TTL).
pub(crate) fn optional_json_body<T: DeserializeOwned>(
    shared: &Shared,
    subject: &str,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    match body {
        Ok(bytes) if bytes.iter().all(u8::is_ascii_whitespace) => {
            json_body(shared, subject, Ok(Bytes::from_static(b"{}")))
        }
        other => json_body(shared, subject, other),
    }
}

/// A raw body, bounded (413 `BODY_TOO_LARGE` past the limit).
pub(crate) fn body_bytes(
    shared: &Shared,
    subject: &str,
    body: Result<Bytes, BytesRejection>,
) -> Result<Bytes, ApiError> {
    body.map_err(|rejection| {
        let error = if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "BODY_TOO_LARGE",
                format!(
                    "the request body is over the server's limit of {} bytes",
                    shared.config.max_body_bytes
                ),
            )
        } else {
            ApiError::bad_request(format!("the request body could not be read: {rejection}"))
        };
        refused(shared, subject, error)
    })
}

pub(crate) use crate::sessions::present;

/// Runs sandbox work on a blocking thread.
pub(crate) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|error| ApiError::internal(format!("the worker thread failed: {error}")))?
}
