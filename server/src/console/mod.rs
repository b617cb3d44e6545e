//! The web console (`goccia serve --console`, docs/console.md): one page a
//! person opens to watch the live sessions, read their timelines and
//! diffs, and approve or deny escalation requests while the calls wait.
//!
//! The page and its script are built into the binary and load nothing
//! from elsewhere (a strict Content-Security-Policy says so to the
//! browser). Everything past the page takes the admin token as a bearer
//! header — never in a URL, a cookie or the browser's storage — so a link
//! or another site's form carries no authority; live updates are
//! server-sent events read through `fetch`, which can send that header.

pub(crate) mod hub;

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use goccia::{Decision, DiffFormat};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::{ApiError, blocking, is_admin, json_body, refused};
use crate::server::Shared;
use hub::Console;

const PAGE: &str = include_str!("assets/index.html");
const SCRIPT: &str = include_str!("assets/console.js");
const STYLE: &str = include_str!("assets/console.css");

/// Nothing from elsewhere, no inline script, no framing.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; \
frame-ancestors 'none'";

/// The console's routes (merged into the API's when it is on).
pub(crate) fn routes() -> Router<Arc<Shared>> {
    Router::new()
        .route("/console", get(|| asset(PAGE, "text/html; charset=utf-8")))
        .route(
            "/console/console.js",
            get(|| asset(SCRIPT, "text/javascript; charset=utf-8")),
        )
        .route(
            "/console/console.css",
            get(|| asset(STYLE, "text/css; charset=utf-8")),
        )
        .route("/console/api/state", get(state))
        .route("/console/api/events", get(events))
        .route("/console/api/sessions/{id}", get(session))
        .route("/console/api/sessions/{id}/diff", get(diff))
        .route("/console/api/escalations/{id}", post(decide))
}

async fn asset(body: &'static str, kind: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// A request that carries the admin token, on a server whose console is
/// on: the console's data is the operator's alone.
struct Operator(Arc<Console>);

impl FromRequestParts<Arc<Shared>> for Operator {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        shared: &Arc<Shared>,
    ) -> Result<Self, Self::Rejection> {
        let console = shared.console.clone().ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "NOT_FOUND",
                "the console is off: start the server with --console",
            )
        })?;
        if !is_admin(shared, &parts.headers) {
            return Err(refused(
                shared,
                parts.uri.path(),
                ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "TOKEN_INVALID",
                    "the console takes the server's admin token",
                ),
            ));
        }
        Ok(Operator(console))
    }
}

/// `GET /console/api/state`: the live sessions, the waiting requests, the
/// workspaces.
async fn state(State(shared): State<Arc<Shared>>, Operator(console): Operator) -> Json<Value> {
    let mut workspaces: Vec<&String> = shared.workspaces.keys().collect();
    workspaces.sort();
    Json(json!({
        "server": shared.server_id(),
        "now": shared.now(),
        "sessions": console.sessions(),
        "escalations": console.pending(),
        "workspaces": workspaces,
    }))
}

fn no_session(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "SANDBOX_NOT_FOUND",
        format!("no session `{id}` is live on this server"),
    )
}

/// `GET /console/api/sessions/{id}`: the session and its timeline.
async fn session(
    Operator(console): Operator,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let (session, timeline) = console.session(&id).ok_or_else(|| no_session(&id))?;
    Ok(Json(json!({"session": session, "timeline": timeline})))
}

/// `GET /console/api/sessions/{id}/diff`: its diff as a patch.
async fn diff(
    State(shared): State<Arc<Shared>>,
    Operator(_): Operator,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let session = shared.sessions.get(&id).ok_or_else(|| no_session(&id))?;
    let text = blocking(move || Ok(session.sandbox.diff(DiffFormat::Unified))).await?;
    Ok(([(header::CONTENT_TYPE, "text/x-diff; charset=utf-8")], text).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DecideRequest {
    decision: Verdict,
}

#[derive(Deserialize)]
#[serde(rename_all = "lowercase")]
enum Verdict {
    Approve,
    Deny,
}

/// `POST /console/api/escalations/{id}` `{decision: approve | deny}`.
async fn decide(
    State(shared): State<Arc<Shared>>,
    Operator(console): Operator,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<StatusCode, ApiError> {
    let request: DecideRequest = json_body(&shared, &id, body)?;
    let decision = match request.decision {
        Verdict::Approve => Decision::AllowedOnce,
        Verdict::Deny => Decision::Rejected,
    };
    console.decide(&id, decision).map_err(|error| {
        refused(
            &shared,
            &id,
            ApiError::new(
                StatusCode::NOT_FOUND,
                "ESCALATION_NOT_WAITING",
                error.to_string(),
            ),
        )
    })?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /console/api/events`: server-sent events, `ready` first (the page
/// loads the state then, so nothing falls between), then `session`,
/// `session-closed`, `call`, `escalation`, `escalation-ended` and
/// `change`; `resync` when the page fell too far behind to catch up.
async fn events(Operator(console): Operator) -> impl IntoResponse {
    let (events, closed) = console.subscribe();
    let ready = futures_util::stream::once(async {
        Ok::<_, std::convert::Infallible>(SseEvent::default().event("ready").data("{}"))
    });
    let rest =
        futures_util::stream::unfold((events, closed), |(mut events, mut closed)| async move {
            use tokio::sync::broadcast::error::RecvError;
            let event = tokio::select! {
                received = events.recv() => match received {
                    Ok(event) => SseEvent::default().event(event.name).data(event.data),
                    Err(RecvError::Lagged(_)) => SseEvent::default().event("resync").data("{}"),
                    Err(RecvError::Closed) => return None,
                },
                _ = closed.wait_for(|closed| *closed) => return None,
            };
            Some((Ok(event), (events, closed)))
        });
    let mut response = Sse::new(futures_util::StreamExt::chain(ready, rest))
        .keep_alive(KeepAlive::default())
        .into_response();
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
