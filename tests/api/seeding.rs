//! Mirrors `e2e/seeding.rs`: what the builder puts in, and what it refuses.

use goccia::{Limits, NodeType, Sandbox, SetupError};

fn host_project() -> tempfile::TempDir {
    let host = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(host.path().join("src/empty")).unwrap();
    std::fs::write(host.path().join("src/.hidden"), "dot").unwrap();
    std::fs::write(host.path().join("src/main.js"), "main").unwrap();
    host
}

#[test]
fn a_folder_copies_its_contents_with_dotfiles_and_empty_folders() {
    let host = host_project();
    let sandbox = Sandbox::builder()
        .seed(host.path().join("src"), Some("/work"))
        .build()
        .unwrap();
    let names: Vec<_> = sandbox
        .list("/work")
        .unwrap()
        .into_iter()
        .map(|entry| (entry.name, entry.node_type))
        .collect();
    assert_eq!(
        names,
        [
            (".hidden".to_string(), NodeType::File),
            ("empty".to_string(), NodeType::Directory),
            ("main.js".to_string(), NodeType::File),
        ]
    );
}

#[test]
fn later_seeds_override_earlier_ones_in_order() {
    let host = host_project();
    let sandbox = Sandbox::builder()
        .seed(host.path().join("src"), None)
        .file("/main.js", "inline wins")
        .build()
        .unwrap();
    assert_eq!(&sandbox.read("/main.js").unwrap()[..], b"inline wins");
}

#[test]
fn a_seed_is_a_copy_not_a_mount() {
    let host = host_project();
    let sandbox = Sandbox::builder().seed(host.path(), None).build().unwrap();
    std::fs::write(host.path().join("src/main.js"), "changed on the host").unwrap();
    assert_eq!(&sandbox.read("/src/main.js").unwrap()[..], b"main");
}

#[test]
fn symlinks_and_missing_paths_are_refused_naming_them() {
    let host = host_project();
    std::os::unix::fs::symlink("/etc/passwd", host.path().join("src/link")).unwrap();
    let error = Sandbox::builder()
        .seed(host.path(), None)
        .build()
        .unwrap_err();
    assert!(matches!(error, SetupError::Seed(_)));
    assert!(error.to_string().contains("link"), "{error}");

    let missing = host.path().join("absent");
    let error = Sandbox::builder().seed(&missing, None).build().unwrap_err();
    assert!(error.to_string().contains("absent"), "{error}");
}

#[test]
fn seed_configs_take_every_form_and_bad_ones_name_the_entry() {
    let host = host_project();
    let config = host.path().join("seeds.json");
    std::fs::write(
        &config,
        r#"{"files":[{"from":"src/main.js","to":"/m.js"},{"path":"/t.txt","text":"T"},{"path":"/b.bin","base64":"AAE="}]}"#,
    )
    .unwrap();
    let sandbox = Sandbox::builder().seed_config(&config).build().unwrap();
    assert_eq!(&sandbox.read("/m.js").unwrap()[..], b"main");
    assert_eq!(&sandbox.read("/t.txt").unwrap()[..], b"T");
    assert_eq!(&sandbox.read("/b.bin").unwrap()[..], [0, 1]);

    std::fs::write(
        &config,
        r#"{"files":[{"path":"/ok","text":""},{"path":"/x"}]}"#,
    )
    .unwrap();
    let error = Sandbox::builder().seed_config(&config).build().unwrap_err();
    assert!(matches!(error, SetupError::Config { .. }));
    assert!(error.to_string().contains("entry 1"), "{error}");

    let error = Sandbox::builder()
        .seed_config(host.path().join("none.json"))
        .build()
        .unwrap_err();
    assert!(matches!(error, SetupError::ConfigUnreadable { .. }));
}

#[test]
fn seeding_counts_against_the_quotas() {
    let error = Sandbox::builder()
        .limits(Limits::default().fs_quota_bytes(3))
        .file("/big", "four")
        .build()
        .unwrap_err();
    assert!(error.to_string().contains("quota"), "{error}");
}

#[test]
fn sandbox_paths_normalise_and_never_climb_above_the_root() {
    let sandbox = Sandbox::builder()
        .file("/a/../b/./c.txt", "c")
        .build()
        .unwrap();
    assert_eq!(&sandbox.read("/b/c.txt").unwrap()[..], b"c");
    assert_eq!(&sandbox.read("/../../b/c.txt").unwrap()[..], b"c");
    let error = Sandbox::builder().file("/nul\0", "").build().unwrap_err();
    // Refused by the spec's one validation, naming the seed.
    assert!(
        matches!(&error, SetupError::Spec(spec) if spec.setting == "seeds[0]"),
        "{error}"
    );
    assert!(error.to_string().contains("NUL"), "{error}");
}
