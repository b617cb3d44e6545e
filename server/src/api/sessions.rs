//! Opening, using and closing sessions.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use goccia::{CallOptions, DiffFormat, Envelope};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiError, authorize, blocking, is_admin, json_body, refused};
use crate::clock::rfc3339;
use crate::grants::{Capability, DEFAULT_TTL, Grant, MAX_TTL, MIN_TTL, mint_token, token_hash};
use crate::server::Shared;
use crate::sessions::{SeedRequest, Session, SessionSpec, SnapshotTable, new_id};
use crate::store::{SessionRecord, snapshots};

type Shareds = State<Arc<Shared>>;

/// What `POST /v1/sandboxes` says besides the session's spec: the
/// workspace, its seeds, the grant. Every other field is the session's
/// spec, merged over the server's (docs/spec.md, "The server").
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OpenRequest {
    workspace: String,
    seeds: Vec<SeedRequest>,
    capabilities: Vec<Capability>,
    #[serde(default, deserialize_with = "crate::api::present")]
    ttl_seconds: Option<u64>,
    /// The rest: spec fields.
    #[serde(flatten)]
    spec: serde_json::Map<String, Value>,
}

/// A session the server will not open as asked: asking for more than the
/// server's own spec (a ceiling) or a bad value is 400 naming the setting
/// (docs/spec.md, "Ceilings"), a missing seed 404, a seed over a quota 403.
pub(crate) fn spec_refused(error: &crate::sessions::SpecError) -> ApiError {
    use crate::sessions::SpecError;
    let status = match error {
        SpecError::Wider(_) => StatusCode::BAD_REQUEST,
        SpecError::Setup(goccia::SetupError::Seed(goccia::SeedError::Missing(_))) => {
            StatusCode::NOT_FOUND
        }
        SpecError::Setup(goccia::SetupError::Seed(_)) if error_limit(error) => {
            StatusCode::FORBIDDEN
        }
        _ => StatusCode::BAD_REQUEST,
    };
    ApiError::new(status, "BAD_SESSION", error.to_string())
}

/// Whether a seed was refused by a limit (a quota).
fn error_limit(error: &crate::sessions::SpecError) -> bool {
    matches!(error, crate::sessions::SpecError::Setup(setup) if setup.limit().is_some())
}

/// What the server gives the build of session `id`: its trail scoped to
/// the session, JSON advice, its worker, and with the console on, the
/// console as its approver (used under `approve: console`; a request
/// waits at most the running call's deadline, else the server's timeout).
pub(crate) fn session_extras(shared: &Shared, id: &str) -> goccia::Extras {
    let fallback = Duration::from_millis(shared.config.spec.limits.timeout_ms);
    goccia::Extras {
        audit: Some(shared.config.audit.scoped()),
        advice: Some(goccia::spec::advice_for(goccia::Spelling::Json)),
        worker: shared.config.worker.clone(),
        approver: shared
            .console
            .as_ref()
            .map(|console| console.approver(id.to_string(), fallback)),
        ..goccia::Extras::default()
    }
}

pub(crate) fn check_ttl(ttl: u64) -> Result<u64, ApiError> {
    if (MIN_TTL..=MAX_TTL).contains(&ttl) {
        Ok(ttl)
    } else {
        Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "TTL_OUT_OF_RANGE",
            format!("ttlSeconds must be within {MIN_TTL} … {MAX_TTL} (30 days), not {ttl}"),
        ))
    }
}

/// `POST /v1/sandboxes` (admin token).
pub(crate) async fn open(
    State(shared): Shareds,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    if !is_admin(&shared, &headers) {
        return Err(refused(
            &shared,
            "/v1/sandboxes",
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "TOKEN_INVALID",
                "opening a sandbox takes the server's admin token",
            ),
        ));
    }
    let request: OpenRequest = json_body(&shared, "/v1/sandboxes", body)?;
    let mut capabilities = request.capabilities.clone();
    capabilities.sort();
    capabilities.dedup();
    if capabilities.is_empty() {
        return Err(ApiError::bad_request(
            "capabilities must name at least one of read, write, run, shell, diff, submit, child, fork",
        ));
    }
    let ttl = check_ttl(request.ttl_seconds.unwrap_or(DEFAULT_TTL))?;
    let Some(workspace) = shared.workspaces.get(&request.workspace).cloned() else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "WORKSPACE_NOT_FOUND",
            format!("no workspace named `{}`", request.workspace),
        ));
    };
    let nesting = capabilities.contains(&Capability::Child);
    let sandbox = crate::sessions::merged_spec(&shared.config.spec, request.spec)
        .map_err(|error| spec_refused(&error))?;
    let spec = SessionSpec {
        workspace: request.workspace,
        seeds: request.seeds,
        nesting,
        sandbox: Some(sandbox),
    };
    let worker = shared.clone();
    // Seeded and rooted under the workspace's fence: the root is what was
    // seeded, whatever another server submits meanwhile.
    let fence = shared
        .store
        .fence(&workspace)
        .await
        .map_err(ApiError::store)?;
    let id = new_id();
    let seeded = blocking(move || {
        let sandbox = spec
            .build(
                &workspace,
                &worker.config.spec,
                session_extras(&worker, &id),
            )
            .map_err(|error| spec_refused(&error))?;
        let root = workspace.root().map_err(ApiError::internal)?;
        let session = Arc::new(Session {
            id,
            spec,
            sandbox: Arc::new(sandbox),
            snapshots: Default::default(),
        });
        Ok((session, root))
    })
    .await;
    fence.release().await.map_err(ApiError::store)?;
    let (session, root) = seeded?;
    let id = session.id.clone();
    let (token, expires_at) = register(&shared, session, capabilities, ttl, None).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "sandboxId": id,
            "token": token,
            "expiresAt": rfc3339(expires_at),
            "root": root,
        })),
    ))
}

/// Makes `session` live: its grant (a fresh token, returned with its
/// expiry), what the store keeps of it, and its place among the open
/// sessions (and the console's, with the session it was forked from).
pub(crate) async fn register(
    shared: &Arc<Shared>,
    session: Arc<Session>,
    capabilities: Vec<Capability>,
    ttl: u64,
    parent: Option<&str>,
) -> Result<(String, u64), ApiError> {
    let token = mint_token();
    let expires_at = shared.now() + ttl;
    shared
        .store
        .insert_grant(&Grant {
            sandbox_id: session.id.clone(),
            token_hash: token_hash(&token),
            capabilities: capabilities.clone(),
            expires_at,
            revoked: false,
            owner: None,
        })
        .await
        .map_err(ApiError::store)?;
    let spec = serde_json::to_string(&session.spec).map_err(ApiError::internal)?;
    shared
        .store
        .put_session(&SessionRecord {
            sandbox_id: session.id.clone(),
            spec,
            owner: shared.server_id().to_string(),
        })
        .await
        .map_err(ApiError::store)?;
    show_on_console(shared, &session, &capabilities, expires_at, parent);
    shared.sessions.insert(session);
    Ok((token, expires_at))
}

/// Shows `session` on the console, if it is on.
fn show_on_console(
    shared: &Shared,
    session: &Session,
    capabilities: &[Capability],
    expires_at: u64,
    parent: Option<&str>,
) {
    let Some(console) = &shared.console else {
        return;
    };
    console.opened(crate::console::hub::SessionView {
        id: session.id.clone(),
        workspace: session.spec.workspace.clone(),
        opened_at: shared.now(),
        expires_at,
        capabilities: capabilities.iter().map(ToString::to_string).collect(),
        owner: shared.server_id().to_string(),
        parent: parent.map(str::to_string),
        snapshots: session
            .snapshots
            .lock()
            .numbered()
            .into_iter()
            .map(|(number, _)| number)
            .collect(),
        forks: Vec::new(),
        calls: 0,
    });
}

/// The session `grant` opens. Held by another server sharing the store:
/// 409 `SESSION_ELSEWHERE` (and a stale copy here is dropped). Not held
/// here but kept by the store (this server restarted): brought back from
/// its last persisted snapshot, else seeded again from its spec.
pub(crate) async fn session_of(
    shared: &Arc<Shared>,
    grant: &Grant,
) -> Result<Arc<Session>, ApiError> {
    let id = &grant.sandbox_id;
    if shared.moved_away(grant) {
        shared.forget(id);
        let owner = grant.owner.clone().unwrap_or_default();
        return Err(refused(
            shared,
            id,
            ApiError::new(
                StatusCode::CONFLICT,
                "SESSION_ELSEWHERE",
                format!(
                    "sandbox `{id}` is held by server `{owner}`; POST /v1/sandboxes/{id}/resume here to move it to this server"
                ),
            ),
        ));
    }
    if let Some(session) = shared.sessions.get(id) {
        return Ok(session);
    }
    let (session, _) = reopen(shared, id).await?;
    let held = shared.sessions.insert_or_get(session.clone());
    if Arc::ptr_eq(&held, &session) {
        show_on_console(shared, &held, &grant.capabilities, grant.expires_at, None);
    }
    Ok(held)
}

fn not_open(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "SANDBOX_NOT_FOUND",
        format!("no open sandbox `{id}`"),
    )
}

/// Builds session `id` from what the store keeps: seeded from its spec
/// (which sets where submits write back), then, if a snapshot was
/// persisted, its baseline and tree replaced by the latest one's. Returns
/// the session and the number of the snapshot it came from.
async fn reopen(shared: &Arc<Shared>, id: &str) -> Result<(Arc<Session>, Option<u64>), ApiError> {
    let record = shared
        .store
        .session(id)
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| not_open(id))?;
    let spec: SessionSpec = serde_json::from_str(&record.spec).map_err(|error| {
        ApiError::store(crate::store::StoreError::Corrupt {
            store: shared.store.describe(),
            reason: format!("the spec of `{id}`: {error}"),
        })
    })?;
    let workspace = shared
        .workspaces
        .get(&spec.workspace)
        .cloned()
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "WORKSPACE_NOT_FOUND",
                format!(
                    "sandbox `{id}` works on workspace `{}`, which this server does not serve",
                    spec.workspace
                ),
            )
        })?;
    let loaded = snapshots::find(shared.store.as_ref(), id, None)
        .await
        .map_err(ApiError::store)?;
    let worker = shared.clone();
    let id = id.to_string();
    blocking(move || {
        let sandbox = spec
            .build(
                &workspace,
                &worker.config.spec,
                session_extras(&worker, &id),
            )
            .map_err(|error| spec_refused(&error))?;
        let mut table = SnapshotTable::default();
        let from = match loaded {
            Some((number, saved, saved_store)) => {
                sandbox
                    .load_saved(saved_store.as_ref(), &saved)
                    .map_err(|error| {
                        super::snapshots::unloadable(
                            worker.store.describe(),
                            format!("snapshot {number} of `{id}`"),
                            error,
                        )
                    })?;
                // A sandbox just loaded holds no snapshot yet: within
                // every limit.
                let resumed = sandbox.snapshot().map_err(ApiError::internal)?;
                table = SnapshotTable::resumed(number, resumed);
                Some(number)
            }
            None => None,
        };
        let session = Arc::new(Session {
            id,
            spec,
            sandbox: Arc::new(sandbox),
            snapshots: parking_lot::Mutex::new(table),
        });
        Ok((session, from))
    })
    .await
}

/// Authorizes and finds the session in one step.
pub(crate) async fn authorized(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    id: &str,
    capability: Option<Capability>,
) -> Result<Arc<Session>, ApiError> {
    let grant = authorize(shared, headers, id, capability).await?;
    session_of(shared, &grant).await
}

/// `POST /v1/sandboxes/{id}/resume` (the session's token, any
/// capability): this server takes the session over, from its last
/// persisted snapshot (or seeded from its spec if it has none); the
/// server that held it answers `SESSION_ELSEWHERE` from then on.
pub(crate) async fn resume(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let grant = authorize(&shared, &headers, &id, None).await?;
    let (session, from) = reopen(&shared, &id).await?;
    shared
        .store
        .set_owner(&id, shared.server_id())
        .await
        .map_err(ApiError::store)?;
    shared.forget(&id);
    show_on_console(
        &shared,
        &session,
        &grant.capabilities,
        grant.expires_at,
        None,
    );
    shared.sessions.insert(session);
    Ok(Json(json!({
        "sandboxId": id,
        "snapshotId": from,
        "server": shared.server_id(),
    })))
}

/// `GET /v1/sandboxes/{id}` (the session's token, any capability): the
/// workspace, the seeds as asked, and the spec the sandbox was built
/// from — its seeds, secrets' sources and CA files left out, as they name
/// the server's host paths and variables (docs/network.md: a secret's name
/// is what a guest needs, in `secretHeaders`).
pub(crate) async fn describe(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let session = authorized(&shared, &headers, &id, None).await?;
    let mut spec = serde_json::to_value(session.sandbox.spec()).map_err(ApiError::internal)?;
    if let Some(fields) = spec.as_object_mut() {
        fields.remove("seeds");
        if let Some(network) = fields.get_mut("network").and_then(Value::as_object_mut) {
            network.remove("secrets");
            network.remove("caFiles");
        }
    }
    Ok(Json(json!({
        "sandboxId": session.id,
        "workspace": session.spec.workspace,
        "seeds": session.spec.seeds,
        "spec": spec,
    })))
}

/// `DELETE /v1/sandboxes/{id}`: revokes the token and drops the session.
pub(crate) async fn close(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    authorize(&shared, &headers, &id, None).await?;
    shared.store.revoke(&id).await.map_err(ApiError::store)?;
    shared
        .store
        .drop_session(&id)
        .await
        .map_err(ApiError::store)?;
    shared.forget(&id);
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RunRequest {
    #[serde(default, deserialize_with = "crate::api::present")]
    entry: Option<String>,
    #[serde(default, deserialize_with = "crate::api::present")]
    code: Option<String>,
    #[serde(default, deserialize_with = "crate::api::present")]
    timeout_ms: Option<u64>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ShellRequest {
    command: String,
    #[serde(default, deserialize_with = "crate::api::present")]
    timeout_ms: Option<u64>,
    /// The call's own working folder (for this call alone).
    #[serde(default, deserialize_with = "crate::api::present")]
    cwd: Option<String>,
    /// Variables bound for this call alone.
    #[serde(default, deserialize_with = "crate::api::present")]
    env: Option<std::collections::BTreeMap<String, String>>,
}

/// A call's options: its `timeoutMs`, capped by the session's timeout
/// (itself at most the server's), so no call outlasts what the server
/// allows.
fn call_options(session: &Session, timeout_ms: Option<u64>) -> Result<CallOptions, ApiError> {
    let Some(ms) = timeout_ms else {
        return Ok(CallOptions::new());
    };
    let ceiling = session.sandbox.limits().timeout;
    CallOptions::new()
        .requested_timeout(Duration::from_millis(ms), Some(ceiling))
        .map_err(|error| ApiError::bad_request(error.spelled(goccia::Spelling::Json)))
}

/// Tells the console a call of `session` starts: an escalation it asks
/// for waits at most its deadline (`timeoutMs`, else the session's).
fn call_starts(shared: &Shared, session: &Session, options: &CallOptions) {
    if let Some(console) = &shared.console {
        let timeout = options.timeout_or(session.sandbox.limits().timeout);
        console.call_started(&session.id, std::time::Instant::now() + timeout);
    }
}

/// The `--json` envelope of one call of `kind` (`command` as asked): its
/// events are that call's own, recorded in the session's own trail after
/// `mark`; the call is counted in the server's metrics and shown on the
/// console.
fn envelope(
    shared: &Shared,
    kind: &'static str,
    command: &str,
    session: &Session,
    run: &goccia::Run,
    mark: usize,
) -> Json<Value> {
    let envelope = Envelope::of_call(&session.sandbox, run, mark);
    shared.metrics.call(kind, &envelope, run.duration);
    if let Some(console) = &shared.console {
        console.call_ended(
            &session.id,
            crate::console::hub::Ended {
                kind,
                command,
                exit_code: envelope.exit_code,
                failure: envelope.failure_kind.map(|kind| kind.as_str()),
                stdout: &envelope.stdout,
                stderr: &envelope.stderr,
                took: run.duration,
                at: shared.now(),
            },
        );
    }
    Json(serde_json::to_value(envelope).unwrap_or(Value::Null))
}

/// `POST .../run` `{entry | code, timeoutMs}` → the `--json` envelope.
pub(crate) async fn run(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let span = super::request_span(&headers, "/v1/sandboxes/{id}/run", &id);
    let session = tracing::Instrument::instrument(
        authorized(&shared, &headers, &id, Some(Capability::Run)),
        span.clone(),
    )
    .await?;
    let request: RunRequest = json_body(&shared, &id, body)?;
    let options = call_options(&session, request.timeout_ms)?;
    let worker = shared.clone();
    blocking(move || {
        let _entered = span.enter();
        let mark = session.sandbox.engine().audit.mark();
        call_starts(&worker, &session, &options);
        // What the console's timeline names the call by: its entry, or its code.
        let (run, command) = match (&request.entry, &request.code) {
            (Some(entry), None) => (session.sandbox.run_script_with(entry, &options), entry),
            (None, Some(code)) => (session.sandbox.run_code_with(code, &options), code),
            _ => {
                return Err(ApiError::bad_request(
                    "give exactly one of `entry` and `code`",
                ));
            }
        };
        let run = run.map_err(|error| ApiError::bad_request(error.to_string()))?;
        Ok(envelope(&worker, "run", command, &session, &run, mark))
    })
    .await
}

/// `POST .../shell` `{command, timeoutMs}` → the `--json` envelope.
pub(crate) async fn shell(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let span = super::request_span(&headers, "/v1/sandboxes/{id}/shell", &id);
    let session = tracing::Instrument::instrument(
        authorized(&shared, &headers, &id, Some(Capability::Shell)),
        span.clone(),
    )
    .await?;
    let request: ShellRequest = json_body(&shared, &id, body)?;
    let mut options = call_options(&session, request.timeout_ms)?;
    if let Some(cwd) = &request.cwd {
        options = options.cwd(cwd);
    }
    for (name, value) in request.env.iter().flatten() {
        options = options.env(name, value);
    }
    let worker = shared.clone();
    blocking(move || {
        let _entered = span.enter();
        let mark = session.sandbox.engine().audit.mark();
        call_starts(&worker, &session, &options);
        let run = session
            .sandbox
            .run_shell_with(&request.command, &options)
            .map_err(|error| match error {
                // The caller's own folder is no folder: its request's fault.
                goccia::RunError::Cwd { .. } => ApiError::bad_request(error.to_string()),
                error => ApiError::internal(error),
            })?;
        Ok(envelope(
            &worker,
            "shell",
            &request.command,
            &session,
            &run,
            mark,
        ))
    })
    .await
}

#[derive(Deserialize)]
pub(crate) struct DiffQuery {
    format: Option<String>,
}

/// `GET .../diff?format=json|unified`.
pub(crate) async fn diff(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    query: Result<Query<DiffQuery>, QueryRejection>,
) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    let session = authorized(&shared, &headers, &id, Some(Capability::Diff)).await?;
    let Query(query) = query.map_err(|rejection| ApiError::bad_request(rejection.body_text()))?;
    let name = query.format.as_deref().unwrap_or("json");
    let Some(format) = DiffFormat::parse(name) else {
        return Err(ApiError::bad_request(format!(
            "format must be json or unified, not `{name}`"
        )));
    };
    let text = blocking(move || Ok(session.sandbox.diff(format))).await?;
    let kind = match format {
        DiffFormat::Json => "application/json",
        DiffFormat::Unified => "text/x-diff; charset=utf-8",
    };
    Ok(([(axum::http::header::CONTENT_TYPE, kind)], text).into_response())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RenewRequest {
    #[serde(default, deserialize_with = "crate::api::present")]
    ttl_seconds: Option<u64>,
}

/// `POST .../renew` `{ttlSeconds}` → `{expiresAt}`: extends, never
/// shortens.
pub(crate) async fn renew(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let grant = authorize(&shared, &headers, &id, None).await?;
    let request: RenewRequest = super::optional_json_body(&shared, &id, body)?;
    let ttl = check_ttl(request.ttl_seconds.unwrap_or(DEFAULT_TTL))?;
    let expires_at = grant.expires_at.max(shared.now() + ttl);
    shared
        .store
        .set_expiry(&id, expires_at)
        .await
        .map_err(ApiError::store)?;
    if let Some(console) = &shared.console {
        console.renewed(&id, expires_at);
    }
    Ok(Json(json!({"expiresAt": rfc3339(expires_at)})))
}
