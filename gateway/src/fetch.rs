//! A checked request (docs/network.md): what JS `fetch`, the shell's
//! `curl` and `wget`, and host commands' plain-HTTP and inspected HTTPS
//! requests all become. Refused unless a rule allows the method, host,
//! port and path; every redirect hop is checked again (the HTTP client
//! follows none itself); the name is resolved once here, each address is
//! checked (a private one only when a rule names it literally) and the
//! connection goes to exactly those; the secrets bound to the host are set
//! on the wire for that hop only; the values are redacted from what comes
//! back; bodies are capped; one audit line per request. Proxies from the
//! host's environment are never used.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use goccia_core::net::MAX_REDIRECTS;
use goccia_core::net::canonical_host;
use goccia_core::{Advice, Audit, NetPolicy, Setting, Stop, Watch};
use thiserror::Error;
use ureq::http;
use ureq::unversioned::resolver::{ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};
pub use url::Url;

/// A request as the guest made it.
#[derive(Clone, Debug)]
pub struct FetchRequest {
    /// The method, uppercase (`GET`).
    pub method: String,
    /// The URL.
    pub url: Url,
    /// Headers as given.
    pub headers: Vec<(String, String)>,
    /// The body, if any.
    pub body: Option<Vec<u8>>,
    /// Follow redirects (`fetch` always does; `curl` only with `-L`).
    pub follow_redirects: bool,
    /// Keep the method across redirects (`curl -X`).
    pub keep_method: bool,
}

/// What came back, after any redirects (it crosses to an isolated worker
/// as it is).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct FetchResponse {
    /// The HTTP status.
    pub status: u16,
    /// Its reason phrase.
    pub status_text: String,
    /// The protocol version (`HTTP/1.1`).
    pub version: String,
    /// The final URL (after redirects).
    pub url: String,
    /// Whether a redirect was followed.
    pub redirected: bool,
    /// Response headers.
    pub headers: Vec<(String, String)>,
    /// The body, capped by the policy.
    #[serde(with = "serde_bytes")]
    pub body: Vec<u8>,
}

/// Why a fetch did not return a response.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum FetchError {
    /// The policy refused it (a `TypeError` naming the host).
    #[error("{0}")]
    Refused(String),
    /// The network failed (a `TypeError: fetch failed`).
    #[error("fetch failed: {0}")]
    Failed(String),
    /// The body is over the policy's cap.
    #[error("fetch failed: the response body is larger than {limit} bytes{advice}")]
    TooLarge {
        /// The cap.
        limit: u64,
        /// The surface's advice, as a suffix.
        advice: String,
    },
    /// The deadline or a cancellation stopped it.
    #[error("stopped")]
    Stopped(Stop),
}

/// Fetches somewhere else on the guest's behalf: an isolated worker
/// (docs/isolation.md) has no network of its own and asks the process that
/// holds the policy, which checks and performs the request as [`fetch`]
/// does. The answer is trusted as far as the guest is concerned: it is
/// what the policy allowed.
pub trait Relay: Send + Sync {
    /// Performs `request` (or refuses it) under the run's deadline.
    fn fetch(&self, request: FetchRequest, watch: &Watch) -> Result<FetchResponse, FetchError>;
}

/// The relay a run's `fetch` goes through, if any (none: the run fetches
/// itself, under its own policy).
#[derive(Clone, Default)]
pub struct FetchRelay(pub Option<std::sync::Arc<dyn Relay>>);

impl std::fmt::Debug for FetchRelay {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "FetchRelay(on)"
        } else {
            "FetchRelay(none)"
        })
    }
}

/// Two relays are equal when they are the same one.
impl PartialEq for FetchRelay {
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (None, None) => true,
            (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

/// Why a host or address was refused, and whether it was a redirect.
fn refused(hop: u32, what: String) -> FetchError {
    let via = if hop > 0 { " (after a redirect)" } else { "" };
    FetchError::Refused(format!("fetch refused{via}: {what}"))
}

/// What a fetch is held to and reports to.
pub struct FetchContext<'a> {
    /// The allow-list and caps.
    pub policy: &'a NetPolicy,
    /// Where each decision is recorded.
    pub audit: &'a Audit,
    /// The run's deadline.
    pub watch: &'a Watch,
    /// The surface's words for changing a setting.
    pub advice: &'a Advice,
}

/// Fetches `request`, checking the policy on every hop.
pub fn fetch(
    context: &FetchContext<'_>,
    mut request: FetchRequest,
) -> Result<FetchResponse, FetchError> {
    let FetchContext {
        policy,
        audit,
        watch,
        advice,
    } = *context;
    let mut redirected = false;
    for hop in 0..=MAX_REDIRECTS {
        watch.check().map_err(FetchError::Stopped)?;
        let line = format!("{} {}", request.method, request.url);
        let checked = match check(policy, advice, hop, &request.method, &request.url) {
            Ok(checked) => checked,
            Err(error) => {
                audit.record("fetch", "deny", line, Some(error.to_string()));
                return Err(error);
            }
        };
        // The guest's own headers every hop: what a secret adds goes to
        // its own hosts only, never on to where a redirect points.
        let mut headers = request.headers.clone();
        let injected = policy.secret_set().apply(&checked.host, &mut headers);
        watch.check().map_err(FetchError::Stopped)?;
        // The method and host only: a path or a query may carry what the
        // guest put there (docs/telemetry.md).
        let span = tracing::info_span!(
            "goccia.fetch",
            http.request.method = %request.method,
            server.address = %checked.host,
            http.response.status_code = tracing::field::Empty,
        );
        let _entered = span.enter();
        let response = send(
            policy,
            &request,
            &headers,
            checked.addresses.clone(),
            watch.remaining(),
        );
        let response = match response {
            Ok(response) => response,
            Err(error) => {
                audit.record(
                    "fetch",
                    "fail",
                    line,
                    Some(checked.describe(None, None, &injected, &error.to_string())),
                );
                return Err(error);
            }
        };
        let status = response.status();
        span.record("http.response.status_code", status.as_u16());
        let location = response
            .headers()
            .get(http::header::LOCATION)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        if status.is_redirection()
            && request.follow_redirects
            && let Some(location) = location
        {
            audit.record(
                "fetch",
                "allow",
                line,
                Some(checked.describe(Some(status.as_u16()), Some(0), &injected, "")),
            );
            let next = request.url.join(&location).map_err(|error| {
                FetchError::Failed(format!("bad redirect location `{location}`: {error}"))
            })?;
            let code = status.as_u16();
            if code == 303 || ((code == 301 || code == 302) && request.method == "POST") {
                // The body is not sent again; the method becomes GET unless
                // the caller insists on it (curl -X keeps it).
                if !request.keep_method {
                    request.method = "GET".to_string();
                }
                request.body = None;
            }
            request.url = next;
            redirected = true;
            continue;
        }
        let finished = finish(policy, advice, request.url, redirected, response);
        let (bytes, note) = match &finished {
            Ok(response) => (Some(response.body.len() as u64), String::new()),
            Err(error) => (None, error.to_string()),
        };
        audit.record(
            "fetch",
            "allow",
            line,
            Some(checked.describe(Some(status.as_u16()), bytes, &injected, &note)),
        );
        return finished;
    }
    Err(FetchError::Failed(format!(
        "more than {MAX_REDIRECTS} redirects"
    )))
}

/// A request the policy allows: where it goes and why.
pub(crate) struct Checked {
    /// The canonical host.
    pub host: String,
    /// The addresses it may connect to.
    pub addresses: Vec<SocketAddr>,
    /// The rule that allowed it, as written.
    pub rule: String,
}

impl Checked {
    /// The audit line's reason: status, bytes, the rule, the address and
    /// the names of the secrets that went out.
    pub fn describe(
        &self,
        status: Option<u16>,
        bytes: Option<u64>,
        injected: &[String],
        note: &str,
    ) -> String {
        let mut parts = Vec::new();
        if let Some(status) = status {
            parts.push(format!("status {status}"));
        }
        if let Some(bytes) = bytes {
            parts.push(format!("{bytes} bytes"));
        }
        parts.push(format!("rule {}", self.rule));
        if let Some(first) = self.addresses.first() {
            parts.push(format!("via {first}"));
        }
        if !injected.is_empty() {
            parts.push(format!("secrets {}", injected.join(",")));
        }
        if !note.is_empty() {
            parts.push(note.to_string());
        }
        parts.join(", ")
    }
}

/// The host, port and addresses `url` may be fetched from with `method`,
/// or why not.
pub(crate) fn check(
    policy: &NetPolicy,
    advice: &Advice,
    hop: u32,
    method: &str,
    url: &Url,
) -> Result<Checked, FetchError> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(refused(
            hop,
            format!(
                "only http and https URLs can be fetched, not `{}:`",
                url.scheme()
            ),
        ));
    }
    let host = match url.host() {
        Some(url::Host::Domain(name)) => canonical_host(name),
        Some(url::Host::Ipv4(v4)) => v4.to_string(),
        Some(url::Host::Ipv6(v6)) => v6.to_string(),
        None => return Err(refused(hop, format!("`{url}` has no host"))),
    };
    let port = url.port_or_known_default().unwrap_or(80);
    if !policy.allows(&host, port) {
        return Err(refused(
            hop,
            format!(
                "host '{host}' (port {port}) is not allowed{}",
                advice.suffix(Setting::AllowHost)
            ),
        ));
    }
    let Some(rule) = policy.rule_for(method, &host, port, url.path()) else {
        return Err(refused(
            hop,
            format!(
                "{method} {} on host '{host}' is outside its rules{}",
                url.path(),
                advice.suffix(Setting::AllowHost)
            ),
        ));
    };
    let rule = rule.to_string();
    let addresses = resolve(policy, advice, hop, &host, port)?;
    Ok(Checked {
        host,
        addresses,
        rule,
    })
}

/// The addresses `host` resolves to, each checked: a private one only when
/// a rule names it literally.
pub(crate) fn resolve(
    policy: &NetPolicy,
    advice: &Advice,
    hop: u32,
    host: &str,
    port: u16,
) -> Result<Vec<SocketAddr>, FetchError> {
    let addresses: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => (host, port)
            .to_socket_addrs()
            .map_err(|error| FetchError::Failed(format!("cannot resolve '{host}': {error}")))?
            .collect(),
    };
    if let Some(private) = addresses
        .iter()
        .find(|a| !policy.allows_address(host, port, a.ip()))
    {
        let advice = if policy.deny_private_ranges() {
            advice.suffix(Setting::DenyPrivateRanges)
        } else {
            format!("; only a rule naming {} itself reaches it", private.ip())
        };
        return Err(refused(
            hop,
            format!(
                "host '{host}' resolves to the private address {}{advice}",
                private.ip(),
            ),
        ));
    }
    if addresses.is_empty() {
        return Err(FetchError::Failed(format!("cannot resolve '{host}'")));
    }
    Ok(addresses)
}

/// The checked addresses, and nothing else, for the HTTP client.
#[derive(Debug)]
struct Pinned(Vec<SocketAddr>);

impl Resolver for Pinned {
    fn resolve(
        &self,
        _uri: &http::Uri,
        _config: &ureq::config::Config,
        _timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let mut resolved = self.empty();
        for address in self.0.iter().take(16) {
            resolved.push(*address);
        }
        Ok(resolved)
    }
}

fn send(
    policy: &NetPolicy,
    request: &FetchRequest,
    headers: &[(String, String)],
    addresses: Vec<SocketAddr>,
    remaining: Duration,
) -> Result<http::Response<ureq::Body>, FetchError> {
    let config = ureq::Agent::config_builder()
        .max_redirects(0)
        .http_status_as_error(false)
        .proxy(None)
        .tls_config(crate::trust::upstream(policy.ca_files()).map_err(FetchError::Failed)?)
        .timeout_global(Some(remaining.max(Duration::from_millis(1))))
        .build();
    let agent = ureq::Agent::with_parts(config, DefaultConnector::default(), Pinned(addresses));
    let mut builder = http::Request::builder()
        .method(request.method.as_str())
        .uri(request.url.as_str());
    for (name, value) in headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let body = request.body.clone().unwrap_or_default();
    let built = builder
        .body(body)
        .map_err(|error| FetchError::Failed(format!("bad request: {error}")))?;
    agent.run(built).map_err(|error| match error {
        ureq::Error::Timeout(_) => FetchError::Stopped(Stop::DEADLINE),
        other => FetchError::Failed(other.to_string()),
    })
}

fn finish(
    policy: &NetPolicy,
    advice: &Advice,
    url: Url,
    redirected: bool,
    mut response: http::Response<ureq::Body>,
) -> Result<FetchResponse, FetchError> {
    let limit = policy.max_body_bytes();
    let secrets = policy.secret_set();
    let status = response.status();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| {
            let value = String::from_utf8_lossy(value.as_bytes());
            (name.to_string(), secrets.redact_text(&value).into_owned())
        })
        .collect();
    let body = response
        .body_mut()
        .with_config()
        .limit(limit)
        .read_to_vec()
        .map_err(|error| match error {
            ureq::Error::BodyExceedsLimit(_) => FetchError::TooLarge {
                limit,
                advice: advice.suffix(Setting::FetchMaxBytes),
            },
            ureq::Error::Timeout(_) => FetchError::Stopped(Stop::DEADLINE),
            other => FetchError::Failed(other.to_string()),
        })?;
    let body = match secrets.redact(&body) {
        std::borrow::Cow::Borrowed(_) => body,
        std::borrow::Cow::Owned(redacted) => redacted,
    };
    Ok(FetchResponse {
        status: status.as_u16(),
        status_text: status.canonical_reason().unwrap_or("").to_string(),
        version: format!("{:?}", response.version()),
        url: url.to_string(),
        redirected,
        headers,
        body,
    })
}
