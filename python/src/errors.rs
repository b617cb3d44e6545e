//! Exceptions mirroring the library's error enums. A run that fails is not
//! one of them: it is a `Run` with `ok == False`.

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    goccia,
    GocciaError,
    PyException,
    "Base of every goccia error."
);
create_exception!(
    goccia,
    SetupError,
    GocciaError,
    "The sandbox could not be built (a seed, a limit, a policy)."
);
create_exception!(
    goccia,
    AccessError,
    GocciaError,
    "A path could not be read, written or listed; `.path` names it, `.denied` is true for a policy denial."
);
create_exception!(
    goccia,
    RunError,
    GocciaError,
    "A run could not start (a bad entry path); a run that starts and fails is a Run."
);
create_exception!(
    goccia,
    ApplyError,
    GocciaError,
    "Changes could not be applied (a quota)."
);
create_exception!(
    goccia,
    WriteBackError,
    GocciaError,
    "Write-back could not run."
);
create_exception!(
    goccia,
    ChildSeedError,
    GocciaError,
    "A child sandbox could not be seeded from its parent."
);
create_exception!(
    goccia,
    UnknownSnapshot,
    GocciaError,
    "`restore` was given an id this sandbox never returned."
);

create_exception!(
    goccia,
    SnapshotLimitError,
    GocciaError,
    "`snapshot` refused by a limit (`.limit` names it: `snapshots` or `fs-bytes`); nothing was taken."
);
create_exception!(
    goccia,
    StoreError,
    GocciaError,
    "A snapshot store failed, cannot be reached, holds a later format or data that does not match its hash; `.code` says which (ERR_GOCCIA_STORE, ERR_GOCCIA_STORE_FORMAT, ERR_GOCCIA_SNAPSHOT_LOAD)."
);

/// `goccia.SpecError`: a spec value that is wrong (a name no setting
/// takes, a size that is no size, a limit out of range). It is both a
/// `SetupError` (the sandbox was not built) and a `ValueError` (what
/// Python raises for a bad argument), which `create_exception!` cannot
/// spell: the class is made once by calling `type`.
static SPEC_ERROR: pyo3::sync::PyOnceLock<Py<pyo3::types::PyType>> = pyo3::sync::PyOnceLock::new();

fn spec_error_type(py: Python<'_>) -> &Bound<'_, pyo3::types::PyType> {
    SPEC_ERROR
        .get_or_init(py, || {
            let bases = pyo3::types::PyTuple::new(
                py,
                [
                    py.get_type::<SetupError>(),
                    py.get_type::<pyo3::exceptions::PyValueError>(),
                ],
            )
            .expect("a tuple of two types");
            let namespace = pyo3::types::PyDict::new(py);
            let _ = namespace.set_item("__module__", "goccia");
            let _ = namespace.set_item(
                "__doc__",
                "A spec value is wrong; the message names the setting as a keyword. Both a SetupError and a ValueError.",
            );
            py.get_type::<pyo3::types::PyType>()
                .call1(("SpecError", bases, namespace))
                .and_then(|made| Ok(made.cast_into::<pyo3::types::PyType>()?))
                .expect("type() makes a class of two exception bases")
                .unbind()
        })
        .bind(py)
}

/// A `goccia.SpecError` saying `message`, with `.limit` when a limit is
/// the setting.
pub fn spec(message: String, limit: Option<&str>) -> PyErr {
    Python::attach(|py| {
        let error = PyErr::from_type(spec_error_type(py).clone(), message);
        let limit = limit
            .map(|name| text(py, name))
            .unwrap_or_else(|| py.None());
        let _ = error.value(py).setattr("limit", limit);
        error
    })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("SpecError", spec_error_type(py))?;
    m.add("GocciaError", py.get_type::<GocciaError>())?;
    m.add("SetupError", py.get_type::<SetupError>())?;
    m.add("AccessError", py.get_type::<AccessError>())?;
    m.add("RunError", py.get_type::<RunError>())?;
    m.add("ApplyError", py.get_type::<ApplyError>())?;
    m.add("WriteBackError", py.get_type::<WriteBackError>())?;
    m.add("ChildSeedError", py.get_type::<ChildSeedError>())?;
    m.add("UnknownSnapshot", py.get_type::<UnknownSnapshot>())?;
    m.add("SnapshotLimitError", py.get_type::<SnapshotLimitError>())?;
    m.add("StoreError", py.get_type::<StoreError>())?;
    Ok(())
}

/// An exception of type `E` with `message` and the given attributes.
fn with_fields<E: pyo3::PyTypeInfo>(
    py: Python<'_>,
    message: String,
    fields: &[(&str, Py<PyAny>)],
) -> PyErr {
    let error = PyErr::new::<E, _>(message);
    let value = error.value(py);
    for (name, field) in fields {
        let _ = value.setattr(*name, field.bind(py));
    }
    error
}

fn text(py: Python<'_>, value: &str) -> Py<PyAny> {
    value.into_pyobject(py).expect("a str").into_any().unbind()
}

pub fn setup(error: goccia::SetupError) -> PyErr {
    Python::attach(|py| {
        let limit = error
            .limit()
            .and_then(|kind| serde_json::to_value(kind).ok())
            .and_then(|value| value.as_str().map(|name| text(py, name)))
            .unwrap_or_else(|| py.None());
        let message = error.spelled(goccia::Spelling::Python);
        if matches!(
            error,
            goccia::SetupError::Spec(_) | goccia::SetupError::Limits(_)
        ) {
            let name = limit.extract::<String>(py).ok();
            return spec(message, name.as_deref());
        }
        with_fields::<SetupError>(py, message, &[("limit", limit)])
    })
}

pub fn access(error: goccia::AccessError) -> PyErr {
    Python::attach(|py| {
        let (path, denied, code) = match &error {
            goccia::AccessError::Path { raw, .. } => (raw.clone(), false, None),
            goccia::AccessError::Fs { path, .. } => (path.clone(), false, None),
            goccia::AccessError::Denied { path, .. } => (path.clone(), true, None),
            goccia::AccessError::Escalation(refusal) => (String::new(), true, Some(refusal.code)),
        };
        let not_found = error.is_not_found();
        with_fields::<AccessError>(
            py,
            error.to_string(),
            &[
                ("path", text(py, &path)),
                (
                    "denied",
                    denied
                        .into_pyobject(py)
                        .unwrap()
                        .to_owned()
                        .into_any()
                        .unbind(),
                ),
                (
                    "not_found",
                    not_found
                        .into_pyobject(py)
                        .unwrap()
                        .to_owned()
                        .into_any()
                        .unbind(),
                ),
                (
                    "code",
                    code.map(|code| text(py, code)).unwrap_or_else(|| py.None()),
                ),
            ],
        )
    })
}

pub fn run(error: goccia::RunError) -> PyErr {
    RunError::new_err(error.to_string())
}

pub fn apply(error: goccia::ApplyError) -> PyErr {
    ApplyError::new_err(error.to_string())
}

pub fn write_back(error: goccia::WriteBackError) -> PyErr {
    WriteBackError::new_err(error.to_string())
}

pub fn child_seed(error: goccia::ChildSeedError) -> PyErr {
    ChildSeedError::new_err(error.to_string())
}

/// A child refused: a seed (`ChildSeedError`), or an option wider than
/// the parent's or out of range (`SpecError`).
pub fn child(error: goccia::ChildError) -> PyErr {
    match error {
        goccia::ChildError::Seed(error) => child_seed(error),
        other => spec(other.to_string(), None),
    }
}

pub fn unknown_snapshot(error: goccia::UnknownSnapshot) -> PyErr {
    UnknownSnapshot::new_err(error.to_string())
}

pub fn snapshot_limit(error: goccia::SnapshotLimitError) -> PyErr {
    Python::attach(|py| {
        let limit = serde_json::to_value(error.limit())
            .ok()
            .and_then(|value| value.as_str().map(|name| text(py, name)))
            .unwrap_or_else(|| py.None());
        with_fields::<SnapshotLimitError>(py, error.to_string(), &[("limit", limit)])
    })
}

/// A saved snapshot's error: an id the store does not hold is an
/// `UnknownSnapshot`, a sandbox that could not be built a `SetupError`,
/// the rest a `StoreError` whose `.code` names the kind.
pub fn saved(error: goccia::SavedSnapshotError) -> PyErr {
    match error {
        goccia::SavedSnapshotError::Setup(error) => setup(error),
        error => {
            let error = goccia::Error::from(error);
            let code = error.code();
            if code == "ERR_GOCCIA_UNKNOWN_SNAPSHOT" {
                return UnknownSnapshot::new_err(error.to_string());
            }
            if code == "ERR_GOCCIA_SPEC" {
                return spec(error.to_string(), None);
            }
            Python::attach(|py| {
                with_fields::<StoreError>(py, error.to_string(), &[("code", text(py, code))])
            })
        }
    }
}

/// A store's own error, as [`saved`] words it.
pub fn store(error: goccia::store::StoreError) -> PyErr {
    saved(goccia::SavedSnapshotError::Store(error))
}

/// A fork refused: an id never taken (`UnknownSnapshot`), or more forks
/// than one call may make (`SnapshotLimitError`, `.limit` `snapshots`).
pub fn fork(error: goccia::ForkError) -> PyErr {
    match error {
        goccia::ForkError::Unknown(error) => unknown_snapshot(error),
        count @ goccia::ForkError::Count { .. } => Python::attach(|py| {
            with_fields::<SnapshotLimitError>(
                py,
                count.to_string(),
                &[("limit", text(py, "snapshots"))],
            )
        }),
    }
}
