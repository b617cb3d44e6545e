//! A sandbox's host commands (docs/host-commands.md) as reports show them: the
//! programs, and what confines them or why nothing can.

use serde::Serialize;

use crate::Sandbox;

/// Removes the host folders this process materialized sandboxes into for
/// host commands (each also goes when its sandbox is dropped). For a
/// program about to exit — `std::process::exit` runs no destructor — or
/// handling a termination signal; host commands of a sandbox still in use
/// fail afterwards.
pub fn remove_scratch_trees() {
    goccia_host_commands::remove_all_scratch();
}

/// `{programs, backend, enforcement, layers, missing, unavailable}`: the
/// host commands and what confines them.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HostCommandsSummary {
    /// Each program's name and host path.
    pub programs: Vec<(String, String)>,
    /// `bwrap`, or `null` when confinement cannot be had.
    pub backend: Option<&'static str>,
    /// `full`, `partial` or `unavailable`.
    pub enforcement: &'static str,
    /// The layers in force.
    pub layers: Vec<&'static str>,
    /// The layers not in force, with why.
    pub missing: Vec<(&'static str, String)>,
    /// Why host commands fail (status 126), when they do.
    pub unavailable: Option<String>,
}

impl Sandbox {
    /// The host commands' confinement, when the sandbox has host commands:
    /// the backend and its layers, or why it is unavailable (probed on
    /// first use).
    pub fn host_commands(&self) -> Option<HostCommandsSummary> {
        let runner = self.host.as_ref()?;
        let programs = runner
            .programs()
            .iter()
            .map(|program| (program.name.clone(), program.path.display().to_string()))
            .collect();
        Some(match runner.backend() {
            Ok(backend) => HostCommandsSummary {
                programs,
                backend: Some(backend.name),
                enforcement: backend.enforcement,
                layers: backend.layers,
                missing: backend.missing,
                unavailable: None,
            },
            Err(why) => HostCommandsSummary {
                programs,
                backend: None,
                enforcement: "unavailable",
                layers: Vec::new(),
                missing: Vec::new(),
                unavailable: Some(why),
            },
        })
    }
}
