//! Confinement from the inside: this binary re-runs itself as a child
//! that confines itself (while single-threaded, as a worker does) and then
//! makes the raw system calls a hostile guest would want — open a host
//! file, connect to a loopback port, fork, exec — printing how each
//! failed. The parent checks every answer. A run with some layers left
//! out checks that the report says so and that the rest still hold.

use std::process::Command;

use goccia_confine::{Enforcement, Layer, LayerStatus, Plan, confine_current_process};

fn child(leave_out: &[Layer]) {
    let report = confine_current_process(&Plan {
        address_space: Some(4 << 30),
        open_files: 16,
        leave_out: leave_out.to_vec(),
    });
    for (layer, status) in &report.layers {
        let status = match status {
            LayerStatus::Enforced => "enforced".to_string(),
            LayerStatus::Unavailable { reason } => format!("unavailable: {reason}"),
        };
        println!("layer {layer} {status}");
    }
    println!("enforcement {}", report.enforcement().as_str());
    let file = std::fs::read("/etc/hostname").map_err(|e| e.raw_os_error());
    println!("open {:?}", file.map(|_| ()));
    println!("connect {:?}", goccia_confine::check::connect_loopback());
    println!("fork {:?}", goccia_confine::check::fork());
    println!("exec {:?}", goccia_confine::check::exec());
    let thread = std::thread::spawn(|| 6 * 7).join();
    println!("thread {:?}", thread.ok());
    let status = std::fs::read_to_string("/proc/self/status").map_err(|e| e.raw_os_error());
    println!("proc {:?}", status.map(|_| ()));
}

fn parent() {
    let me = std::env::current_exe().unwrap();
    let run = |leave_out: &str| {
        let output = Command::new(&me)
            .args(["--child", leave_out])
            .output()
            .unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap()
    };

    let all = run("");
    println!("{all}");
    for layer in Layer::ALL {
        assert!(
            all.contains(&format!("layer {layer} enforced")),
            "{layer} did not hold:\n{all}"
        );
    }
    assert!(all.contains("enforcement full"), "{all}");
    let eperm = libc::EPERM;
    assert!(all.contains(&format!("open Err(Some({eperm}))")), "{all}");
    assert!(all.contains(&format!("connect Some({eperm})")), "{all}");
    assert!(all.contains(&format!("fork Some({eperm})")), "{all}");
    assert!(all.contains(&format!("exec Some({eperm})")), "{all}");
    assert!(
        all.contains("thread Some(42)"),
        "threads must still start:\n{all}"
    );
    assert!(all.contains(&format!("proc Err(Some({eperm}))")), "{all}");

    // Without seccomp, Landlock alone still refuses the file and the
    // socket (EACCES), but the verdict is that nothing may run.
    let landlock_only = run("seccomp");
    println!("{landlock_only}");
    assert!(landlock_only.contains("layer seccomp unavailable: left out by the host"));
    assert!(
        landlock_only.contains("enforcement unavailable"),
        "{landlock_only}"
    );
    let eacces = libc::EACCES;
    assert!(
        landlock_only.contains(&format!("open Err(Some({eacces}))")),
        "{landlock_only}"
    );
    assert!(
        landlock_only.contains(&format!("connect Some({eacces})")),
        "{landlock_only}"
    );

    // Without the namespaces the verdict is partial; seccomp still holds.
    let partial = run("user-namespace,network-namespace,ipc-namespace");
    println!("{partial}");
    assert!(partial.contains("enforcement partial"), "{partial}");
    assert!(
        partial.contains(&format!("exec Some({eperm})")),
        "{partial}"
    );
    let _ = Enforcement::Full;
    println!("confined: every check passed");
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("--child") {
        let leave_out: Vec<Layer> = args
            .get(2)
            .map(|names| names.split(',').filter_map(Layer::parse).collect())
            .unwrap_or_default();
        child(&leave_out);
        return;
    }
    // `cargo test` passes its own flags (--quiet, filters): ignored.
    parent();
}
