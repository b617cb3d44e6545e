//! The seccomp allow-list: the system calls the runtime (Rust's standard
//! library, glibc's allocator and threads, QuickJS) makes on descriptors
//! and memory it already holds. Everything else fails with `EPERM`:
//! nothing can open a path, make a socket, execute a program or start a
//! process. Pipes may be made and their ends sent over a socket the
//! process already holds (for host commands run by the parent). Threads
//! are allowed (`clone` with `CLONE_THREAD` only);
//! `clone3`, whose flags a filter cannot read, fails with `ENOSYS` so that
//! glibc falls back to `clone`. No mapping may be executable: QuickJS
//! interprets, it never generates code.

#[cfg(target_os = "linux")]
pub use linux::filters;

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::BTreeMap;

    use seccompiler::{
        BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
        SeccompRule, TargetArch,
    };

    /// Allowed whatever their arguments.
    const PLAIN: &[i64] = &[
        libc::SYS_read,
        libc::SYS_write,
        libc::SYS_readv,
        libc::SYS_writev,
        libc::SYS_close,
        libc::SYS_fstat,
        libc::SYS_lseek,
        libc::SYS_brk,
        libc::SYS_munmap,
        libc::SYS_mremap,
        libc::SYS_madvise,
        libc::SYS_futex,
        libc::SYS_sched_yield,
        libc::SYS_sched_getaffinity,
        libc::SYS_nanosleep,
        libc::SYS_clock_nanosleep,
        libc::SYS_clock_gettime,
        libc::SYS_clock_getres,
        libc::SYS_gettimeofday,
        libc::SYS_getrandom,
        libc::SYS_gettid,
        libc::SYS_getpid,
        libc::SYS_rt_sigaction,
        libc::SYS_rt_sigprocmask,
        libc::SYS_rt_sigreturn,
        libc::SYS_sigaltstack,
        libc::SYS_set_robust_list,
        libc::SYS_rseq,
        libc::SYS_set_tid_address,
        libc::SYS_restart_syscall,
        libc::SYS_exit,
        libc::SYS_exit_group,
        // Pipes for host commands the parent runs, whose ends go over the
        // socket the parent gave (no socket can be made: `socket` is
        // refused).
        libc::SYS_pipe2,
        libc::SYS_sendmsg,
        // Refused by the first filter (ENOSYS); listed so this one lets
        // that answer through.
        libc::SYS_clone3,
    ];

    fn arch() -> TargetArch {
        #[cfg(target_arch = "x86_64")]
        return TargetArch::x86_64;
        #[cfg(target_arch = "aarch64")]
        return TargetArch::aarch64;
        #[cfg(target_arch = "riscv64")]
        return TargetArch::riscv64;
    }

    fn condition(arg: u8, op: SeccompCmpOp, value: u64) -> SeccompCondition {
        SeccompCondition::new(arg, SeccompCmpArgLen::Qword, op, value).expect("a valid condition")
    }

    fn rule(conditions: Vec<SeccompCondition>) -> SeccompRule {
        SeccompRule::new(conditions).expect("a valid rule")
    }

    /// The two filters, in the order to install them: the first answers
    /// `clone3` with `ENOSYS`; the second is the allow-list. `pid` is the
    /// process's own id (signals may go to its own threads only).
    pub fn filters(pid: u32) -> Result<[BpfProgram; 2], seccompiler::BackendError> {
        let mut clone3 = BTreeMap::new();
        clone3.insert(libc::SYS_clone3, Vec::new());
        let first = SeccompFilter::new(
            clone3,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::ENOSYS as u32),
            arch(),
        )?;

        let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
        for call in PLAIN {
            rules.insert(*call, Vec::new());
        }
        let not_executable = || {
            vec![rule(vec![condition(
                2,
                SeccompCmpOp::MaskedEq(libc::PROT_EXEC as u64),
                0,
            )])]
        };
        rules.insert(libc::SYS_mmap, not_executable());
        rules.insert(libc::SYS_mprotect, not_executable());
        let thread = libc::CLONE_THREAD as u64;
        rules.insert(
            libc::SYS_clone,
            vec![rule(vec![condition(
                0,
                SeccompCmpOp::MaskedEq(thread),
                thread,
            )])],
        );
        rules.insert(
            libc::SYS_prctl,
            [libc::PR_SET_NAME, libc::PR_GET_NAME]
                .into_iter()
                .map(|option| rule(vec![condition(0, SeccompCmpOp::Eq, option as u64)]))
                .collect(),
        );
        rules.insert(
            libc::SYS_tgkill,
            vec![rule(vec![condition(0, SeccompCmpOp::Eq, u64::from(pid))])],
        );
        let second = SeccompFilter::new(
            rules,
            SeccompAction::Errno(libc::EPERM as u32),
            SeccompAction::Allow,
            arch(),
        )?;
        Ok([first.try_into()?, second.try_into()?])
    }

    #[cfg(test)]
    mod tests {
        #[test]
        fn the_filters_compile() {
            let [first, second] = super::filters(std::process::id()).unwrap();
            assert!(!first.is_empty() && second.len() > first.len());
        }
    }
}
