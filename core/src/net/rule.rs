//! One allow-list rule (docs/network.md): `HOST[:PORT][/PATH-PREFIX][@METHOD,...]`.
//!
//! The host is exact, `*.suffix` (any name below the suffix, never the
//! suffix itself) or an address literal; the port, when given, is the only
//! one allowed; the path prefix is matched against the path actually sent
//! (dot segments resolved, query ignored) on segment boundaries; the
//! methods, when given, are the only ones allowed.

use std::net::{IpAddr, Ipv6Addr};

use thiserror::Error;

/// One allow-list entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedHost {
    /// Lowercase, no trailing dot, IPv6 without brackets; `*.suffix` for a
    /// wildcard.
    pub host: String,
    /// The one port allowed, or any.
    pub port: Option<u16>,
    /// The path prefix requests must be under (normalized, starts with
    /// `/`), or any path.
    pub path_prefix: Option<String>,
    /// The methods allowed (uppercase), or any when empty.
    pub methods: Vec<String>,
}

/// Why an allow-list entry could not be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum AllowHostError {
    /// No host before the port.
    #[error("`{0}`: empty host")]
    Empty(String),
    /// The port is not a number from 1 to 65535.
    #[error("`{0}`: invalid port")]
    Port(String),
    /// A URL or credentials instead of a host.
    #[error("`{0}`: give HOST[:PORT][/PATH-PREFIX][@METHOD,...], not a URL")]
    NotAHost(String),
    /// A wildcard anywhere but a leading `*.`.
    #[error("`{0}`: a wildcard is only allowed as a leading `*.` (as in `*.example.com`)")]
    Wildcard(String),
    /// A method that is not an HTTP token.
    #[error("`{0}`: `{1}` is not an HTTP method")]
    Method(String, String),
}

impl AllowedHost {
    /// Parses `HOST[:PORT][/PATH-PREFIX][@METHOD,...]`; the host may be
    /// `[v6]`.
    pub fn parse(text: &str) -> Result<AllowedHost, AllowHostError> {
        let not_a_host = || AllowHostError::NotAHost(text.to_string());
        if text.contains("://") {
            return Err(not_a_host());
        }
        let (rest, methods) = match text.rsplit_once('@') {
            Some((rest, methods)) => (rest, parse_methods(text, methods)?),
            None => (text, Vec::new()),
        };
        let (authority, path_prefix) = match rest.find('/') {
            Some(slash) => (
                &rest[..slash],
                Some(normalize_path(&rest[slash..]).to_string()),
            ),
            None => (rest, None),
        };
        if authority.contains('@') || authority.contains('?') || authority.contains('#') {
            return Err(not_a_host());
        }
        let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
            let (address, after) = inner.split_once(']').ok_or_else(not_a_host)?;
            address.parse::<Ipv6Addr>().map_err(|_| not_a_host())?;
            match after.strip_prefix(':') {
                Some(port) => (address.to_string(), Some(port)),
                None if after.is_empty() => (address.to_string(), None),
                None => return Err(not_a_host()),
            }
        } else {
            match authority.rsplit_once(':') {
                Some((host, port)) => (host.to_string(), Some(port)),
                None => (authority.to_string(), None),
            }
        };
        if host.is_empty() || host == "*." {
            return Err(AllowHostError::Empty(text.to_string()));
        }
        let body = host.strip_prefix("*.").unwrap_or(&host);
        if body.contains('*') {
            return Err(AllowHostError::Wildcard(text.to_string()));
        }
        let port = match port {
            Some(port) => Some(
                port.parse::<u16>()
                    .ok()
                    .filter(|p| *p != 0)
                    .ok_or_else(|| AllowHostError::Port(text.to_string()))?,
            ),
            None => None,
        };
        Ok(AllowedHost {
            host: canonical_host(&host),
            port,
            path_prefix,
            methods,
        })
    }

    /// Whether the rule names `host` (canonical) at `port`, whatever the
    /// method and path.
    pub fn matches_host(&self, host: &str, port: u16) -> bool {
        self.port.is_none_or(|p| p == port) && host_matches(&self.host, host)
    }

    /// Whether the rule allows `method` to `path` (normalized) at `host`
    /// (canonical) and `port`.
    pub fn permits(&self, method: &str, host: &str, port: u16, path: &str) -> bool {
        self.matches_host(host, port)
            && (self.methods.is_empty() || self.methods.iter().any(|m| m == method))
            && self
                .path_prefix
                .as_deref()
                .is_none_or(|prefix| path_under(prefix, path))
    }

    /// Whether the rule narrows requests below the host (methods or a
    /// path): such a host cannot be tunnelled blind, since what is sent
    /// inside the tunnel could not be checked.
    pub fn inspects_requests(&self) -> bool {
        self.path_prefix.is_some() || !self.methods.is_empty()
    }

    /// Whether the rule names `address` literally (or is `localhost` and
    /// the address is loopback): only then may it reach a private address.
    pub fn names_address(&self, address: IpAddr) -> bool {
        if self.host == "localhost" {
            return address.is_loopback()
                || matches!(address, IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some_and(|v4| v4.is_loopback()));
        }
        self.host
            .parse::<IpAddr>()
            .is_ok_and(|named| named == address || unmapped(named) == unmapped(address))
    }
}

/// The rule as written back (`*.example.com:443/v1@GET,POST`).
impl std::fmt::Display for AllowedHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.host.contains(':') {
            write!(f, "[{}]", self.host)?;
        } else {
            f.write_str(&self.host)?;
        }
        if let Some(port) = self.port {
            write!(f, ":{port}")?;
        }
        if let Some(path) = &self.path_prefix {
            f.write_str(path)?;
        }
        if !self.methods.is_empty() {
            write!(f, "@{}", self.methods.join(","))?;
        }
        Ok(())
    }
}

fn unmapped(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        v4 => v4,
    }
}

/// Whether `pattern` (exact or `*.suffix`, canonical) names `host`.
pub fn host_matches(pattern: &str, host: &str) -> bool {
    match pattern.strip_prefix("*.") {
        Some(suffix) => host
            .strip_suffix(suffix)
            .is_some_and(|head| head.len() > 1 && head.ends_with('.')),
        None => pattern == host,
    }
}

fn parse_methods(text: &str, list: &str) -> Result<Vec<String>, AllowHostError> {
    list.split(',')
        .map(|method| {
            let method = method.trim();
            let token = !method.is_empty()
                && method
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
            if token {
                Ok(method.to_ascii_uppercase())
            } else {
                Err(AllowHostError::Method(text.to_string(), method.to_string()))
            }
        })
        .collect()
}

/// Whether `path` is `prefix` or below it: on a segment boundary, unless
/// the prefix itself ends with `/`.
fn path_under(prefix: &str, path: &str) -> bool {
    let path = normalize_path(path);
    match path.strip_prefix(prefix) {
        Some(rest) => prefix.ends_with('/') || rest.is_empty() || rest.starts_with('/'),
        None => false,
    }
}

/// `path` with its query and fragment cut, `.` and `..` segments (also
/// percent-encoded, as a server would read them) resolved, and a leading
/// `/`.
pub fn normalize_path(path: &str) -> std::borrow::Cow<'_, str> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    let dot = |segment: &str| segment == "." || segment.eq_ignore_ascii_case("%2e");
    let dot_dot = |segment: &str| {
        matches!(
            segment.to_ascii_lowercase().as_str(),
            ".." | ".%2e" | "%2e." | "%2e%2e"
        )
    };
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let clean =
        path.starts_with('/') && !segments.iter().any(|s| dot(s) || dot_dot(s)) && !path.is_empty();
    if clean {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut kept: Vec<&str> = Vec::new();
    let last = segments.len().saturating_sub(1);
    let mut trailing = false;
    for (index, segment) in path.trim_start_matches('/').split('/').enumerate() {
        trailing = false;
        if dot(segment) {
            trailing = index == last;
        } else if dot_dot(segment) {
            kept.pop();
            trailing = index == last;
        } else {
            kept.push(segment);
        }
    }
    let mut out = format!("/{}", kept.join("/"));
    if trailing && !out.ends_with('/') {
        out.push('/');
    }
    std::borrow::Cow::Owned(out)
}

/// Host names compare lowercase, without a trailing dot; IPv6 literals
/// without brackets.
pub fn canonical_host(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_with_every_part() {
        let rule = AllowedHost::parse("API.Example.com.:8443/v1/../v2/@get, POST").unwrap();
        assert_eq!(
            rule,
            AllowedHost {
                host: "api.example.com".into(),
                port: Some(8443),
                path_prefix: Some("/v2/".into()),
                methods: vec!["GET".into(), "POST".into()],
            }
        );
        assert_eq!(rule.to_string(), "api.example.com:8443/v2/@GET,POST");
        let v6 = AllowedHost::parse("[::1]:80@GET").unwrap();
        assert_eq!((v6.host.as_str(), v6.port), ("::1", Some(80)));
        assert_eq!(v6.to_string(), "[::1]:80@GET");
        let wild = AllowedHost::parse("*.example.com").unwrap();
        assert_eq!(wild.host, "*.example.com");
        for bad in [
            "",
            ":80",
            "http://x",
            "a@",
            "user@x@GET",
            "x:0",
            "x:99999",
            "[::1",
            "[zz]",
            "*.",
            "a.*.com",
            "x@GE T",
        ] {
            assert!(AllowedHost::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn wildcards_name_subdomains_only() {
        assert!(host_matches("*.example.com", "a.example.com"));
        assert!(host_matches("*.example.com", "a.b.example.com"));
        assert!(!host_matches("*.example.com", "example.com"));
        assert!(!host_matches("*.example.com", "badexample.com"));
        assert!(!host_matches("example.com", "a.example.com"));
    }

    #[test]
    fn paths_match_on_segment_boundaries_after_dot_segments() {
        let rule = AllowedHost::parse("h/v1@GET").unwrap();
        assert!(rule.permits("GET", "h", 80, "/v1"));
        assert!(rule.permits("GET", "h", 80, "/v1/users?x=/admin"));
        assert!(!rule.permits("GET", "h", 80, "/v10"));
        assert!(!rule.permits("GET", "h", 80, "/v1/../admin"));
        assert!(!rule.permits("GET", "h", 80, "/v1/%2E%2E/admin"));
        assert!(!rule.permits("POST", "h", 80, "/v1"));
        assert!(rule.inspects_requests());
        let open = AllowedHost::parse("h/v1/").unwrap();
        assert!(open.permits("DELETE", "h", 1, "/v1/x"));
        assert!(!open.permits("GET", "h", 1, "/v1"));
        assert!(!AllowedHost::parse("h").unwrap().inspects_requests());
    }

    #[test]
    fn only_a_literal_rule_names_a_private_address() {
        let literal = AllowedHost::parse("127.0.0.1:8080").unwrap();
        assert!(literal.names_address("127.0.0.1".parse().unwrap()));
        assert!(literal.names_address("::ffff:127.0.0.1".parse().unwrap()));
        assert!(!literal.names_address("127.0.0.2".parse().unwrap()));
        let local = AllowedHost::parse("localhost").unwrap();
        assert!(local.names_address("127.0.0.1".parse().unwrap()));
        assert!(local.names_address("::1".parse().unwrap()));
        assert!(!local.names_address("10.0.0.1".parse().unwrap()));
        let name = AllowedHost::parse("rebind.example").unwrap();
        assert!(!name.names_address("127.0.0.1".parse().unwrap()));
    }

    #[test]
    fn normalizing_resolves_dots_and_cuts_the_query() {
        assert_eq!(normalize_path("/a/./b/../c?q=1"), "/a/c");
        assert_eq!(normalize_path("/a/b/.."), "/a/");
        assert_eq!(normalize_path("/../../x"), "/x");
        assert_eq!(normalize_path(""), "/");
        assert_eq!(normalize_path("/plain/path"), "/plain/path");
    }
}
