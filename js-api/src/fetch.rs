//! Host side of `fetch` (docs/limits.md): refused unless the network policy
//! allows the URL's host and port; every redirect hop is checked again (the
//! HTTP client follows none itself); the name is resolved once here, the
//! addresses are checked (private ranges refused if the policy says so)
//! and the connection goes
//! to exactly those; bodies are capped. Proxies from the host's
//! environment are never used.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};
use std::time::Duration;

use goccia_core::net::MAX_REDIRECTS;
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
        let addresses = match check(policy, advice, hop, &request.url) {
            Ok(addresses) => addresses,
            Err(error) => {
                audit.record(
                    "fetch",
                    "deny",
                    request.url.as_str(),
                    Some(error.to_string()),
                );
                return Err(error);
            }
        };
        let reason = addresses
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        audit.record(
            "fetch",
            "allow",
            request.url.as_str(),
            Some(format!("connecting to {reason}")),
        );
        watch.check().map_err(FetchError::Stopped)?;
        let response = send(&request, addresses, watch.remaining())?;
        let status = response.status();
        let location = response
            .headers()
            .get(http::header::LOCATION)
            .and_then(|value| value.to_str().ok())
            .map(str::to_string);
        if status.is_redirection()
            && request.follow_redirects
            && let Some(location) = location
        {
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
        return finish(policy, advice, request.url, redirected, response);
    }
    Err(FetchError::Failed(format!(
        "more than {MAX_REDIRECTS} redirects"
    )))
}

/// The addresses `url` may be fetched from, or why not.
fn check(
    policy: &NetPolicy,
    advice: &Advice,
    hop: u32,
    url: &Url,
) -> Result<Vec<SocketAddr>, FetchError> {
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
        Some(url::Host::Domain(name)) => name.to_string(),
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
    let addresses: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => (host.as_str(), port)
            .to_socket_addrs()
            .map_err(|error| FetchError::Failed(format!("cannot resolve '{host}': {error}")))?
            .collect(),
    };
    if let Some(private) = addresses.iter().find(|a| !policy.allows_address(a.ip())) {
        return Err(refused(
            hop,
            format!(
                "host '{host}' resolves to the private address {}{}",
                private.ip(),
                advice.suffix(Setting::DenyPrivateRanges)
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
    request: &FetchRequest,
    addresses: Vec<SocketAddr>,
    remaining: Duration,
) -> Result<http::Response<ureq::Body>, FetchError> {
    let config = ureq::Agent::config_builder()
        .max_redirects(0)
        .http_status_as_error(false)
        .proxy(None)
        .timeout_global(Some(remaining.max(Duration::from_millis(1))))
        .build();
    let agent = ureq::Agent::with_parts(config, DefaultConnector::default(), Pinned(addresses));
    let mut builder = http::Request::builder()
        .method(request.method.as_str())
        .uri(request.url.as_str());
    for (name, value) in &request.headers {
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
    let status = response.status();
    let headers = response
        .headers()
        .iter()
        .map(|(name, value)| {
            (
                name.to_string(),
                String::from_utf8_lossy(value.as_bytes()).into_owned(),
            )
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

/// The network of a sandbox's shells (`curl`, `wget`): the same checks,
/// hops and caps as `fetch`, through the relay when the sandbox is
/// isolated.
pub struct ShellNetwork {
    /// The allow-list and caps.
    pub policy: NetPolicy,
    /// Where each decision is recorded.
    pub audit: Audit,
    /// The surface's words for changing a setting.
    pub advice: Advice,
    /// Where requests go instead, if anywhere.
    pub relay: FetchRelay,
}

impl goccia_shell::Network for ShellNetwork {
    fn fetch(
        &self,
        request: goccia_shell::HttpRequest,
        watch: &Watch,
    ) -> Result<goccia_shell::HttpResponse, goccia_shell::NetworkError> {
        use goccia_shell::NetworkError;
        let url = Url::parse(&request.url)
            .map_err(|error| NetworkError::BadUrl(format!("URL `{}`: {error}", request.url)))?;
        let request = FetchRequest {
            method: request.method,
            url,
            headers: request.headers,
            body: request.body,
            follow_redirects: request.follow_redirects,
            keep_method: request.keep_method,
        };
        let fetched = match &self.relay.0 {
            Some(relay) => relay.fetch(request, watch),
            None => fetch(
                &FetchContext {
                    policy: &self.policy,
                    audit: &self.audit,
                    watch,
                    advice: &self.advice,
                },
                request,
            ),
        };
        match fetched {
            Ok(response) => Ok(goccia_shell::HttpResponse {
                status: response.status,
                status_text: response.status_text,
                version: response.version,
                url: response.url,
                headers: response.headers,
                body: response.body,
            }),
            Err(FetchError::Refused(message)) => Err(NetworkError::Refused(message)),
            Err(error @ FetchError::TooLarge { .. }) => {
                Err(NetworkError::TooLarge(error.to_string()))
            }
            Err(FetchError::Stopped(stop)) => Err(NetworkError::Stopped(stop)),
            Err(FetchError::Failed(message)) if message.starts_with("cannot resolve") => {
                Err(NetworkError::Resolve(message))
            }
            Err(FetchError::Failed(message)) if message.starts_with("more than") => {
                Err(NetworkError::TooManyRedirects(message))
            }
            Err(FetchError::Failed(message)) => Err(NetworkError::Failed(message)),
        }
    }
}
