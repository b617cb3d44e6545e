//! The network gateway (docs/network.md) against loopback servers these
//! tests start, HTTP and HTTPS under a test authority: rules from every
//! client (JS `fetch`, the shell's `curl` and `wget`, a confined real
//! `curl` and `python3`), methods and path prefixes, the rebinding shape,
//! secrets set where bound and nowhere else, and the value absent from
//! everything the guest or a reader of goccia's output could see. Each
//! test names the threat it stands for (README, "Network and secrets").

use crate::common::*;
use crate::gateway_upstream::{FileServer, TestAuthority, Upstream, private_name};

/// The secret every test here uses; it must never come back unredacted.
const TOKEN: &str = "tok-4f9c2b7e1d";

/// A project with the token in `token` and the test authority in `ca.pem`.
fn project(authority: Option<&TestAuthority>) -> Project {
    let project = Project::new();
    project.write("token", format!("{TOKEN}\n"));
    if let Some(authority) = authority {
        project.write("ca.pem", &authority.pem);
    }
    project
}

/// `--secret T=@token --secret-header <host>:Authorization=Bearer {T}`.
fn secret_flags(host: &str) -> Vec<String> {
    vec![
        "--secret".into(),
        "T=@token".into(),
        "--secret-header".into(),
        format!("{host}:Authorization=Bearer {{T}}"),
    ]
}

fn shell(project: &Project, flags: &[String], script: &str) -> Run {
    let mut args: Vec<&str> = vec!["shell"];
    args.extend(flags.iter().map(String::as_str));
    args.extend(["-c", script]);
    project.goccia(&args)
}

/// An upstream the secret is bound to (`127.0.0.1`), another reached as
/// `localhost` (allowed, no secret), a project and the flags for both.
fn bound_and_other() -> (Upstream, Upstream, Project, Vec<String>) {
    let (bound, other) = (Upstream::http(), Upstream::http());
    let mut flags = secret_flags("127.0.0.1");
    flags.extend([
        "--allow-host".into(),
        bound.rule(),
        "--allow-host".into(),
        format!("localhost:{}", other.port),
    ]);
    (bound, other, project(None), flags)
}

fn no_token(run: &Run) {
    assert!(!run.stdout.contains(TOKEN), "value in stdout: {run:?}");
    assert!(!run.stderr.contains(TOKEN), "value in stderr: {run:?}");
}

// ----- rules: every client, methods and paths -----

#[test]
fn a_rule_with_a_path_and_methods_holds_for_every_builtin_client() {
    // Threat: a rule meant for one API route reaches the rest of the host.
    let upstream = Upstream::http();
    let project = project(None);
    let rule = format!("{}/v1@GET", upstream.rule());
    let script = format!(
        "curl -s -o /dev/null -w '%{{http_code}}\\n' {ok}; curl -s {other} || echo curl-refused $?; \
         curl -s -X POST {ok} || echo post-refused $?; wget -q -O - {dots} || echo wget-refused $?",
        ok = upstream.url("http", "/v1/users"),
        other = upstream.url("http", "/v2/users"),
        dots = upstream.url("http", "/v1/../admin"),
    );
    let run = shell(&project, &["--allow-host".into(), rule.clone()], &script);
    assert!(run.stdout.starts_with("200\n"), "{run:?}");
    for refused in ["curl-refused", "post-refused", "wget-refused"] {
        assert!(run.stdout.contains(refused), "{refused}: {run:?}");
    }
    assert!(run.stderr.contains("outside its rules"), "{run:?}");
    let paths: Vec<String> = upstream.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(paths, ["/v1/users"], "nothing else reached the upstream");
    assert_eq!(upstream.seen()[0].method, "GET");
    let js = format!(
        "for (const [m, p] of [['GET', '/v1/x'], ['DELETE', '/v1/x'], ['GET', '/admin']]) {{
           try {{ const r = await fetch('{base}' + p, {{ method: m }}); console.log(m, p, r.status); }}
           catch (e) {{ console.log(m, p, 'refused'); }}
         }}",
        base = upstream.url("http", ""),
    );
    run_js(&project, &js, &["--allow-host", &rule])
        .assert_ok()
        .stdout_is("GET /v1/x 200\nDELETE /v1/x refused\nGET /admin refused\n");
}

#[test]
fn a_name_that_resolves_to_loopback_is_refused_unless_named() {
    // Threat: DNS rebinding — an allowed name that points at loopback.
    let upstream = Upstream::http();
    let project = project(None);
    // A name that is not an address literal yet resolves to a private
    // one: the machine's own name usually does (to loopback here).
    let name = private_name();
    let run = shell(
        &project,
        &["--allow-host".into(), name.0.clone()],
        &format!("curl -sS http://{}:{}/x", name.0, upstream.port),
    );
    assert_ne!(run.code, 0, "{run:?}");
    assert!(
        run.stderr
            .contains(&format!("resolves to the private address {}", name.1)),
        "{run:?}"
    );
    // The same address named literally is reached.
    shell(
        &project,
        &["--allow-host".into(), upstream.rule()],
        &format!("curl -sf {} >/dev/null", upstream.url("http", "/literal")),
    )
    .assert_ok();
    let paths: Vec<String> = upstream.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(paths, ["/literal"], "the name reached nothing");
}

// ----- host commands: the proxy is the only way out -----

#[test]
fn a_host_command_reaches_only_what_the_rules_allow_and_never_directly() {
    // Threat: a host command that ignores the proxy, or a proxy that lets
    // through what the rules refuse.
    let upstream = Upstream::http();
    let project = project(None);
    let code = format!(
        "import os, socket, urllib.request\n\
         for path in ['/v1/ok', '/v2/no']:\n\
         \x20   try:\n\
         \x20       print(path, urllib.request.urlopen('{base}' + path).status)\n\
         \x20   except Exception as e:\n\
         \x20       print(path, 'refused', getattr(e, 'code', e))\n\
         try:\n\
         \x20   socket.create_connection(('127.0.0.1', {port}), timeout=2)\n\
         \x20   print('direct connected')\n\
         except OSError as e:\n\
         \x20   print('direct failed')\n\
         print('proxy', os.environ.get('HTTP_PROXY'), os.environ.get('NO_PROXY') == '')\n",
        base = upstream.url("http", ""),
        port = upstream.port,
    );
    project.write("w/probe.py", code);
    let run = project.goccia(&[
        "shell",
        "--host-command",
        "python3",
        "--allow-host",
        &format!("{}/v1", upstream.rule()),
        "--seed",
        "w=/w",
        "-c",
        "python3 /w/probe.py",
    ]);
    run.assert_ok();
    assert_eq!(
        run.stdout,
        "/v1/ok 200\n/v2/no refused 403\ndirect failed\nproxy http://127.0.0.1:3128 True\n",
        "{run:?}"
    );
    let paths: Vec<String> = upstream.seen().into_iter().map(|s| s.path).collect();
    assert_eq!(paths, ["/v1/ok"]);
}

#[test]
fn without_rules_a_host_command_has_no_network_at_all() {
    // Threat: the gateway's absence opens a way out.
    let upstream = Upstream::http();
    let project = project(None);
    let run = shell(
        &project,
        &["--host-command".into(), "curl".into()],
        &format!(
            "curl -sS --max-time 5 {}; echo rc=$?",
            upstream.url("http", "/x")
        ),
    );
    assert!(run.stdout.contains("rc=7"), "{run:?}");
    assert!(upstream.seen().is_empty());
}

// ----- secrets -----

#[test]
fn a_secret_goes_to_its_host_from_every_client_and_the_guest_sees_a_placeholder() {
    // Threat: the guest reads the token it uses.
    let upstream = Upstream::http();
    let project = project(None);
    let mut flags = secret_flags("127.0.0.1");
    flags.extend([
        "--allow-host".into(),
        upstream.rule(),
        "--host-command".into(),
        "curl".into(),
    ]);
    let script = format!(
        "echo \"var=$T\"; curl -s {a} >/dev/null; command curl -s {b} >/dev/null; wget -q -O /dev/null {c}",
        a = upstream.url("http", "/builtin"),
        b = upstream.url("http", "/confined"),
        c = upstream.url("http", "/wget"),
    );
    let run = shell(&project, &flags, &script);
    run.assert_ok();
    assert!(run.stdout.contains("var=goccia-secret:T"), "{run:?}");
    for path in ["/builtin", "/confined", "/wget"] {
        assert_eq!(
            upstream.authorization_of(path).as_deref(),
            Some(format!("Bearer {TOKEN}").as_str()),
            "{path}"
        );
    }
    no_token(&run);
    let js = format!(
        "const r = await fetch('{u}'); console.log(process.env.T, (await r.json()).headers.authorization);",
        u = upstream.url("http", "/js"),
    );
    let mut args: Vec<String> = secret_flags("127.0.0.1");
    args.extend(["--allow-host".into(), upstream.rule()]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = run_js(&project, &js, &args);
    run.assert_ok();
    // The body came back with the value in it: redacted.
    assert_eq!(run.stdout, "goccia-secret:T Bearer [secret T]\n");
}

#[test]
fn a_secret_overwrites_the_guests_header_and_is_not_sent_elsewhere() {
    // Threat: a forged header wins, or the token reaches another host.
    let (bound, other, project, flags) = bound_and_other();
    let script = format!(
        "curl -s -H 'Authorization: forged' {a} >/dev/null; curl -s -H \"X-Key: $T\" http://localhost:{p}/elsewhere >/dev/null",
        a = bound.url("http", "/bound"),
        p = other.port,
    );
    shell(&project, &flags, &script).assert_ok();
    assert_eq!(
        bound.authorization_of("/bound").as_deref(),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    let elsewhere = &other.seen()[0];
    assert_eq!(elsewhere.headers.get("authorization"), None);
    assert_eq!(
        elsewhere.headers.get("x-key").map(String::as_str),
        Some("goccia-secret:T"),
        "the placeholder passes unchanged to a host without the secret"
    );
}

#[test]
fn a_redirect_to_another_host_drops_the_secret() {
    // Threat: an allowed API redirects the authenticated request away.
    let (bound, other, project, flags) = bound_and_other();
    let target = format!("http://localhost:{}/landed", other.port);
    let script = format!(
        "curl -sL '{}' >/dev/null",
        bound.url("http", &format!("/redirect?to={target}"))
    );
    shell(&project, &flags, &script).assert_ok();
    assert_eq!(other.seen().len(), 1);
    assert_eq!(other.authorization_of("/landed"), None);
}

#[test]
fn the_value_is_redacted_from_bodies_headers_files_diffs_and_the_audit_log() {
    // Threat: the upstream echoes the token back into the sandbox.
    let upstream = Upstream::http();
    let project = project(None);
    project.write("w/.keep", "");
    let mut flags = secret_flags("127.0.0.1");
    flags.extend([
        "--allow-host".into(),
        upstream.rule(),
        "--host-command".into(),
        "curl".into(),
        "--audit-log".into(),
        "audit.jsonl".into(),
        "--seed".into(),
        "w=/w".into(),
        "--diff".into(),
        "--diff-format".into(),
        "unified".into(),
        "--json".into(),
    ]);
    let script = format!(
        "curl -s -D - {u}; command curl -s -o /w/out.txt {u}; cat /w/out.txt",
        u = upstream.url("http", "/leak"),
    );
    let run = shell(&project, &flags, &script);
    run.assert_ok();
    no_token(&run);
    assert!(run.stdout.contains("you sent Bearer [secret T]"), "{run:?}");
    assert!(run.stdout.contains("[secret T]"), "{run:?}");
    let audit = project.read("audit.jsonl");
    assert!(!audit.contains(TOKEN), "{audit}");
    let line = audit
        .lines()
        .find(|line| line.contains("/leak") && line.contains("\"allow\""))
        .expect("an audit line per request");
    for part in [
        "status 200",
        "bytes",
        &format!("rule {}", upstream.rule()),
        "secrets T",
    ] {
        assert!(line.contains(part), "{part} missing: {line}");
    }
    // What the confined curl wrote, as the diff shows it.
    let diff = &run.json()["diff"];
    assert!(diff.to_string().contains("[secret T]"), "{diff}");
}

#[test]
fn the_value_is_never_in_the_jails_environment_files_or_gocciass_command_line() {
    // Threat: the token leaks through the jail or the host's process table.
    let upstream = Upstream::http();
    let project = project(None);
    let mut flags = secret_flags("127.0.0.1");
    flags.extend([
        "--allow-host".into(),
        upstream.rule(),
        "--host-command".into(),
        "python3".into(),
        "--host-command".into(),
        "sleep".into(),
    ]);
    let code = "import os\n\
        found = [k for k, v in os.environ.items() if 'tok-4f9c2b7e1d' in v]\n\
        hits = []\n\
        for top in ['/tmp', '/.goccia-ca.pem', '/etc', '/proc/self/environ', '/proc/1/environ', '/proc/1/cmdline']:\n\
        \x20   for root, dirs, files in (os.walk(top) if os.path.isdir(top) else [('', [], [top])]):\n\
        \x20       for f in files:\n\
        \x20           try:\n\
        \x20               if b'tok-4f9c2b7e1d' in open(os.path.join(root, f), 'rb').read(): hits.append(f)\n\
        \x20           except OSError: pass\n\
        print('env', found, 'files', hits, 'T', os.environ.get('T'))\n";
    project.write("w/look.py", code);
    let mut args: Vec<String> = vec!["shell".into()];
    args.extend(flags);
    args.extend([
        "--seed".into(),
        "w=/w".into(),
        "-c".into(),
        "python3 /w/look.py; sleep 2".into(),
    ]);
    let child = std::process::Command::new(binary())
        .args(&args)
        .current_dir(project.path())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // goccia's own command line while it runs.
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", child.id())).unwrap();
    assert!(!String::from_utf8_lossy(&cmdline).contains(TOKEN));
    let output = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout, "env [] files [] T goccia-secret:T\n");
}

#[test]
fn a_value_on_the_command_line_is_refused() {
    // Threat: a host user puts the token where `ps` shows it.
    Project::new()
        .goccia(&["shell", "--secret", "T=tok-in-argv", "-c", "true"])
        .assert_code(2)
        .stderr_has("--secret: secret `T`: give the value as @FILE or env:VAR");
    Project::new()
        .goccia(&[
            "shell",
            "--secret",
            "T=@token",
            "--secret-header",
            "h:X={U}",
            "-c",
            "true",
        ])
        .assert_code(2)
        .stderr_has("uses `{U}`, which is not a secret given with it");
}

// ----- HTTPS -----

#[test]
fn https_to_a_secrets_host_is_inspected_and_others_are_tunnelled_blind() {
    // Threat: TLS hides the request from the rules, or the gateway reads
    // traffic it has no reason to.
    let authority = TestAuthority::new();
    let upstream = Upstream::start(Some(authority.server.clone()));
    let project = project(Some(&authority));
    let base = |extra: &[&str]| {
        let mut flags: Vec<String> = vec![
            "--allow-host".into(),
            upstream.rule(),
            "--ca-file".into(),
            "ca.pem".into(),
            "--host-command".into(),
            "curl".into(),
        ];
        flags.extend(extra.iter().map(|s| s.to_string()));
        flags
    };
    let mut with_secret = base(&[]);
    with_secret.extend(secret_flags("127.0.0.1"));
    let run = shell(
        &project,
        &with_secret,
        &format!(
            "command curl -sS {} ; echo",
            upstream.url("https", "/inspected")
        ),
    );
    run.assert_ok();
    assert_eq!(
        upstream.authorization_of("/inspected").as_deref(),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    no_token(&run);
    // No secret, no narrowing rule: a blind tunnel, and the upstream's own
    // certificate reaches the client (which trusts the test authority
    // through the jail's bundle).
    let run = shell(
        &project,
        &base(&[]),
        &format!(
            "command curl -sS -w ' %{{ssl_verify_result}}' {}",
            upstream.url("https", "/blind")
        ),
    );
    run.assert_ok();
    assert!(run.stdout.ends_with(" 0"), "{run:?}");
    // An upstream no trusted authority issued is refused by the gateway.
    let run = shell(
        &Project::new(),
        &[
            "--allow-host".into(),
            format!("{}/@GET", upstream.rule()),
            "--host-command".into(),
            "curl".into(),
        ],
        &format!("command curl -sSf {}", upstream.url("https", "/untrusted")),
    );
    assert_eq!(run.code, 22, "{run:?}");
    assert!(upstream.seen().iter().all(|s| s.path != "/untrusted"));
}

// ----- the practical proof -----

#[test]
fn git_clones_a_repository_over_the_gateway() {
    // A bare repository served over HTTP (git's dumb protocol) by a
    // loopback server; the confined git reaches it only through the proxy.
    let project = Project::with("w/.keep", "");
    let source = project.join("source");
    let git = |dir: &std::path::Path, args: &[&str]| {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(status.status.success(), "{status:?}");
    };
    std::fs::create_dir_all(&source).unwrap();
    git(&source, &["init", "-q", "-b", "main"]);
    std::fs::write(source.join("README"), "over the gateway\n").unwrap();
    git(&source, &["add", "README"]);
    git(
        &source,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "one",
        ],
    );
    let served = project.join("served");
    std::fs::create_dir_all(&served).unwrap();
    git(
        &served,
        &[
            "clone",
            "-q",
            "--bare",
            source.to_str().unwrap(),
            "repo.git",
        ],
    );
    git(&served.join("repo.git"), &["update-server-info"]);
    let files = FileServer::start(served);
    let run = project.goccia(&[
        "shell",
        "--host-command",
        "git",
        "--allow-host",
        &format!("127.0.0.1:{}@GET", files.port),
        "--seed",
        "w=/w",
        "-c",
        &format!(
            "mkdir -p /w && cd /w && git clone -q http://127.0.0.1:{}/repo.git clone && cat /w/clone/README",
            files.port
        ),
    ]);
    run.assert_ok();
    assert_eq!(run.stdout, "over the gateway\n");
}

// ----- the server -----

#[test]
fn a_server_session_has_the_servers_secrets_and_cannot_bring_its_own() {
    // Threat: a session brings its own secret (or binding) through the body,
    // or a reply echoes the value.
    use crate::serve::{http, workspace_server};
    let upstream = Upstream::http();
    let project = project(None);
    project.write("ws/a.txt", "a\n");
    let rule = upstream.rule();
    let (served, admin) = workspace_server(
        &project,
        &[
            "--allow-host",
            &rule,
            "--secret",
            "T=@token",
            "--secret-header",
            "127.0.0.1:Authorization=Bearer {T}",
        ],
    );
    let (status, body) = http(
        &served.address,
        "POST",
        "/v1/sandboxes",
        &admin,
        r#"{"workspace":"w","seeds":[{"from":".","to":"/w"}],"capabilities":["shell"]}"#,
    );
    assert_eq!(status, 201, "{body}");
    let (id, token) = (
        body["sandboxId"].as_str().unwrap().to_string(),
        body["token"].as_str().unwrap().to_string(),
    );
    let command = serde_json::json!({
        "command": format!("echo $T; curl -s {}", upstream.url("http", "/leak")),
    });
    let (status, reply) = http(
        &served.address,
        "POST",
        &format!("/v1/sandboxes/{id}/shell"),
        &token,
        &command.to_string(),
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(
        reply["stdout"],
        "goccia-secret:T\nyou sent Bearer [secret T]"
    );
    assert!(!reply.to_string().contains(TOKEN));
    assert_eq!(
        upstream.authorization_of("/leak").as_deref(),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    for (body, setting) in [
        (
            r#"{"workspace":"w","seeds":[],"capabilities":["shell"],"network":{"secrets":{"T":{"value":"mine"}}}}"#,
            "network.secrets",
        ),
        (
            r#"{"workspace":"w","seeds":[],"capabilities":["shell"],"network":{"secretHeaders":["evil.example:Authorization={T}"]}}"#,
            "network.secretHeaders",
        ),
    ] {
        let (status, refused) = http(&served.address, "POST", "/v1/sandboxes", &admin, body);
        assert_eq!(status, 400, "{refused}");
        assert!(refused.to_string().contains(setting), "{refused}");
    }
    served.terminate();
}

#[test]
fn an_unprivileged_goccia_gives_its_host_commands_the_gateway_too() {
    // Without root, the jail's network namespace needs a user namespace of
    // its own (docs/network.md); run as `nobody` when the tests are root.
    let upstream = Upstream::http();
    let script = format!(
        "command curl -sS {}; echo \" rc=$?\"",
        upstream.url("http", "/unprivileged")
    );
    let binary = binary();
    let goccia_args = [
        "shell",
        "--host-command",
        "curl",
        "--allow-host",
        &upstream.rule(),
        "-c",
        &script,
    ];
    // SAFETY: geteuid takes nothing.
    let root = unsafe { libc::geteuid() } == 0;
    let mut command = if root {
        let mut command = std::process::Command::new("setpriv");
        command
            .args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(&binary);
        command
    } else {
        std::process::Command::new(&binary)
    };
    let output = command
        .args(goccia_args)
        .current_dir("/")
        .env("HOME", "/tmp")
        .env("TMPDIR", "/tmp")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.ends_with(" rc=0\n"), "{output:?}");
    assert_eq!(upstream.seen().len(), 1, "{output:?}");
}

#[test]
fn pip_downloads_a_package_from_a_local_index_over_the_gateway() {
    // A "simple" package index on loopback holding one wheel; the confined
    // pip reaches it only through the proxy, and the wheel lands in the
    // sandbox.
    let project = Project::with("w/.keep", "");
    let index = project.join("index");
    let wheel = "tinypkg-1.0-py3-none-any.whl";
    std::fs::create_dir_all(index.join("simple/tinypkg")).unwrap();
    let made = std::process::Command::new("python3")
        .arg("-c")
        .arg(format!(
            "import zipfile\n\
             with zipfile.ZipFile('{path}', 'w') as z:\n\
             \x20   z.writestr('tinypkg/__init__.py', 'ANSWER = 42\\n')\n\
             \x20   z.writestr('tinypkg-1.0.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: tinypkg\\nVersion: 1.0\\n')\n\
             \x20   z.writestr('tinypkg-1.0.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: goccia-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')\n\
             \x20   z.writestr('tinypkg-1.0.dist-info/RECORD', '')\n",
            path = index.join("simple/tinypkg").join(wheel).display()
        ))
        .status()
        .unwrap();
    assert!(made.success());
    std::fs::write(
        index.join("simple/tinypkg/index.html"),
        format!("<html><body><a href=\"{wheel}\">{wheel}</a></body></html>"),
    )
    .unwrap();
    let files = FileServer::start(index);
    let run = project.goccia(&[
        "shell",
        "--host-command",
        "python3",
        "--allow-host",
        &format!("127.0.0.1:{}@GET", files.port),
        "--seed",
        "w=/w",
        "-c",
        &format!(
            "python3 -m pip download --quiet --no-deps --disable-pip-version-check \
             --index-url http://127.0.0.1:{}/simple/ -d /w/dl tinypkg && ls /w/dl",
            files.port
        ),
    ]);
    run.assert_ok();
    assert_eq!(run.stdout, format!("{wheel}\n"), "{run:?}");
}
