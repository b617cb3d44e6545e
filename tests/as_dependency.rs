//! The library is a dependency like any other (README.md): a crate
//! outside this workspace depends on it by path, with no `[patch]` section,
//! and builds and runs; the command line's crates (clap, rustyline, ctrlc;
//! the binary is its own package, `cli/`) are not in its dependency tree.

use std::path::{Path, PathBuf};
use std::process::Command;

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

fn cargo(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO"))
        .args(args)
        .current_dir(dir)
        // Shares the workspace's build: only the throwaway crate compiles.
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("cargo runs")
}

#[test]
fn a_crate_outside_the_workspace_builds_on_the_library_alone() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = tempfile::tempdir().unwrap();
    let manifest = format!(
        "[package]\nname = \"uses-goccia\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\n\
         [dependencies]\ngoccia = {{ path = {:?} }}\n\n\
         # A workspace of its own: nothing of goccia's workspace applies.\n[workspace]\n",
        repo.display().to_string()
    );
    std::fs::write(dir.path().join("Cargo.toml"), manifest).unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(
        dir.path().join("src/main.rs"),
        "fn main() {\n\
         let sandbox = goccia::Sandbox::builder().file(\"/a.txt\", \"from a dependency\\n\").build().unwrap();\n\
         let run = sandbox.run_shell(\"cat /a.txt | tr a-z A-Z\").unwrap();\n\
         print!(\"{}\", run.stdout_text());\n}\n",
    )
    .unwrap();
    // The same versions as the workspace, from the local registry cache.
    std::fs::copy(repo.join("Cargo.lock"), dir.path().join("Cargo.lock")).unwrap();

    let run = cargo(dir.path(), &["run", "--offline", "--quiet"]);
    assert!(
        run.status.success(),
        "the dependent crate builds: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&run.stdout), "FROM A DEPENDENCY\n");

    let tree = cargo(dir.path(), &["tree", "--offline", "-e", "normal"]);
    let tree = String::from_utf8_lossy(&tree.stdout);
    assert!(tree.contains("goccia v"), "{tree}");
    for cli_only in ["clap", "rustyline", "ctrlc"] {
        assert!(
            !tree.contains(&format!("{cli_only} v")),
            "{cli_only} is in the library's tree:\n{tree}"
        );
    }
}
