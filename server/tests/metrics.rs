//! `GET /metrics` through real HTTP (docs/server.md, "Metrics"): only with
//! the admin token; calls counted by kind and failure kind with their
//! latency, submits by outcome, open sessions and their bytes.

mod support;

use goccia_server::clock::ManualClock;
use support::*;

/// The value of the sample line that starts with `name` (labels included).
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find(|line| line.starts_with(name) && line[name.len()..].starts_with(' '))
        .and_then(|line| line.rsplit(' ').next())
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("no sample {name} in\n{text}"))
}

#[test]
fn metrics_count_calls_submits_and_sessions_for_the_admin_only() {
    let dir = workspace();
    let clock = ManualClock::at(START);
    let server = Running::start(config(dir.path(), &clock));
    let client = Client::new(&server.base);
    let session = client.open(&["shell", "run", "submit"]);
    let before = client.get("/metrics", Some(ADMIN));
    assert_eq!(before.status, 200, "{}", before.text);
    assert_eq!(sample(&before.text, "goccia_open_sessions"), 1.0);
    shell(&client, &session, "echo one > /w/new.txt").ok();
    shell(&client, &session, "exit 3").ok();
    client
        .post(
            &session.path("/run"),
            Some(&session.token),
            r#"{"code":"while(true){}","timeoutMs":50}"#,
        )
        .ok();
    let landed = submit(&client, &session, &session.root);
    assert_eq!(landed.status, 200, "{}", landed.text);
    // The same root again is stale now: the first submit moved it.
    let stale = submit(&client, &session, &session.root);
    assert_eq!(stale.status, 409, "{}", stale.text);

    let text = client.get("/metrics", Some(ADMIN)).text.clone();
    assert_eq!(
        sample(&text, r#"goccia_calls_total{kind="shell",failure="none"}"#),
        1.0
    );
    assert_eq!(
        sample(
            &text,
            r#"goccia_calls_total{kind="shell",failure="script-error"}"#
        ),
        1.0
    );
    assert_eq!(
        sample(&text, r#"goccia_calls_total{kind="run",failure="timeout"}"#),
        1.0
    );
    assert_eq!(
        sample(&text, r#"goccia_call_duration_seconds_count{kind="shell"}"#),
        2.0
    );
    assert_eq!(
        sample(&text, r#"goccia_submits_total{outcome="landed"}"#),
        1.0
    );
    assert_eq!(
        sample(&text, r#"goccia_submits_total{outcome="stale"}"#),
        1.0
    );
    assert!(
        sample(
            &text,
            r#"goccia_store_duration_seconds_count{operation="grant"}"#
        ) >= 5.0
    );
    assert!(sample(&text, "goccia_vfs_bytes") > 0.0);
    assert!(text.ends_with("# EOF\n"), "{text}");

    // Without the admin token: nothing.
    for token in [None, Some(session.token.as_str()), Some("wrong")] {
        let refused = client.get("/metrics", token);
        refused.code(401, "TOKEN_INVALID");
        assert!(!refused.text.contains("goccia_calls"), "{}", refused.text);
    }
    server.stop();
}
