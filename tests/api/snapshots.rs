//! Snapshots hold the shell session's state with the tree, and fork
//! (docs/vfs.md, "Snapshots"): every kind of state round-trips, reading it
//! changes nothing, forks are independent, and the list says where each
//! snapshot came from.

use goccia::Sandbox;

/// Sets one of each kind of state the session keeps.
pub const STATE: &str = r#"
mkdir -p /work/a "/work/b c"
plain=1; export EXPORTED="two words"; declare -i counted=5
list=(a "b c"); declare -A map=([k]=v)
greet() { echo "hello $1"; }
alias ll='echo listed'
set -o pipefail; shopt -s nullglob
trap 'echo trapped' USR1
cd /work; pushd /work/a >/dev/null; pushd "/work/b c" >/dev/null
"#;

/// Prints each kind of state, one line each.
pub const SHOW: &str = r#"
shopt -s expand_aliases
echo "plain=$plain exported=$EXPORTED counted=$((counted + 1))"
echo "list=${list[1]} map=${map[k]}"
greet there
ll
set -o | grep -E '^pipefail' | tr -s ' \t' ' '
shopt nullglob | tr -s ' \t' ' '
trap -p USR1
dirs -l -p | tr '\n' ':'; echo
pwd
"#;

fn shown(sandbox: &Sandbox) -> String {
    sandbox.run_shell(SHOW).unwrap().stdout_text().to_string()
}

#[test]
fn the_shell_sessions_state_round_trips_through_a_snapshot() {
    let sandbox = Sandbox::builder().build().unwrap();
    sandbox.run_shell(STATE).unwrap();
    let before = shown(&sandbox);
    assert_eq!(
        before,
        "plain=1 exported=two words counted=6\nlist=b c map=v\nhello there\nlisted\npipefail on\nnullglob on\ntrap -- 'echo trapped' SIGUSR1\n/work/b c:/work/a:/work:\n/work/b c\n"
    );
    sandbox.run_shell("false").unwrap();
    let id = sandbox.snapshot().unwrap();
    // Reading the state changed nothing: not even `$?`.
    assert_eq!(sandbox.run_shell("echo $?").unwrap().stdout_text(), "1\n");
    // Everything changed, then put back.
    sandbox
        .run_shell(
            "unset plain list; EXPORTED=other; greet() { echo changed; }; unalias ll; alias extra=true; \
             set +o pipefail; shopt -u nullglob; trap - USR1; dirs -c; cd /; newvar=1",
        )
        .unwrap();
    assert_ne!(shown(&sandbox), before);
    sandbox.restore(id).unwrap();
    assert_eq!(shown(&sandbox), before);
    let gone = sandbox
        .run_shell("echo \"[$newvar]\"; alias extra 2>/dev/null || echo no-alias")
        .unwrap();
    assert_eq!(gone.stdout_text(), "[]\nno-alias\n");
}

#[test]
fn forks_share_the_state_and_go_their_own_ways() {
    let parent = Sandbox::builder().file("/w/a.txt", "a\n").build().unwrap();
    parent.run_shell("cd /w; STAGE=forked").unwrap();
    let id = parent
        .snapshot_labeled(Some("before the attempts"))
        .unwrap();
    let forks = parent.fork(Some(id), 3).unwrap();
    for (n, fork) in forks.iter().enumerate() {
        let run = fork
            .run_shell(&format!("echo \"$STAGE $(pwd)\"; echo {n} >> a.txt"))
            .unwrap();
        assert_eq!(run.stdout_text(), "forked /w\n");
    }
    for (n, fork) in forks.iter().enumerate() {
        assert_eq!(
            &fork.read("/w/a.txt").unwrap()[..],
            format!("a\n{n}\n").as_bytes()
        );
        // Its diff is against the seeds, as the parent's is.
        assert_eq!(fork.changes().len(), 1);
    }
    assert_eq!(&parent.read("/w/a.txt").unwrap()[..], b"a\n");
    parent.merge(&forks[1]).unwrap();
    assert_eq!(&parent.read("/w/a.txt").unwrap()[..], b"a\n1\n");
    // Without an id: the state as it is now.
    parent.run_shell("STAGE=now").unwrap();
    let now = parent.fork(None, 1).unwrap();
    assert_eq!(
        now[0].run_shell("echo $STAGE").unwrap().stdout_text(),
        "now\n"
    );
    assert!(
        parent
            .fork(Some(goccia::SnapshotId::from_index(9)), 1)
            .is_err()
    );
}

#[test]
fn one_call_makes_at_most_as_many_forks_as_the_snapshot_limit() {
    let sandbox = Sandbox::builder()
        .limits(goccia::Limits::default().max_snapshots(4))
        .build()
        .unwrap();
    assert_eq!(sandbox.fork(None, 4).unwrap().len(), 4);
    let error = sandbox.fork(None, 5).unwrap_err();
    assert_eq!(error, goccia::ForkError::Count { asked: 5, limit: 4 });
    assert_eq!(
        error.to_string(),
        "fork limit of 4 reached: 5 forks were asked for in one call"
    );
    assert_eq!(
        goccia::Error::from(error).code(),
        "ERR_GOCCIA_SNAPSHOT_LIMIT"
    );
}

#[test]
fn the_list_says_where_each_snapshot_came_from() {
    let sandbox = Sandbox::builder().file("/a", "12345").build().unwrap();
    let first = sandbox.snapshot_labeled(Some("seeded")).unwrap();
    sandbox.run_shell("echo more >> /a").unwrap();
    let second = sandbox.snapshot().unwrap();
    sandbox.restore(first).unwrap();
    let third = sandbox.snapshot_labeled(Some("again")).unwrap();
    let list = sandbox.snapshots();
    let summary: Vec<_> = list
        .iter()
        .map(|s| {
            (
                s.id,
                s.parent,
                s.label.as_deref(),
                s.bytes,
                s.has_shell_state,
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (first, None, Some("seeded"), 5, false),
            (second, Some(first), None, 10, true),
            (third, Some(first), Some("again"), 5, true),
        ]
    );
}

#[test]
fn a_snapshot_without_a_session_leaves_the_session_as_it_is() {
    let sandbox = Sandbox::builder().build().unwrap();
    let id = sandbox.snapshot().unwrap();
    sandbox.run_shell("KEPT=1").unwrap();
    sandbox.restore(id).unwrap();
    assert_eq!(
        sandbox.run_shell("echo $KEPT").unwrap().stdout_text(),
        "1\n"
    );
}
