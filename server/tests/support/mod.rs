//! A server on a loopback port in this process (its own runtime thread),
//! and a real HTTP client.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use goccia_server::clock::ManualClock;
use goccia_server::{Server, ServerConfig};
use serde_json::{Value, json};

pub const ADMIN: &str = "admin-token-for-tests-0123456789";
/// 2026-12-01T10:00:00Z.
pub const START: u64 = 1_796_119_200;

pub struct Running {
    pub base: String,
    pub server: Server,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    pub fn start(config: ServerConfig) -> Running {
        let server = Server::new(config).expect("the server starts");
        let handle = server.clone();
        let (address_tx, address_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                address_tx.send(listener.local_addr().unwrap()).unwrap();
                server
                    .serve(listener, async move {
                        let _ = stop_rx.await;
                    })
                    .await
                    .unwrap();
            });
        });
        let address = address_rx.recv().unwrap();
        Running {
            base: format!("http://{address}"),
            server: handle,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// A workspace folder with a few files.
pub fn workspace() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/a.txt"), "a\n").unwrap();
    std::fs::write(dir.path().join("README"), "readme\n").unwrap();
    dir
}

pub fn config(workspace: &Path, clock: &ManualClock) -> ServerConfig {
    ServerConfig::new(ADMIN)
        .workspace("w", workspace)
        .clock(Arc::new(clock.clone()))
}

/// An answer: status and body (JSON when it parses, else a string).
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub text: String,
}

impl Answer {
    #[track_caller]
    pub fn code(&self, status: u16, error: &str) -> &Self {
        assert_eq!(self.status, status, "{}", self.text);
        assert_eq!(self.body["error"], error, "{}", self.text);
        self
    }

    #[track_caller]
    pub fn ok(&self) -> &Value {
        assert!(
            (200..300).contains(&self.status),
            "{} {}",
            self.status,
            self.text
        );
        &self.body
    }
}

pub struct Client {
    agent: ureq::Agent,
    pub base: String,
}

impl Client {
    pub fn new(base: &str) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .build()
            .into();
        Client {
            agent,
            base: base.to_string(),
        }
    }

    fn finish(response: Result<ureq::http::Response<ureq::Body>, ureq::Error>) -> Answer {
        let mut response = response.expect("the server answers");
        let status = response.status().as_u16();
        let text = response.body_mut().read_to_string().unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text.clone()));
        Answer { status, body, text }
    }

    pub fn post(&self, path: &str, token: Option<&str>, body: &str) -> Answer {
        let mut request = self.agent.post(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        Self::finish(request.content_type("application/json").send(body))
    }

    pub fn post_json(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        self.post(path, token, &body.to_string())
    }

    pub fn get(&self, path: &str, token: Option<&str>) -> Answer {
        let mut request = self.agent.get(format!("{}{path}", self.base));
        if let Some(token) = token {
            request = request.header("Authorization", format!("Bearer {token}"));
        }
        Self::finish(request.call())
    }

    pub fn put(&self, path: &str, token: &str, body: &[u8]) -> Answer {
        Self::finish(
            self.agent
                .put(format!("{}{path}", self.base))
                .header("Authorization", format!("Bearer {token}"))
                .send(body),
        )
    }

    pub fn delete(&self, path: &str, token: &str) -> Answer {
        Self::finish(
            self.agent
                .delete(format!("{}{path}", self.base))
                .header("Authorization", format!("Bearer {token}"))
                .call(),
        )
    }

    /// Opens a session on workspace `w` seeded with all of it at `/w`.
    pub fn open(&self, capabilities: &[&str]) -> Session {
        self.open_with(json!({
            "workspace": "w",
            "seeds": [{"from": ".", "to": "/w"}],
            "capabilities": capabilities,
        }))
    }

    pub fn open_with(&self, request: Value) -> Session {
        let answer = self.post_json("/v1/sandboxes", Some(ADMIN), request);
        assert_eq!(answer.status, 201, "{}", answer.text);
        Session {
            id: answer.body["sandboxId"].as_str().unwrap().to_string(),
            token: answer.body["token"].as_str().unwrap().to_string(),
            root: answer.body["root"].as_str().unwrap().to_string(),
            expires_at: answer.body["expiresAt"].as_str().unwrap().to_string(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Session {
    pub id: String,
    pub token: String,
    pub root: String,
    pub expires_at: String,
}

impl Session {
    pub fn path(&self, rest: &str) -> String {
        format!("/v1/sandboxes/{}{rest}", self.id)
    }
}

pub fn authorship() -> Value {
    json!({
        "vendor": "acme", "model": "m-1", "tool": "harness", "suggestionType": "agent",
        "inputTokens": 120, "outputTokens": 45, "session": "s-1"
    })
}

pub fn submit(client: &Client, session: &Session, expected_root: &str) -> Answer {
    client.post_json(
        &session.path("/submit"),
        Some(&session.token),
        json!({"expectedRoot": expected_root, "authorship": authorship()}),
    )
}

pub fn shell(client: &Client, session: &Session, command: &str) -> Answer {
    client.post_json(
        &session.path("/shell"),
        Some(&session.token),
        json!({"command": command}),
    )
}

pub fn state_file(dir: &Path) -> PathBuf {
    dir.join("state.sqlite")
}
