//! A session's snapshots and forks (docs/server.md, "Snapshots and
//! forks"): taking one (`write`), listing them (`read`), restoring one
//! (`write`), and forking the session into new sessions, each with its
//! own grant (the admin token, or a grant holding `fork`; a fork's
//! capabilities are a subset of its parent's).

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};

use super::sessions::{authorized, check_ttl, register, session_extras, session_of, spec_refused};
use super::{ApiError, authorize, blocking, is_admin, json_body, optional_json_body, refused};
use crate::clock::rfc3339;
use crate::grants::{Capability, DEFAULT_TTL};
use crate::server::Shared;
use crate::sessions::{Session, SessionSpec, SnapshotTable, new_id};
use crate::store::snapshots;

type Shareds = State<Arc<Shared>>;

/// The most forks one request makes: each is a session with its own
/// sandbox, grant and (on a persistent store) saved snapshot.
pub(crate) const MAX_FORKS: u64 = 16;

/// The longest label a snapshot may carry.
const MAX_LABEL: usize = 200;

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct SnapshotRequest {
    #[serde(default, deserialize_with = "crate::api::present")]
    label: Option<String>,
}

fn snapshot_limit(shared: &Shared, id: &str, error: goccia::SnapshotLimitError) -> ApiError {
    refused(
        shared,
        id,
        ApiError::new(StatusCode::CONFLICT, "SNAPSHOT_LIMIT", error.to_string()),
    )
}

/// `POST .../snapshots` `{label?}` → `{snapshotId}`. With a store that
/// keeps snapshots (`--state`, `--store`), it is saved before the answer,
/// files and shell state, so the session can be brought back from it
/// elsewhere.
pub(crate) async fn snapshot(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    // Taking snapshots spends the session's quota: a capability that can
    // change the sandbox, never `read` alone.
    let session = authorized(&shared, &headers, &id, Some(Capability::Write)).await?;
    let request: SnapshotRequest = optional_json_body(&shared, &id, body)?;
    if let Some(label) = &request.label
        && label.chars().count() > MAX_LABEL
    {
        return Err(ApiError::bad_request(format!(
            "label may be at most {MAX_LABEL} characters"
        )));
    }
    let sandbox = session.sandbox.clone();
    let taken = blocking(move || Ok(sandbox.snapshot_labeled(request.label.as_deref()))).await?;
    let snapshot = taken.map_err(|error| snapshot_limit(&shared, &id, error))?;
    let number = session.snapshots.lock().push(snapshot);
    snapshots::persist(
        shared.store.as_ref(),
        &id,
        number,
        session.sandbox.clone(),
        snapshot,
    )
    .await
    .map_err(ApiError::store)?;
    if let Some(console) = &shared.console {
        console.snapshot(&id, number);
    }
    Ok((StatusCode::CREATED, Json(json!({"snapshotId": number}))))
}

/// `GET .../snapshots` → `{snapshots: [...]}`: each snapshot's number,
/// the one its state came from, its label, when it was taken, its bytes
/// and whether it holds shell state. Those taken before the session was
/// resumed here are read from the store.
pub(crate) async fn list(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Read)).await?;
    let (here, next) = {
        let table = session.snapshots.lock();
        (table.numbered(), table.next())
    };
    let infos = session.sandbox.snapshots();
    let number_of = |local: goccia::SnapshotId| {
        here.iter()
            .find(|(_, id)| *id == local)
            .map(|(number, _)| *number)
    };
    let mut listed = Vec::new();
    for number in 0..next {
        if let Some((_, local)) = here.iter().find(|(n, _)| *n == number) {
            let Some(info) = infos.get(local.index()) else {
                continue;
            };
            let taken_at = info
                .taken_at
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |elapsed| elapsed.as_secs());
            listed.push(json!({
                "snapshotId": number,
                "parent": info.parent.and_then(number_of),
                "label": info.label,
                "takenAt": rfc3339(taken_at),
                "bytes": info.bytes,
                "hasShellState": info.has_shell_state,
            }));
            continue;
        }
        let Some((_, saved, store)) = snapshots::find(shared.store.as_ref(), &id, Some(number))
            .await
            .map_err(ApiError::store)?
        else {
            continue;
        };
        let record = blocking(move || store.saved(&saved).map_err(ApiError::internal)).await?;
        if let Some(saved) = record {
            listed.push(json!({
                "snapshotId": number,
                "parent": null,
                "label": saved.record.label,
                "takenAt": rfc3339(saved.record.taken_at_ms / 1000),
                "bytes": saved.record.bytes,
                "hasShellState": saved.record.shell.is_some(),
            }));
        }
    }
    Ok(Json(json!({"snapshots": listed})))
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct RestoreRequest {
    snapshot_id: u64,
}

/// A snapshot the store holds but that cannot be put in a sandbox: the
/// store's data is at fault (503, as any store failure).
pub(crate) fn unloadable(store: String, what: String, error: impl std::fmt::Display) -> ApiError {
    ApiError::store(crate::store::StoreError::Corrupt {
        store,
        reason: format!("{what}: {error}"),
    })
}

fn no_snapshot(number: u64) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "SNAPSHOT_NOT_FOUND",
        format!("this sandbox has no snapshot {number}"),
    )
}

/// `POST .../restore` `{snapshotId}`: the files and the shell session as
/// they were then, the baseline unchanged. A snapshot taken before the
/// session was resumed here comes from the store.
pub(crate) async fn restore(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<StatusCode, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Write)).await?;
    let request: RestoreRequest = json_body(&shared, &id, body)?;
    let number = request.snapshot_id;
    let (here, given) = {
        let table = session.snapshots.lock();
        (table.get(number), table.given(number))
    };
    if let Some(snapshot) = here {
        session
            .sandbox
            .restore(snapshot)
            .map_err(ApiError::internal)?;
        return Ok(StatusCode::NO_CONTENT);
    }
    if !given {
        return Err(no_snapshot(number));
    }
    let (_, saved, store) = snapshots::find(shared.store.as_ref(), &id, Some(number))
        .await
        .map_err(ApiError::store)?
        .ok_or_else(|| no_snapshot(number))?;
    blocking(move || {
        session
            .sandbox
            .restore_saved(store.as_ref(), &saved)
            .map_err(|error| {
                ApiError::store(crate::store::StoreError::Corrupt {
                    store: store.describe(),
                    reason: format!("snapshot {number}: {error}"),
                })
            })
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct ForkRequest {
    #[serde(default, deserialize_with = "crate::api::present")]
    snapshot_id: Option<u64>,
    count: u64,
    capabilities: Vec<Capability>,
    #[serde(default, deserialize_with = "crate::api::present")]
    ttl_seconds: Option<u64>,
}

/// `POST .../fork` `{snapshotId?, count, capabilities, ttlSeconds?}` →
/// `{forks: [{sandboxId, token, expiresAt}]}`: `count` new sessions on the
/// same workspace, each holding the session's files and shell state at
/// `snapshotId` (or now), each with a grant of its own. Takes the admin
/// token or a grant holding `fork`; the forks' capabilities must be held
/// by the session's own grant.
pub(crate) async fn fork(
    State(shared): Shareds,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let grant = if is_admin(&shared, &headers) {
        shared
            .store
            .live_grant(&id)
            .await
            .map_err(ApiError::store)?
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::NOT_FOUND,
                    "SANDBOX_NOT_FOUND",
                    format!("no open sandbox `{id}`"),
                )
            })?
    } else {
        authorize(&shared, &headers, &id, Some(Capability::Fork)).await?
    };
    let session = session_of(&shared, &grant).await?;
    let request: ForkRequest = json_body(&shared, &id, body)?;
    if !(1..=MAX_FORKS).contains(&request.count) {
        return Err(ApiError::bad_request(format!(
            "count must be within 1 … {MAX_FORKS}, not {}",
            request.count
        )));
    }
    let mut capabilities = request.capabilities.clone();
    capabilities.sort();
    capabilities.dedup();
    if capabilities.is_empty() {
        return Err(ApiError::bad_request(
            "capabilities must name at least one capability the session's grant holds",
        ));
    }
    if let Some(wider) = capabilities
        .iter()
        .find(|capability| !grant.capabilities.contains(capability))
    {
        return Err(refused(
            &shared,
            &id,
            ApiError::new(
                StatusCode::FORBIDDEN,
                "CAPABILITY_DENIED",
                format!(
                    "a fork's capabilities must be held by the session's own grant, which does not hold `{wider}`"
                ),
            ),
        ));
    }
    let ttl = check_ttl(request.ttl_seconds.unwrap_or(DEFAULT_TTL))?;
    let source = match request.snapshot_id {
        None => None,
        Some(number) => {
            let (here, given) = {
                let table = session.snapshots.lock();
                (table.get(number), table.given(number))
            };
            match here {
                Some(local) => Some(Ok(local)),
                None if given => {
                    let found = snapshots::find(shared.store.as_ref(), &id, Some(number))
                        .await
                        .map_err(ApiError::store)?
                        .ok_or_else(|| no_snapshot(number))?;
                    Some(Err(found))
                }
                None => return Err(no_snapshot(number)),
            }
        }
    };
    let workspace = shared
        .workspaces
        .get(&session.spec.workspace)
        .cloned()
        .ok_or_else(|| ApiError::internal("the session's workspace is not served here"))?;
    let spec = SessionSpec {
        nesting: session.spec.nesting && capabilities.contains(&Capability::Child),
        ..session.spec.clone()
    };
    let worker = shared.clone();
    let parent = session.clone();
    let forks: Vec<Arc<Session>> = blocking(move || {
        let mut forks = Vec::new();
        for _ in 0..request.count {
            let id = new_id();
            // Built from the session's spec with the fork's own nesting,
            // then given the parent's state: a fork never holds a setting
            // its grant does not.
            let sandbox = spec
                .build(
                    &workspace,
                    &worker.config.spec,
                    session_extras(&worker, &id),
                )
                .map_err(|error| spec_refused(&error))?;
            match &source {
                None => parent.sandbox.fork_into(None, &sandbox),
                Some(Ok(local)) => parent.sandbox.fork_into(Some(*local), &sandbox),
                Some(Err((number, saved, store))) => {
                    sandbox.load_saved(store.as_ref(), saved).map_err(|error| {
                        unloadable(store.describe(), format!("snapshot {number}"), error)
                    })?;
                    Ok(())
                }
            }
            .map_err(ApiError::internal)?;
            forks.push(Arc::new(Session {
                id,
                spec: spec.clone(),
                sandbox: Arc::new(sandbox),
                snapshots: parking_lot::Mutex::new(SnapshotTable::default()),
            }));
        }
        Ok(forks)
    })
    .await?;
    let mut answered = Vec::new();
    for fork in forks {
        // On a store that keeps snapshots, the fork's starting point is
        // its snapshot 0: a server that restarts brings it back as forked.
        if shared.store.snapshot_store().is_some() {
            let sandbox = fork.sandbox.clone();
            let taken = blocking(move || Ok(sandbox.snapshot())).await?;
            let local = taken.map_err(|error| snapshot_limit(&shared, &fork.id, error))?;
            let number = fork.snapshots.lock().push(local);
            snapshots::persist(
                shared.store.as_ref(),
                &fork.id,
                number,
                fork.sandbox.clone(),
                local,
            )
            .await
            .map_err(ApiError::store)?;
        }
        let fork_id = fork.id.clone();
        let (token, expires_at) =
            register(&shared, fork, capabilities.clone(), ttl, Some(&id)).await?;
        answered.push(json!({
            "sandboxId": fork_id,
            "token": token,
            "expiresAt": rfc3339(expires_at),
        }));
    }
    Ok((StatusCode::CREATED, Json(json!({"forks": answered}))))
}
