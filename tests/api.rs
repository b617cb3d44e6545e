//! The embedding API, test for test beside the CLI's end-to-end suite
//! (`tests/e2e/`): the same behaviours through `goccia::Sandbox` instead
//! of the binary, so both faces stay in step.

#[path = "api/calls.rs"]
mod calls;
#[path = "api/diff.rs"]
mod diff;
#[path = "api/limits.rs"]
mod limits;
#[path = "api/merge.rs"]
mod merge;
#[path = "api/nested.rs"]
mod nested;
#[path = "api/network.rs"]
mod network;
#[path = "api/policy.rs"]
mod policy;
#[path = "api/run.rs"]
mod run;
#[path = "api/saved.rs"]
mod saved;
#[path = "api/seeding.rs"]
mod seeding;
#[path = "api/session.rs"]
mod session;
#[path = "api/shell.rs"]
mod shell;
#[path = "api/snapshots.rs"]
mod snapshots;
#[path = "api/spec.rs"]
mod spec;
#[path = "api/write_back.rs"]
mod write_back;

/// A sandbox holding `/main.js` with `source`.
pub fn script(source: &str) -> goccia::Sandbox {
    goccia::Sandbox::builder()
        .file("/main.js", source.to_string())
        .build()
        .expect("sandbox")
}
