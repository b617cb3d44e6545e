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
