//! Opening, using and closing sessions.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use goccia::{CallOptions, DiffFormat, Envelope, PolicyMode};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiError, authorize, blocking, is_admin, json_body, refused};
use crate::clock::rfc3339;
use crate::grants::{Capability, DEFAULT_TTL, Grant, MAX_TTL, MIN_TTL, mint_token, token_hash};
use crate::server::Shared;
use crate::sessions::{LimitsRequest, SeedRequest, SeedingRequest, Session, SessionSpec, new_id};

type Shareds = State<Arc<Shared>>;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct OpenRequest {
    workspace: String,
    seeds: Vec<SeedRequest>,
    capabilities: Vec<Capability>,
    #[serde(default, deserialize_with = "crate::api::present")]
    ttl_seconds: Option<u64>,
    #[serde(default, deserialize_with = "crate::api::present")]
    policy: Option<PolicyMode>,
    #[serde(default)]
    limits: LimitsRequest,
    #[serde(default)]
    exclude: Vec<String>,
    #[serde(default)]
    gitignore: bool,
    #[serde(default, deserialize_with = "crate::api::present")]
    symlinks: Option<String>,
    #[serde(default)]
    env: Vec<EnvVar>,
    #[serde(default)]
    writable: Vec<String>,
}

/// One exported variable of a session: `{name, value}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnvVar {
    name: String,
    value: String,
}

/// A session the server will not open as asked: a ceiling (limits,
/// policy, quota) is 403, a missing seed 404, anything else 400.
fn spec_refused(error: &crate::sessions::SpecError) -> ApiError {
    use crate::sessions::SpecError;
    let status = match error {
        SpecError::Limit { .. } | SpecError::Policy { .. } => StatusCode::FORBIDDEN,
        SpecError::Setup(setup) if setup.limit().is_some() => StatusCode::FORBIDDEN,
        SpecError::Setup(goccia::SetupError::Seed(_)) => StatusCode::NOT_FOUND,
        _ => StatusCode::BAD_REQUEST,
    };
    ApiError::new(status, "BAD_SESSION", error.to_string())
}

fn check_ttl(ttl: u64) -> Result<u64, ApiError> {
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
            "capabilities must name at least one of read, write, run, shell, diff, submit, child",
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
    let spec = SessionSpec {
        workspace: request.workspace,
        seeds: request.seeds,
        policy: request.policy.unwrap_or(shared.config.policy),
        limits: request.limits,
        nesting: capabilities.contains(&Capability::Child),
        seeding: SeedingRequest {
            exclude: request.exclude,
            gitignore: request.gitignore,
            symlinks: request.symlinks,
            env: request
                .env
                .into_iter()
                .map(|var| (var.name, var.value))
                .collect(),
            writable: request.writable,
        },
    };
    let worker = shared.clone();
    let (session, root) = blocking(move || {
        // Seeded and rooted under the lock: the root is what was seeded.
        let _lock = workspace.lock().map_err(ApiError::internal)?;
        let sandbox = spec
            .build(
                &workspace,
                &worker.config.limits,
                worker.config.policy,
                &worker.config.audit,
            )
            .map_err(|error| spec_refused(&error))?;
        let root = workspace.root().map_err(ApiError::internal)?;
        let session = Arc::new(Session {
            id: new_id(),
            spec,
            sandbox: Arc::new(sandbox),
            snapshots: Default::default(),
        });
        Ok((session, root))
    })
    .await?;
    let token = mint_token();
    let expires_at = shared.now() + ttl;
    shared
        .grants
        .insert(&Grant {
            sandbox_id: session.id.clone(),
            token_hash: token_hash(&token),
            capabilities,
            expires_at,
            revoked: false,
        })
        .map_err(ApiError::internal)?;
    if let Some(store) = &shared.sqlite {
        let spec = serde_json::to_string(&session.spec).map_err(ApiError::internal)?;
        store
            .put_session(&session.id, &spec)
            .map_err(ApiError::internal)?;
    }
    let id = session.id.clone();
    shared.sessions.insert(session);
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

/// The open session `id` (seeded again from its spec if the grant outlived
/// a restart).
pub(crate) async fn session_of(shared: &Arc<Shared>, id: &str) -> Result<Arc<Session>, ApiError> {
    if let Some(session) = shared.sessions.get(id) {
        return Ok(session);
    }
    let missing = || {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "SANDBOX_NOT_FOUND",
            format!("no open sandbox `{id}`"),
        )
    };
    let Some(store) = &shared.sqlite else {
        return Err(missing());
    };
    let Some(spec) = store.session(id).map_err(ApiError::internal)? else {
        return Err(missing());
    };
    let spec: SessionSpec = serde_json::from_str(&spec).map_err(ApiError::internal)?;
    let workspace = shared
        .workspaces
        .get(&spec.workspace)
        .cloned()
        .ok_or_else(missing)?;
    let worker = shared.clone();
    let id = id.to_string();
    let session = blocking(move || {
        let sandbox = spec
            .build(
                &workspace,
                &worker.config.limits,
                worker.config.policy,
                &worker.config.audit,
            )
            .map_err(ApiError::internal)?;
        Ok(Arc::new(Session {
            id,
            spec,
            sandbox: Arc::new(sandbox),
            snapshots: Default::default(),
        }))
    })
    .await?;
    shared.sessions.insert(session.clone());
    Ok(session)
}

/// Authorizes and finds the session in one step.
pub(crate) async fn authorized(
    shared: &Arc<Shared>,
    headers: &HeaderMap,
    id: &str,
    capability: Option<Capability>,
) -> Result<Arc<Session>, ApiError> {
    authorize(shared, headers, id, capability)?;
    session_of(shared, id).await
}

/// `DELETE /v1/sandboxes/{id}`: revokes the token and drops the session.
pub(crate) async fn close(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    authorize(&shared, &headers, &id, None)?;
    shared.grants.revoke(&id).map_err(ApiError::internal)?;
    if let Some(store) = &shared.sqlite {
        store.drop_session(&id).map_err(ApiError::internal)?;
    }
    shared.sessions.remove(&id);
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
}

fn call_options(timeout_ms: Option<u64>) -> Result<CallOptions, ApiError> {
    match timeout_ms {
        None => Ok(CallOptions::new()),
        Some(0) => Err(ApiError::bad_request("timeoutMs must be at least 1")),
        Some(ms) => Ok(CallOptions::new().timeout(Duration::from_millis(ms))),
    }
}

fn envelope(session: &Session, run: &goccia::Run) -> Json<Value> {
    let envelope = Envelope::new(&session.sandbox, run).with_output(&run.stdout, &run.stderr);
    Json(serde_json::to_value(envelope).unwrap_or(Value::Null))
}

/// `POST .../run` `{entry | code, timeoutMs}` → the `--json` envelope.
pub(crate) async fn run(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Run)).await?;
    let request: RunRequest = json_body(&shared, &id, body)?;
    let options = call_options(request.timeout_ms)?;
    blocking(move || {
        let run = match (&request.entry, &request.code) {
            (Some(entry), None) => session.sandbox.run_script_opts(entry, &options),
            (None, Some(code)) => session.sandbox.run_code_opts(code, &options),
            _ => {
                return Err(ApiError::bad_request(
                    "give exactly one of `entry` and `code`",
                ));
            }
        }
        .map_err(|error| ApiError::bad_request(error.to_string()))?;
        Ok(envelope(&session, &run))
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
    let session = authorized(&shared, &headers, &id, Some(Capability::Shell)).await?;
    let request: ShellRequest = json_body(&shared, &id, body)?;
    let options = call_options(request.timeout_ms)?;
    blocking(move || {
        let run = session
            .sandbox
            .run_shell_opts(&request.command, &options)
            .map_err(ApiError::internal)?;
        Ok(envelope(&session, &run))
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

/// `POST .../snapshots` → `{snapshotId}`.
pub(crate) async fn snapshot(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Read)).await?;
    let snapshot = session.sandbox.snapshot();
    let mut snapshots = session.snapshots.lock();
    snapshots.push(snapshot);
    Ok((
        StatusCode::CREATED,
        Json(json!({"snapshotId": snapshots.len() - 1})),
    ))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RestoreRequest {
    snapshot_id: usize,
}

/// `POST .../restore` `{snapshotId}`.
pub(crate) async fn restore(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<StatusCode, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Write)).await?;
    let request: RestoreRequest = json_body(&shared, &id, body)?;
    let snapshot = session
        .snapshots
        .lock()
        .get(request.snapshot_id)
        .copied()
        .ok_or_else(|| {
            ApiError::new(
                StatusCode::NOT_FOUND,
                "SNAPSHOT_NOT_FOUND",
                format!("this sandbox has no snapshot {}", request.snapshot_id),
            )
        })?;
    session
        .sandbox
        .restore(snapshot)
        .map_err(ApiError::internal)?;
    Ok(StatusCode::NO_CONTENT)
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
    let grant = authorize(&shared, &headers, &id, None)?;
    let request: RenewRequest = json_body(&shared, &id, body)?;
    let ttl = check_ttl(request.ttl_seconds.unwrap_or(DEFAULT_TTL))?;
    let expires_at = grant.expires_at.max(shared.now() + ttl);
    shared
        .grants
        .set_expiry(&id, expires_at)
        .map_err(ApiError::internal)?;
    Ok(Json(json!({"expiresAt": rfc3339(expires_at)})))
}
