//! `GET|PUT|DELETE .../files/<vfs path>`: raw bytes in and out. Writes
//! are the session's own, so its write policy fences them as it fences its
//! runs.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use goccia::{AccessError, VfsPath};

use super::sessions::authorized;
use super::{ApiError, body_bytes, refused};
use crate::grants::Capability;
use crate::server::Shared;

/// Missing: 404; not a path: 400; anything else the VFS refused (a
/// folder where a file is asked for, a quota): 409.
fn access(error: AccessError) -> ApiError {
    let (status, code) = match &error {
        _ if error.is_not_found() => (StatusCode::NOT_FOUND, "FILE_NOT_FOUND"),
        AccessError::Path { .. } => (StatusCode::BAD_REQUEST, "BAD_PATH"),
        AccessError::Fs { .. } => (StatusCode::CONFLICT, "FILE_REFUSED"),
    };
    ApiError::new(status, code, error.to_string())
}

/// `/` and the path as the route captured it.
fn vfs_path(raw: &str) -> String {
    format!("/{}", raw.trim_start_matches('/'))
}

/// Refuses a write the session's policy does not allow (403
/// `POLICY_DENIED`, the denial marker in the message).
fn fence(shared: &Shared, session: &crate::sessions::Session, path: &str) -> Result<(), ApiError> {
    let parsed = VfsPath::parse(path).map_err(|error| ApiError::bad_request(error.to_string()))?;
    session.sandbox.policy().check(&parsed).map_err(|denied| {
        refused(
            shared,
            path,
            ApiError::new(
                StatusCode::FORBIDDEN,
                "POLICY_DENIED",
                format!("{path}: {}", denied.marker()),
            ),
        )
    })
}

pub(crate) async fn read(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path((id, raw)): Path<(String, String)>,
) -> Result<Bytes, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Read)).await?;
    session.sandbox.read(&vfs_path(&raw)).map_err(access)
}

pub(crate) async fn write(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path((id, raw)): Path<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Result<StatusCode, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Write)).await?;
    let bytes = body_bytes(&shared, &id, body)?;
    let path = vfs_path(&raw);
    fence(&shared, &session, &path)?;
    session.sandbox.write(&path, bytes).map_err(access)?;
    Ok(StatusCode::NO_CONTENT)
}

pub(crate) async fn remove(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path((id, raw)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Write)).await?;
    let path = vfs_path(&raw);
    fence(&shared, &session, &path)?;
    session.sandbox.remove(&path).map_err(access)?;
    Ok(StatusCode::NO_CONTENT)
}
