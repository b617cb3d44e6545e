//! What a caller passes in: `Limits` (seconds as floats, sizes as ints or
//! "64m" strings), `CancelToken`, and seeds as `(host, vfs)` pairs or
//! `"host=vfs"` strings.

use goccia::spec::limits::LIMIT_NAMES;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The sandbox's limits: one keyword per limit of the spec's table
/// (`timeout`, `max_memory`, `max_output`, ... every one of
/// `goccia.Limits.NAMES`); each absent one is the library's default
/// (`Limits()` is the defaults). `timeout` in seconds (a number, or
/// `"10s"`), sizes in bytes (or `"64m"`).
#[pyclass(frozen, module = "goccia")]
#[derive(Clone)]
pub struct Limits {
    pub inner: goccia::LimitsSpec,
}

#[pymethods]
impl Limits {
    #[new]
    #[pyo3(signature = (**limits))]
    fn new(limits: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Limits::from_keywords(limits)
    }

    /// Every limit's keyword.
    #[classattr]
    #[allow(non_snake_case)]
    fn NAMES() -> Vec<&'static str> {
        LIMIT_NAMES.iter().map(|limit| limit.python).collect()
    }

    /// A limit by its keyword (`timeout` in seconds).
    fn __getattr__(&self, py: Python<'_>, name: &str) -> PyResult<Py<PyAny>> {
        let Some(limit) = LIMIT_NAMES.iter().find(|limit| limit.python == name) else {
            return Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "Limits has no limit `{name}`"
            )));
        };
        let value = serde_json::to_value(&self.inner).expect("plain data");
        let value = &value[limit.json];
        Ok(match value {
            serde_json::Value::Number(n) if limit.json == "timeoutMs" => {
                (n.as_u64().unwrap_or(0) as f64 / 1000.0)
                    .into_pyobject(py)?
                    .into_any()
                    .unbind()
            }
            serde_json::Value::Number(n) => n
                .as_u64()
                .unwrap_or(0)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
            serde_json::Value::String(text) => text.into_pyobject(py)?.into_any().unbind(),
            other => other.to_string().into_pyobject(py)?.into_any().unbind(),
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let mut parts = Vec::with_capacity(LIMIT_NAMES.len());
        for limit in LIMIT_NAMES {
            let value = self.__getattr__(py, limit.python)?;
            parts.push(format!("{}={}", limit.python, value.bind(py).repr()?));
        }
        Ok(format!("Limits({})", parts.join(", ")))
    }
}

impl Limits {
    /// `Limits(**keywords)`: each keyword read as its spec field; the
    /// values are checked when a sandbox is built from them (one
    /// validation, limits first).
    pub fn from_keywords(limits: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        Limits::over(&goccia::LimitsSpec::default(), limits)
    }

    /// `base` with the limits the keywords name replaced (a child's over
    /// its parent's).
    pub fn over(base: &goccia::LimitsSpec, limits: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut value = serde_json::to_value(base).expect("limits are plain data");
        for (key, item) in limits.into_iter().flatten() {
            let key: String = key.extract()?;
            let Some(limit) = LIMIT_NAMES.iter().find(|limit| limit.python == key) else {
                return Err(PyTypeError::new_err(format!(
                    "Limits() got an unexpected keyword `{key}` (the limits: {})",
                    LIMIT_NAMES
                        .iter()
                        .map(|l| l.python)
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            };
            let name = format!("Limits({key}=)");
            value[limit.json] = if limit.json == "timeoutMs" {
                let millis = crate::spec::milliseconds(&item, &name)
                    .map_err(|message| crate::errors::spec(message, Some("deadline")))?;
                serde_json::Value::from(millis)
            } else {
                crate::spec::to_json(&item, &name)?
            };
            // Read as each keyword comes, so an error names its keyword.
            goccia::LimitsSpec::from_value(value.clone())
                .map_err(|error| crate::spec::spec_error(&error))?;
        }
        let inner = serde_json::from_value(value).expect("read above");
        Ok(Limits { inner })
    }
}

/// Cancels the runs it is passed to (`cancel=`), from any thread: they
/// end within 50 ms with exit code 130 and failure kind "cancelled".
#[pyclass(frozen, module = "goccia")]
#[derive(Clone, Default)]
pub struct CancelToken {
    pub inner: goccia::CancelToken,
}

#[pymethods]
impl CancelToken {
    #[new]
    fn new() -> Self {
        Self::default()
    }

    /// Cancels every run using this token (now and later).
    fn cancel(&self) {
        self.inner.cancel();
    }

    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.is_cancelled()
    }
}

/// A seed as Python gives it: `("host", "/vfs")`, `"host=/vfs"` or `"host"`
/// (target `/`).
pub fn seed(value: &Bound<'_, PyAny>) -> PyResult<(String, Option<String>)> {
    if let Ok((host, target)) = value.extract::<(String, String)>() {
        return Ok((host, Some(target)));
    }
    let text: String = value.extract().map_err(|_| {
        PyTypeError::new_err("a seed is (\"host path\", \"/vfs path\") or \"host=/vfs\"")
    })?;
    Ok(match text.split_once('=') {
        Some((host, target)) => (host.to_string(), Some(target.to_string())),
        None => (text, None),
    })
}
