//! The proxy as a server (docs/network.md): served on a loopback listener
//! here (a jail's is the same socket type, made in its own namespace),
//! against a loopback upstream. Malformed requests, refusals, request
//! bodies, concurrent clients and the deadline.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use goccia_core::{Advice, AllowedHost, Audit, NetPolicy, Watch};
use goccia_gateway::proxy::{Gateway, Serving};

/// An upstream that answers with the method, path and body it got.
fn upstream() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let record = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let record = record.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                reader.read_line(&mut line).unwrap();
                let mut length = 0;
                loop {
                    let mut header = String::new();
                    reader.read_line(&mut header).unwrap();
                    if header == "\r\n" {
                        break;
                    }
                    if let Some(value) = header.to_ascii_lowercase().strip_prefix("content-length:")
                    {
                        length = value.trim().parse().unwrap();
                    }
                }
                let mut body = vec![0; length];
                reader.read_exact(&mut body).unwrap();
                let text = format!(
                    "{} {}",
                    line.trim_end().rsplit_once(' ').unwrap().0,
                    String::from_utf8_lossy(&body)
                );
                record.lock().unwrap().push(text.clone());
                let mut stream = stream;
                write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{text}",
                    text.len()
                )
                .unwrap();
            });
        }
    });
    (port, seen)
}

/// The proxy for a policy allowing `127.0.0.1:port`, on a loopback port.
fn proxy(port: u16, timeout: Duration) -> (u16, Serving) {
    let policy = NetPolicy::builder()
        .allow(AllowedHost::parse(&format!("127.0.0.1:{port}")).unwrap())
        .max_body_bytes(1 << 20)
        .build();
    let gateway = Gateway::new(policy, Audit::default(), Advice::default());
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let proxy_port = listener.local_addr().unwrap().port();
    (proxy_port, gateway.serve(listener, Watch::new(timeout)))
}

/// Sends `request` to the proxy; its whole answer.
fn send(proxy_port: u16, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", proxy_port)).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    stream.write_all(request).unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    answer
}

#[test]
fn malformed_requests_are_answered_400_naming_what_is_wrong() {
    let (port, seen) = upstream();
    let (proxy_port, _serving) = proxy(port, Duration::from_secs(30));
    for (request, says) in [
        (b"\x00\x01garbage\r\n\r\n".to_vec(), "bad request"),
        (
            b"GET /relative HTTP/1.1\r\nHost: x\r\n\r\n".to_vec(),
            "absolute http:// URL",
        ),
        (
            format!("GET http://127.0.0.1:{port}/x HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\nabc").into_bytes(),
            "both Content-Length and chunked",
        ),
        (
            format!("GET http://127.0.0.1:{port}/x HTTP/1.1\r\nX: {}\r\n\r\n", "a".repeat(70 << 10)).into_bytes(),
            "too large",
        ),
        (b"CONNECT nowhere HTTP/1.1\r\nConnection: close\r\n\r\n".to_vec(), "host:port"),
    ] {
        let answer = send(proxy_port, &request);
        assert!(answer.starts_with("HTTP/1.1 400 "), "{answer}");
        assert!(answer.contains(says), "{says}: {answer}");
    }
    assert!(
        seen.lock().unwrap().is_empty(),
        "nothing reached the upstream"
    );
}

#[test]
fn refusals_are_403_and_bodies_reach_the_upstream_whole() {
    let (port, seen) = upstream();
    let (proxy_port, _serving) = proxy(port, Duration::from_secs(30));
    let refused = send(
        proxy_port,
        b"GET http://127.0.0.1:1/x HTTP/1.1\r\nHost: 127.0.0.1:1\r\nConnection: close\r\n\r\n",
    );
    assert!(refused.starts_with("HTTP/1.1 403 "), "{refused}");
    assert!(refused.contains("is not allowed"), "{refused}");
    let tunnel = send(
        proxy_port,
        b"CONNECT example.com:443 HTTP/1.1\r\nConnection: close\r\n\r\n",
    );
    assert!(tunnel.starts_with("HTTP/1.1 403 "), "{tunnel}");
    let chunked = send(
        proxy_port,
        format!("POST http://127.0.0.1:{port}/c HTTP/1.1\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n").as_bytes(),
    );
    assert!(chunked.starts_with("HTTP/1.1 200 "), "{chunked}");
    assert!(chunked.ends_with("POST /c abcde"), "{chunked}");
    let sized = send(
        proxy_port,
        format!("PUT http://127.0.0.1:{port}/s HTTP/1.1\r\nConnection: close\r\nContent-Length: 4\r\n\r\nwxyz")
            .as_bytes(),
    );
    assert!(sized.ends_with("PUT /s wxyz"), "{sized}");
    let too_big = send(
        proxy_port,
        format!(
            "PUT http://127.0.0.1:{port}/s HTTP/1.1\r\nContent-Length: {}\r\n\r\n",
            2 << 20
        )
        .as_bytes(),
    );
    assert!(too_big.starts_with("HTTP/1.1 400 "), "{too_big}");
    assert_eq!(seen.lock().unwrap().len(), 2);
}

#[test]
fn a_connection_is_kept_for_the_next_request_until_the_client_closes_it() {
    let (port, seen) = upstream();
    let (proxy_port, _serving) = proxy(port, Duration::from_secs(30));
    let both = send(
        proxy_port,
        format!(
            "GET http://127.0.0.1:{port}/one HTTP/1.1\r\n\r\nGET http://127.0.0.1:{port}/two HTTP/1.1\r\nConnection: close\r\n\r\n"
        )
        .as_bytes(),
    );
    assert_eq!(both.matches("HTTP/1.1 200 OK").count(), 2, "{both}");
    assert!(both.contains("connection: keep-alive"), "{both}");
    assert!(both.ends_with("GET /two "), "{both}");
    assert_eq!(seen.lock().unwrap().len(), 2);
}

#[test]
fn concurrent_clients_are_each_answered() {
    let (port, seen) = upstream();
    let (proxy_port, _serving) = proxy(port, Duration::from_secs(30));
    let clients: Vec<_> = (0..24)
        .map(|n| {
            std::thread::spawn(move || {
                send(
                    proxy_port,
                    format!(
                        "GET http://127.0.0.1:{port}/n{n} HTTP/1.1\r\nConnection: close\r\n\r\n"
                    )
                    .as_bytes(),
                )
            })
        })
        .collect();
    for (n, client) in clients.into_iter().enumerate() {
        let answer = client.join().unwrap();
        assert!(answer.ends_with(&format!("GET /n{n} ")), "{answer}");
    }
    assert_eq!(seen.lock().unwrap().len(), 24);
}

#[test]
fn past_the_deadline_a_request_is_504_and_a_stopped_proxy_accepts_nothing() {
    let (port, seen) = upstream();
    // A deadline already past.
    let (proxy_port, serving) = proxy(port, Duration::ZERO);
    let late = send(
        proxy_port,
        format!("GET http://127.0.0.1:{port}/late HTTP/1.1\r\nConnection: close\r\n\r\n")
            .as_bytes(),
    );
    assert!(late.starts_with("HTTP/1.1 504 "), "{late}");
    assert!(seen.lock().unwrap().is_empty());
    drop(serving);
    let refused = TcpStream::connect(("127.0.0.1", proxy_port))
        .and_then(|mut stream| {
            stream.write_all(b"GET http://127.0.0.1:1/ HTTP/1.1\r\nConnection: close\r\n\r\n")?;
            let mut answer = String::new();
            stream.read_to_string(&mut answer)?;
            Ok(answer)
        })
        .unwrap_or_default();
    assert!(refused.is_empty(), "{refused}");
}
