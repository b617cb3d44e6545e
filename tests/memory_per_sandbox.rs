//! Host memory is accounted per sandbox (docs/calls.md): with the counting
//! allocator installed, one sandbox allocating hard never stops another
//! that runs at the same time. (Its own test binary: the allocator is
//! process-wide.)

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use goccia::{Limits, Sandbox};

#[global_allocator]
static ALLOCATOR: goccia::host_memory::Counting = goccia::host_memory::Counting;

#[test]
fn a_sandbox_allocating_hard_never_stops_another() {
    let hungry = Sandbox::builder().build().unwrap();
    let small = Sandbox::builder()
        .limits(
            Limits::default()
                .max_memory(64 << 20)
                .fs_quota_bytes(1 << 20),
        )
        .build()
        .unwrap();
    let done = AtomicBool::new(false);
    let hungry_rounds = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            // However this thread ends, the other loop ends too.
            let _stop = StopOnDrop(&done);
            while !done.load(Ordering::Relaxed) {
                let run = hungry
                    .run_shell("head -c 300000000 /dev/zero > /big; wc -c < /big; rm /big")
                    .unwrap();
                assert!(run.success(), "{}", run.stderr_text());
                assert_eq!(run.stdout_text(), "300000000\n");
                hungry_rounds.fetch_add(1, Ordering::Relaxed);
            }
        });
        let _stop = StopOnDrop(&done);
        // The small sandbox runs while the other holds up to 300 MB (it
        // stopped with exit 3 when the ceiling was process-wide).
        while hungry_rounds.load(Ordering::Relaxed) < 2 && !done.load(Ordering::Relaxed) {
            let run = small
                .run_shell(
                    "i=0; s=; while [ $i -lt 2000 ]; do i=$((i+1)); s=$s$i; done; echo ${#s}",
                )
                .unwrap();
            assert!(run.success(), "{}", run.stderr_text());
            assert_eq!(run.stdout_text(), "6893\n");
        }
    });
    assert!(hungry_rounds.load(Ordering::Relaxed) >= 2);
    // Its own work is still bounded: past its allowance, it stops.
    let run = small
        .run_shell("x=$(head -c 50000000 /dev/zero | tr '\\0' a); s=$x$x$x; echo ${#s}")
        .unwrap();
    assert_eq!(run.exit_code, 3, "{}", run.stderr_text());
}

/// Sets the flag when dropped, also while unwinding from a failed assertion.
struct StopOnDrop<'a>(&'a AtomicBool);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
