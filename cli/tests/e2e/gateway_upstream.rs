//! The loopback servers the gateway's tests (gateway.rs) run against: an
//! upstream that describes each request it gets, HTTP or HTTPS under a
//! test authority; a file server (for `git clone`); and a host name that
//! resolves to a private address (the rebinding shape).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// A request as the upstream saw it.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    pub(crate) method: String,
    pub(crate) path: String,
    pub(crate) headers: BTreeMap<String, String>,
}

/// A loopback upstream: answers every request with JSON describing it,
/// `/redirect?to=URL` with a 302 there, and `/leak` with the request's
/// `Authorization` in the body (what a careless API does).
pub(crate) struct Upstream {
    pub(crate) port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

/// A test authority and a certificate for 127.0.0.1 it issued.
pub(crate) struct TestAuthority {
    pub(crate) pem: String,
    pub(crate) server: Arc<rustls::ServerConfig>,
}

impl TestAuthority {
    pub(crate) fn new() -> TestAuthority {
        let ca_key = rcgen::KeyPair::generate().unwrap();
        let mut params = rcgen::CertificateParams::new(Vec::<String>::new()).unwrap();
        params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
        params
            .distinguished_name
            .push(rcgen::DnType::CommonName, "goccia test authority");
        let issuer = rcgen::CertifiedIssuer::self_signed(params, ca_key).unwrap();
        let key = rcgen::KeyPair::generate().unwrap();
        let leaf = rcgen::CertificateParams::new(vec!["127.0.0.1".to_string()])
            .unwrap()
            .signed_by(&key, &issuer)
            .unwrap();
        let server = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![leaf.der().clone()],
            rustls::pki_types::PrivateKeyDer::Pkcs8(key.serialize_der().into()),
        )
        .unwrap();
        TestAuthority {
            pem: issuer.pem(),
            server: Arc::new(server),
        }
    }
}

impl Upstream {
    pub(crate) fn start(tls: Option<Arc<rustls::ServerConfig>>) -> Upstream {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let seen: Arc<Mutex<Vec<Seen>>> = Arc::default();
        let record = seen.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (record, tls) = (record.clone(), tls.clone());
                std::thread::spawn(move || match tls {
                    Some(config) => {
                        let connection = rustls::ServerConnection::new(config).unwrap();
                        let mut tls = rustls::StreamOwned::new(connection, stream);
                        answer(&mut tls, &record);
                    }
                    None => {
                        let mut stream = stream;
                        answer(&mut stream, &record);
                    }
                });
            }
        });
        Upstream { port, seen }
    }

    pub(crate) fn http() -> Upstream {
        Upstream::start(None)
    }

    pub(crate) fn url(&self, scheme: &str, path: &str) -> String {
        format!("{scheme}://127.0.0.1:{}{path}", self.port)
    }

    pub(crate) fn rule(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// The `authorization` header of the request to `path`.
    pub(crate) fn authorization_of(&self, path: &str) -> Option<String> {
        self.seen()
            .into_iter()
            .find(|seen| seen.path == path)
            .unwrap_or_else(|| panic!("no request to {path}: {:?}", self.seen()))
            .headers
            .get("authorization")
            .cloned()
    }
}

fn answer(stream: &mut (impl Read + Write), record: &Mutex<Vec<Seen>>) {
    let mut reader = BufReader::new(&mut *stream);
    let mut line = String::new();
    if reader.read_line(&mut line).unwrap_or(0) == 0 {
        return;
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let mut headers = BTreeMap::new();
    let mut length = 0usize;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
            break;
        }
        if let Some((name, value)) = header.trim_end().split_once(':') {
            let name = name.to_ascii_lowercase();
            if name == "content-length" {
                length = value.trim().parse().unwrap_or(0);
            }
            headers.insert(name, value.trim().to_string());
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    drop(reader);
    let seen = Seen {
        method: method.clone(),
        path: path.clone(),
        headers: headers.clone(),
    };
    record.lock().unwrap().push(seen);
    let (status, extra, content) = if let Some(to) = path.strip_prefix("/redirect?to=") {
        ("302 Found", format!("Location: {to}\r\n"), String::new())
    } else if path == "/leak" {
        let auth = headers.get("authorization").cloned().unwrap_or_default();
        (
            "200 OK",
            format!("X-Echo: {auth}\r\n"),
            format!("you sent {auth}"),
        )
    } else {
        let json = serde_json::json!({"method": method, "path": path, "headers": headers});
        ("200 OK", String::new(), json.to_string())
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\n{extra}Content-Length: {}\r\nConnection: close\r\n\r\n{content}",
        content.len()
    );
    let _ = stream.flush();
}

/// A host name (not a literal) that resolves to a private address, and
/// that address.
pub(crate) fn private_name() -> (String, std::net::IpAddr) {
    use std::net::ToSocketAddrs;
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap_or_default()
        .trim()
        .to_string();
    for name in [hostname.as_str(), "localhost.localdomain", "ip6-localhost"] {
        if name.is_empty() || name == "localhost" {
            continue;
        }
        if let Ok(mut found) = (name, 80).to_socket_addrs()
            && let Some(address) = found.next()
            && goccia_core_is_private(address.ip())
        {
            return (name.to_string(), address.ip());
        }
    }
    panic!("this machine has no name resolving to a private address to test rebinding with");
}

fn goccia_core_is_private(address: std::net::IpAddr) -> bool {
    match address {
        std::net::IpAddr::V4(v4) => v4.is_loopback() || v4.is_private() || v4.is_link_local(),
        std::net::IpAddr::V6(v6) => v6.is_loopback(),
    }
}

/// Serves the files under a folder over HTTP (GET only; a folder as its
/// `index.html`).
pub(crate) struct FileServer {
    pub(crate) port: u16,
}

impl FileServer {
    pub(crate) fn start(root: std::path::PathBuf) -> FileServer {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let root = root.clone();
                std::thread::spawn(move || serve_file(stream, &root));
            }
        });
        FileServer { port }
    }
}

fn serve_file(mut stream: TcpStream, root: &std::path::Path) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    let _ = reader.read_line(&mut line);
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).unwrap_or(0) == 0 || header == "\r\n" {
            break;
        }
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let path = path.split('?').next().unwrap_or("");
    let mut file = root.join(path.trim_start_matches('/'));
    // A folder is served as its index.html (a package index's pages).
    if file.is_dir() {
        file = file.join("index.html");
    }
    let (status, body) = match (path.contains(".."), std::fs::read(&file)) {
        (false, Ok(body)) => ("200 OK", body),
        _ => ("404 Not Found", Vec::new()),
    };
    let kind = if file.extension().is_some_and(|e| e == "html") {
        "text/html"
    } else {
        "application/octet-stream"
    };
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(&body);
}
