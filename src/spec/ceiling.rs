//! Whether one spec stays within another: a server's sessions (and a
//! parent's children) may only narrow what the host allowed (docs/spec.md,
//! "Ceilings").

use super::limits::LIMIT_NAMES;
use super::{Approve, IsolationMode, SandboxSpec};
use goccia_vfs::PolicyMode;

/// A setting a spec asks more of than its ceiling allows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{setting} asks for {asked}, more than the {allowed} allowed here")]
pub struct Widening {
    /// The setting, by its JSON path.
    pub setting: String,
    /// What the spec asks for.
    pub asked: String,
    /// What the ceiling allows.
    pub allowed: String,
}

impl SandboxSpec {
    /// `Ok` when this spec asks for nothing `ceiling` does not allow:
    /// every limit at most the ceiling's; a policy no wider; only hosts,
    /// host commands and a body cap the ceiling allows; private ranges
    /// refused when the ceiling refuses them; a worker when the ceiling
    /// runs in one; the ceiling's approver or none; writable roots below
    /// the ceiling's under its workspace-write; no audit log of its own
    /// (the ceiling's host decides where events go).
    pub fn within(&self, ceiling: &SandboxSpec) -> Result<(), Widening> {
        let wider = |setting: &str, asked: String, allowed: String| {
            Err(Widening {
                setting: setting.to_string(),
                asked,
                allowed,
            })
        };
        let mine = self.limits.entries();
        let theirs = ceiling.limits.entries();
        for ((json, asked), (_, allowed)) in mine.iter().zip(&theirs) {
            // Every limit but the overflow mode is a number: more is wider.
            if let (Some(asked), Some(allowed)) = (asked.as_u64(), allowed.as_u64())
                && asked > allowed
            {
                return wider(
                    &format!("limits.{json}"),
                    asked.to_string(),
                    allowed.to_string(),
                );
            }
        }
        debug_assert_eq!(mine.len(), LIMIT_NAMES.len());
        if self.policy > ceiling.policy {
            return wider(
                "policy",
                self.policy.to_string(),
                ceiling.policy.to_string(),
            );
        }
        // An approver the ceiling does not have would let a session grant
        // itself what the host's policy refuses.
        if self.approve != ceiling.approve && self.approve != Approve::Never {
            return wider(
                "approve",
                self.approve.to_string(),
                ceiling.approve.to_string(),
            );
        }
        // Under the ceiling's workspace-write, writable roots only below
        // its own.
        if ceiling.policy == PolicyMode::WorkspaceWrite
            && let Some(root) = self
                .writable
                .iter()
                .find(|root| !ceiling.writable.iter().any(|allowed| below(root, allowed)))
        {
            return wider(
                "writable",
                root.clone(),
                format!("[{}]", ceiling.writable.join(", ")),
            );
        }
        if let Some(host) = self
            .network
            .allow_host
            .iter()
            .find(|host| !ceiling.network.allow_host.contains(host))
        {
            return wider(
                "network.allowHost",
                host.clone(),
                format!("[{}]", ceiling.network.allow_host.join(", ")),
            );
        }
        // Secrets come from the server's own configuration: a session may
        // keep or leave out the server's, never bring its own (docs/network.md).
        if let Some((name, _)) = self
            .network
            .secrets
            .iter()
            .find(|(name, source)| ceiling.network.secrets.get(*name) != Some(source))
        {
            return wider(
                "network.secrets",
                name.clone(),
                format!(
                    "[{}]",
                    ceiling
                        .network
                        .secrets
                        .keys()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        if let Some(header) = self
            .network
            .secret_headers
            .iter()
            .find(|header| !ceiling.network.secret_headers.contains(header))
        {
            return wider(
                "network.secretHeaders",
                header.clone(),
                format!("[{}]", ceiling.network.secret_headers.join(", ")),
            );
        }
        if let Some(file) = self
            .network
            .ca_files
            .iter()
            .find(|file| !ceiling.network.ca_files.contains(file))
        {
            return wider(
                "network.caFiles",
                file.display().to_string(),
                format!(
                    "[{}]",
                    ceiling
                        .network
                        .ca_files
                        .iter()
                        .map(|f| f.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        if ceiling.network.deny_private_ranges && !self.network.deny_private_ranges {
            return wider("network.denyPrivateRanges", "false".into(), "true".into());
        }
        if self.network.fetch_max_bytes > ceiling.network.fetch_max_bytes {
            return wider(
                "network.fetchMaxBytes",
                self.network.fetch_max_bytes.to_string(),
                ceiling.network.fetch_max_bytes.to_string(),
            );
        }
        if let Some(command) = self
            .host_commands
            .iter()
            .find(|command| !ceiling.host_commands.contains(command))
        {
            return wider(
                "hostCommands",
                command.name.clone(),
                format!(
                    "[{}]",
                    ceiling
                        .host_commands
                        .iter()
                        .map(|c| c.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
        if self.host_command_memory > ceiling.host_command_memory {
            return wider(
                "hostCommandMemory",
                self.host_command_memory.to_string(),
                ceiling.host_command_memory.to_string(),
            );
        }
        if ceiling.isolation == IsolationMode::Process && self.isolation == IsolationMode::None {
            return wider("isolation", "none".into(), "process".into());
        }
        if self.audit_log.is_some() && self.audit_log != ceiling.audit_log {
            return wider("auditLog", "a log of its own".into(), "the host's".into());
        }
        Ok(())
    }
}

/// Whether sandbox path `path` is `root` or inside it.
fn below(path: &str, root: &str) -> bool {
    let root = root.trim_end_matches('/');
    path == root
        || path
            .strip_prefix(root)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::HostCommandSpec;

    #[test]
    fn only_narrowing_stays_within() {
        let ceiling = SandboxSpec::default();
        assert!(SandboxSpec::default().within(&ceiling).is_ok());
        let mut narrower = SandboxSpec::default();
        narrower.limits.timeout_ms = 10;
        narrower.policy = goccia_vfs::PolicyMode::ReadOnly;
        assert!(narrower.within(&ceiling).is_ok());
        let mut wider = SandboxSpec::default();
        wider.limits.max_memory += 1;
        assert_eq!(
            wider.within(&ceiling).unwrap_err().setting,
            "limits.maxMemory"
        );
        let mut host = SandboxSpec::default();
        host.network.allow_host.push("example.com".into());
        assert_eq!(
            host.within(&ceiling).unwrap_err().setting,
            "network.allowHost"
        );
        let mut command = SandboxSpec::default();
        command.host_commands.push(HostCommandSpec {
            name: "git".into(),
            path: None,
        });
        assert_eq!(
            command.within(&ceiling).unwrap_err().setting,
            "hostCommands"
        );
        let approving = SandboxSpec {
            approve: Approve::Always,
            ..SandboxSpec::default()
        };
        assert_eq!(approving.within(&ceiling).unwrap_err().setting, "approve");
        assert!(SandboxSpec::default().within(&approving).is_ok());
        let workspace = SandboxSpec {
            policy: PolicyMode::WorkspaceWrite,
            writable: vec!["/out".into()],
            ..SandboxSpec::default()
        };
        let mut below = workspace.clone();
        below.writable = vec!["/out/logs".into()];
        assert!(below.within(&workspace).is_ok());
        let mut beside = workspace.clone();
        beside.writable = vec!["/outside".into()];
        assert_eq!(beside.within(&workspace).unwrap_err().setting, "writable");
        assert!(beside.within(&ceiling).is_ok(), "under full anything goes");
        let isolated = SandboxSpec {
            isolation: IsolationMode::Process,
            ..SandboxSpec::default()
        };
        assert!(SandboxSpec::default().within(&isolated).is_err());
        assert!(isolated.within(&isolated).is_ok());
    }

    #[test]
    fn a_session_keeps_the_servers_secrets_and_brings_none_of_its_own() {
        use crate::spec::SecretSource;
        let mut server = SandboxSpec::default();
        server
            .network
            .secrets
            .insert("T".into(), SecretSource::Env("TOKEN".into()));
        server.network.secret_headers.push("h:X={T}".into());
        assert!(server.within(&server).is_ok());
        assert!(SandboxSpec::default().within(&server).is_ok());
        let mut own = server.clone();
        own.network
            .secrets
            .insert("T".into(), SecretSource::Value("mine".into()));
        assert_eq!(own.within(&server).unwrap_err().setting, "network.secrets");
        let mut rebound = server.clone();
        rebound.network.secret_headers = vec!["evil.example:X={T}".into()];
        assert_eq!(
            rebound.within(&server).unwrap_err().setting,
            "network.secretHeaders"
        );
        let mut trusting = server.clone();
        trusting.network.ca_files.push("/tmp/mine.pem".into());
        assert_eq!(
            trusting.within(&server).unwrap_err().setting,
            "network.caFiles"
        );
    }
}
