//! The escape corpus: guest programs and CLI calls that try to reach the
//! host, each failing with its documented error.

use crate::common::*;

#[test]
fn imports_resolve_only_in_the_vfs() {
    for (specifier, expected) in [
        (
            "/etc/passwd",
            "Cannot find module '/etc/passwd': no such file in the sandbox filesystem",
        ),
        (
            "../../../../etc/passwd",
            "Cannot find module '/etc/passwd': no such file in the sandbox filesystem",
        ),
        ("file:///etc/passwd", "file: URLs are not supported"),
        (
            "node:no_such_module",
            "No such built-in module: node:no_such_module",
        ),
        ("goccia:native", "Cannot find package 'goccia:native'"),
        (
            "https://example.com/x.js",
            "Cannot find package 'https:' imported from /main.js",
        ),
    ] {
        let run = js(&format!(
            "try {{ await import({specifier:?}); console.log('loaded?!'); }} catch (e) {{ console.log(e.message); }}"
        ));
        run.assert_ok();
        assert!(run.stdout.contains(expected), "{specifier}: {}", run.stdout);
    }
}

#[test]
fn no_host_object_is_reachable_from_globals() {
    js(r#"
        const names = ['require', 'module', 'exports', 'Deno', 'Bun', 'std', 'os',
          'native', 'internals', 'scriptArgs', 'print', '__loadScript'];
        console.log(names.filter((n) => n in globalThis).join(',') || 'none');
        // Node's `global` is the guest's own global object.
        if (global !== globalThis) throw new Error('global is not globalThis');
        const own = Object.getOwnPropertyNames(globalThis)
          .filter((n) => /native|host|^internals?$/i.test(n));
        console.log(own.join(',') || 'none');
        // Node's process exists and carries nothing of the host.
        const p = Function('return this')().process;
        console.log(p.argv.join(' '), JSON.stringify(p.env), p.pid, p.cwd());
        const cp = await import('node:child_process');
        try { cp.execSync('id'); } catch (e) { console.log(e.code); }
    "#)
    .assert_ok()
    .stdout_is("none\nnone\n/usr/bin/node /main.js {} 1 /\nERR_SANDBOX_UNSUPPORTED\n");
}

#[test]
fn prototype_pollution_stays_in_its_runtime() {
    js(r#"
        import fs from "fs";
        import { runScript } from "goccia";
        Object.prototype.polluted = "yes";
        Array.prototype.push = () => { throw new Error("hijacked"); };
        fs.readFileSync = () => "forged";
        JSON.parse = () => ({ forged: true });
        fs.writeFileSync("/probe.js", `
            import fs from "fs";
            export default [({}).polluted ?? "clean", typeof fs.readFileSync("/probe.js", "utf8")];
        `);
        for (const options of [{}, { seed: ["/probe.js"] }]) {
            const r = runScript("/probe.js", options);
            console.log(r.ok, String(r.result));
        }
    "#)
    .assert_ok()
    .stdout_is("true clean,string\ntrue clean,string\n");
}

#[test]
fn bytecode_in_the_vfs_is_never_loaded_as_bytecode() {
    let project = Project::new();
    // Bytes shaped like QuickJS bytecode: imported, they are source text
    // (refused as such), never handed to the bytecode reader.
    for blob in [
        &[0x02u8, 0x05, 0x00, 0x41, 0x42, 0xff][..],
        &[0x05, 0x41, 0x42, 0xfe, 0x01][..],
    ] {
        project.write("evil.js", blob);
        for mode in ["interpreted", "bytecode"] {
            project.write("main.js", "import './evil.js'; console.log('loaded?!');");
            let run = project.goccia(&["run", "/main.js", "--seed", ".", "--mode", mode]);
            run.assert_code(1).stdout_is("");
            assert!(
                run.stderr.contains("SyntaxError") || run.stderr.contains("null bytes"),
                "{}",
                run.stderr
            );
        }
    }
}

#[test]
fn write_back_never_leaves_its_mappings() {
    let project = Project::new();
    project.write("repo/a.txt", "a\n");
    project.write("outside.txt", "keep\n");
    project.write(
        "main.js",
        r#"
        import fs from "fs";
        fs.writeFileSync("/repo/../outside.txt", "overwritten\n");
        fs.writeFileSync("/repo/../../../../outside.txt", "overwritten\n");
        let long = "refused"; try { fs.writeFileSync("/repo/" + "x".repeat(300), "x"); } catch (e) { long = e.code; }
        let nul = "refused"; try { fs.writeFileSync("/repo/a\0b", "x"); } catch (e) { nul = e.code; }
        fs.writeFileSync("/repo/new.txt", "new\n");
        console.log(long, nul);
        "#,
    );
    project
        .goccia(&[
            "run",
            "/main.js",
            "--seed",
            "main.js",
            "--copy-rw",
            "repo=/repo",
        ])
        .assert_ok()
        .stdout_is("ENAMETOOLONG EINVAL\n")
        .stderr_has("skipped /outside.txt: not under a --copy-rw mapping");
    assert_eq!(project.read("outside.txt"), "keep\n");
    assert_eq!(project.read("repo/new.txt"), "new\n");
}

#[test]
fn the_shell_reaches_no_device_network_or_host_file() {
    Project::new()
        .goccia(&[
            "shell",
            "-c",
            "echo x > /dev/tcp/127.0.0.1/80; echo \"tcp $?\"; exec 3<>/dev/udp/127.0.0.1/53; echo \"udp $?\"\n\
             cat /etc/passwd /proc/self/environ 2>/dev/null; echo \"files $?\"; cd /../../..; pwd; ls /",
        ])
        .assert_ok()
        .stdout_is("tcp 1\nudp 1\nfiles 1\n/\ntmp\n");
}
