//! `chown` and `chgrp` where no oracle applies: the sandbox user owns every
//! file and every name is that user (docs/shell.md, "Owners"), so a name is
//! "retained", a number other than 1000 is reported as GNU reports a change
//! on a file system that keeps no owners, and nothing is ever changed.
//! (What GNU and goccia share is in the differential cases, `verbose.rs`.)

#[path = "support/run.rs"]
mod run;

fn shell(script: &str) -> (String, i32) {
    let ran = run::run(script);
    (ran.stdout, ran.status.expect("the script ends"))
}

#[test]
fn a_number_is_reported_changed_and_nothing_changes() {
    let (out, status) = shell(
        "touch f; chown -v 0 f; chown -v 0:0 f; chown -c 1000:1000 f; chgrp -v 50 f; \
         chown -c :7 f; ls -ln f | cut -d' ' -f3,4; stat -c '%U %G %u %g' f",
    );
    assert_eq!(status, 0);
    assert_eq!(
        out,
        "changed ownership of 'f' from user to 0\n\
         changed ownership of 'f' from user:user to 0:0\n\
         changed group of 'f' from user to 50\n\
         changed ownership of 'f' from user:user to :7\n\
         1000 1000\n\
         user user 1000 1000\n"
    );
}

#[test]
fn a_reference_file_gives_the_sandbox_users_ownership() {
    let (out, status) = shell("touch f g; chown -v --reference=g f; chgrp -v --reference=g f");
    assert_eq!(status, 0);
    assert_eq!(
        out,
        "ownership of 'f' retained as user:user\ngroup of 'f' retained as user\n"
    );
}

#[test]
fn from_skips_every_file_unless_it_names_the_sandbox_user() {
    let (out, _) = shell("touch f; chown -v --from=0 5 f; chown -c --from=bob 5 f");
    assert_eq!(
        out,
        "ownership of 'f' retained as 5\nchanged ownership of 'f' from user to 5\n"
    );
}

#[test]
fn without_a_report_flag_it_is_silent_and_succeeds() {
    let (out, status) = shell("mkdir -p d; touch d/x; chown -R 0 d && chgrp -R 0 d && echo ok");
    assert_eq!((out.as_str(), status), ("ok\n", 0));
}
