//! `GET|PUT|DELETE .../files/<vfs path>`: raw bytes in and out. Writes
//! are the session's own, so its write policy fences them (a removal as a
//! whole tree) as it fences its runs.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use goccia::AccessError;

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
        AccessError::Denied { .. } => (StatusCode::FORBIDDEN, "POLICY_DENIED"),
        // The files API asks for no escalation; kept for completeness.
        AccessError::Escalation(_) => (StatusCode::FORBIDDEN, "POLICY_DENIED"),
    };
    ApiError::new(status, code, error.to_string())
}

/// `/` and the path as the route captured it.
fn vfs_path(raw: &str) -> String {
    format!("/{}", raw.trim_start_matches('/'))
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
    session
        .sandbox
        .write_as_guest(&path, bytes)
        .map_err(|error| refused(&shared, &path, access(error)))?;
    Ok(StatusCode::NO_CONTENT)
}

pub(crate) async fn remove(
    State(shared): State<Arc<Shared>>,
    headers: HeaderMap,
    Path((id, raw)): Path<(String, String)>,
) -> Result<StatusCode, ApiError> {
    let session = authorized(&shared, &headers, &id, Some(Capability::Write)).await?;
    let path = vfs_path(&raw);
    session
        .sandbox
        .remove_fenced(&path)
        .map_err(|error| refused(&shared, &path, access(error)))?;
    Ok(StatusCode::NO_CONTENT)
}
