//! `fetch` (docs/limits.md) against real HTTP servers on loopback: the
//! allow-list (also after redirects), private ranges, body caps, the
//! deadline, and what children inherit.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc;

use crate::common::*;

/// A loopback HTTP/1.1 server for one test; `port` is where it listens.
pub(crate) struct Server {
    pub(crate) port: u16,
}

impl Server {
    pub(crate) fn start() -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                std::thread::spawn(move || serve(stream, port));
            }
        });
        Server { port }
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub(crate) fn allow(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }
}

fn serve(stream: TcpStream, port: u16) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    let mut length = 0usize;
    let mut headers = Vec::new();
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
            break;
        }
        if let Some((name, value)) = line.trim_end().split_once(": ") {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.parse().unwrap_or(0);
            }
            headers.push(format!("{}={}", name.to_ascii_lowercase(), value));
        }
    }
    let mut body = vec![0u8; length];
    let _ = reader.read_exact(&mut body);
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let path = parts.next().unwrap_or("").to_string();
    let (status, extra, content): (&str, String, Vec<u8>) = match path.as_str() {
        "/hello" => ("200 OK", "X-Test: yes\r\n".into(), b"hello".to_vec()),
        "/json" => (
            "200 OK",
            "Content-Type: application/json\r\n".into(),
            b"{\"a\":[1,2]}".to_vec(),
        ),
        "/echo" => {
            let custom = headers
                .iter()
                .find(|h| h.starts_with("x-custom="))
                .cloned()
                .unwrap_or_default();
            let text = format!("{method} {custom} {}", String::from_utf8_lossy(&body));
            ("200 OK", String::new(), text.into_bytes())
        }
        "/missing" => ("404 Not Found", String::new(), b"no".to_vec()),
        "/redirect" => ("302 Found", "Location: /hello\r\n".into(), Vec::new()),
        "/redirect-post" => ("303 See Other", "Location: /echo\r\n".into(), Vec::new()),
        "/redirect-away" => (
            "302 Found",
            format!("Location: http://localhost:{port}/hello\r\n"),
            Vec::new(),
        ),
        "/big" => ("200 OK", String::new(), vec![b'x'; 64 << 10]),
        "/hang" => {
            // Holds the connection without answering until the client goes.
            let (_tx, rx) = mpsc::channel::<()>();
            let _ = rx.recv_timeout(std::time::Duration::from_secs(30));
            return;
        }
        _ => ("500 Internal Server Error", String::new(), Vec::new()),
    };
    let mut stream = stream;
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n{extra}\r\n",
        content.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(&content);
}

fn run_fetch(source: &str, extra: &[&str]) -> Run {
    let project = Project::new();
    run_js(&project, source, extra)
}

#[test]
fn fetch_is_refused_without_an_allow_list() {
    let server = Server::start();
    run_fetch(
        &format!(
            "try {{ await fetch('{}'); }} catch (e) {{ console.log(e.name, e.code, e.message); }}",
            server.url("/hello")
        ),
        &[],
    )
    .assert_ok()
    .stdout_is(&format!(
        "TypeError ERR_GOCCIA_FETCH_REFUSED fetch refused: host '127.0.0.1' (port {}) is not allowed (allow it with --allow-host)\n",
        server.port
    ));
}

#[test]
fn an_allowed_host_answers() {
    let server = Server::start();
    let allow = server.allow();
    run_fetch(
        &format!(
            "const r = await fetch('{hello}');
             console.log(r.status, r.ok, r.headers.get('x-test'), await r.text());
             const j = await fetch('{json}');
             console.log(JSON.stringify(await j.json()), j.headers.get('content-type'));
             const m = await fetch('{missing}');
             console.log(m.status, m.ok, m.statusText);
             const p = await fetch('{echo}', {{ method: 'POST', body: 'payload', headers: {{ 'X-Custom': 'c' }} }});
             console.log(await p.text());",
            hello = server.url("/hello"),
            json = server.url("/json"),
            missing = server.url("/missing"),
            echo = server.url("/echo"),
        ),
        &["--allow-host", &allow],
    )
    .assert_ok()
    .stdout_is("200 true yes hello\n{\"a\":[1,2]} application/json\n404 false Not Found\nPOST x-custom=c payload\n");
}

#[test]
fn redirects_are_followed_and_rechecked() {
    let server = Server::start();
    let allow = server.allow();
    run_fetch(
        &format!(
            "const r = await fetch('{same}');
             console.log(r.redirected, r.url.endsWith('/hello'), await r.text());
             const p = await fetch('{post}', {{ method: 'POST', body: 'x' }});
             console.log(await p.text());
             try {{ await fetch('{away}'); }} catch (e) {{ console.log(e.name, e.message); }}",
            same = server.url("/redirect"),
            post = server.url("/redirect-post"),
            away = server.url("/redirect-away"),
        ),
        &["--allow-host", &allow],
    )
    .assert_ok()
    .stdout_is(&format!(
        "true true hello\nGET  \nTypeError fetch refused (after a redirect): host 'localhost' (port {}) is not allowed (allow it with --allow-host)\n",
        server.port
    ));
}

#[test]
fn private_ranges_are_refused_after_resolution() {
    let server = Server::start();
    let by_name = format!("localhost:{}", server.port);
    run_fetch(
        &format!(
            "for (const url of ['{ip}', 'http://localhost:{port}/hello']) {{
               try {{ await fetch(url); }} catch (e) {{ console.log(e.message); }}
             }}",
            ip = server.url("/hello"),
            port = server.port,
        ),
        &["--allow-host", &server.allow(), "--allow-host", &by_name, "--deny-private-ranges"],
    )
    .assert_ok()
    .stdout_is(
        "fetch refused: host '127.0.0.1' resolves to the private address 127.0.0.1 (--deny-private-ranges)\n\
         fetch refused: host 'localhost' resolves to the private address 127.0.0.1 (--deny-private-ranges)\n",
    );
}

#[test]
fn bodies_are_capped() {
    let server = Server::start();
    run_fetch(
        &format!(
            "try {{ await fetch('{}'); }} catch (e) {{ console.log(e.name, e.message); }}",
            server.url("/big")
        ),
        &["--allow-host", &server.allow(), "--fetch-max-bytes", "1k"],
    )
    .assert_ok()
    .stdout_is("TypeError fetch failed: the response body is larger than 1024 bytes (raise it with --fetch-max-bytes)\n");
}

#[test]
fn a_silent_server_is_bounded_by_the_deadline() {
    let server = Server::start();
    run_fetch(
        &format!(
            "try {{ await fetch('{}'); }} catch {{ console.log('caught?!'); }}",
            server.url("/hang")
        ),
        &["--allow-host", &server.allow(), "--timeout", "400"],
    )
    .assert_code(4)
    .stdout_is("");
}

#[test]
fn children_inherit_the_policy() {
    let server = Server::start();
    run_fetch(
        &format!(
            "import {{ runScript }} from 'goccia';
             import fs from 'fs';
             fs.writeFileSync('/child.js', `export default await (await fetch('{hello}')).text();`);
             const r = runScript('/child.js', {{ seed: ['/child.js'] }});
             console.log(r.ok, r.result);",
            hello = server.url("/hello"),
        ),
        &["--allow-host", &server.allow()],
    )
    .assert_ok()
    .stdout_is("true hello\n");
}

#[test]
fn bad_allow_host_values_are_usage_errors() {
    Project::new()
        .goccia(&["run", "/x.js", "--allow-host", "http://example.com/"])
        .assert_code(2)
        .stderr_has("give HOST[:PORT][/PATH-PREFIX][@METHOD,...], not a URL");
    for (bad, says) in [
        (
            "a.*.example",
            "a wildcard is only allowed as a leading `*.`",
        ),
        ("example.com@GE T", "`GE T` is not an HTTP method"),
        ("example.com:0", "invalid port"),
    ] {
        Project::new()
            .goccia(&["run", "/x.js", "--allow-host", bad])
            .assert_code(2)
            .stderr_has(says);
    }
}
