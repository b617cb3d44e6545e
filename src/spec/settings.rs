//! Each setting's name as each surface spells it, so one error reads right
//! everywhere: `limits.timeoutMs` in JSON, `--timeout` on a command line,
//! `Limits(timeout=...)` in Python, `Limits::timeout` in Rust.

use super::error::SpecError;
use super::limits::{LIMIT_NAMES, limit_named};

/// How a surface names its settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// JSON paths (a spec file, the server's body, Node): `limits.timeoutMs`.
    Json,
    /// Command-line flags: `--timeout`.
    Flag,
    /// Python's keyword arguments: `policy=`, `Limits(timeout=)`.
    Python,
    /// The Rust builder: `SandboxBuilder::policy`, `Limits::timeout`.
    Rust,
}

impl SpecError {
    /// The message with the setting named as `spelling` names it.
    pub fn spelled(&self, spelling: Spelling) -> String {
        format!(
            "{}: {}",
            setting_name(&self.setting, spelling),
            self.problem
        )
    }
}

impl crate::SetupError {
    /// The message as a surface using `spelling` should show it: a setting
    /// out of range named first in that spelling (`--max-memory: ...`,
    /// `Limits(max_memory=): ...`), a seed over a quota followed by the
    /// setting to raise.
    pub fn spelled(&self, spelling: Spelling) -> String {
        use goccia_core::LimitsError;
        match self {
            crate::SetupError::Spec(error) => error.spelled(spelling),
            crate::SetupError::Limits(LimitsError::OutOfRange { kind, .. }) => format!(
                "{}: {self}",
                setting_name(
                    &format!("limits.{}", super::limits::json_name_of(*kind)),
                    spelling
                )
            ),
            other => match other.limit() {
                Some(kind) => format!("{other}{}", advice_for(spelling).for_limit(kind)),
                None => other.to_string(),
            },
        }
    }
}

/// (JSON path, flag, Python, Rust) of every setting besides the limits.
const SETTINGS: &[(&str, &str, &str, &str)] = &[
    (
        "seeds",
        "--seed/--copy-rw/--seed-config",
        "seeds=",
        "SandboxBuilder::seed",
    ),
    (
        "exclude",
        "--exclude",
        "exclude=",
        "SandboxBuilder::exclude",
    ),
    (
        "gitignore",
        "--gitignore",
        "gitignore=",
        "SandboxBuilder::gitignore",
    ),
    (
        "symlinks",
        "--symlinks",
        "symlinks=",
        "SandboxBuilder::symlinks",
    ),
    ("env", "--env", "env=", "SandboxBuilder::env"),
    (
        "network.allowHost",
        "--allow-host",
        "allow_hosts=",
        "NetPolicyBuilder::allow",
    ),
    (
        "network.denyPrivateRanges",
        "--deny-private-ranges",
        "deny_private_ranges=",
        "NetPolicyBuilder::refuse_private_ranges",
    ),
    (
        "network.secrets",
        "--secret",
        "secrets=",
        "NetworkSpec::secrets",
    ),
    (
        "network.secretHeaders",
        "--secret-header",
        "secret_headers=",
        "NetworkSpec::secret_headers",
    ),
    (
        "network.caFiles",
        "--ca-file",
        "ca_files=",
        "NetPolicyBuilder::ca_file",
    ),
    (
        "network.fetchMaxBytes",
        "--fetch-max-bytes",
        "fetch_max_bytes=",
        "NetPolicyBuilder::max_body_bytes",
    ),
    ("policy", "--policy", "policy=", "SandboxBuilder::policy"),
    (
        "writable",
        "--writable",
        "writable=",
        "SandboxBuilder::writable",
    ),
    (
        "approve",
        "--approve",
        "approve=",
        "SandboxBuilder::approver",
    ),
    (
        "isolation",
        "--isolate",
        "isolation=",
        "SandboxBuilder::isolation",
    ),
    (
        "hostCommands",
        "--host-command",
        "host_commands=",
        "SandboxBuilder::host_command",
    ),
    (
        "hostCommandMemory",
        "--host-command-memory",
        "host_command_memory=",
        "SandboxBuilder::host_command_memory",
    ),
    ("mode", "--mode", "mode=", "SandboxBuilder::mode"),
    (
        "auditLog",
        "--audit-log",
        "audit_log=",
        "SandboxBuilder::audit",
    ),
];

/// `setting` (a JSON path such as `limits.timeoutMs` or `seeds[2]`) as
/// `spelling` names it; a path the tables do not know stays as it is.
pub fn setting_name(setting: &str, spelling: Spelling) -> String {
    if setting == crate::call::CALL_TIMEOUT {
        // The call's own, as each surface takes it with a call.
        return match spelling {
            Spelling::Json => "timeoutMs",
            Spelling::Flag => "--timeout",
            Spelling::Python => "timeout=",
            Spelling::Rust => "CallOptions::timeout",
        }
        .to_string();
    }
    if spelling == Spelling::Json {
        return setting.to_string();
    }
    if let Some(json) = setting.strip_prefix("limits.")
        && let Some(limit) = limit_named(json)
    {
        return match spelling {
            Spelling::Json => unreachable!("returned above"),
            Spelling::Flag => limit.flag.to_string(),
            Spelling::Python => format!("Limits({}=)", limit.python),
            Spelling::Rust => format!("Limits::{}", limit.rust),
        };
    }
    // `seeds[2]` is the third seed of whatever spells the seeds (and
    // `seeds[2].from` a field of it).
    let (base, index) = match setting.split_once('[') {
        Some((base, rest)) => (base, rest.split_once(']')),
        None => (setting, None),
    };
    // `network.secrets.TOKEN` is the entry `TOKEN` of a setting that is a
    // map.
    let exact = SETTINGS.iter().find(|(json, ..)| *json == base);
    let entry = exact.map(|row| (row, None)).or_else(|| {
        SETTINGS.iter().find_map(|row| {
            let key = base.strip_prefix(row.0)?.strip_prefix('.')?;
            Some((row, Some(key)))
        })
    });
    let Some(((_, flag, python, rust), key)) = entry else {
        return setting.to_string();
    };
    let name = match spelling {
        Spelling::Json => unreachable!("returned above"),
        Spelling::Flag => *flag,
        Spelling::Python => *python,
        Spelling::Rust => *rust,
    };
    if let Some(key) = key {
        return format!("{name} (`{key}`)");
    }
    match index {
        Some((index, "")) => format!("{name} (entry {index})"),
        Some((index, field)) => format!(
            "{name} (entry {index}, `{}`)",
            field.trim_start_matches('.')
        ),
        None => name.to_string(),
    }
}

/// Advice worded for `spelling`: `raise it with --timeout`, `raise it with
/// limits.timeoutMs`, `raise it with Limits(timeout=)`, `raise it with
/// Limits::timeout` — each surface tells its user the setting they can
/// change, in their own terms.
pub fn advice_for(spelling: Spelling) -> goccia_core::Advice {
    use goccia_core::Setting;
    goccia_core::Advice::new(move |setting| {
        let name = |json: &str| setting_name(json, spelling);
        Some(match setting {
            Setting::Limit(kind) => format!(
                "raise it with {}",
                name(&format!("limits.{}", super::limits::json_name_of(kind)))
            ),
            Setting::FetchMaxBytes => format!("raise it with {}", name("network.fetchMaxBytes")),
            Setting::AllowHost => format!("allow it with {}", name("network.allowHost")),
            Setting::DenyPrivateRanges => name("network.denyPrivateRanges"),
            // The call's own timeout, as each surface takes it with a call.
            Setting::CallTimeout => match spelling {
                Spelling::Json => "ask for a larger timeoutMs".to_string(),
                Spelling::Flag => "raise it with --timeout".to_string(),
                Spelling::Python => "pass the call a larger timeout=".to_string(),
                Spelling::Rust => "give the call a larger CallOptions::timeout".to_string(),
            },
        })
    })
}

/// Every setting's JSON path: the limits, then the rest (for tests that
/// walk them all).
pub fn all_settings() -> Vec<String> {
    LIMIT_NAMES
        .iter()
        .map(|limit| format!("limits.{}", limit.json))
        .chain(SETTINGS.iter().map(|(json, ..)| json.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_named_in_each_spelling() {
        assert_eq!(
            setting_name("limits.timeoutMs", Spelling::Flag),
            "--timeout"
        );
        assert_eq!(
            setting_name("limits.timeoutMs", Spelling::Python),
            "Limits(timeout=)"
        );
        assert_eq!(
            setting_name("limits.maxOutput", Spelling::Rust),
            "Limits::max_output"
        );
        assert_eq!(setting_name("policy", Spelling::Json), "policy");
        assert_eq!(
            setting_name("network.allowHost", Spelling::Flag),
            "--allow-host"
        );
        assert_eq!(
            setting_name("seeds[2]", Spelling::Python),
            "seeds= (entry 2)"
        );
        assert_eq!(
            setting_name("seeds[0].from", Spelling::Flag),
            "--seed/--copy-rw/--seed-config (entry 0, `from`)"
        );
        assert_eq!(
            setting_name("network.secrets.TOKEN", Spelling::Python),
            "secrets= (`TOKEN`)"
        );
        assert_eq!(
            setting_name("network.secrets.TOKEN", Spelling::Json),
            "network.secrets.TOKEN"
        );
        // Every setting has a name in every spelling.
        for setting in all_settings() {
            for spelling in [Spelling::Flag, Spelling::Python, Spelling::Rust] {
                assert_ne!(setting_name(&setting, spelling), setting, "{setting}");
            }
        }
    }
}
