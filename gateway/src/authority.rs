//! The sandbox's own certificate authority (docs/network.md): generated in
//! memory when a sandbox's host commands first need it, trusted only by
//! its jail (a bundle of the system's roots plus it, which the jail's
//! `SSL_CERT_FILE` and friends name), and used by the proxy to read — and
//! set secrets on — HTTPS requests to the hosts whose rules or secrets need
//! that. Its key never leaves the process.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;
use rcgen::{
    BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair, KeyUsagePurpose,
};
use rustls::ServerConfig;
use rustls_pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};

/// A certificate authority and the server settings it issued, per host.
pub struct Authority {
    issuer: CertifiedIssuer<'static, KeyPair>,
    issued: Mutex<HashMap<String, Arc<ServerConfig>>>,
}

impl std::fmt::Debug for Authority {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Authority")
    }
}

impl Authority {
    /// A fresh authority (an ECDSA P-256 key made now).
    pub fn generate() -> Result<Authority, String> {
        let failed = |error: rcgen::Error| format!("cannot make the sandbox's authority: {error}");
        let key = KeyPair::generate().map_err(failed)?;
        let mut params = CertificateParams::new(Vec::<String>::new()).map_err(failed)?;
        params.is_ca = IsCa::Ca(BasicConstraints::Constrained(0));
        params
            .distinguished_name
            .push(DnType::CommonName, "goccia sandbox authority");
        params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let issuer = CertifiedIssuer::self_signed(params, key).map_err(failed)?;
        Ok(Authority {
            issuer,
            issued: Mutex::new(HashMap::new()),
        })
    }

    /// Its certificate, PEM.
    pub fn pem(&self) -> String {
        self.issuer.pem()
    }

    /// Server settings presenting a certificate for `host` (a name or an
    /// address), issued once per host.
    pub fn server_for(&self, host: &str) -> Result<Arc<ServerConfig>, String> {
        if let Some(config) = self.issued.lock().get(host) {
            return Ok(config.clone());
        }
        let failed = |error: &dyn std::fmt::Display| {
            format!("cannot issue a certificate for {host}: {error}")
        };
        let key = KeyPair::generate().map_err(|e| failed(&e))?;
        let mut params = CertificateParams::new(vec![host.to_string()]).map_err(|e| failed(&e))?;
        params.distinguished_name.push(DnType::CommonName, host);
        params.key_usages = vec![KeyUsagePurpose::DigitalSignature];
        params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
        let leaf = params
            .signed_by(&key, &self.issuer)
            .map_err(|e| failed(&e))?;
        let chain = vec![
            CertificateDer::from(leaf.der().to_vec()),
            CertificateDer::from(self.issuer.der().to_vec()),
        ];
        let private = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| failed(&e))?
            .with_no_client_auth()
            .with_single_cert(chain, private)
            .map_err(|e| failed(&e))?;
        // The proxy reads HTTP/1.1 inside the tunnel.
        config.alpn_protocols = vec![b"http/1.1".to_vec()];
        let config = Arc::new(config);
        self.issued.lock().insert(host.to_string(), config.clone());
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_issues_once_per_host_for_names_and_addresses() {
        let authority = Authority::generate().unwrap();
        assert!(authority.pem().starts_with("-----BEGIN CERTIFICATE-----"));
        let first = authority.server_for("api.example.com").unwrap();
        let again = authority.server_for("api.example.com").unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        authority.server_for("127.0.0.1").unwrap();
        assert_ne!(
            Authority::generate().unwrap().pem(),
            authority.pem(),
            "each sandbox has its own"
        );
    }
}
