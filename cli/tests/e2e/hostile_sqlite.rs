//! Hostile SQL (issue 21): `sqlite3` runs SQLite in the process, so a
//! guest's database must stay inside the sandbox: no host files, the
//! deadline, the memory ceiling and the quota all hold.

use crate::common::*;
use crate::hostile_round2::hostile_shell;

/// SQLite could open host files (`ATTACH`, `VACUUM INTO`) or spill to
/// host folders; every way is refused and nothing appears on the host.
#[test]
fn sqlite_cannot_reach_host_files() {
    let host = tempfile::tempdir().unwrap();
    let target = host.path().join("escaped.db");
    let target = target.to_str().unwrap();
    let script = format!(
        "sqlite3 :memory: \"attach '{target}' as x\"; echo \"st $?\"; \
         sqlite3 :memory: \"create table t(a); vacuum into '{target}'\"; echo \"st $?\"; \
         sqlite3 :memory: 'pragma temp_store = file'; echo \"st $?\"; \
         sqlite3 :memory: \"pragma temp_store_directory = '/tmp'\"; echo \"st $?\"; \
         sqlite3 :memory: \"select load_extension('/usr/lib/x')\"; echo \"st $?\""
    );
    let run = Project::new().goccia(&["shell", "-c", &script]);
    assert_eq!(
        run.stdout, "st 1\nst 23\nst 1\nst 1\nst 1\n",
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("not authorized"), "{}", run.stderr);
    assert!(!host.path().join("escaped.db").exists());
}

/// A query that never ends stops at the deadline (a progress handler in
/// SQLite's virtual machine), with the timeout's exit code.
#[test]
fn a_runaway_sqlite_query_stops_at_the_deadline() {
    let stderr = hostile_shell(
        "sqlite3 :memory: 'with recursive c(x) as (select 1 union all select x+1 from c) select count(*) from c'",
        &["--timeout", "1000"],
        4,
        10,
        200,
    );
    assert!(stderr.contains("deadline"), "{stderr}");
}

/// SQLite's own allocations are the sandbox's: a sort past the memory
/// ceiling stops the run with the memory limit, not the host.
#[test]
fn sqlite_memory_counts_against_the_ceiling() {
    let stderr = hostile_shell(
        "sqlite3 :memory: 'select count(*) from (select x from (with recursive c(x) as (select randomblob(1000) union all select randomblob(1000) from c limit 1000000) select x from c) order by x)'",
        &["--max-memory", "64m", "--fs-quota-bytes", "10m"],
        3,
        30,
        400,
    );
    assert!(stderr.contains("host memory"), "{stderr}");
}

/// The database may not grow past what the file system may still hold.
#[test]
fn a_sqlite_database_cannot_outgrow_the_quota() {
    let run = Project::new().goccia(&[
        "shell",
        "--fs-quota-bytes",
        "2m",
        "-c",
        "sqlite3 /d.db 'create table t(x); insert into t select randomblob(10000) from (with recursive c(x) as (select 1 union all select x+1 from c limit 1000) select x from c)'; echo \"st $?\"; sqlite3 /d.db 'select count(*) from t'",
    ]);
    // The table was made; the insert that would not fit was rolled back.
    assert_eq!(run.stdout, "st 13\n0\n", "{}", run.stderr);
    assert!(
        run.stderr.contains("database or disk is full"),
        "{}",
        run.stderr
    );
}
