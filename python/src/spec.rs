//! Python's spelling of the sandbox spec (docs/spec.md): keyword
//! arguments in snake_case become the spec's JSON fields, so every setting
//! of `goccia.SandboxSpec` is reachable from `Sandbox(...)` and a new one
//! needs no line here. Times are seconds (a number, or text such as
//! `"10s"`, `"500ms"`); sizes are bytes (or `"64m"`).

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use serde_json::{Map, Value};

/// A Python value as JSON (None, bool, int, float, str, list, tuple, dict
/// with str keys).
pub fn to_json(value: &Bound<'_, PyAny>, name: &str) -> PyResult<Value> {
    if value.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(flag) = value.extract::<bool>() {
        return Ok(Value::Bool(flag));
    }
    if let Ok(number) = value.extract::<u64>() {
        return Ok(Value::from(number));
    }
    if let Ok(number) = value.extract::<i64>() {
        return Ok(Value::from(number));
    }
    if let Ok(number) = value.extract::<f64>() {
        return Ok(Value::from(number));
    }
    if let Ok(text) = value.extract::<String>() {
        return Ok(Value::String(text));
    }
    if let Ok(dict) = value.cast::<PyDict>() {
        let mut map = Map::new();
        for (key, item) in dict.iter() {
            let key: String = key
                .extract()
                .map_err(|_| PyTypeError::new_err(format!("{name}: keys must be str")))?;
            map.insert(key, to_json(&item, name)?);
        }
        return Ok(Value::Object(map));
    }
    if let Ok(list) = value.cast::<PyList>() {
        return list.iter().map(|item| to_json(&item, name)).collect();
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return tuple.iter().map(|item| to_json(&item, name)).collect();
    }
    Err(PyTypeError::new_err(format!(
        "{name}: {} cannot be a spec value",
        value.get_type().name()?
    )))
}

/// `snake_case` as the spec's `camelCase`.
pub fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `camelCase` as Python's `snake_case`.
pub fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// Seconds (a number, or text with `ms`, `s` or `m`) as milliseconds;
/// else what `name` should be.
pub fn milliseconds(value: &Bound<'_, PyAny>, name: &str) -> Result<u64, String> {
    let bad =
        || format!("{name} is a number of seconds >= 0, or text such as \"10s\" or \"500ms\"");
    if let Ok(seconds) = value.extract::<f64>() {
        if seconds.is_nan() || seconds < 0.0 || !seconds.is_finite() {
            return Err(bad());
        }
        return Ok((seconds * 1000.0).round() as u64);
    }
    let text: String = value.extract().map_err(|_| bad())?;
    let text = text.trim();
    let (number, scale) = if let Some(ms) = text.strip_suffix("ms") {
        (ms, 1.0)
    } else if let Some(s) = text.strip_suffix('s') {
        (s, 1000.0)
    } else if let Some(m) = text.strip_suffix('m') {
        (m, 60_000.0)
    } else {
        (text, 1000.0)
    };
    let number: f64 = number.trim().parse().map_err(|_| bad())?;
    if number.is_nan() || number < 0.0 || !number.is_finite() {
        return Err(bad());
    }
    Ok((number * scale).round() as u64)
}

/// A spec error in Python's words, as `goccia.SpecError`.
pub fn spec_error(error: &goccia::SpecError) -> PyErr {
    crate::errors::setup(goccia::SetupError::Spec(error.clone()))
}

/// The spec `base` (a dict, JSON text or None) with `fields` (JSON spelling)
/// merged over it, read, and validated when `validate` (a build validates
/// on its own, limits first, so `Sandbox()` leaves it to the build).
pub fn spec_from(
    base: Option<&Bound<'_, PyAny>>,
    fields: Map<String, Value>,
    validate: bool,
) -> PyResult<goccia::SandboxSpec> {
    let mut value = match base {
        None => Value::Object(Map::new()),
        Some(base) => match base.extract::<String>() {
            Ok(text) => serde_json::from_str(&text)
                .map_err(|error| crate::errors::spec(format!("spec: {error}"), None))?,
            Err(_) => to_json(base, "spec")?,
        },
    };
    let Value::Object(map) = &mut value else {
        return Err(PyTypeError::new_err("spec is a dict (or its JSON text)"));
    };
    for (key, field) in fields {
        match (map.get_mut(&key), field) {
            (Some(Value::Object(into)), Value::Object(from)) => into.extend(from),
            (_, field) => {
                map.insert(key, field);
            }
        }
    }
    let spec = goccia::SandboxSpec::from_value(value).map_err(|error| {
        // An unknown setting is an unexpected keyword, as Python says it.
        if error.problem.starts_with("no such setting") && !error.setting.contains('.') {
            return PyTypeError::new_err(format!(
                "Sandbox() got an unexpected keyword `{}` (the settings: docs/spec.md)",
                snake(&error.setting)
            ));
        }
        spec_error(&error)
    })?;
    if validate {
        spec.validate().map_err(|error| spec_error(&error))?;
    }
    Ok(spec)
}
