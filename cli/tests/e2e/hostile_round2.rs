//! Hostile input, second round (issue 21): each class found by hostile
//! code written without reading goccia's tests, reproduced through the
//! binary, with bounded wall time and peak memory. Variants of each class
//! are checked separately.

use crate::common::*;
use crate::hostile_round1::{SECONDS, contained, hostile_js};

/// Runs `goccia shell -c script` with `extra`; asserts the code, the wall
/// time and the peak RSS; returns stderr.
#[track_caller]
pub(crate) fn hostile_shell(
    script: &str,
    extra: &[&str],
    code: i32,
    wall_secs: u64,
    rss_mib: i64,
) -> String {
    let project = Project::new();
    let mut args = vec!["shell", "-c", script];
    args.extend_from_slice(extra);
    let run = contained(&project, &args);
    assert_eq!(run.code, code, "exit code for {script:?}\n{}", run.stderr);
    assert!(
        run.wall < SECONDS(wall_secs),
        "{script:?} took {:?}",
        run.wall
    );
    assert!(
        run.max_rss_kib < rss_mib * 1024,
        "{script:?} peaked at {} MiB",
        run.max_rss_kib / 1024
    );
    run.stderr
}

// ----- 1. trees deeper than the host's stack -----

/// The reproduction: a deep tree grown by renames (each rename names short
/// paths, the tree below gets deeper). It aborted the host with a stack
/// overflow; the VFS now refuses to grow past 256 levels.
#[test]
fn renames_cannot_grow_a_tree_past_the_depth_limit() {
    let stderr = hostile_js(
        "import fs from 'fs';
         fs.mkdirSync('/c/' + 'a/'.repeat(200) + 'a', {recursive: true});
         const seg = 'a/'.repeat(100) + 'a';
         for (let i = 0; i < 110; i++) {
           fs.mkdirSync('/n/' + seg, {recursive: true});
           fs.renameSync('/c', '/n/' + seg + '/c');
           fs.renameSync('/n', '/c');
         }",
        &[],
        1,
        SECONDS(10),
        256,
    );
    assert!(
        stderr.contains("ENAMETOOLONG: path deeper than 256 levels"),
        "{stderr}"
    );
    // The guest can catch it and go on; the tree is as it was.
    let project = Project::with(
        "main.js",
        "import fs from 'fs';
         fs.mkdirSync('/c/' + 'a/'.repeat(250), {recursive: true});
         fs.mkdirSync('/n/x/y/z/w/v/u', {recursive: true});
         try { fs.renameSync('/c', '/n/x/y/z/w/v/u/c'); } catch (e) { console.log(e.code); }
         console.log(fs.existsSync('/c'), fs.existsSync('/n/x/y/z/w/v/u/c'));",
    );
    project
        .goccia(&["run", "/main.js", "--seed", "main.js"])
        .assert_ok()
        .stdout_is("ENAMETOOLONG\ntrue false\n");
}

#[test]
fn the_shell_cannot_grow_a_tree_past_the_depth_limit_either() {
    // `mkdir -p` and `mv` in a loop, then `cp -r` and `tar` of what is there.
    let stderr = hostile_shell(
        "d=$(printf 'a/%.0s' $(seq 200)); mkdir -p /c/$d; \
         for i in $(seq 10); do mkdir -p /n/$d && mv /c /n/$d/c && mv /n /c || break; done; \
         cp -r /c /deep/x/y 2>&1 | head -c 0; mkdir -p /deep; cp -r /c /deep/c; \
         tar cf /t.tar /c && tar tf /t.tar | wc -l; find / | wc -l; du -s /c > /dev/null; echo end",
        &[],
        0,
        20,
        256,
    );
    assert!(stderr.contains("deeper than 256 levels"), "{stderr}");
    // A script path deeper than the limit is refused, not walked.
    let stderr = hostile_shell(&format!("mkdir -p /{}", "a/".repeat(300)), &[], 1, 10, 256);
    assert!(stderr.contains("deeper than 256 levels"), "{stderr}");
}

#[test]
fn a_host_tree_deeper_than_the_limit_is_refused_when_seeding() {
    let project = Project::new();
    let deep = "d/".repeat(300);
    std::fs::create_dir_all(project.join(&format!("tree/{deep}"))).unwrap();
    project
        .goccia(&["run", "/x.js", "--seed", "tree=/t"])
        .assert_code(2)
        .stderr_has("deeper than 256 levels below its target");
}

// ----- 9. seeding reads sizes before contents -----

#[test]
fn seeding_checks_sizes_before_reading() {
    let project = Project::new();
    // 3 GiB of holes: nothing is read, the size alone is over the quota.
    let file = std::fs::File::create(project.join("sparse.bin")).unwrap();
    file.set_len(3 << 30).unwrap();
    let run = contained(
        &project,
        &[
            "run",
            "/x.js",
            "--seed",
            "sparse.bin",
            "--fs-quota-bytes",
            "16m",
        ],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("quota is exhausted"), "{}", run.stderr);
    assert!(
        run.max_rss_kib < 128 * 1024,
        "peaked at {} KiB",
        run.max_rss_kib
    );
    // A device as a seed config is refused from its metadata, never read.
    let run = contained(&project, &["run", "/x.js", "--seed-config", "/dev/zero"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    assert!(
        run.max_rss_kib < 128 * 1024,
        "peaked at {} KiB",
        run.max_rss_kib
    );
    assert!(run.wall < SECONDS(10));
}

// ----- 5. widths and precisions past Rust's formatter -----

/// Each of these panicked inside `format!` (widths over 65,535) and ended
/// as an internal error, exit 70. They now print what GNU prints.
#[test]
fn huge_widths_and_precisions_are_formatted_not_internal_errors() {
    let cases = [
        (
            "echo 'scale=65535; 1/3' | bc | tr -d '\\\\\\n' | wc -c",
            "65536\n",
        ),
        ("printf '%.70000f' 1 | wc -c", "70002\n"),
        ("printf '%.70000e' 1 | wc -c", "70006\n"),
        ("printf '%070000d' 5 | wc -c", "70000\n"),
        ("awk 'BEGIN { printf \"%.70000f\", 1 }' | wc -c", "70002\n"),
        ("seq -f '%.70000f' 1 1 | wc -c", "70003\n"),
        ("echo 5 | numfmt --padding=70000 | wc -c", "70001\n"),
        (
            "printf 'x%.0s' $(seq 70000) | tr -d '\\n' > /w; echo \" $(cat /w) b\" | column -t | wc -c",
            "70004\n",
        ),
        // As GNU split: a 70,001-byte name is too long for any file system.
        (
            "echo abc > /f; split -a 70000 -b 1 /f /p 2>&1 | grep -c 'File name too long'; ls / | grep '^p' | wc -l",
            "1\n0\n",
        ),
    ];
    for (script, expected) in cases {
        let run = Project::new().goccia(&["shell", "-c", script]);
        assert_eq!(run.code, 0, "{script}: {}", run.stderr);
        assert_eq!(run.stdout, expected, "{script}");
    }
}

// ----- 3. sed inside one cycle -----

#[test]
fn sed_branch_loops_stop_at_the_deadline_and_growth_at_a_bound() {
    // A branch loop never ends its cycle: the deadline is checked on
    // every taken branch.
    let stderr = hostile_shell("echo x | sed ':a;ba'", &["--timeout", "1000"], 4, 10, 128);
    assert!(stderr.contains("deadline of 1000 ms passed"), "{stderr}");
    // Endless growth of the pattern and hold spaces stops at the
    // buffered-input bound (sed's status 4, as GNU sed's when memory
    // runs out), long before the host's memory. (Both spaces at that
    // bound hold more than the default --max-memory, which would stop the
    // run first, as exit 3: 1g lets sed's own bound be the one met.)
    let stderr = hostile_shell(
        "echo x | sed ':a;s/^/y/;H;x;ba'",
        &["--max-memory", "1g"],
        4,
        20,
        1024,
    );
    assert!(
        stderr.contains("pattern or hold space larger than"),
        "{stderr}"
    );
    // Slurping a file holds one copy of it, not an object per line.
    hostile_shell(
        "seq 1000000 | sed ':a;N;$!ba;s/\\n/ /g' | wc -c",
        &[],
        0,
        30,
        128,
    );
    // And sed streams: an endless input with an early reader ends at once.
    hostile_shell("yes | sed p | head -3 > /dev/null", &[], 0, 10, 128);
}

// ----- 4. nested constructs: linear, bounded, checked -----

#[test]
fn nested_expansions_cost_linear_time_and_deep_nesting_is_refused() {
    // The reproduction: 4,000 nested defaults (24 KB) took 9-12 s and
    // 1.6 GB; each level copied its operand.
    let nested = format!("x=; echo {}y{}", "${x:-".repeat(4000), "}".repeat(4000));
    let project = Project::with("n.sh", &nested);
    let run = contained(
        &project,
        &["shell", "--max-memory", "64m", "--seed", "n.sh", "/n.sh"],
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("nested more than 256 levels"),
        "{}",
        run.stderr
    );
    assert!(run.wall < SECONDS(5), "{:?}", run.wall);
    assert!(run.max_rss_kib < 128 * 1024, "{} KiB", run.max_rss_kib);
    // Within the limit it is fast and right.
    let nested = format!("x=; echo {}y{}", "${x:-".repeat(200), "}".repeat(200));
    Project::new()
        .goccia(&["shell", "-c", &nested])
        .assert_ok()
        .stdout_is("y\n");
    // Subscripts and arithmetic re-read their text: bounded the same way.
    let deep_index = format!("a=(1); echo {}0{}", "${a[".repeat(300), "]}".repeat(300));
    let stderr = hostile_shell(&deep_index, &[], 2, 10, 256);
    assert!(stderr.contains("nested more than 256 levels"), "{stderr}");
}

#[test]
fn deep_or_long_expressions_never_exhaust_the_stack() {
    // A chain of a million `1+` in a pipeline stage aborted the host (a
    // left-deep tree); chains are now flat.
    hostile_shell(
        "x=$(printf '1+%.0s' $(seq 1000000)); echo $(( ${x}1 )) | cat",
        &["--timeout", "60000"],
        0,
        90,
        1024,
    );
    // Parentheses and unary operators past bash's 1,024 levels.
    let stderr = hostile_shell(
        "x=$(printf '(%.0s' $(seq 100000)); echo $(( ${x}1 ))",
        &[],
        1,
        10,
        256,
    );
    assert!(
        stderr.contains("expression recursion level exceeded"),
        "{stderr}"
    );
    // awk and bc parse their own languages: bounded the same way.
    for tool in ["echo | awk \"{print ${x}1}\"", "echo \"${x}1\" | bc"] {
        for chain in ["(", "1+"] {
            let script = format!("x=$(printf '{chain}%.0s' $(seq 100000)); {tool}; echo done");
            let stderr = hostile_shell(&script, &[], 0, 10, 256);
            assert!(
                stderr.contains("more than 2000 levels"),
                "{script}: {stderr}"
            );
        }
    }
}

/// jq values nested deeper than any stack: building one costs a few bytes a
/// level, and every walk over it (printing, comparing, hashing, merging,
/// dropping) recursed on the native stack and aborted the host.
#[test]
fn jq_values_of_any_depth_never_exhaust_the_stack() {
    let deep = "reduce range(300000) as $x (null; [.])";
    // Each filter walks the deep value a different way; none may abort.
    for walk in [
        "tojson | length",
        "{a: .} | tostring | length",
        "{(tojson): 1} | length",
        "[., [.]] | unique | length",
        "[[.], .] | sort | length",
        "{a: .} * {a: {b: .}} | length",
        "[.] | contains([[[]]])",
        "del(.. | .a?) | length",
        "length",
    ] {
        let script = format!("jq -n '{deep} | {walk}'; echo \"status $?\" >&2");
        let run = contained(
            &Project::new(),
            &["shell", "-c", &script, "--max-memory", "64m"],
        );
        assert_eq!(run.code, 0, "{walk}: {}", run.stderr);
        assert!(run.stderr.contains("status "), "{walk}: {}", run.stderr);
        assert!(run.wall < SECONDS(30), "{walk} took {:?}", run.wall);
        assert!(
            run.max_rss_kib < 512 * 1024,
            "{walk} peaked at {} MiB",
            run.max_rss_kib / 1024
        );
    }
    // Printing past jq's stack is an error (status 5) naming why, and what
    // was printed before it stays printed.
    let stderr = hostile_shell(
        &format!("{{ jq -n '1, ({deep} | tojson)'; echo \"status $?\"; }} >&2"),
        &["--max-memory", "64m"],
        0,
        30,
        512,
    );
    assert!(stderr.starts_with("1\n"), "{stderr}");
    assert!(stderr.contains("nested too deeply"), "{stderr}");
    assert!(stderr.ends_with("status 5\n"), "{stderr}");
    // Text nested past jq's parse depth is refused, not recursed into.
    let stderr = hostile_shell(
        "printf '%.0s[' $(seq 10001) | jq . ; echo \"status $?\" >&2;\
         jq -n '\"\\(\"[\" * 10001)\" | fromjson'; echo \"status $?\" >&2",
        &[],
        0,
        10,
        256,
    );
    assert_eq!(
        stderr.matches("status 2").count() + stderr.matches("status 5").count(),
        2,
        "{stderr}"
    );
    assert!(
        stderr.contains("10000") || stderr.contains("deep"),
        "{stderr}"
    );
    // A runaway recursion builds its own depth: its stack is no larger
    // than the memory limit (1.1 GB under 64m before).
    let stderr = hostile_shell(
        "jq -n 'def f: [f]; f'",
        &["--max-memory", "64m"],
        5,
        30,
        200,
    );
    assert!(stderr.contains("recursion too deep"), "{stderr}");
}

#[test]
fn brace_and_glob_patterns_stay_polynomial_and_stop_at_the_deadline() {
    // 100,000 unclosed `{a,` took 37 s past a 10 s deadline (every `{`
    // scanned the rest); braces are now indexed once.
    hostile_shell(
        "x=$(printf '{a,%.0s' $(seq 100000)); eval \"echo $x\" | wc -c",
        &["--timeout", "10000"],
        0,
        5,
        256,
    );
    // Unclosed extended groups were exponential (minutes past the
    // deadline); nested ones are decided once per position.
    hostile_shell(
        "shopt -s extglob; x=$(printf '@(%.0s' $(seq 20000)); [[ a == $x ]]; echo $?",
        &["--timeout", "3000"],
        0,
        5,
        256,
    );
    // A pattern scan that cannot finish in time ends the run as a
    // timeout, not as the wrong answer with status 0.
    let stderr = hostile_shell(
        "x=$(printf 'a%.0s' $(seq 300000)); echo ${x##*b} | wc -c",
        &["--timeout", "1500"],
        4,
        10,
        256,
    );
    assert!(stderr.contains("deadline of 1500 ms passed"), "{stderr}");
}

// ----- 8. native commands far past the deadline -----

#[test]
fn backreferences_and_big_diffs_end_by_the_deadline() {
    let project = Project::new();
    let lines: String = (0..1000).map(|_| "a".repeat(40) + "\n").collect();
    project.write("aa.txt", &lines);
    // 45 s before; now the deadline is looked at before every match.
    let run = contained(
        &project,
        &[
            "shell",
            "--timeout",
            "2000",
            "--seed",
            "aa.txt",
            "-c",
            "grep -cE '(a*)*(a*)*\\1\\2b' aa.txt",
        ],
    );
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(run.wall < SECONDS(5), "{:?}", run.wall);
    // Two 40,000-line files with nothing in common took 16.9 s: the
    // alignment's effort is bounded, the diff stays correct.
    let a: String = (1..=40_000).map(|n| format!("{n}\n")).collect();
    let b: String = (40_001..=80_000).map(|n| format!("{n}\n")).collect();
    project.write("a.txt", &a).write("b.txt", &b);
    let run = contained(
        &project,
        &[
            "shell",
            "--seed",
            "a.txt",
            "--seed",
            "b.txt",
            "-c",
            "diff a.txt b.txt | wc -l",
        ],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.wall < SECONDS(10), "{:?}", run.wall);
    let out = project.goccia(&[
        "shell",
        "--seed",
        "a.txt",
        "--seed",
        "b.txt",
        "-c",
        "diff a.txt b.txt | grep -c '^[<>]'",
    ]);
    out.assert_ok().stdout_is("80000\n");
}

// ----- 7. the outcome is decided after the last command -----

#[test]
fn a_last_command_that_overruns_is_a_timeout_and_writes_nothing_back() {
    let project = Project::new();
    let a: String = (1..=30_000).map(|n| format!("{n}\n")).collect();
    let c: String = (1..=30_000)
        .map(|n| {
            if n % 2 == 1 {
                format!("{n}\n")
            } else {
                format!("x{n}\n")
            }
        })
        .collect();
    project.write("w/a.txt", &a).write("w/c.txt", &c);
    let run = contained(
        &project,
        &[
            "shell",
            "--timeout",
            "300",
            "--copy-rw",
            "w",
            "-c",
            "echo written > /new.txt; x=$(printf 'a%.0s' $(seq 400000)); : ${x##*b}",
        ],
    );
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(!project.exists("w/new.txt"), "a timed-out run wrote back");
}

// ----- 6. budgets per tree, not per run -----

/// Every level of `runScript` had its own `--max-memory`: 32 levels each
/// holding 48 MB took 1.66 GB under `--max-memory 64m`. The live runtimes
/// of a tree now share one heap budget: the second level cannot allocate.
#[test]
fn nested_runs_share_one_memory_budget() {
    let nest = r#"
        import { runScript } from "goccia";
        const held = new Uint8Array(40 << 20);
        held.fill(1);
        const r = runScript("/main.js", { seed: ["/main.js"] });
        console.error(`child: ${r.ok} ${r.failureKind}`);
        export default held.length;
    "#;
    let stderr = hostile_js(
        nest,
        &["--max-memory", "64m", "--max-depth", "32"],
        0,
        SECONDS(20),
        160,
    );
    assert_eq!(stderr, "child: false resource-limit\n");
    // The budget is the tree's live heap: a child that ended gave its
    // memory back, so the next one can take it.
    let sequential = r#"
        import { runScript } from "goccia";
        for (let i = 0; i < 5; i++) {
            const r = runScript("/child.js", { seed: [{ path: "/child.js", text:
                "const a = new Uint8Array(40 << 20); a.fill(1); export default a.length;" }] });
            console.error(`${i}: ${r.ok}`);
        }
    "#;
    let stderr = hostile_js(sequential, &["--max-memory", "64m"], 0, SECONDS(20), 200);
    assert_eq!(stderr, "0: true\n1: true\n2: true\n3: true\n4: true\n");
}

/// A child's quota is its seeds plus what the parent may still write;
/// deleting a seed used to refill it (3 GB held under a 1 GB quota).
#[test]
fn a_child_cannot_make_room_by_deleting_its_seeds() {
    let source = r#"
        import fs from "fs";
        import { runScript } from "goccia";
        fs.mkdirSync("/big");
        fs.writeFileSync("/big/seed", "s".repeat(900_000));
        const child = `
            import fs from "fs";
            fs.unlinkSync("/big/seed");
            try { fs.writeFileSync("/new", "n".repeat(900_000)); console.error("wrote"); }
            catch (e) { console.error(e.code); }
            fs.writeFileSync("/small", "n".repeat(50_000));
            console.error("small ok");
        `;
        const r = runScript("/child.js", { seed: ["/big", { path: "/child.js", text: child }] });
        console.error(r.stderr + `child: ${r.ok}`);
    "#;
    let stderr = hostile_js(source, &["--fs-quota-bytes", "1m"], 0, SECONDS(20), 200);
    assert_eq!(stderr, "ENOSPC\nsmall ok\nchild: true\n", "{stderr}");
}

/// Serializing the default export runs guest code: a `toJSON` that hits the
/// deadline, the heap limit or the output cap fails the run (it was exit 0,
/// `ok: true`, and write-back ran), in the entry and in a child alike.
#[test]
fn limits_hit_while_serializing_the_result_fail_the_run() {
    let busy = "export default { toJSON() { for (;;) {} } };";
    hostile_js(busy, &["--timeout", "1000"], 4, SECONDS(10), 200);
    hostile_js(
        "export default { toJSON() { const a = []; for (;;) a.push(new Array(1e5).fill(1)); } };",
        &["--max-memory", "64m"],
        3,
        SECONDS(20),
        400,
    );
    let stderr = hostile_js(
        "export default { toJSON() { for (;;) console.log('x'.repeat(1000)); } };",
        &["--max-output", "1m"],
        3,
        SECONDS(20),
        200,
    );
    assert!(stderr.contains("output"), "{stderr}");
    // A getter on the exported object is serialization too.
    hostile_js(
        "export default { get x() { for (;;) {} } };",
        &["--timeout", "1000"],
        4,
        SECONDS(10),
        200,
    );

    // Nothing is written back from a run that timed out while serializing.
    let project = Project::with(
        "w/main.js",
        &format!("import fs from 'fs'; fs.writeFileSync('/new.txt', 'x'); {busy}"),
    );
    let run = contained(
        &project,
        &["run", "/main.js", "--copy-rw", "w", "--timeout", "1000"],
    );
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(!project.exists("w/new.txt"), "a timed-out run wrote back");

    // A child's result goes through the same check.
    let out = Project::with(
        "main.js",
        r#"import { runScript } from "goccia";
const r = runScript("/c.js", { seed: [{ path: "/c.js", text: "export default { toJSON() { for (;;) {} } };" }], timeout: 500 });
console.log(JSON.stringify([r.exitCode, r.failureKind]));"#,
    )
    .goccia(&["run", "/main.js", "--seed", "main.js", "--timeout", "5000"]);
    out.assert_ok().stdout_is("[4,\"timeout\"]\n");

    // A `toJSON` that merely throws leaves no result, as any value that is
    // not JSON-like does; it is not a failure.
    let out = Project::with(
        "main.js",
        "export default { toJSON() { throw new Error('mine'); } };",
    )
    .goccia(&["run", "/main.js", "--seed", "main.js", "--json"]);
    let report = out.json();
    assert_eq!(report["ok"], true);
    assert_eq!(report["result"], serde_json::Value::Null);
}

/// Formatting an uncaught error reads its `message`, `name` and `stack`:
/// getters that loop end the run as a timeout (was exit 1 after the
/// deadline).
#[test]
fn error_getters_that_loop_are_a_timeout() {
    for prop in ["message", "name", "stack", "code"] {
        hostile_js(
            &format!(
                "const e = new Error('x'); Object.defineProperty(e, '{prop}', {{ get() {{ for (;;) {{}} }} }}); throw e;"
            ),
            &["--timeout", "1000"],
            4,
            SECONDS(10),
            200,
        );
    }
}

/// When QuickJS cannot even allocate its "out of memory" error it throws
/// `null`; that is a resource limit (exit 3), told apart from a guest's own
/// `throw null` (exit 1) by the runtime's out-of-memory count.
#[test]
fn an_out_of_memory_thrown_as_null_is_a_resource_limit() {
    let stderr = hostile_js(
        "new Array(5e6).fill(0).map((_, i) => [i]).sort();",
        &["--max-memory", "512m", "--timeout", "60000"],
        3,
        SECONDS(60),
        700,
    );
    assert!(stderr.contains("out of memory"), "{stderr}");
    hostile_js(
        "Array.from({ length: 5e6 }, (_, i) => 'k' + i).sort();",
        &["--max-memory", "64m", "--timeout", "60000"],
        3,
        SECONDS(60),
        300,
    );
    let stderr = hostile_js("throw null;", &[], 1, SECONDS(10), 200);
    assert!(stderr.contains("uncaught null"), "{stderr}");
}

// ----- 2. native loops inside QuickJS -----

/// Built-ins that loop natively over huge array-likes or strings polled no
/// interrupt and ran forever; the vendored QuickJS now polls in them
/// (third_party/rquickjs-sys/GOCCIA-PATCH.md).
#[test]
fn native_loops_in_quickjs_stop_at_the_deadline() {
    for source in [
        "[].reverse.call({ length: 2 ** 53 - 1 });",
        "Array(2 ** 32 - 1).join('');",
        "[].copyWithin.call({ length: 2 ** 53 - 1 }, 1, 0);",
        "[].splice.call({ length: 2 ** 53 - 1 }, 0, 1);",
        "[].shift.call({ length: 2 ** 53 - 1 });",
        "[].unshift.call({ length: 2 ** 53 - 2 }, 1);",
        "[].indexOf.call({ length: 2 ** 53 - 1 }, 1);",
        "[].fill.call({ length: 2 ** 53 - 1 }, 1);",
        "Array.prototype.sort.call({ length: 2 ** 32 - 1 });",
    ] {
        // Bounded by the 512 MiB heap limit: `fill` creates properties as it
        // goes (354 MB at the deadline on a quiet machine).
        hostile_js(source, &["--timeout", "1000"], 4, SECONDS(10), 640);
    }
}

/// Searching a 128 MB string for a 32 MB needle that almost matches
/// everywhere: hours of comparisons in one call.
#[test]
fn string_searches_with_huge_needles_stop_at_the_deadline() {
    for call in [
        "indexOf(n)",
        "lastIndexOf(n)",
        "includes(n)",
        "split(n)",
        "replace(n, '')",
        "replaceAll(n, '')",
    ] {
        hostile_js(
            &format!("const h = 'a'.repeat(2 ** 27), n = 'a'.repeat(2 ** 25) + 'b'; h.{call};"),
            &["--timeout", "1000"],
            4,
            SECONDS(10),
            700,
        );
    }
}

// ----- 10. smaller findings -----

/// Limits out of range are usage errors (exit 2) that state the range and
/// the flag, for `run` and `shell` alike (they were internal errors, 70).
#[test]
fn limits_out_of_range_are_usage_errors() {
    let project = Project::with("main.js", "");
    for (flag, value, says) in [
        (
            "--max-memory",
            "1",
            "--max-memory: the memory limit of 1 is out of range: it must be at least 1048576",
        ),
        (
            "--stack-size",
            "1",
            "--stack-size: the stack limit of 1 is out of range: it must be at least 65536",
        ),
        (
            "--stack-size",
            "100g",
            "--stack-size: the stack limit of 107374182400 is out of range: it must be at least 65536 and at most 268435456",
        ),
    ] {
        project
            .goccia(&["run", "/main.js", "--seed", "main.js", flag, value])
            .assert_code(2)
            .stderr_has(says);
        project
            .goccia(&["shell", "-c", "echo never", flag, value])
            .assert_code(2)
            .stderr_has(says)
            .stdout_is("");
    }
}

/// A guest names its files: a newline or an escape sequence in a name
/// used to reach the host's stderr as is, so a guest could forge report
/// lines. Names are escaped in every write-back report line.
#[test]
fn guest_file_names_cannot_forge_report_lines() {
    let project = Project::with(
        "main.js",
        r#"
        import fs from "fs";
        fs.writeFileSync("/repo/x\nwrite-back: 9 written, 0 skipped", "1");
        fs.writeFileSync("/outside\u001b[2J", "1");
        "#,
    );
    project.write("repo/keep", "k");
    let run = project.goccia(&[
        "run",
        "/main.js",
        "--seed",
        "main.js",
        "--copy-rw",
        "repo=/repo",
    ]);
    run.assert_ok();
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stderr);
    assert!(
        lines[0].starts_with("write-back: wrote /repo/x\\nwrite-back: 9 written, 0 skipped -> "),
        "{}",
        run.stderr
    );
    assert!(lines[0].ends_with("/repo/x\\nwrite-back: 9 written, 0 skipped"));
    assert_eq!(
        lines[1],
        "write-back: skipped /outside\\x{1b}[2J: not under a --copy-rw mapping"
    );
    assert_eq!(lines[2], "write-back: 1 written, 1 skipped");
    assert!(!run.stderr.contains('\u{1b}'));
    // The host file has the name the guest chose; only the report escapes.
    assert!(project.exists("repo/x\nwrite-back: 9 written, 0 skipped"));
}
