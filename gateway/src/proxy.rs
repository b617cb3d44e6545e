//! The HTTP proxy host commands reach (docs/network.md), on a listening
//! socket inside their jail ([`crate::jail_net`]): the only way out a host
//! command has.
//!
//! - A plain-HTTP request (`GET http://host/path`) becomes a checked
//!   request ([`crate::fetch`]): rules, addresses, secrets, redaction, one
//!   audit line.
//! - `CONNECT host:port` to a host whose rules narrow methods or paths, or
//!   that has a secret bound, is answered with TLS under the sandbox's own
//!   authority ([`crate::authority`]); each request inside is then a
//!   checked request to `https://host:port`, verified upstream by the
//!   gateway itself.
//! - `CONNECT` to any other allowed host is a blind tunnel to an address
//!   the policy allows, nothing read or changed.
//!
//! Every response is `Connection: close`: one request per connection keeps
//! the proxy a loop of small steps, and every client reconnects on its own.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use goccia_core::net::canonical_host;
use goccia_core::{Advice, Audit, NetPolicy, Watch};
use parking_lot::Mutex;

use crate::authority::Authority;
use crate::fetch::{FetchContext, FetchError, FetchRequest, Url, fetch};

/// The largest request head read (bytes).
const MAX_HEAD: usize = 64 << 10;

/// Connections served at once; more are answered `503`.
const MAX_CONNECTIONS: usize = 64;

/// Headers that describe one hop, never forwarded (RFC 9110 §7.6.1), and
/// the proxy's own.
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
    "host",
    "content-length",
];

/// One sandbox's gateway for its host commands: its policy, audit trail
/// and authority (made when first needed).
pub struct Gateway {
    policy: NetPolicy,
    audit: Audit,
    advice: Advice,
    authority: Mutex<Option<Arc<Authority>>>,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway")
            .field("rules", &self.policy.allowed().len())
            .finish()
    }
}

impl Gateway {
    /// A gateway holding requests to `policy`, recording to `audit`.
    pub fn new(policy: NetPolicy, audit: Audit, advice: Advice) -> Arc<Gateway> {
        Arc::new(Gateway {
            policy,
            audit,
            advice,
            authority: Mutex::new(None),
        })
    }

    /// Whether any request can go out at all (a rule exists).
    pub fn is_open(&self) -> bool {
        !self.policy.allowed().is_empty()
    }

    /// The sandbox's authority, made on first use.
    pub fn authority(&self) -> Result<Arc<Authority>, String> {
        let mut slot = self.authority.lock();
        if let Some(authority) = slot.as_ref() {
            return Ok(authority.clone());
        }
        let made = Arc::new(Authority::generate()?);
        *slot = Some(made.clone());
        Ok(made)
    }

    /// The PEM bundle the jail's clients trust: the system's roots, the
    /// policy's CA files and the sandbox's authority.
    pub fn jail_bundle(&self) -> Result<Vec<u8>, String> {
        let mut pem = crate::trust::bundle_pem(self.policy.ca_files())?;
        pem.extend_from_slice(self.authority()?.pem().as_bytes());
        Ok(pem)
    }

    /// Serves the jail's connections on `listener` under `watch` until the
    /// returned [`Serving`] is dropped.
    pub fn serve(self: &Arc<Self>, listener: TcpListener, watch: Watch) -> Serving {
        let stopped = Arc::new(AtomicBool::new(false));
        let raw = listener.as_raw_fd();
        let gateway = self.clone();
        let flag = stopped.clone();
        let thread = std::thread::Builder::new()
            .name("goccia-gateway".into())
            .spawn(move || accept_loop(gateway, listener, watch, flag))
            .ok();
        Serving {
            listener: raw,
            stopped,
            thread,
        }
    }
}

/// A proxy serving one command's jail; dropping it stops it.
pub struct Serving {
    listener: std::os::fd::RawFd,
    stopped: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Serving {
    fn drop(&mut self) {
        self.stopped.store(true, Ordering::SeqCst);
        // SAFETY: shutdown on the listener the accept thread still owns
        // wakes its accept; the thread closes it when it returns.
        unsafe { libc::shutdown(self.listener, libc::SHUT_RDWR) };
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn accept_loop(
    gateway: Arc<Gateway>,
    listener: TcpListener,
    watch: Watch,
    stopped: Arc<AtomicBool>,
) {
    let active = Arc::new(AtomicUsize::new(0));
    for connection in listener.incoming() {
        if stopped.load(Ordering::SeqCst) {
            break;
        }
        let Ok(mut stream) = connection else {
            continue;
        };
        if active.load(Ordering::SeqCst) >= MAX_CONNECTIONS {
            let _ = respond_error(&mut stream, 503, "too many connections at once");
            continue;
        }
        active.fetch_add(1, Ordering::SeqCst);
        let (gateway, watch, count, stopped) = (
            gateway.clone(),
            watch.clone(),
            active.clone(),
            stopped.clone(),
        );
        let spawned = std::thread::Builder::new()
            .name("goccia-gateway-connection".into())
            .spawn(move || {
                let _ = serve_connection(&gateway, stream, &watch, &stopped);
                count.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            active.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// A request head as read: method, target, HTTP/1.x minor version,
/// headers.
struct Head {
    method: String,
    target: String,
    version: u8,
    headers: Vec<(String, String)>,
}

impl Head {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Why a request could not be read.
enum BadRequest {
    /// The peer closed before a request.
    Closed,
    /// Not a request this proxy reads (answered 400 with this).
    Malformed(String),
}

impl From<io::Error> for BadRequest {
    fn from(error: io::Error) -> Self {
        BadRequest::Malformed(error.to_string())
    }
}

fn read_head(reader: &mut impl BufRead) -> Result<Head, BadRequest> {
    let mut raw = Vec::new();
    loop {
        let before = raw.len();
        let read = reader.read_until(b'\n', &mut raw)?;
        if read == 0 {
            return if raw.is_empty() {
                Err(BadRequest::Closed)
            } else {
                Err(BadRequest::Malformed("the request head ended early".into()))
            };
        }
        if raw.len() > MAX_HEAD {
            return Err(BadRequest::Malformed(
                "the request head is too large".into(),
            ));
        }
        let line = &raw[before..];
        if (line == b"\r\n" || line == b"\n") && before > 0 {
            break;
        }
    }
    let mut slots = [httparse::EMPTY_HEADER; 128];
    let mut request = httparse::Request::new(&mut slots);
    match request.parse(&raw) {
        Ok(httparse::Status::Complete(_)) => {}
        Ok(httparse::Status::Partial) => {
            return Err(BadRequest::Malformed(
                "the request head is incomplete".into(),
            ));
        }
        Err(error) => return Err(BadRequest::Malformed(format!("bad request: {error}"))),
    }
    Ok(Head {
        method: request.method.unwrap_or("").to_ascii_uppercase(),
        target: request.path.unwrap_or("").to_string(),
        version: request.version.unwrap_or(1),
        headers: request
            .headers
            .iter()
            .map(|h| {
                (
                    h.name.to_string(),
                    String::from_utf8_lossy(h.value).into_owned(),
                )
            })
            .collect(),
    })
}

fn serve_connection(
    gateway: &Gateway,
    stream: TcpStream,
    watch: &Watch,
    stopped: &Arc<AtomicBool>,
) -> io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    // Each message goes out in one write: nothing to gain from Nagle.
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    // Plain-HTTP requests keep the connection for the next one unless the
    // client asks to close (a client fetching many URLs reconnects for
    // none of them); anything refused or malformed closes it.
    loop {
        let head = match read_head(&mut reader) {
            Ok(head) => head,
            Err(BadRequest::Closed) => return Ok(()),
            Err(BadRequest::Malformed(why)) => return respond_error(&mut writer, 400, &why),
        };
        if head.method == "CONNECT" {
            if !reader.buffer().is_empty() {
                return respond_error(&mut writer, 400, "data sent before the tunnel was open");
            }
            return connect(gateway, head, writer, watch, stopped);
        }
        let url = match Url::parse(&head.target) {
            Ok(url) if url.scheme() == "http" => url,
            _ => {
                return respond_error(
                    &mut writer,
                    400,
                    "a proxy request names an absolute http:// URL (use CONNECT for https)",
                );
            }
        };
        let keep = keeps_alive(&head);
        if !forward(gateway, head, url, &mut reader, &mut writer, watch, keep)?
            || stopped.load(Ordering::SeqCst)
        {
            return Ok(());
        }
    }
}

/// Whether the client wants the connection kept after this request
/// (HTTP/1.1's default; `Connection: close` or HTTP/1.0 without
/// `keep-alive` ends it).
fn keeps_alive(head: &Head) -> bool {
    let connection = head
        .header("connection")
        .or_else(|| head.header("proxy-connection"))
        .map(str::to_ascii_lowercase);
    match connection.as_deref() {
        Some(value) if value.contains("close") => false,
        Some(value) if value.contains("keep-alive") => true,
        _ => head.version == 1,
    }
}

/// One request through [`fetch`], answered on `writer`; whether the
/// connection stays open for another (`keep` and a response sent whole).
fn forward(
    gateway: &Gateway,
    head: Head,
    url: Url,
    reader: &mut impl BufRead,
    writer: &mut impl Write,
    watch: &Watch,
    keep: bool,
) -> io::Result<bool> {
    let body = match read_body(&head, reader, gateway.policy.max_body_bytes()) {
        Ok(body) => body,
        Err(why) => return respond_error(writer, 400, &why).map(|()| false),
    };
    let headers = head
        .headers
        .iter()
        .filter(|(name, _)| !HOP_BY_HOP.iter().any(|h| name.eq_ignore_ascii_case(h)))
        .cloned()
        .collect();
    let request = FetchRequest {
        method: head.method,
        url,
        headers,
        body,
        follow_redirects: false,
        keep_method: true,
    };
    let context = FetchContext {
        policy: &gateway.policy,
        audit: &gateway.audit,
        watch,
        advice: &gateway.advice,
    };
    match fetch(&context, request) {
        Ok(response) => {
            let mut out = format!(
                "HTTP/1.1 {} {}\r\n",
                response.status,
                if response.status_text.is_empty() {
                    "Status"
                } else {
                    &response.status_text
                }
            );
            for (name, value) in &response.headers {
                if HOP_BY_HOP.iter().any(|h| name.eq_ignore_ascii_case(h)) {
                    continue;
                }
                out.push_str(&format!("{name}: {value}\r\n"));
            }
            out.push_str(&format!(
                "content-length: {}\r\nconnection: {}\r\n\r\n",
                response.body.len(),
                if keep { "keep-alive" } else { "close" }
            ));
            // One write: the head and a small body never wait on each other.
            let mut whole = out.into_bytes();
            whole.extend_from_slice(&response.body);
            writer.write_all(&whole)?;
            writer.flush()?;
            return Ok(keep);
        }
        Err(FetchError::Refused(why)) => respond_error(writer, 403, &why),
        Err(error @ FetchError::TooLarge { .. }) => respond_error(writer, 502, &error.to_string()),
        Err(FetchError::Stopped(_)) => respond_error(writer, 504, "the sandbox's deadline passed"),
        Err(FetchError::Failed(why)) => respond_error(writer, 502, &why),
    }
    .map(|()| false)
}

/// The request's body: by `Content-Length` or chunked, at most `limit`.
fn read_body(
    head: &Head,
    reader: &mut impl BufRead,
    limit: u64,
) -> Result<Option<Vec<u8>>, String> {
    let chunked = head
        .header("transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    let length = head.header("content-length");
    if chunked && length.is_some() {
        return Err("a request with both Content-Length and chunked encoding".into());
    }
    if let Some(length) = length {
        let length: u64 = length
            .trim()
            .parse()
            .map_err(|_| format!("bad Content-Length `{length}`"))?;
        if length > limit {
            return Err(format!("the request body is larger than {limit} bytes"));
        }
        let mut body = vec![0; length as usize];
        reader.read_exact(&mut body).map_err(|e| e.to_string())?;
        return Ok(Some(body));
    }
    if !chunked {
        return Ok(None);
    }
    let mut body = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).map_err(|e| e.to_string())?;
        let size = line.trim().split(';').next().unwrap_or("");
        let size = u64::from_str_radix(size, 16).map_err(|_| format!("bad chunk size `{size}`"))?;
        if size == 0 {
            // Trailers, then the blank line.
            loop {
                line.clear();
                reader.read_line(&mut line).map_err(|e| e.to_string())?;
                if line.trim().is_empty() {
                    return Ok(Some(body));
                }
            }
        }
        if body.len() as u64 + size > limit {
            return Err(format!("the request body is larger than {limit} bytes"));
        }
        let start = body.len();
        body.resize(start + size as usize, 0);
        reader
            .read_exact(&mut body[start..])
            .map_err(|e| e.to_string())?;
        let mut crlf = [0u8; 2];
        reader.read_exact(&mut crlf).map_err(|e| e.to_string())?;
    }
}

fn respond_error(writer: &mut impl Write, status: u16, why: &str) -> io::Result<()> {
    let reason = match status {
        400 => "Bad Request",
        403 => "Forbidden",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Gateway Timeout",
    };
    let body = format!("goccia gateway: {why}\n");
    let whole = format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    writer.write_all(whole.as_bytes())?;
    writer.flush()
}

/// `host:port` (or `[v6]:port`) of a `CONNECT`.
fn authority_of(target: &str) -> Option<(String, u16)> {
    let (host, port) = target.rsplit_once(':')?;
    let port = port.parse::<u16>().ok().filter(|p| *p != 0)?;
    let host = canonical_host(host);
    (!host.is_empty()).then_some((host, port))
}

fn connect(
    gateway: &Gateway,
    head: Head,
    mut client: TcpStream,
    watch: &Watch,
    stopped: &Arc<AtomicBool>,
) -> io::Result<()> {
    let line = format!("CONNECT {}", head.target);
    let Some((host, port)) = authority_of(&head.target) else {
        return respond_error(&mut client, 400, "CONNECT names host:port");
    };
    let policy = &gateway.policy;
    if !policy.allows(&host, port) {
        let why = format!(
            "fetch refused: host '{host}' (port {port}) is not allowed{}",
            gateway.advice.suffix(goccia_core::Setting::AllowHost)
        );
        gateway
            .audit
            .record("fetch", "deny", line, Some(why.clone()));
        return respond_error(&mut client, 403, &why);
    }
    if policy.inspects(&host, port) {
        return inspect(gateway, &host, port, client, watch);
    }
    let addresses = match crate::fetch::resolve(policy, &gateway.advice, 0, &host, port) {
        Ok(addresses) => addresses,
        Err(error) => {
            gateway
                .audit
                .record("fetch", "deny", line, Some(error.to_string()));
            return respond_error(&mut client, 403, &error.to_string());
        }
    };
    let upstream = addresses.iter().find_map(|address| {
        TcpStream::connect_timeout(address, watch.remaining().min(Duration::from_secs(30)))
            .ok()
            .map(|stream| (stream, *address))
    });
    let Some((upstream, address)) = upstream else {
        let why = format!("cannot connect to {host}:{port}");
        gateway
            .audit
            .record("fetch", "fail", line, Some(why.clone()));
        return respond_error(&mut client, 502, &why);
    };
    client.write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")?;
    let (up, down) = tunnel(client, upstream, watch, stopped);
    let rule = policy
        .allowed()
        .iter()
        .find(|rule| rule.matches_host(&host, port))
        .map(ToString::to_string)
        .unwrap_or_default();
    gateway.audit.record(
        "fetch",
        "allow",
        line,
        Some(format!(
            "tunnel, {up} bytes up, {down} bytes down, rule {rule}, via {address}"
        )),
    );
    Ok(())
}

/// Copies both ways until either side closes, the deadline passes or the
/// proxy stops; the bytes sent up and down.
fn tunnel(
    client: TcpStream,
    upstream: TcpStream,
    watch: &Watch,
    stopped: &Arc<AtomicBool>,
) -> (u64, u64) {
    let tick = Some(Duration::from_millis(100));
    let _ = client.set_read_timeout(tick);
    let _ = upstream.set_read_timeout(tick);
    let done = Arc::new(AtomicBool::new(false));
    let pump = |mut from: TcpStream,
                mut to: TcpStream,
                done: Arc<AtomicBool>,
                watch: Watch,
                stopped: Arc<AtomicBool>| {
        let mut moved = 0u64;
        let mut buffer = vec![0u8; 32 << 10];
        while !done.load(Ordering::SeqCst)
            && !stopped.load(Ordering::SeqCst)
            && watch.check().is_ok()
        {
            match from.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    if to.write_all(&buffer[..n]).is_err() {
                        break;
                    }
                    moved += n as u64;
                }
                Err(error)
                    if matches!(
                        error.kind(),
                        io::ErrorKind::WouldBlock
                            | io::ErrorKind::TimedOut
                            | io::ErrorKind::Interrupted
                    ) => {}
                Err(_) => break,
            }
        }
        done.store(true, Ordering::SeqCst);
        let _ = to.shutdown(Shutdown::Write);
        moved
    };
    let (client_read, upstream_write) = match (client.try_clone(), upstream.try_clone()) {
        (Ok(a), Ok(b)) => (a, b),
        _ => return (0, 0),
    };
    let up = {
        let (done, watch, stopped) = (done.clone(), watch.clone(), stopped.clone());
        std::thread::spawn(move || pump(client_read, upstream_write, done, watch, stopped))
    };
    let down = pump(upstream, client, done, watch.clone(), stopped.clone());
    (up.join().unwrap_or(0), down)
}

/// Answers `CONNECT` with TLS under the sandbox's authority and forwards
/// the request inside as a checked `https` request.
fn inspect(
    gateway: &Gateway,
    host: &str,
    port: u16,
    mut client: TcpStream,
    watch: &Watch,
) -> io::Result<()> {
    let config = match gateway.authority().and_then(|a| a.server_for(host)) {
        Ok(config) => config,
        Err(why) => return respond_error(&mut client, 502, &why),
    };
    client.write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")?;
    let connection = rustls::ServerConnection::new(config).map_err(io::Error::other)?;
    let mut tls = rustls::StreamOwned::new(connection, client);
    let head = {
        let mut reader = BufReader::new(&mut tls);
        match read_head(&mut reader) {
            Ok(head) => {
                let authority = if host.contains(':') {
                    format!("[{host}]:{port}")
                } else {
                    format!("{host}:{port}")
                };
                let url = match Url::parse(&format!("https://{authority}{}", head.target)) {
                    Ok(url) if head.target.starts_with('/') => url,
                    _ => {
                        drop(reader);
                        return respond_error(
                            &mut tls,
                            400,
                            "a request inside the tunnel names a path",
                        );
                    }
                };
                let mut response = Vec::new();
                // One request per inspected tunnel: it closes after it.
                forward(gateway, head, url, &mut reader, &mut response, watch, false)?;
                Some(response)
            }
            Err(BadRequest::Closed) => None,
            Err(BadRequest::Malformed(why)) => {
                drop(reader);
                return respond_error(&mut tls, 400, &why);
            }
        }
    };
    if let Some(response) = head {
        tls.write_all(&response)?;
        tls.flush()?;
    }
    tls.conn.send_close_notify();
    let _ = tls.conn.complete_io(&mut tls.sock);
    Ok(())
}
