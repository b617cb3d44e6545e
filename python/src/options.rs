//! What a caller passes in: `Limits` (seconds as floats, sizes as ints or
//! "64m" strings), `CancelToken`, and seeds as `(host, vfs)` pairs or
//! `"host=vfs"` strings.

use std::time::Duration;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// A size: an int of bytes, or a string with a k/m/g suffix.
fn size(value: &Bound<'_, PyAny>, name: &str) -> PyResult<u64> {
    if let Ok(bytes) = value.extract::<u64>() {
        return Ok(bytes);
    }
    let text: String = value.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} is a number of bytes or a size such as \"64m\""
        ))
    })?;
    goccia::parse_size(&text).map_err(|error| PyValueError::new_err(format!("{name}: {error}")))
}

fn seconds(value: f64, name: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(value).map_err(|_| {
        PyValueError::new_err(format!(
            "{name} must be a number of seconds >= 0, not {value}"
        ))
    })
}

/// The sandbox's limits; every argument defaults to the library's value
/// (`Limits()` is the defaults). Times in seconds, sizes in bytes (or
/// strings such as "64m").
#[pyclass(frozen, module = "goccia")]
#[derive(Clone)]
pub struct Limits {
    pub inner: goccia::Limits,
}

#[pymethods]
impl Limits {
    #[new]
    #[pyo3(signature = (*, timeout=None, max_memory=None, stack_size=None, fs_quota_bytes=None, fs_node_limit=None, max_output=None, output_overflow=None, max_depth=None, max_snapshots=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        timeout: Option<f64>,
        max_memory: Option<Bound<'_, PyAny>>,
        stack_size: Option<Bound<'_, PyAny>>,
        fs_quota_bytes: Option<Bound<'_, PyAny>>,
        fs_node_limit: Option<u64>,
        max_output: Option<Bound<'_, PyAny>>,
        output_overflow: Option<&str>,
        max_depth: Option<u32>,
        max_snapshots: Option<u64>,
    ) -> PyResult<Self> {
        let mut limits = goccia::Limits::default();
        if let Some(timeout) = timeout {
            limits = limits.timeout(seconds(timeout, "timeout")?);
        }
        if let Some(value) = max_memory {
            limits = limits.max_memory(size(&value, "max_memory")?);
        }
        if let Some(value) = stack_size {
            limits = limits.stack_size(size(&value, "stack_size")?);
        }
        if let Some(value) = fs_quota_bytes {
            limits = limits.fs_quota_bytes(size(&value, "fs_quota_bytes")?);
        }
        if let Some(nodes) = fs_node_limit {
            limits = limits.fs_node_limit(nodes);
        }
        if let Some(value) = max_output {
            limits = limits.max_output(size(&value, "max_output")?);
        }
        if let Some(name) = output_overflow {
            let overflow = goccia::Overflow::parse(name).ok_or_else(|| {
                PyValueError::new_err(format!(
                    "output_overflow must be \"fail\" or \"truncate\", not {name:?}"
                ))
            })?;
            limits = limits.output_overflow(overflow);
        }
        if let Some(depth) = max_depth {
            limits = limits.max_depth(depth);
        }
        if let Some(count) = max_snapshots {
            limits = limits.max_snapshots(count);
        }
        Ok(Limits { inner: limits })
    }

    #[getter]
    fn timeout(&self) -> f64 {
        self.inner.timeout.as_secs_f64()
    }
    #[getter]
    fn max_memory(&self) -> u64 {
        self.inner.max_memory
    }
    #[getter]
    fn stack_size(&self) -> u64 {
        self.inner.stack_size
    }
    #[getter]
    fn fs_quota_bytes(&self) -> u64 {
        self.inner.fs_quota_bytes
    }
    #[getter]
    fn fs_node_limit(&self) -> u64 {
        self.inner.fs_node_limit
    }
    #[getter]
    fn max_output(&self) -> u64 {
        self.inner.max_output
    }
    #[getter]
    fn output_overflow(&self) -> &'static str {
        match self.inner.output_overflow {
            goccia::Overflow::Fail => "fail",
            goccia::Overflow::Truncate => "truncate",
        }
    }
    #[getter]
    fn max_depth(&self) -> u32 {
        self.inner.max_depth
    }
    #[getter]
    fn max_snapshots(&self) -> u64 {
        self.inner.max_snapshots
    }

    fn __repr__(&self) -> String {
        format!(
            "Limits(timeout={}, max_memory={}, max_output={}, output_overflow={:?}, fs_quota_bytes={}, max_depth={})",
            self.timeout(),
            self.inner.max_memory,
            self.inner.max_output,
            self.output_overflow(),
            self.inner.fs_quota_bytes,
            self.inner.max_depth
        )
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
