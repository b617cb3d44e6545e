//! Mirrors `e2e/fetch.rs` and `e2e/audit.rs`: the allow-list through the
//! API, and the audit trail's events.

use std::io::{Read, Write};
use std::net::TcpListener;

use goccia::{AllowedHost, Audit, NetPolicy, Sandbox};

/// Answers one request on loopback with `body`; returns the port.
fn serve_once(body: &'static str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        if let Ok((mut stream, _)) = listener.accept() {
            let mut request = [0u8; 4096];
            let _ = stream.read(&mut request);
            let response = format!(
                "HTTP/1.1 200 OK\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(response.as_bytes());
        }
    });
    port
}

fn fetching(url: &str) -> String {
    format!(
        "try {{ const r = await fetch('{url}'); console.log(r.status, await r.text()) }} \
         catch (e) {{ console.log(e.name, e.message) }}"
    )
}

#[test]
fn fetch_is_refused_without_an_allow_list_and_audited() {
    let audit = Audit::new(None);
    let sandbox = Sandbox::builder()
        .audit(audit.clone())
        .file("/main.js", fetching("http://127.0.0.1:9/x"))
        .build()
        .unwrap();
    let run = sandbox.run_script("/main.js").unwrap();
    assert!(
        run.stdout_text().starts_with("TypeError"),
        "{}",
        run.stdout_text()
    );
    assert!(run.stdout_text().contains("127.0.0.1"));
    let event = &audit.events()[0];
    assert_eq!((event.kind, event.decision), ("fetch", "deny"));
}

#[test]
fn an_allowed_host_answers_and_children_inherit_the_policy() {
    let port = serve_once("pong");
    let allowed = AllowedHost::parse(&format!("127.0.0.1:{port}")).unwrap();
    let parent = Sandbox::builder()
        .network(
            NetPolicy::builder()
                .allow(allowed)
                .max_body_bytes(1 << 20)
                .build(),
        )
        .file(
            "/main.js",
            fetching(&format!("http://127.0.0.1:{port}/ping")),
        )
        .build()
        .unwrap();
    let child = parent
        .child(&[goccia::ChildSeed::path("/main.js")])
        .unwrap();
    assert_eq!(
        child.run_script("/main.js").unwrap().stdout_text(),
        "200 pong\n"
    );
}

#[test]
fn private_ranges_are_refused_when_asked() {
    let port = serve_once("never");
    let allowed = AllowedHost::parse(&format!("127.0.0.1:{port}")).unwrap();
    let sandbox = Sandbox::builder()
        .network(
            NetPolicy::builder()
                .allow(allowed)
                .refuse_private_ranges()
                .max_body_bytes(1 << 20)
                .build(),
        )
        .file("/main.js", fetching(&format!("http://127.0.0.1:{port}/")))
        .build()
        .unwrap();
    let text = sandbox
        .run_script("/main.js")
        .unwrap()
        .stdout_text()
        .into_owned();
    assert!(text.starts_with("TypeError"), "{text}");
}
