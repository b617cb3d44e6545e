//! The network policy (docs/limits.md): which hosts `fetch` may reach, whether
//! private addresses are refused after resolution, and how much of a
//! response body a guest may receive. Pure data and decisions; the HTTP
//! client lives in the builtins.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;

use thiserror::Error;

/// Default cap on one response body (16 MiB).
pub const DEFAULT_FETCH_MAX_BYTES: u64 = 16 << 20;

/// Redirects followed at most (each one rechecked against the policy).
pub const MAX_REDIRECTS: u32 = 10;

/// One allow-list entry (`host[:port]`): a lowercase host name or address
/// literal, and a port (`None`: any port).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedHost {
    /// Lowercase, no trailing dot, IPv6 without brackets.
    pub host: String,
    /// The one port allowed, or any.
    pub port: Option<u16>,
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
    /// A URL, a path or credentials instead of a host.
    #[error("`{0}`: give a host and optional port, not a URL")]
    NotAHost(String),
}

impl AllowedHost {
    /// Parses `host`, `host:port`, `[v6]`, `[v6]:port`.
    pub fn parse(text: &str) -> Result<AllowedHost, AllowHostError> {
        let error = || AllowHostError::NotAHost(text.to_string());
        if text.contains("://") || text.contains('/') || text.contains('@') {
            return Err(error());
        }
        let (host, port) = if let Some(rest) = text.strip_prefix('[') {
            let (address, after) = rest.split_once(']').ok_or_else(error)?;
            address.parse::<Ipv6Addr>().map_err(|_| error())?;
            match after.strip_prefix(':') {
                Some(port) => (address.to_string(), Some(port)),
                None if after.is_empty() => (address.to_string(), None),
                None => return Err(error()),
            }
        } else {
            match text.rsplit_once(':') {
                Some((host, port)) => (host.to_string(), Some(port)),
                None => (text.to_string(), None),
            }
        };
        if host.is_empty() {
            return Err(AllowHostError::Empty(text.to_string()));
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
        })
    }

    fn matches(&self, host: &str, port: u16) -> bool {
        self.host == host && self.port.is_none_or(|p| p == port)
    }
}

/// Host names compare lowercase, without a trailing dot; IPv6 literals
/// without brackets.
pub fn canonical_host(host: &str) -> String {
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .trim_end_matches('.')
        .to_ascii_lowercase()
}

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
    /// addresses after an allowed host is resolved (and on redirects).
    pub fn refuse_private_ranges(self) -> Self {
        self.private_ranges_refused(true)
    }

    /// Sets whether private ranges are refused (see
    /// [`NetPolicyBuilder::refuse_private_ranges`]).
    pub fn private_ranges_refused(mut self, refused: bool) -> Self {
        self.policy.deny_private_ranges = refused;
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

    /// Whether `host` (canonical) at `port` is on the allow-list.
    pub fn allows(&self, host: &str, port: u16) -> bool {
        let host = canonical_host(host);
        self.inner
            .allowed
            .iter()
            .any(|entry| entry.matches(&host, port))
    }

    /// Whether a resolved address may be connected to.
    pub fn allows_address(&self, address: IpAddr) -> bool {
        !self.inner.deny_private_ranges || !is_private(address)
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
    fn allow_entries_parse_and_match() {
        let entry = AllowedHost::parse("API.Example.com.:8443").unwrap();
        assert_eq!(
            entry,
            AllowedHost {
                host: "api.example.com".into(),
                port: Some(8443)
            }
        );
        let v6 = AllowedHost::parse("[::1]:80").unwrap();
        assert_eq!(v6.host, "::1");
        let policy = NetPolicy::builder()
            .allow(entry)
            .allow(AllowedHost::parse("example.org").unwrap())
            .max_body_bytes(1)
            .build();
        assert!(policy.allows("api.example.com", 8443));
        assert!(!policy.allows("api.example.com", 443));
        assert!(policy.allows("EXAMPLE.org", 1234));
        assert!(
            !policy.allows("sub.example.org", 443),
            "no implicit subdomains"
        );
        for bad in [
            "", ":80", "http://x", "x/y", "a@b", "x:0", "x:99999", "[::1", "[zz]",
        ] {
            assert!(AllowedHost::parse(bad).is_err(), "{bad}");
        }
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
