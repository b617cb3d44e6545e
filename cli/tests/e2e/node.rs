//! Node compatibility where goccia differs from the machine's Node on
//! purpose (docs/guest.md), so the differential corpus cannot check it: no
//! ambient input, `process.exit` wired into the run's outcome, the
//! unsupported modules, Node 22 APIs the oracle (Node 20) lacks, and how a
//! `.js` file is told CommonJS from an ES module.

use crate::common::*;

#[test]
fn the_guest_gets_no_ambient_input() {
    let project = Project::new();
    project.write(
        "main.js",
        "const os = require('os');\n\
         console.log(JSON.stringify(process.argv));\n\
         console.log(JSON.stringify(process.env));\n\
         console.log(process.platform, process.pid, process.ppid, process.cwd(), process.execPath);\n\
         console.log(os.platform(), os.type(), os.hostname(), os.homedir(), os.tmpdir(), os.cpus().length,\n\
           os.userInfo().username, JSON.stringify(os.networkInterfaces()), os.loadavg().join());\n\
         console.log(process.version === process.versions.node.replace(/^/, 'v'), process.title);",
    );
    let output = std::process::Command::new(binary())
        .args(["run", "/main.js", "--seed", ".", "--env", "GIVEN=yes"])
        .current_dir(project.path())
        .env("HOST_SECRET", "leaked")
        .env("HOME", "/home/someone")
        .output()
        .expect("run goccia");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], r#"["/usr/bin/node","/main.js"]"#);
    assert_eq!(lines[1], r#"{"GIVEN":"yes"}"#);
    assert_eq!(lines[2], "linux 1 0 / /usr/bin/node");
    assert_eq!(lines[3], "linux Linux sandbox / /tmp 1 sandbox {} 0,0,0");
    assert_eq!(lines[4], "true node");
}

#[test]
fn the_shell_builtin_passes_no_arguments_into_argv() {
    let project = Project::new();
    project.write(
        "argv.js",
        "console.log(JSON.stringify(process.argv.slice(1)))",
    );
    project
        .goccia(&[
            "shell",
            "--seed",
            ".=/work",
            "-c",
            "cd /work && goccia argv.js",
        ])
        .assert_ok()
        .stdout_is("[\"/work/argv.js\"]\n");
}

#[test]
fn process_exit_ends_the_run_with_its_code() {
    let project = Project::new();
    project.write(
        "main.js",
        "console.log('before');\n\
         process.on('exit', (code) => console.log('exit event', code));\n\
         setTimeout(() => { process.exit(3); console.log('never'); }, 5);\n\
         setTimeout(() => console.log('never either'), 50);",
    );
    let run = project.goccia(&["run", "/main.js", "--seed", ".", "--json"]);
    run.assert_code(3);
    let json = run.json();
    assert_eq!(json["exitCode"], 3);
    assert_eq!(json["failureKind"], "script-error");
    assert_eq!(json["stdout"], "before\nexit event 3\n");
}

#[test]
fn process_exit_cannot_be_caught() {
    js("try { process.exit(5); } catch (e) { console.log('caught'); } finally { console.log('finally'); }")
        .assert_code(5)
        .stdout_is("");
}

#[test]
fn exit_code_is_the_code_of_a_run_that_ends_normally() {
    js("console.log('done'); process.exitCode = 4;")
        .assert_code(4)
        .stdout_is("done\n");
    js("process.exitCode = 9; process.exit();").assert_code(9);
    js("process.exitCode = 2; process.exit(0);").assert_code(0);
}

#[test]
fn a_child_scripts_exit_code_reaches_run_script_and_the_shell() {
    let project = Project::new();
    project.write("child.js", "console.log('child'); process.exit(7);");
    project.write("soft.js", "process.exitCode = 6;");
    let run = run_js(
        &project,
        "import { runScript } from 'goccia';\n\
         for (const file of ['/child.js', '/soft.js']) {\n\
           const r = runScript(file, { seed: [file] });\n\
           console.log(r.ok, r.exitCode, r.failureKind, JSON.stringify(r.stdout));\n\
         }\n\
         const shared = runScript('/child.js');\n\
         console.log('parent continues', shared.exitCode);",
        &[],
    );
    run.assert_ok().stdout_is(
        "false 7 script-error \"child\\n\"\nfalse 6 script-error \"\"\nparent continues 7\n",
    );
    project
        .goccia(&[
            "shell",
            "--seed",
            ".",
            "-c",
            "goccia /child.js; echo status $?",
        ])
        .assert_ok()
        .stdout_is("child\nstatus 7\n");
}

#[test]
fn host_facing_modules_import_but_refuse_with_what_to_use() {
    let run = js(
        "for (const name of ['child_process', 'node:net', 'http', 'https', 'worker_threads', 'dgram']) {\n\
           const m = require(name);\n\
           for (const fn of ['execSync', 'spawn', 'createServer', 'connect', 'request', 'get', 'Worker', 'createSocket']) {\n\
             if (typeof m[fn] !== 'function') continue;\n\
             try { m[fn]('x'); } catch (e) { console.log(name, fn, e.code, e.message); break; }\n\
           }\n\
         }\n\
         module.exports = 1;",
    );
    run.assert_ok();
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{}", run.stdout);
    assert!(
        lines.iter().all(|l| l.contains("ERR_SANDBOX_UNSUPPORTED")),
        "{}",
        run.stdout
    );
    assert!(
        lines[0].starts_with("child_process execSync") && lines[0].contains('$'),
        "{}",
        lines[0]
    );
    assert!(lines[2].contains("fetch"), "{}", lines[2]);
}

#[test]
fn fs_glob_is_nodes_newer_api() {
    let project = Project::new();
    project.write("src/a.js", "");
    project.write("src/deep/b.js", "");
    project.write("src/c.txt", "");
    run_js(
        &project,
        "import fs from 'fs';\n\
         console.log(fs.globSync('src/**/*.js').join(' '));\n\
         console.log(fs.globSync('*.{js,txt}', { cwd: '/src' }).join(' '));\n\
         console.log(fs.globSync('src/**', { exclude: (p) => p.includes('deep') }).join(' '));\n\
         const seen = [];\n\
         for await (const p of fs.promises.glob('src/*')) seen.push(p);\n\
         console.log(seen.sort().join(' '));\n\
         fs.glob('src/*.txt', (err, found) => console.log(err, found));",
        &[],
    )
    .assert_ok()
    .stdout_is(
        "src/a.js src/deep/b.js\na.js c.txt\nsrc src/a.js src/c.txt\nsrc/a.js src/c.txt src/deep\nnull [ 'src/c.txt' ]\n",
    );
}

#[test]
fn require_of_an_es_module_says_to_import_it() {
    let project = Project::new();
    project.write("lib.mjs", "export const x = 1;");
    run_js(
        &project,
        "try { require('./lib.mjs'); } catch (e) { console.log(e.code, e.message.split('\\n')[1]); }\n\
         module.exports = {};",
        &[],
    )
    .assert_ok()
    .stdout_is(
        "ERR_REQUIRE_ESM Instead change the require of /lib.mjs in /main.js to a dynamic import() which is available in all CommonJS modules.\n",
    );
}

#[test]
fn module_not_found_carries_the_require_stack() {
    let project = Project::new();
    project.write("lib/inner.js", "require('./missing-dep');");
    run_js(
        &project,
        "try { require('./lib/inner'); } catch (e) { console.log(e.code); console.log(e.message); console.log(e.requireStack.join()); }",
        &[],
    )
    .assert_ok()
    .stdout_is(
        "MODULE_NOT_FOUND\nCannot find module './missing-dep'\nRequire stack:\n- /lib/inner.js\n- /main.js\n/lib/inner.js,/main.js\n",
    );
}

#[test]
fn a_plain_script_is_commonjs_unless_it_awaits_at_the_top() {
    // Sloppy CommonJS: an undeclared assignment makes a global, `this` is
    // `module.exports`.
    js("x = 5; console.log(typeof x, this === module.exports, typeof require);")
        .assert_ok()
        .stdout_is("number true function\n");
    // Top-level await does not parse as a CommonJS body: an ES module.
    js("const v = await Promise.resolve(2); console.log(v, typeof require, this);")
        .assert_ok()
        .stdout_is("2 undefined undefined\n");
    // `"type": "module"` decides without looking.
    let project = Project::new();
    project.write("package.json", r#"{"type": "module"}"#);
    run_js(&project, "console.log(typeof require, this);", &[])
        .assert_ok()
        .stdout_is("undefined undefined\n");
}

#[test]
fn a_commonjs_childs_result_is_its_module_exports() {
    let project = Project::new();
    project.write(
        "child.cjs",
        "module.exports = { answer: 42, list: [1, 2] };",
    );
    project.write("plain.js", "console.log('no exports');");
    project.write("empty.js", "module.exports = {};");
    run_js(
        &project,
        "import { runScript } from 'goccia';\n\
         for (const file of ['/child.cjs', '/plain.js', '/empty.js']) {\n\
           const r = runScript(file, { seed: [file] });\n\
           console.log(JSON.stringify(r.result), r.result === undefined);\n\
         }",
        &[],
    )
    .assert_ok()
    // The untouched `module.exports` of a plain script is no result; an
    // object the module set, even an empty one, is.
    .stdout_is("{\"answer\":42,\"list\":[1,2]} false\nundefined true\n{} false\n");
}

#[test]
fn buffers_and_hashes_agree_with_known_vectors() {
    js("const c = require('crypto');\n\
        console.log(c.createHash('sha256').update('abc').digest('hex'));\n\
        console.log(c.createHash('md5').update('').digest('hex'));\n\
        console.log(c.createHmac('sha256', 'key').update('The quick brown fox jumps over the lazy dog').digest('hex'));\n\
        console.log(Buffer.from('hello').toString('base64'), Buffer.from('68656c6c6f', 'hex').toString());")
        .assert_ok()
        .stdout_is(
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad\n\
             d41d8cd98f00b204e9800998ecf8427e\n\
             f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8\n\
             aGVsbG8= hello\n",
        );
}

/// `node` in the shell, as models type it (issue 49 item 8): a file, `-e`,
/// `-p`, a script on stdin and `--input-type=module` print what the
/// machine's Node prints for the same lines; `command -v` finds it.
#[test]
fn node_in_the_shell_runs_the_sandboxes_javascript_as_node_would() {
    let project = Project::new();
    project.write("s.js", "console.log(2 + 2, [1, { a: 2 }]);\n");
    let lines = [
        "node s.js",
        "node -e 'console.log(3)'",
        "node -p '1 + 4'",
        "node -p '[1, {a: 2}, \"x\"]'",
        "node --print 'typeof require'",
        "echo 'console.log(\"from stdin\")' | node",
        "echo 'console.log(\"dash\")' | node -",
        "node --input-type=module -e 'import os from \"os\"; console.log(typeof os.platform)'",
        "node -e 'process.exit(3)'; echo \"st $?\"",
    ];
    let script = lines.join("\n");
    let oracle = std::process::Command::new("bash")
        .args(["-c", &script])
        .current_dir(project.path())
        .output()
        .expect("the machine's bash and node");
    let ours = project.goccia(&[
        "shell",
        "--seed",
        ".=/work",
        "-c",
        &format!("cd /work\n{script}"),
    ]);
    assert_eq!(
        ours.stdout,
        String::from_utf8_lossy(&oracle.stdout),
        "{}",
        ours.stderr
    );
    let found = project.goccia(&["shell", "-c", "command -v node; type -t node"]);
    assert!(found.stdout.ends_with("node\nfile\n"), "{}", found.stdout);
}

/// What the sandbox's `node` and `npm` cannot do is said plainly, with a
/// status of its own; a host command of the same name comes first.
#[test]
fn npm_and_node_say_what_they_cannot_do() {
    let project = Project::new();
    let run = project.goccia(&[
        "shell",
        "-c",
        "npm install left-pad; echo \"st $?\"; npx cowsay; echo \"st $?\"",
    ]);
    run.stdout_is("st 1\nst 1\n")
        .stderr_has("npm: packages cannot be installed in the sandbox")
        .stderr_has("--host-command npx");
    let run = project.goccia(&[
        "shell",
        "-c",
        "node --inspect x.js; echo \"st $?\"; node x.js a; echo \"st $?\"",
    ]);
    run.stdout_is("st 9\nst 9\n")
        .stderr_has("node: bad option: --inspect")
        .stderr_has("arguments after the script are not passed to it");
    let run = project.goccia(&[
        "shell",
        "-c",
        "node -e; echo \"st $?\"; node --input-type=wasm -e 1; echo \"st $?\"",
    ]);
    run.stdout_is("st 9\nst 9\n")
        .stderr_has("node: -e requires an argument")
        .stderr_has("--input-type must be module or commonjs, not `wasm`");
}

/// The stdin idioms scripts use (`process.stdin` events, `readable` and
/// `read()`, async iteration, `pipe`, `fs.readFileSync(0)` and
/// `/dev/stdin`, `readline` with `line`, `question` and async iteration,
/// `readline/promises`), each run by the shell's `node` on the shell's
/// standard input, against the machine's Node under real bash.
#[test]
fn node_in_the_shell_reads_its_standard_input_as_node_does() {
    let cases = [
        r#"echo hi | node -e 'process.stdin.on("data", d => console.log("got", String(d).trim())).on("end", () => console.log("end"))'"#,
        r#"echo hi | node -e 'console.log(require("fs").readFileSync(0, "utf8").trim())'"#,
        r#"echo hi | node -e 'let s=""; process.stdin.setEncoding("utf8"); process.stdin.on("readable", () => { let c; while ((c = process.stdin.read()) !== null) s += c; }); process.stdin.on("end", () => console.log(s.trim()))'"#,
        r#"printf 'a\nb\n' | node -e 'const rl = require("readline").createInterface({input: process.stdin}); rl.on("line", l => console.log("L", l)); rl.on("close", () => console.log("done"))'"#,
        r#"echo hi | node -e '(async () => { let s = ""; for await (const c of process.stdin) s += c; console.log(s.trim()) })()'"#,
        r#"echo 5 | node -p 'require("fs").readFileSync("/dev/stdin", "utf8") * 2'"#,
        r#"printf 'x\r\ny\rz' | node -e 'const rl = require("readline").createInterface({input: process.stdin, terminal: false}); (async () => { for await (const line of rl) console.log(JSON.stringify(line)); console.log("end") })()'"#,
        r#"printf '{"a":[1,2]}' | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).a.length))'"#,
        r#"printf 'ann\n' | node -e 'const rl = require("readline").createInterface({input: process.stdin, output: process.stdout}); rl.question("name? ", a => { console.log("hi " + a); rl.close(); })'"#,
        r#"printf 'bob\n' | node --input-type=module -e 'import * as readline from "node:readline/promises"; import { stdin, stdout } from "node:process"; const rl = readline.createInterface({ input: stdin, output: stdout }); const a = await rl.question("who? "); console.log("hi", a); rl.close();'"#,
        r#"node -e 'process.stdin.on("end", () => console.log("empty end")); process.stdin.resume()' < /dev/null"#,
        r#"echo hi | node -e 'console.log(require("fs").readFileSync(0, "utf8").length, require("fs").readFileSync(0, "utf8").length)'"#,
        r#"seq 3 | node -e 'process.stdin.pipe(process.stdout)'"#,
        r#"printf 'a b\nc d\n' | node -e 'require("readline").createInterface({input: process.stdin}).on("line", l => console.log(l.split(" ").reverse().join(" ")))'"#,
    ];
    let project = Project::new();
    for case in cases {
        let real = std::process::Command::new("bash")
            .args(["-c", case])
            .current_dir(project.path())
            .output()
            .expect("real bash and node are the oracle");
        let ours = std::process::Command::new(binary())
            .args(["shell", "-c", case])
            .current_dir(project.path())
            .output()
            .expect("run goccia");
        assert_eq!(
            String::from_utf8_lossy(&ours.stdout),
            String::from_utf8_lossy(&real.stdout),
            "{case}\n{}",
            String::from_utf8_lossy(&ours.stderr)
        );
        assert_eq!(ours.status.code(), real.status.code(), "{case}");
    }
}

/// Only the shell's `node` and `goccia` commands hand their standard
/// input on: a top-level run has none (its stdin is not read), and a
/// `runScript` child does not get its caller's.
#[test]
fn standard_input_reaches_only_runs_the_shell_starts() {
    let project = Project::new();
    project.write(
        "main.js",
        "process.stdin.on('data', (d) => console.log('data', String(d)));\n\
         process.stdin.on('end', () => console.log('ended'));",
    );
    let mut child = std::process::Command::new(binary())
        .args(["run", "/main.js", "--seed", "."])
        .current_dir(project.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run goccia");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"not for the script\n").unwrap();
    drop(child.stdin.take());
    let output = child.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&output.stdout), "ended\n");
    project.write(
        "parent.js",
        "const { runScript } = require('goccia');\n\
         console.log(JSON.stringify(runScript('/work/main.js').stdout));",
    );
    project
        .goccia(&[
            "shell",
            "--seed",
            ".=/work",
            "-c",
            "echo piped | goccia /work/parent.js",
        ])
        .assert_ok()
        .stdout_is("\"ended\\n\"\n");
}

/// The refusals of standard input: input past the shell's buffered-input
/// limit is an error naming that limit (the run fails, nothing is read
/// in part), and `readline` without a stream to read is a TypeError.
#[test]
fn standard_input_past_the_limit_and_readline_without_input_are_refused() {
    let project = Project::new();
    let run = project.goccia(&[
        "shell",
        "--max-buffered-input",
        "1000",
        "-c",
        "head -c 5000 /dev/zero | node -e 'process.stdin.on(\"data\", d => console.log(d.length))'; echo \"st $?\"; \
         head -c 500 /dev/zero | node -e 'console.log(require(\"fs\").readFileSync(0).length)'; \
         node -e 'require(\"readline\").createInterface({})'; echo \"st $?\"",
    ]);
    run.assert_ok()
        .stdout_is("st 1\n500\nst 1\n")
        .stderr_has("process.stdin: input larger than 1000 bytes")
        .stderr_has("TypeError: The \"input\" argument must be an instance of Readable");
}
