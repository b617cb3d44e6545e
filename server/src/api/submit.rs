//! Fenced submits, workspace roots and the change log (contract §15).

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

/// `POST .../submit`: under the workspace lock, the grant is checked
/// again and the root compared; stale → 409 `VIEW_STALE` and nothing
/// written; else write-back, the new root, and one change record.
pub(crate) async fn submit(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Submit)).await?;
    let request: SubmitRequest = json_body(&shared, &id, body)?;
    let workspace = shared
        .workspaces
        .get(&session.spec.workspace)
        .cloned()
        .ok_or_else(|| ApiError::internal("the session's workspace is gone"))?;
    let worker = shared.clone();
    blocking(move || {
        let _lock = workspace.lock().map_err(ApiError::internal)?;
        // The grant may have been revoked or expired while we waited.
        authorize(&worker, &headers, &id, Some(Capability::Submit))?;
        let base_root = workspace.root().map_err(ApiError::internal)?;
        if base_root != request.expected_root {
            return Err(refused(&worker, &id, ApiError::stale(base_root)));
        }
        let changes = session.sandbox.changes();
        let report = session.sandbox.write_back().map_err(|error| {
            refused(
                &worker,
                &id,
                ApiError::new(
                    StatusCode::CONFLICT,
                    "WRITE_BACK_REFUSED",
                    error.to_string(),
                ),
            )
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
            root: root.clone(),
            files,
            authorship: request.authorship,
            turn: request.turn,
            message: request.message,
        };
        append(&worker, &workspace, &record)?;
        Ok(Json(json!({
            "root": root,
            "changeId": record.change_id,
            "written": record.files.iter().map(|f| f.path.clone()).collect::<Vec<_>>(),
            "skipped": report.skipped.iter().map(|s| json!({
                "path": s.sandbox_path.to_string(),
                "reason": s.reason.to_string(),
            })).collect::<Vec<_>>(),
        })))
    })
    .await
}

fn relative(workspace: &Workspace, host: &std::path::Path) -> String {
    host.strip_prefix(&workspace.dir)
        .unwrap_or(host)
        .to_string_lossy()
        .into_owned()
}

fn append(shared: &Shared, workspace: &Workspace, record: &ChangeRecord) -> Result<(), ApiError> {
    match &shared.sqlite {
        Some(store) => {
            let line = serde_json::to_string(record).map_err(ApiError::internal)?;
            store
                .append_change(&workspace.name, &line)
                .map_err(ApiError::internal)
        }
        None => provenance::append_line(&provenance::log_file(&workspace.dir), record)
            .map_err(ApiError::internal),
    }
}

/// May this request read workspace `name`'s root and log? The admin
/// token, or a live token of a session on that workspace.
fn may_read_workspace(shared: &Shared, headers: &HeaderMap, name: &str) -> Result<(), ApiError> {
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
        .grants
        .by_hash(&crate::grants::token_hash(token))
        .map_err(ApiError::internal)?
        .ok_or_else(denied)?;
    let on_it = shared
        .sessions
        .get(&grant.sandbox_id)
        .is_some_and(|session| session.spec.workspace == name);
    authorize(shared, headers, &grant.sandbox_id, None)?;
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
    may_read_workspace(&shared, &headers, &name)?;
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
    may_read_workspace(&shared, &headers, &name)?;
    if name.is_empty() {
        return Err(ApiError::bad_request(
            "give the workspace: ?workspace=<name>",
        ));
    }
    let workspace = workspace_named(&shared, &name)?;
    let worker = shared.clone();
    let records = blocking(move || match &worker.sqlite {
        Some(store) => store
            .changes(&workspace.name)
            .map_err(ApiError::internal)?
            .iter()
            .map(|line| serde_json::from_str::<Value>(line).map_err(ApiError::internal))
            .collect::<Result<Vec<_>, _>>(),
        None => provenance::read_lines(&provenance::log_file(&workspace.dir))
            .map_err(ApiError::internal)?
            .into_iter()
            .map(|record| serde_json::to_value(record).map_err(ApiError::internal))
            .collect(),
    })
    .await?;
    Ok(Json(json!({"workspace": name, "changes": records})))
}
