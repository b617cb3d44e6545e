//! Background jobs (`cmd &`). goccia runs a background job to its end
//! when it starts, in a subshell of its own (so it changes nothing of the
//! parent, as a forked process would), and keeps its status here until
//! `wait` collects it: `$!`, `wait` (all, ids, `%` job specs, `-n`),
//! `jobs` and `kill` read this table, which subshells copy (`jobs | wc -l`
//! counts the parent's jobs, as in bash). Running jobs one at a time keeps
//! a sandbox's output and effects deterministic; what it cannot give is a
//! job that is still running when the parent signals it (the README says
//! so).
//!
//! `wait -n` answers with the job that would have finished first had the
//! jobs run side by side: each job's finishing time is counted on the
//! parent's clock, as when it was started plus how long it ran, leaving
//! out the time the parent spent running earlier jobs.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// A finished background job not yet collected by `wait`.
#[derive(Clone, Debug)]
pub(crate) struct Job {
    /// Its job number (`%1`).
    pub number: usize,
    /// Its process id (`$!`).
    pub pid: u64,
    /// Its command as `jobs` shows it.
    pub command: String,
    /// Its exit status.
    pub status: i32,
    /// When it would have finished on the parent's clock.
    finished: Instant,
}

/// The job table of one shell.
#[derive(Clone, Debug, Default)]
pub(crate) struct Jobs {
    /// Jobs not yet collected, oldest first.
    active: Vec<Job>,
    /// Statuses of collected jobs by process id (bash answers `wait` on
    /// an id it already collected with the saved status).
    collected: BTreeMap<u64, i32>,
    /// Time the parent spent running jobs (left out of its clock).
    spent: Duration,
}

/// What a job spec or id names.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    /// A job not yet collected (its index in the table).
    Active(usize),
    /// A job collected earlier, with its status.
    Collected(i32),
    /// `%spec` naming no job.
    NoSuchJob,
    /// A number that is no child of this shell.
    NotAChild,
    /// Neither a number nor a `%` spec.
    Invalid,
}

impl Jobs {
    /// Records a job that started at `started` and has just ended.
    pub fn record(&mut self, pid: u64, command: String, status: i32, started: Instant) {
        let ran = started.elapsed();
        let parent_clock = started.checked_sub(self.spent).unwrap_or(started);
        self.spent += ran;
        let number = self.active.last().map_or(1, |job| job.number + 1);
        self.active.push(Job {
            number,
            pid,
            command,
            status,
            finished: parent_clock + ran,
        });
    }

    /// The jobs not yet collected, oldest first.
    pub fn active(&self) -> &[Job] {
        &self.active
    }

    /// What `spec` (`%1`, `%+`, `%-`, `%name`, `%?text`, or a pid) names.
    pub fn lookup(&self, spec: &str) -> Lookup {
        if let Some(spec) = spec.strip_prefix('%') {
            let found = match spec {
                "" | "%" | "+" => self.active.len().checked_sub(1),
                "-" => self.active.len().checked_sub(2),
                _ => match spec.parse::<usize>() {
                    Ok(number) => self.active.iter().position(|job| job.number == number),
                    Err(_) => match spec.strip_prefix('?') {
                        Some(text) => self.active.iter().position(|j| j.command.contains(text)),
                        None => self.active.iter().position(|j| j.command.starts_with(spec)),
                    },
                },
            };
            return found.map_or(Lookup::NoSuchJob, Lookup::Active);
        }
        let Ok(pid) = spec.parse::<u64>() else {
            return Lookup::Invalid;
        };
        if let Some(index) = self.active.iter().position(|job| job.pid == pid) {
            return Lookup::Active(index);
        }
        self.collected
            .get(&pid)
            .map_or(Lookup::NotAChild, |status| Lookup::Collected(*status))
    }

    /// Collects the job at `index`, giving its status.
    pub fn collect(&mut self, index: usize) -> i32 {
        let job = self.active.remove(index);
        self.collected.insert(job.pid, job.status);
        job.status
    }

    /// Collects every job.
    pub fn collect_all(&mut self) {
        while !self.active.is_empty() {
            self.collect(0);
        }
    }

    /// The index of the job among `among` that finished first.
    pub fn first_finished(&self, among: &[usize]) -> Option<usize> {
        among
            .iter()
            .copied()
            .min_by_key(|&index| self.active[index].finished)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Jobs {
        let mut jobs = Jobs::default();
        let now = Instant::now();
        jobs.record(10, "sleep 1".into(), 3, now);
        jobs.record(11, "echo hi | cat".into(), 0, now);
        jobs
    }

    #[test]
    fn specs_name_jobs() {
        let jobs = table();
        assert_eq!(jobs.lookup("%1"), Lookup::Active(0));
        assert_eq!(jobs.lookup("%+"), Lookup::Active(1));
        assert_eq!(jobs.lookup("%%"), Lookup::Active(1));
        assert_eq!(jobs.lookup("%-"), Lookup::Active(0));
        assert_eq!(jobs.lookup("%echo"), Lookup::Active(1));
        assert_eq!(jobs.lookup("%?cat"), Lookup::Active(1));
        assert_eq!(jobs.lookup("%3"), Lookup::NoSuchJob);
        assert_eq!(jobs.lookup("11"), Lookup::Active(1));
        assert_eq!(jobs.lookup("12"), Lookup::NotAChild);
        assert_eq!(jobs.lookup("x"), Lookup::Invalid);
    }

    #[test]
    fn a_collected_job_keeps_its_status() {
        let mut jobs = table();
        assert_eq!(jobs.collect(0), 3);
        assert_eq!(jobs.lookup("10"), Lookup::Collected(3));
        assert_eq!(jobs.lookup("%1"), Lookup::NoSuchJob);
        // Numbers continue from the last job still in the table.
        jobs.record(12, "true".into(), 0, Instant::now());
        assert_eq!(jobs.active()[1].number, 3);
    }
}
