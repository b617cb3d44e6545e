//! YAML documents to JSON text, mapping keys in their order. The YAML 1.2
//! core schema decides types (`yes` is a string, as yq reads it); keys
//! that are not strings become their text.

use yaml_rust2::{Yaml, YamlLoader};

/// Each document of `text` as one JSON text.
pub fn documents(text: &str) -> Result<Vec<String>, String> {
    let documents = YamlLoader::load_from_str(text).map_err(|error| error.to_string())?;
    documents
        .iter()
        .map(|document| {
            let mut out = String::new();
            json(document, &mut out)?;
            Ok(out)
        })
        .collect()
}

fn json(value: &Yaml, out: &mut String) -> Result<(), String> {
    match value {
        Yaml::Null | Yaml::BadValue => out.push_str("null"),
        Yaml::Boolean(b) => out.push_str(if *b { "true" } else { "false" }),
        Yaml::Integer(i) => out.push_str(&i.to_string()),
        Yaml::Real(text) => out.push_str(&real(text)),
        Yaml::String(s) => string(s, out),
        Yaml::Array(items) => {
            out.push('[');
            for (index, item) in items.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                json(item, out)?;
            }
            out.push(']');
        }
        Yaml::Hash(map) => {
            out.push('{');
            for (index, (key, item)) in map.iter().enumerate() {
                if index > 0 {
                    out.push(',');
                }
                string(&key_text(key), out);
                out.push(':');
                json(item, out)?;
            }
            out.push('}');
        }
        Yaml::Alias(_) => return Err("an alias the loader could not resolve".to_string()),
    }
    Ok(())
}

/// A YAML float as a JSON number (`.inf` as jq's largest double).
fn real(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    match lower.trim_start_matches(['+', '-']) {
        ".inf" => {
            let sign = if lower.starts_with('-') { "-" } else { "" };
            format!("{sign}1.7976931348623157e+308")
        }
        ".nan" => "null".to_string(),
        _ => {
            let trimmed = text.trim_start_matches('+');
            let trimmed = if trimmed.starts_with('.') {
                format!("0{trimmed}")
            } else if trimmed.starts_with("-.") {
                format!("-0{}", &trimmed[1..])
            } else {
                trimmed.to_string()
            };
            trimmed.trim_end_matches('.').to_string()
        }
    }
}

/// A mapping key as text.
fn key_text(key: &Yaml) -> String {
    match key {
        Yaml::String(s) => s.clone(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(text) => text.clone(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Null => "null".to_string(),
        other => {
            let mut out = String::new();
            let _ = json(other, &mut out);
            out
        }
    }
}

fn string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_become_json_in_order() {
        let docs = documents("b: 1\na: [x, 2.5, yes, null]\n'3': {k: .5}\n---\n- -.5\n").unwrap();
        assert_eq!(
            docs,
            [
                r#"{"b":1,"a":["x",2.5,"yes",null],"3":{"k":0.5}}"#,
                "[-0.5]"
            ]
        );
        assert!(documents("a: [1,").is_err());
    }
}
