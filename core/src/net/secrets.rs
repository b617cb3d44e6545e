//! Secrets the guest never sees (docs/network.md): the host names a value
//! and binds it to a header of requests to some hosts; the gateway sets
//! that header on the way out, swaps the placeholder `goccia-secret:NAME`
//! for the value in headers to those hosts only, and redacts the value
//! wherever it comes back.

use std::borrow::Cow;

use thiserror::Error;

use super::rule::{canonical_host, host_matches};

/// What the guest's variable `NAME` holds instead of the value.
pub const PLACEHOLDER_PREFIX: &str = "goccia-secret:";

/// One named value. Its `Debug` never shows the value.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret {
    name: String,
    value: String,
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Secret({})", self.name)
    }
}

impl Secret {
    /// A secret named `name` (a shell variable name) holding `value`
    /// (neither empty nor holding a line break, which no header may).
    pub fn new(name: &str, value: impl Into<String>) -> Result<Secret, SecretError> {
        let value = value.into();
        check_name(name)?;
        if value.is_empty() {
            return Err(SecretError::EmptyValue(name.to_string()));
        }
        if value.contains(['\r', '\n', '\0']) {
            return Err(SecretError::LineBreak(name.to_string()));
        }
        Ok(Secret {
            name: name.to_string(),
            value,
        })
    }

    /// Its name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// What the guest sees instead of it.
    pub fn placeholder(&self) -> String {
        format!("{PLACEHOLDER_PREFIX}{}", self.name)
    }
}

/// A header the gateway sets on requests to some hosts:
/// `HOST:Header=template {NAME}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretHeader {
    /// The hosts (exact or `*.suffix`, canonical; any port).
    pub host: String,
    /// The header's name as given.
    pub header: String,
    /// Its value, with `{NAME}` where a secret's value goes.
    pub template: String,
}

impl SecretHeader {
    /// Parses `HOST:Header=template` (`[v6]:Header=...` for an IPv6 host).
    pub fn parse(text: &str) -> Result<SecretHeader, SecretError> {
        let bad = |why: &str| SecretError::Header(text.to_string(), why.to_string());
        let (host, rest) = match text.strip_prefix('[') {
            Some(inner) => {
                let (host, rest) = inner
                    .split_once("]:")
                    .ok_or_else(|| bad("no `:` after the host"))?;
                (host, rest)
            }
            None => text
                .split_once(':')
                .ok_or_else(|| bad("no `:` after the host"))?,
        };
        let (header, template) = rest
            .split_once('=')
            .ok_or_else(|| bad("no `=` after the header's name"))?;
        let header = header.trim();
        if host.is_empty() || host.contains(['/', '@']) {
            return Err(bad("the host must be a name, `*.suffix` or an address"));
        }
        let token = !header.is_empty()
            && header
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
        if !token {
            return Err(bad("the header's name is not a valid HTTP header name"));
        }
        if template.contains(['\r', '\n']) {
            return Err(bad("the value holds a line break"));
        }
        Ok(SecretHeader {
            host: canonical_host(host),
            header: header.to_string(),
            template: template.to_string(),
        })
    }

    /// The secret names its template uses (`{NAME}`).
    pub fn names(&self) -> Vec<&str> {
        let mut names = Vec::new();
        let mut rest = self.template.as_str();
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            match after.find('}') {
                Some(close) if check_name(&after[..close]).is_ok() => {
                    names.push(&after[..close]);
                    rest = &after[close + 1..];
                }
                _ => rest = after,
            }
        }
        names
    }
}

/// Why a secret or a header binding was refused.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum SecretError {
    /// The name is not a shell variable name.
    #[error(
        "secret name `{0}` must be a variable name (letters, digits, `_`, not starting with a digit)"
    )]
    Name(String),
    /// The value is empty.
    #[error("secret `{0}` is empty")]
    EmptyValue(String),
    /// The value holds a line break or NUL, which no header may carry.
    #[error("secret `{0}` holds a line break or NUL byte; a header value cannot")]
    LineBreak(String),
    /// Two secrets with one name.
    #[error("secret `{0}` is given twice")]
    Twice(String),
    /// A header binding that cannot be read.
    #[error("secret header `{0}`: {1} (give HOST:Header=template with {{NAME}} for the value)")]
    Header(String, String),
    /// A header binding that names no declared secret.
    #[error("secret header `{0}` uses `{{{1}}}`, which is not a secret given with it")]
    Unknown(String, String),
}

fn check_name(name: &str) -> Result<(), SecretError> {
    let mut bytes = name.bytes();
    let valid = bytes
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if valid {
        Ok(())
    } else {
        Err(SecretError::Name(name.to_string()))
    }
}

/// A sandbox's secrets and where they go.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Secrets {
    secrets: Vec<Secret>,
    headers: Vec<SecretHeader>,
}

impl Secrets {
    /// The secrets and their header bindings, each binding checked against
    /// the names given.
    pub fn new(secrets: Vec<Secret>, headers: Vec<SecretHeader>) -> Result<Secrets, SecretError> {
        for (index, secret) in secrets.iter().enumerate() {
            if secrets[..index].iter().any(|s| s.name == secret.name) {
                return Err(SecretError::Twice(secret.name.clone()));
            }
        }
        for header in &headers {
            for name in header.names() {
                if !secrets.iter().any(|s| s.name == name) {
                    return Err(SecretError::Unknown(
                        format!("{}:{}={}", header.host, header.header, header.template),
                        name.to_string(),
                    ));
                }
            }
        }
        Ok(Secrets { secrets, headers })
    }

    /// The variables every guest starts with: `NAME=goccia-secret:NAME`.
    pub fn guest_env(&self) -> Vec<(String, String)> {
        self.secrets
            .iter()
            .map(|secret| (secret.name.clone(), secret.placeholder()))
            .collect()
    }

    /// Whether a request to `host` (canonical) may carry a secret: such a
    /// host's TLS is terminated by the gateway for host commands.
    pub fn bound_to(&self, host: &str) -> bool {
        self.headers.iter().any(|h| host_matches(&h.host, host))
    }

    /// Sets the bound headers of a request to `host` (overwriting the
    /// guest's of the same name) and swaps placeholders in header values
    /// for the values of the secrets bound to `host`; elsewhere nothing
    /// changes. Returns the names of the secrets that went out.
    pub fn apply(&self, host: &str, headers: &mut Vec<(String, String)>) -> Vec<String> {
        let host = canonical_host(host);
        let bound: Vec<&SecretHeader> = self
            .headers
            .iter()
            .filter(|h| host_matches(&h.host, &host))
            .collect();
        let mut used: Vec<String> = Vec::new();
        let mut note = |name: &str| {
            if !used.iter().any(|u| u == name) {
                used.push(name.to_string());
            }
        };
        if bound.is_empty() {
            return used;
        }
        let usable: Vec<&Secret> = self
            .secrets
            .iter()
            .filter(|s| bound.iter().any(|h| h.names().contains(&s.name.as_str())))
            .collect();
        for (_, value) in headers.iter_mut() {
            for secret in &usable {
                let placeholder = secret.placeholder();
                if value.contains(&placeholder) {
                    *value = value.replace(&placeholder, &secret.value);
                    note(&secret.name);
                }
            }
        }
        for binding in bound {
            headers.retain(|(name, _)| !name.eq_ignore_ascii_case(&binding.header));
            let mut value = binding.template.clone();
            for name in binding.names() {
                if let Some(secret) = self.secrets.iter().find(|s| s.name == name) {
                    value = value.replace(&format!("{{{name}}}"), &secret.value);
                    note(name);
                }
            }
            headers.push((binding.header.clone(), value));
        }
        used
    }

    /// `bytes` with every exact occurrence of a value replaced by
    /// `[secret NAME]`.
    pub fn redact<'a>(&self, bytes: &'a [u8]) -> Cow<'a, [u8]> {
        let mut current: Cow<'a, [u8]> = Cow::Borrowed(bytes);
        for secret in &self.secrets {
            let needle = secret.value.as_bytes();
            if memchr::memmem::find(&current, needle).is_none() {
                continue;
            }
            let mark = format!("[secret {}]", secret.name);
            let mut out = Vec::with_capacity(current.len());
            let mut rest: &[u8] = &current;
            while let Some(at) = memchr::memmem::find(rest, needle) {
                out.extend_from_slice(&rest[..at]);
                out.extend_from_slice(mark.as_bytes());
                rest = &rest[at + needle.len()..];
            }
            out.extend_from_slice(rest);
            current = Cow::Owned(out);
        }
        current
    }

    /// [`Secrets::redact`] for text.
    pub fn redact_text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        match self.redact(text.as_bytes()) {
            Cow::Borrowed(_) => Cow::Borrowed(text),
            Cow::Owned(bytes) => Cow::Owned(String::from_utf8_lossy(&bytes).into_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secrets() -> Secrets {
        Secrets::new(
            vec![
                Secret::new("API_TOKEN", "tok-123456").unwrap(),
                Secret::new("OTHER", "other-value").unwrap(),
            ],
            vec![
                SecretHeader::parse("api.example.com:Authorization=Bearer {API_TOKEN}").unwrap(),
                SecretHeader::parse("*.other.test:X-Key={OTHER}").unwrap(),
            ],
        )
        .unwrap()
    }

    #[test]
    fn bound_headers_are_set_and_overwrite_the_guests() {
        let secrets = secrets();
        let mut headers = vec![("authorization".to_string(), "Bearer forged".to_string())];
        let used = secrets.apply("API.example.com", &mut headers);
        assert_eq!(used, ["API_TOKEN"]);
        assert_eq!(
            headers,
            [("Authorization".to_string(), "Bearer tok-123456".to_string())]
        );
        let mut elsewhere = vec![("x-key".to_string(), "goccia-secret:OTHER".to_string())];
        assert!(secrets.apply("example.com", &mut elsewhere).is_empty());
        assert_eq!(
            elsewhere[0].1, "goccia-secret:OTHER",
            "placeholder passes unchanged"
        );
    }

    #[test]
    fn placeholders_are_swapped_only_for_a_secrets_own_hosts() {
        let secrets = secrets();
        let mut headers = vec![(
            "x-both".to_string(),
            "goccia-secret:API_TOKEN goccia-secret:OTHER".to_string(),
        )];
        let used = secrets.apply("a.other.test", &mut headers);
        assert_eq!(used, ["OTHER"]);
        assert_eq!(headers[0].1, "goccia-secret:API_TOKEN other-value");
    }

    #[test]
    fn values_are_redacted_wherever_they_occur() {
        let secrets = secrets();
        let body = b"a tok-123456 b tok-123456other-value";
        assert_eq!(
            &*secrets.redact(body),
            b"a [secret API_TOKEN] b [secret API_TOKEN][secret OTHER]"
        );
        assert!(matches!(secrets.redact(b"clean"), Cow::Borrowed(_)));
        assert!(!format!("{secrets:?}").contains("tok-123456"));
    }

    #[test]
    fn bad_secrets_and_bindings_are_named() {
        assert!(matches!(Secret::new("1X", "v"), Err(SecretError::Name(_))));
        assert!(matches!(
            Secret::new("X", ""),
            Err(SecretError::EmptyValue(_))
        ));
        assert!(matches!(
            Secret::new("X", "a\nb"),
            Err(SecretError::LineBreak(_))
        ));
        for bad in ["no-colon", "h:=v", "h:Bad Name=v", "/x:H=v", "h:H"] {
            assert!(SecretHeader::parse(bad).is_err(), "{bad}");
        }
        let unknown = Secrets::new(
            vec![Secret::new("A", "v").unwrap()],
            vec![SecretHeader::parse("h:H={B}").unwrap()],
        );
        assert!(matches!(unknown, Err(SecretError::Unknown(_, name)) if name == "B"));
        let twice = Secrets::new(
            vec![
                Secret::new("A", "v").unwrap(),
                Secret::new("A", "w").unwrap(),
            ],
            vec![],
        );
        assert!(matches!(twice, Err(SecretError::Twice(_))));
        let v6 = SecretHeader::parse("[::1]:X-Key={A}").unwrap();
        assert_eq!(v6.host, "::1");
    }
}
