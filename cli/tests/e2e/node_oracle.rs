//! Differential test: the same `fs` script under Node (on a temporary host
//! folder) and under goccia (on the same seeded tree) must report the same
//! results and error codes, where docs/guest.md follows Node.

use std::process::Command;

use crate::common::*;

/// A script parameterised by ROOT (a host folder for Node, '' for goccia).
/// Each step records `{ok: value}` or `{code, syscall}`.
const SCRIPT: &str = r#"
const results = [];
const step = (name, fn) => {
  try {
    const value = fn();
    results.push([name, { ok: value === undefined ? null : value }]);
  } catch (e) {
    results.push([name, { code: e.code, syscall: e.syscall }]);
  }
};
const P = (p) => ROOT + p;
const text = (p) => fs.readFileSync(P(p), 'utf8');
step('read seeded', () => text('/seeded/hello.txt'));
step('read missing', () => text('/nope.txt'));
step('read dir', () => text('/seeded'));
step('write', () => fs.writeFileSync(P('/w.txt'), 'written'));
step('append', () => { fs.appendFileSync(P('/w.txt'), '+more'); return text('/w.txt'); });
step('append new', () => { fs.appendFileSync(P('/fresh.txt'), 'x'); return text('/fresh.txt'); });
step('write into missing dir', () => fs.writeFileSync(P('/no/such/f'), 'x'));
step('write into a file', () => fs.writeFileSync(P('/w.txt/child'), 'x'));
step('write exclusive existing', () => fs.writeFileSync(P('/w.txt'), 'x', { flag: 'wx' }));
step('utf8 round trip', () => { fs.writeFileSync(P('/u.txt'), 'héllo ✓'); return text('/u.txt'); });
step('base64 read', () => fs.readFileSync(P('/u.txt'), 'base64'));
step('hex write', () => { fs.writeFileSync(P('/h.bin'), '68690a', 'hex'); return text('/h.bin'); });
step('bytes', () => Array.from(fs.readFileSync(P('/h.bin'))));
step('mkdir', () => fs.mkdirSync(P('/d1')));
step('mkdir existing', () => fs.mkdirSync(P('/d1')));
step('mkdir missing parent', () => fs.mkdirSync(P('/x/y')));
step('mkdir -p returns first', () => (fs.mkdirSync(P('/d2/a/b'), { recursive: true }) || '').replace(ROOT, ''));
step('mkdir -p existing', () => fs.mkdirSync(P('/d2/a/b'), { recursive: true }));
step('mkdir -p through a file', () => fs.mkdirSync(P('/w.txt/sub'), { recursive: true }));
step('readdir', () => fs.readdirSync(P('/seeded')).sort());
step('readdir types', () => fs.readdirSync(P('/seeded'), { withFileTypes: true }).map((d) => [d.name, d.isFile(), d.isDirectory()]).sort());
step('readdir missing', () => fs.readdirSync(P('/nope')));
step('readdir file', () => fs.readdirSync(P('/w.txt')));
step('stat file', () => { const s = fs.statSync(P('/w.txt')); return [s.isFile(), s.isDirectory(), s.size]; });
step('stat dir', () => { const s = fs.statSync(P('/d1')); return [s.isFile(), s.isDirectory()]; });
step('stat missing', () => fs.statSync(P('/nope')));
step('stat no throw', () => fs.statSync(P('/nope'), { throwIfNoEntry: false }));
step('lstat missing', () => fs.lstatSync(P('/nope')));
step('exists', () => [fs.existsSync(P('/w.txt')), fs.existsSync(P('/nope'))]);
step('rename', () => { fs.renameSync(P('/fresh.txt'), P('/d1/moved.txt')); return text('/d1/moved.txt'); });
step('rename missing', () => fs.renameSync(P('/nope'), P('/other')));
step('rename file over dir', () => fs.renameSync(P('/w.txt'), P('/d1')));
step('rename dir over file', () => fs.renameSync(P('/d2'), P('/w.txt')));
step('rename dir over non-empty dir', () => fs.renameSync(P('/d2'), P('/d1')));
step('copyFile', () => { fs.copyFileSync(P('/w.txt'), P('/c.txt')); return text('/c.txt'); });
step('copyFile excl', () => fs.copyFileSync(P('/w.txt'), P('/c.txt'), fs.constants.COPYFILE_EXCL));
step('copyFile missing', () => fs.copyFileSync(P('/nope'), P('/c2.txt')));
step('unlink', () => { fs.unlinkSync(P('/c.txt')); return fs.existsSync(P('/c.txt')); });
step('unlink missing', () => fs.unlinkSync(P('/c.txt')));
step('rmdir non-empty', () => fs.rmdirSync(P('/d1')));
step('rmdir file', () => fs.rmdirSync(P('/w.txt')));
step('rmdir missing', () => fs.rmdirSync(P('/nope')));
step('rm -r', () => { fs.rmSync(P('/d2'), { recursive: true }); return fs.existsSync(P('/d2')); });
step('rm missing', () => fs.rmSync(P('/d2')));
step('rm -f missing', () => fs.rmSync(P('/d2'), { force: true }));
step('access', () => fs.accessSync(P('/w.txt')));
step('access missing', () => fs.accessSync(P('/nope')));
step('cp -r', () => { fs.cpSync(P('/seeded'), P('/copy'), { recursive: true }); return fs.readdirSync(P('/copy')).sort(); });
step('final listing', () => fs.readdirSync(ROOT + '/').filter((n) => n !== 'tmp' && n !== 'main.js').sort());
console.log(JSON.stringify(results));
"#;

fn node_available() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn fs_behaves_like_node() {
    assert!(
        node_available(),
        "this differential test needs Node.js (`node`) on PATH"
    );
    let project = Project::new();
    project.write("seeded/hello.txt", "hi there");
    project.write("seeded/inner/deep.txt", "deep");

    // Node, on a copy of the seeded tree.
    let root = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(root.path().join("seeded/inner")).unwrap();
    std::fs::write(root.path().join("seeded/hello.txt"), "hi there").unwrap();
    std::fs::write(root.path().join("seeded/inner/deep.txt"), "deep").unwrap();
    let node_script = format!(
        "const fs = require('fs'); const ROOT = {};\n{SCRIPT}",
        serde_json::to_string(&root.path().to_string_lossy()).unwrap()
    );
    let node = Command::new("node")
        .arg("-e")
        .arg(&node_script)
        .output()
        .unwrap();
    assert!(
        node.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&node.stderr)
    );
    let expected: serde_json::Value = serde_json::from_slice(&node.stdout).unwrap();

    let run = run_js(
        &project,
        &format!("import fs from 'fs'; const ROOT = '';\n{SCRIPT}"),
        &[],
    );
    run.assert_ok();
    let actual: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();

    let (expected, actual) = (expected.as_array().unwrap(), actual.as_array().unwrap());
    assert_eq!(expected.len(), actual.len());
    let mut differences = Vec::new();
    for (node_step, goccia_step) in expected.iter().zip(actual) {
        if node_step != goccia_step {
            differences.push(format!(
                "{}\n   node:   {}\n   goccia: {}",
                node_step[0], node_step[1], goccia_step[1]
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "goccia differs from Node:\n{}",
        differences.join("\n")
    );
}
