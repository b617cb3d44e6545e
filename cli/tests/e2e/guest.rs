//! What a guest sees: globals, imports, the event loop.

use crate::common::*;

#[test]
fn no_host_globals_are_reachable() {
    js("for (const name of ['require', 'Deno', 'Bun', 'module', 'exports', '__dirname', 'std', 'os', 'scriptArgs']) {\n\
          if (typeof globalThis[name] !== 'undefined') throw new Error('leaked ' + name);\n\
        }\n\
        console.log(typeof console, typeof fetch, typeof queueMicrotask, typeof setTimeout, typeof clearTimeout,\n\
          typeof TextEncoder, typeof TextDecoder, typeof URL, typeof structuredClone);")
        .assert_ok()
        .stdout_is("object function function function function function function function function\n");
}

#[test]
fn imports_resolve_only_in_the_vfs() {
    let project = Project::new();
    project.write("lib/a.js", "export const a = 'a';");
    project.write(
        "lib/b.js",
        "import { a } from './a.js'; export default a + 'b';",
    );
    project.write("data.json", "{\"n\": 1}");
    let run = run_js(
        &project,
        "import b from './lib/b.js'; import { a } from '/lib/a.js'; import data from './data.json';\n\
         import * as again from '../../lib/a.js';\n\
         const dynamic = await import('./lib/a.js');\n\
         console.log(b, a, data.n, again.a, dynamic.a);",
        &[],
    );
    run.assert_ok().stdout_is("ab a 1 a a\n");
}

#[test]
fn host_paths_and_unknown_modules_are_refused() {
    let cases = [
        (
            "import x from '/etc/passwd';",
            "Cannot find module '/etc/passwd'",
        ),
        (
            "import x from 'file:///etc/passwd';",
            "file: URLs are not supported",
        ),
        (
            "import x from 'no-such-package/sub';",
            "Cannot find package 'no-such-package'",
        ),
        (
            "import x from 'goccia:native';",
            "Cannot find package 'goccia:native'",
        ),
        (
            "await import('left-pad');",
            "Cannot find package 'left-pad' imported from /main.js",
        ),
        (
            "import x from './missing.js';",
            "Cannot find module '/missing.js'",
        ),
    ];
    for (source, message) in cases {
        js(source).assert_code(1).stderr_has(message);
    }
}

#[test]
fn fs_imports_have_node_aliases() {
    js("import fs from 'node:fs'; import { readFile } from 'fs/promises'; import * as p from 'node:fs/promises';\n\
        import { writeFileSync, promises } from 'fs';\n\
        writeFileSync('/x', 'y'); console.log(await readFile('/x', 'utf8'), typeof p.writeFile, promises === fs.promises);")
        .assert_ok()
        .stdout_is("y function true\n");
}

#[test]
fn top_level_await_and_timers_run_on_virtual_time() {
    let run = js("const order = [];\n\
        setTimeout(() => order.push('t20'), 20);\n\
        setTimeout(() => order.push('t10'), 10);\n\
        const id = setTimeout(() => order.push('never'), 5); clearTimeout(id);\n\
        queueMicrotask(() => order.push('micro'));\n\
        await new Promise((resolve) => setTimeout(resolve, 30));\n\
        let ticks = 0; const iv = setInterval(() => { if (++ticks === 3) clearInterval(iv); }, 1000);\n\
        await new Promise((resolve) => setTimeout(resolve, 5000));\n\
        console.log(order.join(','), ticks);");
    run.assert_ok().stdout_is("micro,t10,t20 3\n");
}

#[test]
fn timers_past_the_deadline_time_out() {
    let project = Project::new();
    run_js(
        &project,
        "setTimeout(() => console.log('late'), 60000);",
        &["--timeout", "1000"],
    )
    .assert_code(4)
    .stderr_has("deadline");
}

#[test]
fn a_never_settling_top_level_await_fails_clearly() {
    js("await new Promise(() => {});")
        .assert_code(1)
        .stderr_has("top-level await never settled");
}

#[test]
fn console_formats_like_node() {
    js(
        "console.log({ a: 1, b: 'two', c: [1, 2, 3], d: { e: { f: { g: 1 } } } });\n\
        console.log([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);\n\
        console.log('%s is %d years', 'Bob', 42, 'extra');\n\
        console.log(new Map([['k', 1]]), new Set([1]), null, undefined, -0, 10n, Symbol('s'));\n\
        const cyclic = { name: 'c' }; cyclic.self = cyclic; console.log(cyclic);\n\
        console.log([undefined, , 3], 'str', ['str'], function named() {}, class K {});",
    )
    .assert_ok()
    .stdout_is(
        "{ a: 1, b: 'two', c: [ 1, 2, 3 ], d: { e: { f: [Object] } } }\n\
             [\n  1, 2, 3, 4,  5,\n  6, 7, 8, 9, 10\n]\n\
             Bob is 42 years extra\n\
             Map(1) { 'k' => 1 } Set(1) { 1 } null undefined -0 10n Symbol(s)\n\
             <ref *1> { name: 'c', self: [Circular *1] }\n\
             [ undefined, <1 empty item>, 3 ] str [ 'str' ] [Function: named] [class K]\n",
    );
}

#[test]
fn encoders_urls_and_structured_clone_work() {
    js("const bytes = new TextEncoder().encode('héllo');\n\
        const url = new URL('../x?a=1&b=two#frag', 'https://example.com/dir/page');\n\
        url.searchParams.append('c', 'd e');\n\
        const original = { when: new Date(0), list: [1, { deep: true }], map: new Map([[1, 'one']]) };\n\
        const copy = structuredClone(original);\n\
        let refused = ''; try { structuredClone({ f() {} }); } catch (e) { refused = e.name; }\n\
        console.log(bytes.length, new TextDecoder().decode(bytes), url.href, url.searchParams.get('b'),\n\
          copy.when.getTime(), copy.list[1] !== original.list[1], copy.map.get(1), refused);")
        .assert_ok()
        .stdout_is("6 héllo https://example.com/x?a=1&b=two&c=d+e#frag two 0 true one DataCloneError\n");
}

#[test]
fn fetch_is_refused_without_an_allow_list() {
    js("try { await fetch('https://example.com/'); } catch (e) { console.log(e.name, e.message); }")
        .assert_ok()
        .stdout_is("TypeError fetch refused: host 'example.com' (port 443) is not allowed (allow it with --allow-host)\n");
}
