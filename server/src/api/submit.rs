//! Fenced submits, workspace roots and the change log (docs/server.md).

use std::collections::HashMap;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use goccia::{Change, ChangeKind, Node};
use serde::Deserialize;
use serde_json::{Value, json};

use super::sessions::authorized;
use super::{ApiError, authorize, blocking, is_admin, json_body, refused};
use crate::clock::rfc3339;
use crate::grants::Capability;
use crate::provenance::{self, Authorship, ChangeRecord, ChangedFile, Turn};
use crate::server::Shared;
use crate::sessions::SessionSpec;
use crate::workspace::Workspace;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct SubmitRequest {
    expected_root: String,
    authorship: Authorship,
    #[serde(default, deserialize_with = "crate::api::present")]
    turn: Option<Turn>,
    #[serde(default, deserialize_with = "crate::api::present")]
    message: Option<String>,
}

fn hash_of(node: &Option<Node>) -> Option<String> {
    match node {
        Some(Node::File(file)) => Some(format!("blake3:{}", blake3::hash(file.data()).to_hex())),
        _ => None,
    }
}

/// `POST .../submit`: under the workspace's fence (held across servers
/// sharing a store), the grant is checked again and the root compared;
/// stale → 409 `VIEW_STALE` and nothing written; else write-back, the new
/// root, and one change record appended before the fence is let go.
pub(crate) async fn submit(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let span = super::request_span(&headers, "/v1/sandboxes/{id}/submit", &id);
    let session = tracing::Instrument::instrument(
        authorized(&shared, &headers, &id, Some(Capability::Submit)),
        span.clone(),
    )
    .await?;
    let request: SubmitRequest = json_body(&shared, &id, body)?;
    let workspace = shared
        .workspaces
        .get(&session.spec.workspace)
        .cloned()
        .ok_or_else(|| ApiError::internal("the session's workspace is gone"))?;
    let mut fence = shared
        .store
        .fence(&workspace)
        .await
        .map_err(ApiError::store)?;
    // The grant may have been revoked, have expired or moved to another
    // server while we waited (an early return drops the fence: let go).
    let grant = authorize(&shared, &headers, &id, Some(Capability::Submit)).await?;
    super::sessions::session_of(&shared, &grant).await?;
    let worker = shared.clone();
    let workspace_name = session.spec.workspace.clone();
    let landed = blocking(move || {
        let _entered = tracing::info_span!(parent: &span, "goccia.submit").entered();
        // A holder that died mid-write may have left temporaries: they are
        // not part of the workspace, and go now.
        let base_root = workspace.root_sweeping().map_err(ApiError::internal)?;
        if base_root != request.expected_root {
            return Err(refused(&worker, &id, ApiError::stale(base_root)));
        }
        let changes = session.sandbox.changes();
        let report = session.sandbox.write_back().map_err(|error| {
            let answer = match error {
                goccia::WriteBackError::Stale { paths } => ApiError::stale_files(
                    base_root.clone(),
                    paths
                        .iter()
                        .map(|path| relative(&workspace, path))
                        .collect(),
                ),
                error => ApiError::new(
                    StatusCode::CONFLICT,
                    "WRITE_BACK_REFUSED",
                    error.to_string(),
                ),
            };
            refused(&worker, &id, answer)
        })?;
        session.sandbox.rebaseline();
        let written: Vec<std::path::PathBuf> =
            report.written.iter().map(|w| w.host_path.clone()).collect();
        let root = workspace
            .root_after_writing(&written)
            .map_err(ApiError::internal)?;
        let by_path: HashMap<&str, &Change> = changes
            .iter()
            .map(|change| (change.path.as_str(), change))
            .collect();
        let files = report
            .written
            .iter()
            .map(|written| {
                let change = by_path.get(written.sandbox_path.as_str());
                ChangedFile {
                    path: relative(&workspace, &written.host_path),
                    kind: match change.map(|c| c.kind) {
                        Some(ChangeKind::Create) => "create",
                        _ => "modify",
                    }
                    .to_string(),
                    old_hash: change.and_then(|c| hash_of(&c.old)),
                    new_hash: change.and_then(|c| hash_of(&c.new)),
                }
            })
            .collect();
        let record = ChangeRecord {
            change_id: provenance::new_change_id(),
            time: rfc3339(worker.now()),
            sandbox_id: id.clone(),
            base_root,
            root,
            files,
            authorship: request.authorship,
            turn: request.turn,
            message: request.message,
        };
        // Named as `written` is (relative to the workspace), with the
        // sandbox path beside; a change outside the workspace has no path.
        let skipped: Vec<Value> = report
            .skipped
            .iter()
            .map(|s| {
                json!({
                    "path": s.host_path.as_deref().map(|host| relative(&workspace, host)),
                    "sandboxPath": s.sandbox_path.to_string(),
                    "reason": s.reason.to_string(),
                })
            })
            .collect();
        Ok((record, skipped))
    })
    .await;
    let (record, skipped) = match landed {
        Ok(landed) => landed,
        Err(error) => {
            // Nothing landed: the fence goes (a failure to let it go
            // closes its connection, which lets it go too).
            let _ = fence.release().await;
            shared
                .metrics
                .submit(if error.is_stale() { "stale" } else { "refused" });
            return Err(error);
        }
    };
    fence
        .append_change(&record)
        .await
        .map_err(ApiError::store)?;
    fence.release().await.map_err(ApiError::store)?;
    shared.metrics.submit("landed");
    if let Some(console) = &shared.console {
        console.changed(&workspace_name, &record.change_id, &record.sandbox_id);
    }
    Ok(Json(json!({
        "root": record.root,
        "changeId": record.change_id,
        "written": record.files.iter().map(|f| f.path.clone()).collect::<Vec<_>>(),
        "skipped": skipped,
    })))
}

fn relative(workspace: &Workspace, host: &std::path::Path) -> String {
    host.strip_prefix(&workspace.dir)
        .unwrap_or(host)
        .to_string_lossy()
        .into_owned()
}

/// May this request read workspace `name`'s root and log? The admin
/// token, or a live token of a session on that workspace.
async fn may_read_workspace(
    shared: &Shared,
    headers: &HeaderMap,
    name: &str,
) -> Result<(), ApiError> {
    if is_admin(shared, headers) {
        return Ok(());
    }
    let denied = || {
        refused(
            shared,
            name,
            ApiError::new(
                StatusCode::UNAUTHORIZED,
                "TOKEN_INVALID",
                "reading a workspace takes the admin token or a live token of a session on it",
            ),
        )
    };
    let token = super::bearer(headers).ok_or_else(denied)?;
    let grant = shared
        .store
        .grant_by_hash(&crate::grants::token_hash(token))
        .await
        .map_err(ApiError::store)?
        .ok_or_else(denied)?;
    authorize(shared, headers, &grant.sandbox_id, None).await?;
    let record = shared
        .store
        .session(&grant.sandbox_id)
        .await
        .map_err(ApiError::store)?;
    let on_it = record
        .and_then(|record| serde_json::from_str::<SessionSpec>(&record.spec).ok())
        .is_some_and(|spec| spec.workspace == name);
    if on_it { Ok(()) } else { Err(denied()) }
}

fn workspace_named(shared: &Shared, name: &str) -> Result<Arc<Workspace>, ApiError> {
    shared.workspaces.get(name).cloned().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "WORKSPACE_NOT_FOUND",
            format!("no workspace named `{name}`"),
        )
    })
}

/// `GET /v1/workspaces/{name}/root`.
pub(crate) async fn root(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(name): Path<String>,
) -> Result<Json<Value>, ApiError> {
    may_read_workspace(&shared, &headers, &name).await?;
    let workspace = workspace_named(&shared, &name)?;
    let root = blocking(move || workspace.root().map_err(ApiError::internal)).await?;
    Ok(Json(json!({"workspace": name, "root": root})))
}

#[derive(Deserialize)]
pub(crate) struct ChangesQuery {
    workspace: Option<String>,
}

/// `GET /v1/changes?workspace=<name>`: the change log, oldest first.
pub(crate) async fn changes(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    query: Result<Query<ChangesQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|rejection| ApiError::bad_request(rejection.body_text()))?;
    let name = query.workspace.unwrap_or_default();
    may_read_workspace(&shared, &headers, &name).await?;
    if name.is_empty() {
        return Err(ApiError::bad_request(
            "give the workspace: ?workspace=<name>",
        ));
    }
    let workspace = workspace_named(&shared, &name)?;
    let log = shared
        .store
        .changes(&workspace)
        .await
        .map_err(ApiError::store)?;
    Ok(Json(json!({
        "workspace": name,
        "changes": log.records,
        "damaged": log.damaged,
    })))
}
