//! Nested execution (docs/guest.md, the `goccia` module; docs/vfs.md, children): `$`, `runScript`
//! in shared and child mode, and the shell's `goccia` builtin.

use crate::common::*;

/// Runs `source` as /main.js with `files` seeded next to it.
fn run_with(files: &[(&str, &str)], source: &str, extra: &[&str]) -> Run {
    let project = Project::new();
    for (path, content) in files {
        project.write(path, content);
    }
    run_js(&project, source, extra)
}

#[test]
fn the_original_sandbox_example_writes_then_reads_through_the_shell() {
    js(r#"
        import fs from "fs";
        import { $ } from "goccia";
        fs.writeFileSync("/tmp/hello.txt", "hello from js\n");
        const text = await $`cat /tmp/hello.txt`.text();
        console.log(`shell read: ${text.trim()}`);
    "#)
    .assert_ok()
    .stdout_is("shell read: hello from js\n");
}

#[test]
fn the_original_nested_example_returns_a_diff_and_leaks_nothing() {
    let run = js(r#"
        import fs from "fs";
        import { runScript } from "goccia";
        fs.writeFileSync("/message.txt", "from the parent\n");
        fs.writeFileSync("/child.js", `
            import fs from "fs";
            const message = fs.readFileSync("/message.txt", "utf8");
            fs.writeFileSync("/child-output.txt", message.toUpperCase());
            export default { read: message.trim() };
        `);
        const result = runScript("/child.js", {
            sandbox: true, seed: ["/message.txt", "/child.js"], diff: true, diffFormat: "unified",
        });
        console.log(JSON.stringify({ ok: result.ok, result: result.result, failureKind: result.failureKind }));
        console.log(result.changes.map((c) => `${c.kind} ${c.path}`).join(","));
        console.log("leaked:", fs.existsSync("/child-output.txt"));
        process_diff: {
            fs.writeFileSync("/child.patch", result.diff);
        }
    "#);
    run.assert_ok();
    assert_eq!(
        run.stdout,
        "{\"ok\":true,\"result\":{\"read\":\"from the parent\"},\"failureKind\":null}\n\
         create /child-output.txt\nleaked: false\n"
    );
}

#[test]
fn every_child_seed_form_works() {
    run_with(
        &[("src/a.txt", "A\n"), ("src/deep/b.txt", "B\n")],
        r#"
        import { runScript } from "goccia";
        import fs from "fs";
        fs.writeFileSync("/list.js", `
            import fs from "fs";
            const walk = (d) => fs.readdirSync(d).flatMap((n) => {
                const p = (d === "/" ? "" : d) + "/" + n;
                return fs.statSync(p).isDirectory() ? walk(p) : [p + "=" + fs.readFileSync(p, "utf8").trim()];
            });
            export default walk("/").filter((p) => !p.startsWith("/list.js"));
        `);
        const result = runScript("/list.js", { seed: [
            "/list.js",
            "/src/a.txt",
            "/src=/copy",
            { from: "/src/deep/b.txt", to: "/solo/" },
            { path: "/inline.txt", text: "T" },
            { path: "/bin.dat", base64: "SGk=" },
        ] });
        console.log(result.ok, result.error);
        console.log(result.result.sort().join("\n"));
        "#,
        &[],
    )
    .assert_ok()
    .stdout_is(
        "true null\n/bin.dat=Hi\n/copy/a.txt=A\n/copy/deep/b.txt=B\n/inline.txt=T\n/solo/b.txt=B\n/src/a.txt=A\n",
    );
}

#[test]
fn a_child_sees_only_its_seeds_and_never_the_host() {
    js(r#"
        import { runScript } from "goccia";
        import fs from "fs";
        fs.writeFileSync("/probe.js", `
            import fs from "fs";
            export default fs.readdirSync("/");
        `);
        fs.writeFileSync("/secret.txt", "parent only");
        const bare = runScript("/probe.js", { sandbox: true });
        console.log(bare.ok, bare.failureKind, bare.error);
        const seeded = runScript("/probe.js", { seed: ["/probe.js"] });
        console.log(JSON.stringify(seeded.result));
        const host = runScript("/probe.js", { seed: ["/probe.js", "/etc/passwd"] });
        console.log(host.ok, host.failureKind, host.error);
    "#)
    .assert_ok()
    .stdout_is(
        "false script-error entry not found: /probe.js\n\
         [\"probe.js\",\"tmp\"]\n\
         false script-error seed entry 1: seed path does not exist in the parent sandbox: /etc/passwd\n",
    );
}

#[test]
fn bad_runscript_options_are_type_errors() {
    js(r#"
        import { runScript } from "goccia";
        for (const options of [{ seed: "x" }, { seed: [42] }, { diffFormat: "xml" }, { timeout: -1 }, { sandbox: "yes" }]) {
            try { runScript("/x.js", options); } catch (e) { console.log(e.name, e.message); }
        }
    "#)
    .assert_ok()
    .stdout_is(
        "TypeError runScript: option `seed` must be an array, not \"x\"\n\
         TypeError runScript: seed entry 0: expected a string or an object, found a number\n\
         TypeError runScript: option `diffFormat` must be \"json\" or \"unified\", not \"xml\"\n\
         TypeError runScript: option `timeout` must be a positive number of milliseconds, not -1\n\
         TypeError runScript: option `sandbox` must be a boolean, not \"yes\"\n",
    );
}

#[test]
fn shared_mode_runs_on_the_same_vfs_and_shell() {
    js(r#"
        import { $, runScript } from "goccia";
        import fs from "fs";
        await $`cd /tmp && export SHARED=yes`;
        fs.writeFileSync("/child.js", `
            import fs from "fs";
            import { $ } from "goccia";
            fs.writeFileSync("/from-child.txt", "x");
            export default (await $\`echo $(pwd) $SHARED\`.text()).trim();
        `);
        const result = runScript("/child.js");
        console.log(result.ok, result.result, fs.existsSync("/from-child.txt"), result.diff, result.changes);
    "#)
    .assert_ok()
    .stdout_is("true /tmp yes true null null\n");
}

#[test]
fn depth_overflow_is_a_catchable_err_depth_in_the_caller() {
    let source = r#"
        import { runScript } from "goccia";
        import fs from "fs";
        fs.writeFileSync("/inner.js", `
            import { runScript } from "goccia";
            let caught = null;
            try { runScript("/inner.js", MODE); } catch (e) { caught = e.code + ": " + e.message; }
            export default caught;
        `.replace("MODE", process_mode));
        const result = runScript("/inner.js", process_mode_object);
        console.log(result.ok, result.result);
    "#;
    for (mode, object) in [
        ("{}", "{}"),
        ("{ seed: ['/inner.js'] }", "{ seed: ['/inner.js'] }"),
    ] {
        let script = source
            .replace("process_mode_object", object)
            .replace("process_mode", &format!("{mode:?}"));
        js_with(&script, &["--max-depth", "1"])
            .assert_ok()
            .stdout_is("true ERR_DEPTH: runScript: nesting depth limit of 1 exceeded (raise it with --max-depth)\n");
    }
}

fn js_with(source: &str, extra: &[&str]) -> Run {
    let project = Project::new();
    run_js(&project, source, extra)
}

#[test]
fn a_failing_child_never_ends_the_parent() {
    js_with(
        r#"
        import { runScript } from "goccia";
        import fs from "fs";
        fs.writeFileSync("/spin.js", "while (true) {}");
        fs.writeFileSync("/throw.js", "throw new RangeError('boom')");
        fs.writeFileSync("/fill.js", "import fs from 'fs'; fs.writeFileSync('/big', 'x'.repeat(300000));");
        for (const [entry, options] of [["/spin.js", { timeout: 100 }], ["/throw.js", {}], ["/fill.js", {}]]) {
            const r = runScript(entry, { seed: [entry], ...options });
            console.log(entry, r.ok, r.exitCode, r.failureKind);
        }
        const shared = runScript("/spin.js", { timeout: 100 });
        console.log("shared", shared.ok, shared.failureKind);
        console.log("parent carries on");
        "#,
        &["--fs-quota-bytes", "200k"],
    )
    .assert_ok()
    .stdout_is(
        "/spin.js false 4 timeout\n/throw.js false 1 script-error\n/fill.js false 3 resource-limit\n\
         shared false timeout\nparent carries on\n",
    );
}

#[test]
fn the_parent_deadline_bounds_its_children_uncatchably() {
    let run = js_with(
        r#"
        import { runScript } from "goccia";
        import fs from "fs";
        fs.writeFileSync("/spin.js", "while (true) {}");
        try { runScript("/spin.js", { seed: ["/spin.js"] }); } catch (e) { console.log("caught?!"); }
        console.log("not reached");
        "#,
        &["--timeout", "300"],
    );
    run.assert_code(4);
    assert_eq!(run.stdout, "");
}

#[test]
fn children_and_dollar_draw_from_the_same_output_budget() {
    let run = js_with(
        r#"
        import { $, runScript } from "goccia";
        import fs from "fs";
        fs.writeFileSync("/flood.js", "for (let i = 0; i < 1e6; i++) console.log('flood ' + i);");
        const r = runScript("/flood.js", { seed: ["/flood.js"] });
        console.log("child:", r.failureKind);
        "#,
        &["--max-output", "10k"],
    );
    run.assert_code(3);
    run.stderr_has("output limit");
    let run = js_with(
        "import { $ } from 'goccia'; try { await $`yes`.quiet(); } catch { console.log('caught?!'); }",
        &["--max-output", "10k"],
    );
    run.assert_code(3);
    assert!(!run.stdout.contains("caught"), "{}", run.stdout);
}

#[test]
fn dollar_quotes_each_interpolation_as_one_word() {
    js(r#"
        import { $ } from "goccia";
        const hostile = `a b'c"d $(echo pwned) \`echo no\` * ; rm -rf /`;
        const out = await $`printf '<%s>\n' ${hostile} ${["x y", "", "*"]} ${42}`.text();
        console.log(out.trimEnd());
        console.log(await $`echo ${{ raw: "$((1+2))" }}`.text());
    "#)
    .assert_ok()
    .stdout_is("<a b'c\"d $(echo pwned) `echo no` * ; rm -rf />\n<x y>\n<>\n<*>\n<42>\n3\n\n");
}

#[test]
fn dollar_commands_share_one_shell_and_chain_options() {
    js(r#"
        import { $ } from "goccia";
        await $`mkdir -p /w && cd /w && export GREETING=hi`;
        console.log((await $`pwd`.text()).trim(), (await $`echo $GREETING`.text()).trim());
        console.log((await $`pwd`.cwd("/tmp").text()).trim(), (await $`pwd`.text()).trim());
        console.log((await $`echo $A-$GREETING`.env({ A: 1 }).text()).trim(), (await $`echo "[$A]"`.text()).trim());
        console.log(await $`tr a-z A-Z`.stdin("shout\n").text());
        console.log(JSON.stringify(await $`echo '{"a":[1,2]}'`.json()), JSON.stringify(await $`printf 'a\nb\n'`.lines()));
        const r = await $`echo out; echo err >&2; exit 7`.quiet().nothrow();
        console.log(JSON.stringify(r));
        try { await $`exit 9`.quiet(); } catch (e) { console.log(e instanceof Error, e.exitCode); }
        try { await $`echo nope`.json(); } catch (e) { console.log(e instanceof SyntaxError); }
        const command = $`exit 1`.quiet();
        const first = await command.run().then(() => "resolved", () => "rejected");
        const second = await command.run().then(() => "resolved", () => "rejected");
        console.log(first, second);
    "#)
    .assert_ok()
    .stdout_is(
        "/w hi\n/tmp /w\n1-hi []\nSHOUT\n\n{\"a\":[1,2]} [\"a\",\"b\"]\n\
         {\"exitCode\":7,\"stdout\":\"out\\n\",\"stderr\":\"err\\n\",\"ok\":false}\n\
         true 9\ntrue\nrejected rejected\n",
    );
}

#[test]
fn dollar_output_is_printed_unless_quiet() {
    js(r#"
        import { $ } from "goccia";
        await $`echo loud`;
        await $`echo hushed`.quiet();
        const text = await $`echo captured`.text();
        console.log("text:", text.trim());
    "#)
    .assert_ok()
    .stdout_is("loud\ntext: captured\n");
}

#[test]
fn a_shell_limit_in_dollar_ends_the_run() {
    let run = js_with(
        "import { $ } from 'goccia'; try { await $`while :; do :; done`; } catch { console.log('caught?!'); }",
        &["--timeout", "300"],
    );
    run.assert_code(4);
    assert_eq!(run.stdout, "");
}

#[test]
fn the_shell_builtin_runs_shared_and_child_entries() {
    let project = Project::new();
    project.write(
        "app/hello.js",
        "import fs from 'fs';\nconsole.log('js sees', fs.readdirSync('/').join(','));\nfs.writeFileSync('/made.txt', 'm\\n');\n",
    );
    project
        .goccia(&[
            "shell",
            "--seed",
            "app=/app",
            "-c",
            "goccia --seed /app/hello.js=/h.js --diff --diff-format unified /h.js; echo \"child $?\"; ls /; \
             goccia /app/hello.js; echo \"shared $?\"; ls /",
        ])
        .assert_ok()
        .stdout_is(
            "js sees h.js,tmp\ndiff --git a/made.txt b/made.txt\nnew file mode 100644\nindex 0000000..28ce6a8\n\
             --- /dev/null\n+++ b/made.txt\n@@ -0,0 +1 @@\n+m\nchild 0\napp\ntmp\n\
             js sees app,tmp\nshared 0\napp\nmade.txt\ntmp\n",
        );
    project
        .goccia(&["shell", "-c", "goccia --diff-format xml /x.js"])
        .assert_code(2)
        .stderr_has("--diff-format must be json or unified");
    project
        .goccia(&["shell", "-c", "goccia /missing.js"])
        .assert_code(1)
        .stderr_has("entry not found: /missing.js");
}

#[test]
fn the_shell_builtin_respects_the_depth_limit() {
    // A fork-bomb shape: each level runs the next through `$` and the
    // builtin. It must stop at the depth limit, not at the deadline.
    let project = Project::new();
    project.write(
        "loop.js",
        "import { $ } from 'goccia'; console.log('level'); await $`goccia /loop.js`;\n",
    );
    let run = project.goccia(&[
        "shell",
        "--seed",
        ".",
        "--max-depth",
        "3",
        "-c",
        "goccia /loop.js; echo \"status $?\"",
    ]);
    run.assert_ok();
    assert_eq!(run.stdout, "level\nlevel\nlevel\nstatus 1\n");
    run.stderr_has("nesting depth limit of 3 exceeded");
}
