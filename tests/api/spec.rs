//! Every setting of the spec reaches the sandbox it builds (docs/spec.md):
//! the walk below has one probe per setting — seeded, set away from its
//! default, and observed through what the sandbox then does. A setting
//! the spec gains without a probe here fails the walk. The surfaces' own
//! spellings are walked down to this spec in cli/tests/e2e/spec_parity.rs
//! and python/tests/test_spec.py.

use std::io::{Read, Write};

use goccia::spec::{HostCommandSpec, LimitsSpec, SeedSpec, all_settings};
use goccia::{
    Approve, ExecMode, IsolationMode, PolicyMode, SandboxSpec, SecretSource, SymlinkPolicy,
};

/// One probe: the spec with the setting changed, and a check of the
/// sandbox built from it.
type Probe = (
    fn(&mut SandboxSpec, &Fixture),
    fn(&goccia::Sandbox, &Fixture),
);

/// What the probes share: a host folder to seed, a local HTTP server, an
/// authority's certificate in a PEM file.
struct Fixture {
    host: tempfile::TempDir,
    port: u16,
    ca_file: std::path::PathBuf,
    ca_line: String,
}

impl Fixture {
    fn new() -> Fixture {
        let host = tempfile::tempdir().unwrap();
        let root = host.path().join("ws");
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("a.txt"), "a\n").unwrap();
        std::fs::write(root.join("debug.log"), "noise").unwrap();
        std::fs::write(root.join(".gitignore"), "ignored.txt\n").unwrap();
        std::fs::write(root.join("ignored.txt"), "x").unwrap();
        std::os::unix::fs::symlink("a.txt", root.join("link")).unwrap();
        // Answers every request with its own head (at least 100 bytes).
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let mut request = [0u8; 4096];
                let read = stream.read(&mut request).unwrap_or(0);
                let head = String::from_utf8_lossy(&request[..read]);
                let body = format!("{head:x<100}");
                let _ = write!(
                    stream,
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        let pem = goccia_gateway::authority::Authority::generate()
            .unwrap()
            .pem();
        let ca_file = host.path().join("ca.pem");
        std::fs::write(&ca_file, &pem).unwrap();
        let ca_line = pem.lines().nth(1).unwrap().to_string();
        Fixture {
            host,
            port,
            ca_file,
            ca_line,
        }
    }

    fn seeded(&self, spec: &mut SandboxSpec) {
        spec.seeds = vec![SeedSpec::Host {
            from: self.host.path().join("ws"),
            to: Some("/w".into()),
            copy_rw: false,
        }];
        spec.symlinks = SymlinkPolicy::Skip;
    }

    fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }
}

fn shell(sandbox: &goccia::Sandbox, command: &str) -> goccia::Run {
    sandbox.run_shell(command).unwrap()
}

fn fetch_failure(sandbox: &goccia::Sandbox, url: &str) -> String {
    let run = sandbox
        .run_code(&format!(
            "const r = await fetch('{url}'); export default (await r.text()).length;"
        ))
        .unwrap();
    run.failure
        .map(|failure| failure.message)
        .unwrap_or_default()
}

fn probe(setting: &str) -> Probe {
    match setting {
        "seeds" => (
            |spec, fixture| fixture.seeded(spec),
            |sandbox, _| assert_eq!(&sandbox.read("/w/a.txt").unwrap()[..], b"a\n"),
        ),
        "exclude" => (
            |spec, fixture| {
                fixture.seeded(spec);
                spec.exclude = vec!["*.log".into()];
            },
            |sandbox, _| {
                assert!(sandbox.read("/w/debug.log").is_err());
                assert!(sandbox.read("/w/a.txt").is_ok());
            },
        ),
        "gitignore" => (
            |spec, fixture| {
                fixture.seeded(spec);
                spec.gitignore = true;
            },
            |sandbox, _| assert!(sandbox.read("/w/ignored.txt").is_err()),
        ),
        "symlinks" => (
            |spec, fixture| {
                fixture.seeded(spec);
                spec.symlinks = SymlinkPolicy::Keep;
            },
            |sandbox, _| assert_eq!(shell(sandbox, "readlink /w/link").stdout_text(), "a.txt\n"),
        ),
        "env" => (
            |spec, _| {
                spec.env.insert("GREETING".into(), "hi".into());
            },
            |sandbox, _| assert_eq!(shell(sandbox, "echo $GREETING").stdout_text(), "hi\n"),
        ),
        "network.allowHost" => (
            |spec, fixture| spec.network.allow_host = vec![format!("127.0.0.1:{}", fixture.port)],
            |sandbox, fixture| {
                let run = sandbox
                    .run_code(&format!(
                        "const r = await fetch('{}'); export default (await r.text()).length;",
                        fixture.url()
                    ))
                    .unwrap();
                assert!(run.success(), "{:?}", run.failure);
            },
        ),
        "network.denyPrivateRanges" => (
            |spec, fixture| {
                spec.network.allow_host = vec![format!("127.0.0.1:{}", fixture.port)];
                spec.network.deny_private_ranges = true;
            },
            |sandbox, fixture| {
                assert!(fetch_failure(sandbox, &fixture.url()).contains("private address"))
            },
        ),
        "network.secrets" => (
            |spec, _| {
                spec.network
                    .secrets
                    .insert("PROBE".into(), SecretSource::Value("probe-value-1".into()));
            },
            |sandbox, _| {
                assert_eq!(
                    shell(sandbox, "echo $PROBE").stdout_text(),
                    "goccia-secret:PROBE\n"
                )
            },
        ),
        "network.secretHeaders" => (
            |spec, fixture| {
                spec.network.allow_host = vec![format!("127.0.0.1:{}", fixture.port)];
                spec.network
                    .secrets
                    .insert("PROBE".into(), SecretSource::Value("probe-value-1".into()));
                spec.network.secret_headers = vec!["127.0.0.1:X-Probe={PROBE}".into()];
            },
            |sandbox, fixture| {
                // The upstream echoes the header; the value comes back redacted.
                let body = shell(sandbox, &format!("curl -s {}", fixture.url()))
                    .stdout_text()
                    .to_string();
                assert!(
                    body.to_ascii_lowercase()
                        .contains("x-probe: [secret probe]"),
                    "{body}"
                );
            },
        ),
        "network.caFiles" => (
            |spec, fixture| {
                spec.network.allow_host = vec![format!("127.0.0.1:{}", fixture.port)];
                spec.network.ca_files = vec![fixture.ca_file.clone()];
                spec.host_commands = vec![HostCommandSpec {
                    name: "python3".into(),
                    path: None,
                }];
            },
            |sandbox, fixture| {
                // The jail's bundle holds it (and the gateway trusts it).
                let bundle = shell(
                    sandbox,
                    "python3 -c \"print(open('/.goccia-ca.pem').read())\"",
                )
                .stdout_text()
                .to_string();
                assert!(
                    bundle.contains(&fixture.ca_line),
                    "the CA file is not in the jail's bundle"
                );
            },
        ),
        "network.fetchMaxBytes" => (
            |spec, fixture| {
                spec.network.allow_host = vec![format!("127.0.0.1:{}", fixture.port)];
                spec.network.fetch_max_bytes = 10;
            },
            |sandbox, fixture| {
                let failure = fetch_failure(sandbox, &fixture.url());
                assert!(failure.contains("larger than 10 bytes"), "{failure}");
            },
        ),
        "policy" => (
            |spec, _| spec.policy = PolicyMode::ReadOnly,
            |sandbox, _| assert_ne!(shell(sandbox, "echo x > /x").exit_code, 0),
        ),
        "writable" => (
            |spec, _| {
                spec.policy = PolicyMode::WorkspaceWrite;
                spec.writable = vec!["/out".into()];
            },
            |sandbox, _| {
                assert_eq!(
                    shell(sandbox, "mkdir -p /out && echo x > /out/x").exit_code,
                    0
                );
                assert_ne!(shell(sandbox, "echo x > /elsewhere").exit_code, 0);
            },
        ),
        "approve" => (
            |spec, _| {
                spec.policy = PolicyMode::ReadOnly;
                spec.approve = Approve::Always;
            },
            |sandbox, _| {
                let run = shell(
                    sandbox,
                    "escalate --mode full --justification why -- touch /x",
                );
                assert_eq!(run.exit_code, 0, "{}", run.stderr_text());
            },
        ),
        "isolation" => (
            |spec, _| spec.isolation = IsolationMode::Process,
            // The worker starts with the first run (cli/tests/isolation_api.rs
            // runs guests in it); here, that the build chose it.
            |sandbox, _| {
                assert!(matches!(
                    sandbox.isolation(),
                    goccia::isolation::Isolation::Process(_)
                ))
            },
        ),
        "hostCommands" => (
            |spec, _| {
                spec.host_commands = vec![HostCommandSpec {
                    name: "python3".into(),
                    path: None,
                }]
            },
            |sandbox, _| {
                let run = shell(sandbox, "python3 -c 'print(6 * 7)'");
                assert_eq!(run.stdout_text(), "42\n", "{}", run.stderr_text());
            },
        ),
        "hostCommandMemory" => (
            |spec, _| {
                spec.host_commands = vec![HostCommandSpec {
                    name: "python3".into(),
                    path: None,
                }];
                spec.host_command_memory = 64 << 20;
            },
            |sandbox, _| {
                let run = shell(sandbox, "python3 -c 'b = bytearray(256 << 20)'");
                assert_ne!(run.exit_code, 0);
                assert!(
                    run.stderr_text().contains("MemoryError"),
                    "{}",
                    run.stderr_text()
                );
            },
        ),
        "mode" => (
            |spec, _| spec.mode = ExecMode::Bytecode,
            |sandbox, _| assert_eq!(sandbox.mode(), ExecMode::Bytecode),
        ),
        "auditLog" => (
            |spec, fixture| {
                spec.policy = PolicyMode::ReadOnly;
                spec.audit_log = Some(fixture.host.path().join("audit.jsonl"));
            },
            |sandbox, fixture| {
                shell(sandbox, "echo x > /denied");
                let log = std::fs::read_to_string(fixture.host.path().join("audit.jsonl")).unwrap();
                assert!(log.contains("/denied"), "{log}");
            },
        ),
        limit if limit.starts_with("limits.") => (
            // Every limit at once, each away from its default; the run's
            // limits are the sandbox's (tests/api/limits.rs enforces each).
            |spec, _| {
                let mut value = serde_json::to_value(&spec.limits).unwrap();
                for (_, field) in value.as_object_mut().unwrap() {
                    *field = match field.as_u64() {
                        Some(number) => (number / 2).into(),
                        None => "truncate".into(),
                    };
                }
                spec.limits = serde_json::from_value(value).unwrap();
            },
            |sandbox, _| {
                let mut expected = serde_json::to_value(LimitsSpec::default()).unwrap();
                for (_, field) in expected.as_object_mut().unwrap() {
                    *field = match field.as_u64() {
                        Some(number) => (number / 2).into(),
                        None => "truncate".into(),
                    };
                }
                let expected: LimitsSpec = serde_json::from_value(expected).unwrap();
                assert_eq!(LimitsSpec::from(sandbox.limits()), expected);
            },
        ),
        other => panic!("no probe for `{other}`: add one when the spec gains a setting"),
    }
}

/// `spec` with `setting` (a JSON path) put back to its default.
fn without(spec: &SandboxSpec, setting: &str) -> SandboxSpec {
    let default = serde_json::to_value(SandboxSpec::default()).unwrap();
    let mut value = serde_json::to_value(spec).unwrap();
    // The limits are probed together: all of them go back.
    let path = if setting.starts_with("limits.") {
        "limits"
    } else {
        setting
    };
    let (mut into, mut from) = (&mut value, &default);
    let keys: Vec<&str> = path.split('.').collect();
    for key in &keys[..keys.len() - 1] {
        into = &mut into[*key];
        from = &from[*key];
    }
    let last = keys[keys.len() - 1];
    into[last] = from[last].clone();
    SandboxSpec::from_value(value).unwrap()
}

#[test]
fn every_setting_of_the_spec_reaches_the_sandbox() {
    let fixture = Fixture::new();
    for setting in all_settings() {
        let (change, check) = probe(&setting);
        let mut spec = SandboxSpec::default();
        change(&mut spec, &fixture);
        // The same spec without the setting fails the probe (or is not
        // built at all): the probe sees this setting and no other.
        let baseline = without(&spec, &setting);
        assert_ne!(baseline, spec, "{setting}");
        if let Ok(sandbox) = baseline.build() {
            let missed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                check(&sandbox, &fixture)
            }));
            assert!(missed.is_err(), "{setting}: the probe passes without it");
        }
        let sandbox = spec
            .build()
            .unwrap_or_else(|error| panic!("{setting}: {error}"));
        check(&sandbox, &fixture);
        assert_eq!(
            sandbox.spec(),
            &spec,
            "{setting}: the sandbox keeps its spec"
        );
    }
}

#[test]
fn docs_spec_lists_every_setting() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/spec.md"))
        .expect("docs/spec.md");
    for setting in all_settings() {
        let name = setting.strip_prefix("limits.").unwrap_or(&setting);
        assert!(
            doc.contains(&format!("| `{name}` |")),
            "docs/spec.md has no row for `{setting}`"
        );
    }
}
