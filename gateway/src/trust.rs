//! Whom the gateway trusts upstream (docs/network.md): the system's roots
//! — the bundle `SSL_CERT_FILE` names, as the platform's verifiers honour
//! it, else the distribution's bundle — plus every `--ca-file`. Without a
//! system bundle (a machine with none), Mozilla's roots as built into the
//! HTTP client stand in for it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;
use ureq::tls::{Certificate, PemItem, RootCerts, TlsConfig};

/// Where distributions keep the system's bundle, first found wins.
const SYSTEM_BUNDLES: &[&str] = &[
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/cert.pem",
];

/// The system bundle's path, read once per process.
pub fn system_bundle() -> Option<&'static Path> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            std::env::var_os("SSL_CERT_FILE")
                .map(PathBuf::from)
                .filter(|path| path.is_file())
                .or_else(|| {
                    SYSTEM_BUNDLES
                        .iter()
                        .map(PathBuf::from)
                        .find(|path| path.is_file())
                })
        })
        .as_deref()
}

/// The certificates of a PEM file.
pub fn read_pem(path: &Path) -> Result<Vec<Certificate<'static>>, String> {
    let bytes = std::fs::read(path)
        .map_err(|error| format!("cannot read the CA file {}: {error}", path.display()))?;
    let mut certificates = Vec::new();
    for item in ureq::tls::parse_pem(&bytes) {
        match item {
            Ok(PemItem::Certificate(certificate)) => certificates.push(certificate),
            Ok(_) => {}
            Err(error) => {
                return Err(format!(
                    "the CA file {} is not PEM: {error}",
                    path.display()
                ));
            }
        }
    }
    if certificates.is_empty() {
        return Err(format!(
            "the CA file {} holds no certificate",
            path.display()
        ));
    }
    Ok(certificates)
}

/// The TLS settings for upstream connections that trust the system's roots
/// and `extra` (PEM files). Built once per set of files: a bundle of a
/// hundred roots costs milliseconds to read.
pub fn upstream(extra: &[PathBuf]) -> Result<TlsConfig, String> {
    static BUILT: OnceLock<Mutex<HashMap<Vec<PathBuf>, TlsConfig>>> = OnceLock::new();
    let built = BUILT.get_or_init(Default::default);
    if let Some(config) = built.lock().get(extra) {
        return Ok(config.clone());
    }
    let mut roots: Vec<Certificate<'static>> = Vec::new();
    let system = system_bundle();
    if let Some(bundle) = system {
        roots.extend(read_pem(bundle)?);
    }
    for path in extra {
        roots.extend(read_pem(path)?);
    }
    let root_certs = if system.is_none() && extra.is_empty() {
        RootCerts::WebPki
    } else {
        RootCerts::Specific(Arc::new(roots))
    };
    let config = TlsConfig::builder().root_certs(root_certs).build();
    built.lock().insert(extra.to_vec(), config.clone());
    Ok(config)
}

/// The system's roots and `extra` as one PEM bundle (what the jail's
/// clients are pointed at, with the sandbox's own authority appended).
pub fn bundle_pem(extra: &[PathBuf]) -> Result<Vec<u8>, String> {
    let mut pem = Vec::new();
    for path in system_bundle()
        .into_iter()
        .chain(extra.iter().map(PathBuf::as_path))
    {
        let bytes = std::fs::read(path)
            .map_err(|error| format!("cannot read the CA file {}: {error}", path.display()))?;
        pem.extend_from_slice(&bytes);
        if !pem.ends_with(b"\n") {
            pem.push(b'\n');
        }
    }
    Ok(pem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_certificates_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not pem at all\n").unwrap();
        let error = read_pem(&empty).unwrap_err();
        assert!(error.contains("empty.pem"), "{error}");
        let missing = dir.path().join("missing.pem");
        assert!(upstream(&[missing]).unwrap_err().contains("missing.pem"));
    }
}
