//! One spec, every surface (docs/spec.md): each setting of the sandbox
//! spec, set through each surface's own spelling — a flag of `goccia
//! spec`/`run`, an option of `goccia mcp`, a field of the server's session
//! body — reaches the sandbox that surface builds, read back from the
//! sandbox itself (MCP's `goccia://sandbox/spec` resource, the server's
//! `GET /v1/sandboxes/{id}`). The same bad value is refused by each with
//! the same words; the server refuses every kind of widening of its own
//! spec. Python's keywords are walked the same way in
//! python/tests/test_spec.py, Node's options in node/test/spec.test.mjs.

use goccia::spec::limits::LIMIT_NAMES;
use serde_json::{Value, json};

use crate::common::*;
use crate::mcp::{Sdk, drive, stdio};
use crate::serve::{Served, http, workspace_server as server};

/// A setting away from its default: its JSON path, the flags that set it,
/// and the value the spec then holds.
struct Setting {
    path: String,
    flags: Vec<String>,
    value: Value,
}

/// Every setting of the spec, each with a value other than its default
/// (and, for the limits, below it, so a server session may ask for it).
/// Host paths are under `project`.
/// A PEM file every Debian machine has (a CA file must be readable).
const SYSTEM_BUNDLE: &str = "/etc/ssl/certs/ca-certificates.crt";

fn every_setting(project: &Project) -> Vec<Setting> {
    let defaults = project.goccia(&["spec"]).assert_ok().json();
    let mut settings: Vec<Setting> = LIMIT_NAMES
        .iter()
        .map(|limit| {
            let value = match &defaults["limits"][limit.json] {
                Value::String(_) => json!("truncate"),
                number => json!(number.as_u64().unwrap() / 2),
            };
            let text = match &value {
                Value::String(text) => text.clone(),
                number => number.to_string(),
            };
            Setting {
                path: format!("limits.{}", limit.json),
                flags: vec![limit.flag.to_string(), text],
                value,
            }
        })
        .collect();
    let ws = project.join("ws").display().to_string();
    let audit = project.join("audit.jsonl").display().to_string();
    let rows: Vec<(&str, Vec<String>, Value)> = vec![
        (
            "seeds",
            vec!["--seed".into(), format!("{ws}=/w")],
            json!([{"from": ws, "to": "/w"}]),
        ),
        (
            "exclude",
            vec!["--exclude".into(), "*.log".into()],
            json!(["*.log"]),
        ),
        ("gitignore", vec!["--gitignore".into()], json!(true)),
        (
            "symlinks",
            vec!["--symlinks".into(), "keep".into()],
            json!("keep"),
        ),
        ("env", vec!["--env".into(), "A=1".into()], json!({"A": "1"})),
        (
            "network.allowHost",
            vec!["--allow-host".into(), "example.com".into()],
            json!(["example.com"]),
        ),
        (
            "network.denyPrivateRanges",
            vec!["--deny-private-ranges".into()],
            json!(true),
        ),
        (
            "network.fetchMaxBytes",
            vec!["--fetch-max-bytes".into(), "1m".into()],
            json!(1 << 20),
        ),
        (
            "network.secrets",
            vec!["--secret".into(), "TOKEN=env:HOME".into()],
            json!({"TOKEN": "env:HOME"}),
        ),
        (
            // A binding may name no secret: a fixed header.
            "network.secretHeaders",
            vec!["--secret-header".into(), "example.com:X-Fixed=1".into()],
            json!(["example.com:X-Fixed=1"]),
        ),
        (
            "network.caFiles",
            vec!["--ca-file".into(), SYSTEM_BUNDLE.into()],
            json!([SYSTEM_BUNDLE]),
        ),
        (
            "policy",
            vec!["--policy".into(), "workspace-write".into()],
            json!("workspace-write"),
        ),
        (
            "writable",
            vec!["--writable".into(), "/out".into()],
            json!(["/out"]),
        ),
        (
            "approve",
            vec!["--approve".into(), "always".into()],
            json!("always"),
        ),
        (
            "isolation",
            vec!["--isolate".into(), "process".into()],
            json!("process"),
        ),
        (
            "hostCommands",
            vec!["--host-command".into(), "python3".into()],
            json!([{"name": "python3"}]),
        ),
        (
            "hostCommandMemory",
            vec!["--host-command-memory".into(), "256m".into()],
            json!(256 << 20),
        ),
        (
            "mode",
            vec!["--mode".into(), "bytecode".into()],
            json!("bytecode"),
        ),
        (
            "auditLog",
            vec!["--audit-log".into(), audit.clone()],
            json!(audit),
        ),
    ];
    settings.extend(rows.into_iter().map(|(path, flags, value)| Setting {
        path: path.to_string(),
        flags,
        value,
    }));
    // A setting the spec gains without a row here fails this walk.
    let mut walked: Vec<&str> = settings.iter().map(|s| s.path.as_str()).collect();
    let mut all = goccia::spec::all_settings();
    walked.sort();
    all.sort();
    assert_eq!(walked, all, "every setting of the spec is walked");
    settings
}

/// The value at a dotted JSON path.
fn at<'a>(spec: &'a Value, path: &str) -> &'a Value {
    path.split('.').fold(spec, |value, key| &value[key])
}

fn set(spec: &mut Value, path: &str, value: Value) {
    let mut keys: Vec<&str> = path.split('.').collect();
    let last = keys.pop().unwrap();
    let parent = keys.into_iter().fold(spec, |value, key| &mut value[key]);
    parent[last] = value;
}

fn project() -> Project {
    Project::with("ws/a.txt", "a\n")
}

#[test]
fn every_flag_sets_its_setting_and_nothing_else() {
    let project = project();
    let defaults = project.goccia(&["spec"]).assert_ok().json();
    for setting in every_setting(&project) {
        let mut args = vec!["spec".to_string()];
        args.extend(setting.flags.iter().cloned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let spec = project.goccia(&args).assert_ok().json();
        assert_eq!(at(&spec, &setting.path), &setting.value, "{}", setting.path);
        let mut expected = defaults.clone();
        set(&mut expected, &setting.path, setting.value.clone());
        assert_eq!(spec, expected, "{} changed more than itself", setting.path);
    }
}

/// `goccia spec` with every setting's flag at once.
fn everything(project: &Project) -> (Vec<String>, Value) {
    let flags: Vec<String> = every_setting(project)
        .into_iter()
        .flat_map(|setting| setting.flags)
        .collect();
    let mut args = vec!["spec".to_string()];
    args.extend(flags.iter().cloned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let spec = project.goccia(&args).assert_ok().json();
    (flags, spec)
}

#[test]
fn a_printed_spec_reads_back_and_flags_override_it() {
    let project = project();
    let (_, spec) = everything(&project);
    project.write("spec.json", spec.to_string());
    let again = project
        .goccia(&["spec", "--spec", "spec.json"])
        .assert_ok()
        .json();
    assert_eq!(again, spec);
    // Relative host paths in a spec file are taken from its folder.
    project.write(
        "specs/relative.json",
        json!({"seeds": [{"from": "../ws", "to": "/w"}], "auditLog": "log.jsonl"}).to_string(),
    );
    let relative = project
        .goccia(&["spec", "--spec", "specs/relative.json"])
        .assert_ok()
        .json();
    assert_eq!(
        relative["seeds"][0]["from"],
        json!(project.join("specs/../ws").display().to_string())
    );
    assert_eq!(
        relative["auditLog"],
        json!(project.join("specs/log.jsonl").display().to_string())
    );
    // A flag given overrides the file; one left at its default does not.
    let narrowed = project
        .goccia(&["spec", "--spec", "spec.json", "--policy", "read-only"])
        .assert_ok()
        .json();
    let mut expected = spec.clone();
    expected["policy"] = json!("read-only");
    assert_eq!(narrowed, expected);
    // What the file gets wrong is named by its field.
    project.write("bad.json", r#"{"limits": {"maxMemory": "lots"}}"#);
    project
        .goccia(&["spec", "--spec", "bad.json"])
        .assert_code(2)
        .stderr_has("limits.maxMemory: `lots` is not a size");
    // And the spec a run is built from is the one printed.
    project
        .goccia(&["run", "--spec", "spec.json", "--isolate", "none", "-e", "1"])
        .assert_ok();
}

#[test]
fn every_setting_reaches_the_mcp_servers_sandbox() {
    let project = project();
    let (flags, spec) = everything(&project);
    let args: Vec<&str> = flags.iter().map(String::as_str).collect();
    let mut config = stdio(&args, json!([]));
    config["resources"] = json!(["goccia://sandbox/spec", "goccia://nothing"]);
    let report = drive(Sdk::Python, config);
    assert_eq!(report["resourceList"], json!(["goccia://sandbox/spec"]));
    let served: Value = serde_json::from_str(
        report["resources"]["goccia://sandbox/spec"]
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(served, spec);
    let missing = report["resources"]["goccia://nothing"]["protocolError"]
        .as_str()
        .unwrap();
    assert!(
        missing.contains("no resource `goccia://nothing`"),
        "{missing}"
    );
}

/// `POST /v1/sandboxes` with `fields` besides the workspace and its seed
/// (and the `child` capability, without which nesting is off).
fn open(served: &Served, admin: &str, fields: &Value) -> (u16, Value) {
    let mut body = json!({"workspace": "w", "seeds": [{"from": ".", "to": "/w"}], "capabilities": ["shell", "child"]});
    for (key, value) in fields.as_object().unwrap() {
        body[key] = value.clone();
    }
    http(
        &served.address,
        "POST",
        "/v1/sandboxes",
        admin,
        &body.to_string(),
    )
}

#[test]
fn every_setting_of_a_session_body_reaches_its_sandbox() {
    let project = project();
    // The ceiling allows more than the session asks for, so what the
    // session gets can only have come from its body.
    let (served, admin) = server(
        &project,
        &[
            "--allow-host",
            "example.com",
            "--allow-host",
            "example.org",
            "--host-command",
            "python3",
            "--host-command",
            "git",
            "--approve",
            "always",
        ],
    );
    let mut body = json!({});
    let settings: Vec<Setting> = every_setting(&project)
        .into_iter()
        // Seeds are the workspace's (the body's own `seeds`); the log,
        // the secrets, their bindings and the CA files are the server's
        // (gateway.rs: a session cannot bring its own).
        .filter(|setting| {
            ![
                "seeds",
                "auditLog",
                "network.secrets",
                "network.secretHeaders",
                "network.caFiles",
            ]
            .contains(&setting.path.as_str())
        })
        .map(|mut setting| {
            if setting.path == "approve" {
                // Narrower than the server's `always`.
                setting.value = json!("never");
            }
            setting
        })
        .collect();
    for setting in &settings {
        set(&mut body, &setting.path, setting.value.clone());
    }
    let (status, opened) = open(&served, &admin, &body);
    assert_eq!(status, 201, "{opened}");
    let id = opened["sandboxId"].as_str().unwrap();
    let token = opened["token"].as_str().unwrap();
    let (status, described) = http(
        &served.address,
        "GET",
        &format!("/v1/sandboxes/{id}"),
        token,
        "",
    );
    assert_eq!(status, 200, "{described}");
    assert_eq!(described["workspace"], json!("w"));
    assert_eq!(described["seeds"], json!([{"from": ".", "to": "/w"}]));
    let spec = &described["spec"];
    assert!(spec.get("seeds").is_none(), "no host paths: {spec}");
    for setting in &settings {
        assert_eq!(at(spec, &setting.path), &setting.value, "{}", setting.path);
    }
    // Another session's token does not describe this one.
    let (_, other) = open(&served, &admin, &json!({}));
    let (status, _) = http(
        &served.address,
        "GET",
        &format!("/v1/sandboxes/{id}"),
        other["token"].as_str().unwrap(),
        "",
    );
    assert_eq!(status, 403);
    served.terminate();
}

#[test]
fn the_server_refuses_every_kind_of_widening() {
    let project = project();
    let (served, admin) = server(
        &project,
        &[
            "--timeout",
            "5000",
            "--policy",
            "workspace-write",
            "--writable",
            "/out",
            "--allow-host",
            "example.com",
            "--deny-private-ranges",
            "--fetch-max-bytes",
            "1m",
            "--host-command",
            "python3",
            "--host-command-memory",
            "256m",
            "--isolate",
            "process",
            "--audit-log",
            "audit.jsonl",
        ],
    );
    let widenings = [
        (json!({"limits": {"timeoutMs": 5001}}), "limits.timeoutMs"),
        (json!({"limits": {"maxMemory": "1g"}}), "limits.maxMemory"),
        (json!({"policy": "full"}), "policy"),
        (json!({"writable": ["/etc"]}), "writable"),
        (
            json!({"network": {"allowHost": ["example.org"]}}),
            "network.allowHost",
        ),
        (
            json!({"network": {"denyPrivateRanges": false}}),
            "network.denyPrivateRanges",
        ),
        (
            json!({"network": {"fetchMaxBytes": "2m"}}),
            "network.fetchMaxBytes",
        ),
        (json!({"hostCommands": ["git"]}), "hostCommands"),
        (json!({"hostCommandMemory": "512m"}), "hostCommandMemory"),
        (json!({"isolation": "none"}), "isolation"),
        (json!({"approve": "always"}), "approve"),
        (json!({"auditLog": "/tmp/mine.jsonl"}), "auditLog"),
        (
            json!({"network": {"secrets": {"T": "env:HOME"}}}),
            "network.secrets",
        ),
        (
            json!({"network": {"secretHeaders": ["example.com:X=1"]}}),
            "network.secretHeaders",
        ),
        (
            json!({"network": {"caFiles": [SYSTEM_BUNDLE]}}),
            "network.caFiles",
        ),
    ];
    for (fields, setting) in widenings {
        let (status, refused) = open(&served, &admin, &fields);
        assert_eq!(status, 400, "{fields}: {refused}");
        assert_eq!(refused["error"], json!("BAD_SESSION"), "{refused}");
        let message = refused["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("{setting} asks for")),
            "{fields}: {message}"
        );
    }
    // Narrowing each is fine.
    let (status, opened) = open(
        &served,
        &admin,
        &json!({"limits": {"timeoutMs": 4000}, "policy": "read-only", "writable": ["/out/logs"],
                "hostCommands": [], "network": {"allowHost": []}}),
    );
    assert_eq!(status, 201, "{opened}");
    served.terminate();
}

/// A bad value, and what each surface says of it: the setting in its own
/// spelling, then the same words.
struct Bad {
    flags: &'static [&'static str],
    body: Value,
    flag_name: &'static str,
    json_name: &'static str,
    words: &'static str,
}

#[test]
fn a_bad_value_is_refused_with_the_same_words_everywhere() {
    let bad = [
        Bad {
            flags: &["--policy", "open"],
            body: json!({"policy": "open"}),
            flag_name: "--policy",
            json_name: "policy",
            words: "`open` is not one of read-only, workspace-write, full",
        },
        Bad {
            flags: &["--symlinks", "follow"],
            body: json!({"symlinks": "follow"}),
            flag_name: "--symlinks",
            json_name: "symlinks",
            words: "`follow` is not one of refuse, skip, keep",
        },
        Bad {
            flags: &["--max-memory", "1"],
            body: json!({"limits": {"maxMemory": 1}}),
            flag_name: "--max-memory",
            json_name: "limits.maxMemory",
            words: "the memory limit of 1 is out of range: it must be at least 1048576",
        },
        Bad {
            flags: &["--max-memory", "lots"],
            body: json!({"limits": {"maxMemory": "lots"}}),
            flag_name: "--max-memory",
            json_name: "limits.maxMemory",
            words: "`lots` is not a size",
        },
        Bad {
            flags: &["--writable", "out"],
            body: json!({"writable": ["out"]}),
            flag_name: "--writable",
            json_name: "writable",
            words: "`out` is not an absolute sandbox path",
        },
        Bad {
            flags: &["--allow-host", "http://x/"],
            body: json!({"network": {"allowHost": ["http://x/"]}}),
            flag_name: "--allow-host",
            json_name: "network.allowHost",
            words: "`http://x/`: give HOST[:PORT][/PATH-PREFIX][@METHOD,...], not a URL",
        },
    ];
    let project = project();
    let (served, admin) = server(&project, &[]);
    for case in &bad {
        let flag_words = format!("{}: {}", case.flag_name, case.words);
        for command in [&["spec"][..], &["run", "-e", "1"], &["mcp"]] {
            let mut args = command.to_vec();
            args.extend_from_slice(case.flags);
            let run = project.goccia(&args);
            assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
            run.stderr_has(&flag_words);
        }
        let (status, refused) = open(&served, &admin, &case.body);
        assert_eq!(status, 400, "{}: {refused}", case.body);
        assert_eq!(refused["error"], json!("BAD_SESSION"), "{refused}");
        let message = refused["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("{}: {}", case.json_name, case.words)),
            "{}: {message}",
            case.body
        );
    }
    served.terminate();
}

/// A call's own deadline is stated as given and named as that surface
/// takes it with a call: the server's and MCP's `timeoutMs` (not a flag
/// the caller cannot use); the server's own limit, when the call asked for
/// more, as the limit.
#[test]
fn a_calls_timeout_is_stated_and_named_as_each_surface_takes_it() {
    let project = project();
    let (served, admin) = server(&project, &["--timeout", "5000"]);
    let (status, opened) = open(&served, &admin, &json!({}));
    assert_eq!(status, 201, "{opened}");
    let shell = |timeout: u64| {
        http(
            &served.address,
            "POST",
            &format!(
                "/v1/sandboxes/{}/shell",
                opened["sandboxId"].as_str().unwrap()
            ),
            opened["token"].as_str().unwrap(),
            &json!({"command": "while :; do :; done", "timeoutMs": timeout}).to_string(),
        )
    };
    let (status, answer) = shell(200);
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["error"],
        json!("timeout: the run's deadline of 200 ms passed (ask for a larger timeoutMs)")
    );
    served.terminate();

    let report = drive(
        Sdk::Python,
        stdio(
            &[],
            json!([["shell", {"command": "while :; do :; done", "timeoutMs": 200}]]),
        ),
    );
    let text = report["calls"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("the run's deadline of 200 ms passed (ask for a larger timeoutMs)"),
        "{text}"
    );
}
