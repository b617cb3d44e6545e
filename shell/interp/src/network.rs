//! The network as the host lets a sandbox's shells use it (docs/limits.md,
//! for `curl` and `wget`): implemented above the shell, which only hands
//! over a request and gets the response or the reason there is none. The
//! implementation applies the sandbox's allow-list, its private-range rule
//! and body cap, on every redirect hop, as `fetch` does for JS.

use goccia_core::{Stop, Watch};

/// An HTTP request a command makes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpRequest {
    /// Uppercase (`GET`, `POST`, `HEAD`).
    pub method: String,
    /// The URL as given.
    pub url: String,
    /// Headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body, if any.
    pub body: Option<Vec<u8>>,
    /// Follow redirects (each hop checked again), or return the redirect.
    pub follow_redirects: bool,
    /// Keep the method (and body) across every redirect, as `curl -X`
    /// does, instead of turning a 303 (or a POST's 301/302) into a GET.
    pub keep_method: bool,
}

/// What came back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HttpResponse {
    /// The status code.
    pub status: u16,
    /// Its reason phrase.
    pub status_text: String,
    /// The protocol version (`HTTP/1.1`).
    pub version: String,
    /// The URL the response is from (after redirects).
    pub url: String,
    /// Response headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body (within the policy's cap).
    pub body: Vec<u8>,
}

impl HttpResponse {
    /// The first header called `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }
}

/// Why there is no response.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The policy refused the URL (its words: the host, the rule).
    Refused(String),
    /// The URL is not one that can be fetched.
    BadUrl(String),
    /// The name did not resolve.
    Resolve(String),
    /// The connection or the exchange failed.
    Failed(String),
    /// The body is over the policy's cap (the message names it).
    TooLarge(String),
    /// More redirects than allowed.
    TooManyRedirects(String),
    /// The deadline or a cancellation.
    Stopped(Stop),
}

/// Performs requests for a sandbox's shells.
pub trait Network: Send + Sync {
    /// Performs `request` under `watch` (the command's deadline).
    fn fetch(&self, request: HttpRequest, watch: &Watch) -> Result<HttpResponse, NetworkError>;
}
