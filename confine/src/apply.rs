//! Applying the layers to the calling process, in an order where each
//! still has what it needs: namespaces (which need a single-threaded
//! process), resource limits, `no_new_privs`, Landlock, and seccomp last
//! (after it, not even Landlock's own system calls would pass). Each
//! layer is checked functionally before the next; the report says which
//! held.

use crate::report::{Layer, LayerStatus, Report};

/// What to apply.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// `RLIMIT_AS` in bytes (`None`: leave it).
    pub address_space: Option<u64>,
    /// `RLIMIT_NOFILE`: descriptors the process may hold (it needs only
    /// the ones it has; 0 leaves the limit as it is).
    pub open_files: u64,
    /// Layers the host leaves out on purpose (reported unavailable; the
    /// tests of partial enforcement and of refusal use it).
    pub leave_out: Vec<Layer>,
}

/// Confines the calling process as `plan` says and reports what held.
/// Call it first thing, while the process has one thread: namespaces
/// cannot be entered by a threaded process, and Landlock binds only the
/// calling thread (and the threads it starts later). Irreversible.
pub fn confine_current_process(plan: &Plan) -> Report {
    let mut report = Report::default();
    #[cfg(target_os = "linux")]
    linux::confine(plan, &mut report);
    #[cfg(not(target_os = "linux"))]
    for layer in Layer::ALL {
        let _ = plan;
        report.unavailable(layer, "confinement needs Linux");
    }
    report
}

impl Plan {
    fn leaves_out(&self, layer: Layer, report: &mut Report) -> bool {
        let out = self.leave_out.contains(&layer);
        if out {
            report.unavailable(layer, "left out by the host");
        }
        out
    }
}

#[cfg(target_os = "linux")]
mod linux {
    use super::*;
    use crate::check;

    pub fn confine(plan: &Plan, report: &mut Report) {
        let threads = std::fs::read_dir("/proc/self/task").map(|tasks| tasks.count());
        if let Ok(count) = threads
            && count > 1
        {
            for layer in Layer::ALL {
                report.unavailable(layer, format!("the process already runs {count} threads"));
            }
            return;
        }
        namespaces(plan, report);
        rlimits(plan, report);
        no_new_privs(plan, report);
        landlock(plan, report);
        seccomp(plan, report);
    }

    fn errno_text(errno: i32) -> String {
        std::io::Error::from_raw_os_error(errno).to_string()
    }

    /// The inode of `/proc/self/ns/<name>`: a namespace's identity.
    fn namespace_id(name: &str) -> Option<u64> {
        std::fs::metadata(format!("/proc/self/ns/{name}"))
            .ok()
            .map(|meta| std::os::unix::fs::MetadataExt::ino(&meta))
    }

    fn namespaces(plan: &Plan, report: &mut Report) {
        let wanted = [
            (Layer::UserNamespace, libc::CLONE_NEWUSER, "user"),
            (Layer::NetworkNamespace, libc::CLONE_NEWNET, "net"),
            (Layer::IpcNamespace, libc::CLONE_NEWIPC, "ipc"),
        ];
        let wanted: Vec<_> = wanted
            .into_iter()
            .filter(|(layer, _, _)| !plan.leaves_out(*layer, report))
            .collect();
        let before: Vec<_> = wanted
            .iter()
            .map(|(_, _, name)| namespace_id(name))
            .collect();
        let all = wanted.iter().fold(0, |flags, (_, flag, _)| flags | flag);
        // SAFETY: unshare takes flags only.
        let together = all == 0 || unsafe { libc::unshare(all) } == 0;
        for ((layer, flag, name), before) in wanted.iter().zip(before) {
            // One at a time when the kernel refused them together (a new
            // network namespace may be refused where a user one is not).
            // SAFETY: as above.
            if !together && unsafe { libc::unshare(*flag) } != 0 {
                let errno = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
                report.unavailable(*layer, format!("unshare refused: {}", errno_text(errno)));
                continue;
            }
            match (before, namespace_id(name)) {
                (Some(old), Some(new)) if old != new => report.set(*layer, LayerStatus::Enforced),
                (None, _) | (_, None) => {
                    report.unavailable(*layer, "the kernel has no such namespace")
                }
                _ => report.unavailable(*layer, "still in the host's namespace"),
            }
        }
    }

    fn rlimits(plan: &Plan, report: &mut Report) {
        if plan.leaves_out(Layer::Rlimits, report) {
            return;
        }
        let mut limits = vec![
            (libc::RLIMIT_FSIZE, 0, "file size"),
            (libc::RLIMIT_CORE, 0, "core size"),
        ];
        if let Some(bytes) = plan.address_space {
            limits.push((libc::RLIMIT_AS, bytes, "address space"));
        }
        if plan.open_files > 0 {
            limits.push((libc::RLIMIT_NOFILE, plan.open_files, "open files"));
        }
        for (resource, value, what) in limits {
            let wanted = libc::rlimit {
                rlim_cur: value as libc::rlim_t,
                rlim_max: value as libc::rlim_t,
            };
            // SAFETY: a valid rlimit structure.
            let set = unsafe { libc::setrlimit(resource, &wanted) };
            let mut now = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            // SAFETY: as above.
            let got = unsafe { libc::getrlimit(resource, &mut now) };
            if set != 0 || got != 0 || now.rlim_cur != wanted.rlim_cur {
                report.unavailable(Layer::Rlimits, format!("the {what} limit did not hold"));
                return;
            }
        }
        report.set(Layer::Rlimits, LayerStatus::Enforced);
    }

    fn no_new_privs(plan: &Plan, report: &mut Report) {
        if plan.leaves_out(Layer::NoNewPrivs, report) {
            return;
        }
        // SAFETY: prctl with integer arguments.
        let set = unsafe { libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) };
        // SAFETY: as above.
        let now = unsafe { libc::prctl(libc::PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) };
        if set == 0 && now == 1 {
            report.set(Layer::NoNewPrivs, LayerStatus::Enforced);
        } else {
            report.unavailable(Layer::NoNewPrivs, "prctl(PR_SET_NO_NEW_PRIVS) did not hold");
        }
    }

    fn landlock(plan: &Plan, report: &mut Report) {
        use landlock::{ABI, Access, AccessFs, AccessNet, Ruleset, RulesetAttr, Scope};
        let layers = [
            Layer::LandlockFilesystem,
            Layer::LandlockNetwork,
            Layer::LandlockScope,
        ];
        let wanted: Vec<Layer> = layers
            .into_iter()
            .filter(|layer| !plan.leaves_out(*layer, report))
            .collect();
        if wanted.is_empty() {
            return;
        }
        // The newest ABI this crate knows; the crate leaves out, best
        // effort, what the running kernel lacks, and the checks below say
        // what is really in force.
        let abi = ABI::V9;
        let mut ruleset = Ruleset::default();
        let built = (|| {
            if wanted.contains(&Layer::LandlockFilesystem) {
                ruleset = ruleset.handle_access(AccessFs::from_all(abi))?;
            }
            if wanted.contains(&Layer::LandlockNetwork) {
                ruleset = ruleset.handle_access(AccessNet::from_all(abi))?;
            }
            if wanted.contains(&Layer::LandlockScope) {
                ruleset = ruleset.scope(Scope::from_all(abi))?;
            }
            // No rule is added: every handled right is denied everywhere.
            ruleset.create()?.restrict_self()
        })();
        if let Err(error) = built {
            for layer in wanted {
                report.unavailable(layer, format!("Landlock refused the ruleset: {error}"));
            }
            return;
        }
        // SAFETY: getppid takes nothing.
        let parent = unsafe { libc::getppid() };
        for layer in wanted {
            let (outcome, expected, what) = match layer {
                Layer::LandlockFilesystem => (check::open_root(), libc::EACCES, "opening /"),
                Layer::LandlockNetwork => {
                    (check::connect_loopback(), libc::EACCES, "a TCP connect")
                }
                // SAFETY: signal 0 only checks permission.
                _ => (
                    check::errno_of(unsafe { libc::kill(parent, 0) }),
                    libc::EPERM,
                    "signalling the parent",
                ),
            };
            match outcome {
                Some(errno) if errno == expected => report.set(layer, LayerStatus::Enforced),
                Some(errno) => report.unavailable(
                    layer,
                    format!(
                        "the kernel lacks it ({what} failed otherwise: {})",
                        errno_text(errno)
                    ),
                ),
                None => {
                    report.unavailable(layer, format!("the kernel lacks it ({what} succeeded)"))
                }
            }
        }
    }

    fn seccomp(plan: &Plan, report: &mut Report) {
        if plan.leaves_out(Layer::Seccomp, report) {
            return;
        }
        let filters = match crate::syscalls::filters(std::process::id()) {
            Ok(filters) => filters,
            Err(error) => {
                report.unavailable(
                    Layer::Seccomp,
                    format!("the filter did not compile: {error}"),
                );
                return;
            }
        };
        for filter in &filters {
            if let Err(error) = seccompiler::apply_filter_all_threads(filter) {
                report.unavailable(
                    Layer::Seccomp,
                    format!("the kernel refused the filter: {error}"),
                );
                return;
            }
        }
        match (check::open_root(), check::connect_loopback()) {
            (Some(libc::EPERM), Some(libc::EPERM)) => {
                report.set(Layer::Seccomp, LayerStatus::Enforced)
            }
            _ => report.unavailable(Layer::Seccomp, "opening a path or a socket still worked"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_threaded_process_is_refused_every_layer() {
        // The test harness runs tests on threads of their own, so this
        // process has several: nothing may be applied, and nothing is.
        let _other = std::thread::spawn(|| std::thread::sleep(std::time::Duration::from_secs(1)));
        let report = confine_current_process(&Plan::default());
        for layer in Layer::ALL {
            let LayerStatus::Unavailable { reason } = report.status(layer) else {
                panic!("{layer} applied in a threaded process");
            };
            assert!(
                reason.contains("threads") || reason.contains("Linux"),
                "{reason}"
            );
        }
    }
}
