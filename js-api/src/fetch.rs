//! `fetch` as the host performs it: the gateway's checked request
//! (docs/network.md), and the shells' network (`curl`, `wget`) over it.

use goccia_core::{Advice, Audit, NetPolicy, Watch};
pub use goccia_gateway::fetch::{
    FetchContext, FetchError, FetchRelay, FetchRequest, FetchResponse, Relay, Url, fetch,
};

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
