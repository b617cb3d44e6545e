//! The network policy (docs/network.md): which requests the gateway lets
//! out (the rules), which private addresses they may reach, the secrets it
//! sets on the way out, the roots it trusts upstream, and how much of a
//! response body a guest may receive. Pure data and decisions; the
//! gateway (`goccia-gateway`) acts on them.

use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::sync::Arc;

mod rule;
mod secrets;

pub use rule::{AllowHostError, AllowedHost, canonical_host, host_matches, normalize_path};
pub use secrets::{PLACEHOLDER_PREFIX, Secret, SecretError, SecretHeader, Secrets};

/// Default cap on one response body (16 MiB).
pub const DEFAULT_FETCH_MAX_BYTES: u64 = 16 << 20;

/// Redirects followed at most (each one rechecked against the policy).
pub const MAX_REDIRECTS: u32 = 10;

/// What `fetch` may do. Cheap to clone (shared), inherited by children.
/// Built with [`NetPolicy::builder`]; the default allows nothing.
///
/// ```
/// use goccia_core::{AllowedHost, NetPolicy};
///
/// let policy = NetPolicy::builder()
///     .allow(AllowedHost::parse("api.example.com")?)
///     .allow(AllowedHost::parse("127.0.0.1:8080")?)
///     .refuse_private_ranges()
///     .max_body_bytes(1 << 20)
///     .build();
/// assert!(policy.allows("API.example.com", 443));
/// assert!(!policy.allows("127.0.0.1", 9090));
/// assert!(policy.deny_private_ranges());
/// assert!(!NetPolicy::default().allows("api.example.com", 443));
/// # Ok::<(), goccia_core::net::AllowHostError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetPolicy {
    inner: Arc<Policy>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Policy {
    allowed: Vec<AllowedHost>,
    deny_private_ranges: bool,
    max_body_bytes: u64,
    secrets: Secrets,
    ca_files: Vec<PathBuf>,
}

impl Default for NetPolicy {
    /// Nothing allowed: every `fetch` is refused.
    fn default() -> Self {
        NetPolicy::builder().build()
    }
}

/// Builds a [`NetPolicy`]: nothing allowed, private ranges not refused,
/// bodies capped at [`DEFAULT_FETCH_MAX_BYTES`] unless changed.
#[derive(Clone, Debug)]
pub struct NetPolicyBuilder {
    policy: Policy,
}

impl NetPolicyBuilder {
    /// Lets `fetch` reach `host` (at its port, or any port).
    pub fn allow(mut self, host: AllowedHost) -> Self {
        self.policy.allowed.push(host);
        self
    }

    /// Lets `fetch` reach every host of `hosts`.
    pub fn allow_all(mut self, hosts: impl IntoIterator<Item = AllowedHost>) -> Self {
        self.policy.allowed.extend(hosts);
        self
    }

    /// Refuses loopback, private, link-local and other non-public
    /// addresses even when a rule names them literally (without it, only
    /// a rule naming the address, or `localhost` for loopback, reaches
    /// one).
    pub fn refuse_private_ranges(self) -> Self {
        self.private_ranges_refused(true)
    }

    /// Sets whether private ranges are refused (see
    /// [`NetPolicyBuilder::refuse_private_ranges`]).
    pub fn private_ranges_refused(mut self, refused: bool) -> Self {
        self.policy.deny_private_ranges = refused;
        self
    }

    /// The secrets the gateway sets on the way out.
    pub fn secrets(mut self, secrets: Secrets) -> Self {
        self.policy.secrets = secrets;
        self
    }

    /// Trusts the certificate authorities in `pem` (a file) upstream,
    /// besides the system's roots.
    pub fn ca_file(mut self, pem: impl Into<PathBuf>) -> Self {
        self.policy.ca_files.push(pem.into());
        self
    }

    /// The largest response body `fetch` returns (bytes).
    pub fn max_body_bytes(mut self, bytes: u64) -> Self {
        self.policy.max_body_bytes = bytes;
        self
    }

    /// The policy.
    pub fn build(self) -> NetPolicy {
        NetPolicy {
            inner: Arc::new(self.policy),
        }
    }
}

impl NetPolicy {
    /// A builder starting from "nothing allowed".
    pub fn builder() -> NetPolicyBuilder {
        NetPolicyBuilder {
            policy: Policy {
                allowed: Vec::new(),
                deny_private_ranges: false,
                max_body_bytes: DEFAULT_FETCH_MAX_BYTES,
                secrets: Secrets::default(),
                ca_files: Vec::new(),
            },
        }
    }

    /// The allow-list.
    pub fn allowed(&self) -> &[AllowedHost] {
        &self.inner.allowed
    }

    /// Whether private addresses are refused after resolution.
    pub fn deny_private_ranges(&self) -> bool {
        self.inner.deny_private_ranges
    }

    /// The largest response body `fetch` returns.
    pub fn max_body_bytes(&self) -> u64 {
        self.inner.max_body_bytes
    }

    /// The secrets set on the way out.
    pub fn secret_set(&self) -> &Secrets {
        &self.inner.secrets
    }

    /// The extra upstream roots (PEM files).
    pub fn ca_files(&self) -> &[PathBuf] {
        &self.inner.ca_files
    }

    /// Whether some rule names `host` at `port` (whatever the method and
    /// path).
    pub fn allows(&self, host: &str, port: u16) -> bool {
        let host = canonical_host(host);
        self.inner
            .allowed
            .iter()
            .any(|entry| entry.matches_host(&host, port))
    }

    /// The first rule that allows `method` to `path` at `host` and `port`.
    pub fn rule_for(
        &self,
        method: &str,
        host: &str,
        port: u16,
        path: &str,
    ) -> Option<&AllowedHost> {
        let host = canonical_host(host);
        let path = normalize_path(path);
        self.inner
            .allowed
            .iter()
            .find(|entry| entry.permits(method, &host, port, &path))
    }

    /// Whether what is sent to `host` at `port` must be read to be checked
    /// (a rule narrows it by method or path, or a secret is bound to it):
    /// such a host is never tunnelled blind.
    pub fn inspects(&self, host: &str, port: u16) -> bool {
        let host = canonical_host(host);
        let rules = self
            .inner
            .allowed
            .iter()
            .filter(|entry| entry.matches_host(&host, port));
        let mut any = false;
        let mut every_narrows = true;
        for rule in rules {
            any = true;
            every_narrows &= rule.inspects_requests();
        }
        (any && every_narrows) || self.inner.secrets.bound_to(&host)
    }

    /// Whether a name allowed at `host` and `port` may connect to
    /// `address`: a public one always; a private one (loopback, private,
    /// link-local, metadata) only when a rule for it names that address
    /// literally (or is `localhost` and the address is loopback), and the
    /// policy does not refuse private ranges outright. So a name that
    /// resolves (or is rebound) to a private address is refused.
    pub fn allows_address(&self, host: &str, port: u16, address: IpAddr) -> bool {
        if !is_private(address) {
            return true;
        }
        if self.inner.deny_private_ranges {
            return false;
        }
        let host = canonical_host(host);
        self.inner
            .allowed
            .iter()
            .any(|entry| entry.matches_host(&host, port) && entry.names_address(address))
    }
}

/// Loopback, RFC 1918, link-local, CGNAT (100.64/10), unspecified,
/// broadcast, multicast and documentation ranges, IPv6 ULA (fc00::/7),
/// link-local (fe80::/10), and IPv4-mapped/-compatible forms of those.
pub fn is_private(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => is_private_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_private_v4(v4);
            }
            let segments = v6.segments();
            // IPv4-compatible (::a.b.c.d, deprecated) and NAT64 (64:ff9b::/96).
            if segments[..6] == [0, 0, 0, 0, 0, 0] || segments[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                let v4 = Ipv4Addr::new(
                    (segments[6] >> 8) as u8,
                    segments[6] as u8,
                    (segments[7] >> 8) as u8,
                    segments[7] as u8,
                );
                return v6.is_unspecified() || v6.is_loopback() || is_private_v4(v4);
            }
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (segments[0] & 0xfe00) == 0xfc00
                || (segments[0] & 0xffc0) == 0xfe80
                || (segments[0] == 0x2001 && segments[1] == 0x0db8)
        }
    }
}

fn is_private_v4(v4: Ipv4Addr) -> bool {
    let [a, b, ..] = v4.octets();
    v4.is_loopback()
        || v4.is_private()
        || v4.is_link_local()
        || v4.is_unspecified()
        || v4.is_broadcast()
        || v4.is_multicast()
        || v4.is_documentation()
        || a == 0
        || (a == 100 && (64..128).contains(&b))
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_finds_the_rule_that_allows() {
        let policy = NetPolicy::builder()
            .allow(AllowedHost::parse("API.example.com:8443").unwrap())
            .allow(AllowedHost::parse("example.org/v1@GET").unwrap())
            .max_body_bytes(1)
            .build();
        assert!(policy.allows("api.example.com", 8443));
        assert!(!policy.allows("api.example.com", 443));
        assert!(policy.allows("EXAMPLE.org", 1234));
        assert!(
            !policy.allows("sub.example.org", 443),
            "no implicit subdomains"
        );
        let rule = policy.rule_for("GET", "example.org", 80, "/v1/x").unwrap();
        assert_eq!(rule.to_string(), "example.org/v1@GET");
        assert!(
            policy
                .rule_for("POST", "example.org", 80, "/v1/x")
                .is_none()
        );
        assert!(policy.inspects("example.org", 443));
        assert!(!policy.inspects("api.example.com", 8443));
    }

    #[test]
    fn private_addresses_need_a_literal_rule() {
        let policy = NetPolicy::builder()
            .allow(AllowedHost::parse("127.0.0.1:8080").unwrap())
            .allow(AllowedHost::parse("rebind.test").unwrap())
            .build();
        let loopback: IpAddr = "127.0.0.1".parse().unwrap();
        assert!(policy.allows_address("127.0.0.1", 8080, loopback));
        assert!(!policy.allows_address("rebind.test", 80, loopback));
        assert!(!policy.allows_address("rebind.test", 80, "169.254.169.254".parse().unwrap()));
        assert!(policy.allows_address("rebind.test", 80, "93.184.216.34".parse().unwrap()));
        let strict = NetPolicy::builder()
            .allow(AllowedHost::parse("127.0.0.1:8080").unwrap())
            .refuse_private_ranges()
            .build();
        assert!(!strict.allows_address("127.0.0.1", 8080, loopback));
    }

    #[test]
    fn private_ranges_include_mapped_forms() {
        for address in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "::",
            "fd00::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "::127.0.0.1",
            "64:ff9b::a00:1",
            "224.0.0.1",
            "255.255.255.255",
        ] {
            assert!(is_private(address.parse().unwrap()), "{address}");
        }
        for address in [
            "93.184.216.34",
            "1.1.1.1",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(!is_private(address.parse().unwrap()), "{address}");
        }
    }
}
