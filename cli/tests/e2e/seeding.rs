//! Seeding (docs/vfs.md): --seed, --copy-rw, --seed-config, in order.

use std::os::unix::fs::symlink;

use crate::common::*;

const LIST: &str = "import fs from 'fs';\n\
    const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {\n\
      const path = (dir === '/' ? '' : dir) + '/' + e.name;\n\
      return e.isDirectory() ? [path + '/', ...walk(path)] : [path + '=' + fs.readFileSync(path, 'utf8')];\n\
    });\n\
    console.log(walk('/').filter((p) => !p.startsWith('/list.js')).join('\\n'));";

fn list(project: &Project, seeds: &[&str]) -> Run {
    let tool = Project::with("list.js", LIST);
    let tool_seed = format!("{}=/list.js", tool.join("list.js").display());
    let mut args = vec!["run", "/list.js", "--seed", &tool_seed];
    args.extend_from_slice(seeds);
    project.goccia(&args)
}

#[test]
fn a_folder_copies_its_contents_including_dotfiles_and_empty_folders() {
    let project = Project::new();
    project.write("src/app.js", "app");
    project.write(".env", "dot");
    std::fs::create_dir(project.join("empty")).unwrap();
    list(&project, &["--seed", "."])
        .assert_ok()
        .stdout_is("/.env=dot\n/empty/\n/src/\n/src/app.js=app\n/tmp/\n");
    list(&project, &["--seed", ".=/work"])
        .assert_ok()
        .stdout_is(
            "/tmp/\n/work/\n/work/.env=dot\n/work/empty/\n/work/src/\n/work/src/app.js=app\n",
        );
}

#[test]
fn file_targets_follow_the_directory_rules() {
    let project = Project::with("a.txt", "A");
    list(
        &project,
        &[
            "--seed",
            "a.txt",
            "--seed",
            "a.txt=/dir/",
            "--seed",
            "a.txt=/tmp",
            "--seed",
            "a.txt=/x/renamed.txt",
        ],
    )
    .assert_ok()
    .stdout_is("/a.txt=A\n/dir/\n/dir/a.txt=A\n/tmp/\n/tmp/a.txt=A\n/x/\n/x/renamed.txt=A\n");
}

#[test]
fn later_seeds_override_earlier_ones_in_command_line_order() {
    let project = Project::new();
    project.write("one/f.txt", "one");
    project.write("two/f.txt", "two");
    project.write(
        "cfg.json",
        r#"{"files":[{"path":"/f.txt","text":"config"}]}"#,
    );
    list(
        &project,
        &[
            "--seed",
            "one",
            "--seed-config",
            "cfg.json",
            "--copy-rw",
            "two",
        ],
    )
    .assert_ok()
    .stdout_is("/f.txt=two\n/tmp/\n");
    list(
        &project,
        &[
            "--copy-rw",
            "two",
            "--seed",
            "one",
            "--seed-config",
            "cfg.json",
        ],
    )
    .assert_ok()
    .stdout_is("/f.txt=config\n/tmp/\n");
}

#[test]
fn symlinks_are_refused_with_exit_2() {
    let project = Project::with("main.js", "console.log('ran')");
    project.write("real.txt", "r");
    symlink(project.join("real.txt"), project.join("link.txt")).unwrap();
    let run = project.goccia(&["run", "/main.js", "--seed", "main.js", "--seed", "link.txt"]);
    run.assert_code(2)
        .stderr_has("seed path is a symlink (not supported): link.txt");
    assert_eq!(run.stdout, "");

    let inside = Project::with("main.js", "console.log('ran')");
    inside.write("dir/ok.txt", "");
    symlink("/nowhere/at/all", inside.join("dir/dangling")).unwrap();
    inside
        .goccia(&["run", "/main.js", "--seed", "."])
        .assert_code(2)
        .stderr_has("seed path is a symlink (not supported): ./dir/dangling");
    inside
        .goccia(&["run", "/main.js", "--copy-rw", "."])
        .assert_code(2)
        .stderr_has("symlink");
}

#[test]
fn a_symlinked_ancestor_of_the_seed_path_is_followed() {
    let project = Project::with("real/main.js", "console.log('ran')");
    symlink(project.join("real"), project.join("alias")).unwrap();
    project
        .goccia(&["run", "/main.js", "--seed", "alias/main.js"])
        .assert_ok()
        .stdout_is("ran\n");
}

#[test]
fn a_missing_seed_path_exits_2() {
    Project::new()
        .goccia(&["run", "/main.js", "--seed", "nope"])
        .assert_code(2)
        .stderr_has("seed path does not exist: nope");
}

#[test]
fn seed_configs_take_all_three_forms_relative_to_their_folder() {
    let project = Project::new();
    project.write("conf/files/a.txt", "from-file");
    project.write(
        "conf/seed.json",
        r#"{"files":[{"from":"files/a.txt"},{"from":"files","to":"/copied"},
                      {"path":"/inline.txt","text":"text"},{"path":"/bin/b64.txt","base64":"aGk="}]}"#,
    );
    list(&project, &["--seed-config", "conf/seed.json"])
        .assert_ok()
        .stdout_is("/a.txt=from-file\n/bin/\n/bin/b64.txt=hi\n/copied/\n/copied/a.txt=from-file\n/inline.txt=text\n/tmp/\n");
}

#[test]
fn bad_seed_configs_exit_2_naming_the_entry() {
    let project = Project::with("main.js", "console.log('ran')");
    let cases = [
        ("{", "not valid JSON"),
        ("[]", "expected an object with a \"files\" array"),
        (
            r#"{"files":[{"from":"main.js"},{"path":"/x"}]}"#,
            "entry 1: needs exactly one of",
        ),
        (
            r#"{"files":[{"text":"t"}]}"#,
            "entry 0: \"path\" is required with \"text\"",
        ),
        (
            r#"{"files":[{"path":"/x","base64":"***"}]}"#,
            "entry 0: \"base64\" is not valid",
        ),
        (
            r#"{"files":[{"from":"nope.txt"}]}"#,
            "entry 0: seed path does not exist",
        ),
        (
            r#"{"files":[{"path":"/a\u0000b","text":""}]}"#,
            "entry 0: invalid sandbox path",
        ),
    ];
    for (config, message) in cases {
        project.write("bad.json", config);
        let run = project.goccia(&[
            "run",
            "/main.js",
            "--seed",
            ".",
            "--seed-config",
            "bad.json",
        ]);
        run.assert_code(2)
            .stderr_has(message)
            .stderr_has("bad.json");
        assert_eq!(run.stdout, "", "{config}: the guest must not run");
    }
    project
        .goccia(&["run", "/main.js", "--seed-config", "absent.json"])
        .assert_code(2)
        .stderr_has("cannot read seed config absent.json");
}

#[test]
fn seeding_counts_against_the_fs_quotas() {
    let project = Project::new();
    project.write("main.js", "console.log('ran')");
    project.write("big.txt", "x".repeat(2000));
    project
        .goccia(&["run", "/main.js", "--seed", ".", "--fs-quota-bytes", "1k"])
        .assert_code(2)
        .stderr_has("quota");
    project
        .goccia(&["run", "/main.js", "--seed", ".", "--fs-node-limit", "2"])
        .assert_code(2)
        .stderr_has("--fs-node-limit");
}

#[test]
fn sandbox_paths_normalise_and_never_climb_above_the_root() {
    let project = Project::with("f.txt", "F");
    list(&project, &["--seed", "f.txt=/../../a/./b//../c.txt"])
        .assert_ok()
        .stdout_is("/a/\n/a/c.txt=F\n/tmp/\n");
}
