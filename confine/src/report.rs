//! What confinement achieved: each layer's status and the verdict.

use serde::Serialize;

/// One layer of confinement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    /// A new user namespace: no capability over the host's objects.
    UserNamespace,
    /// A new network namespace: no interface but a downed loopback.
    NetworkNamespace,
    /// A new IPC namespace: no System V or POSIX IPC shared with the host.
    IpcNamespace,
    /// Resource limits: address space, open files, file size 0, no core.
    Rlimits,
    /// `no_new_privs`: nothing executed later gains privileges.
    NoNewPrivs,
    /// Landlock handling every filesystem right and granting none.
    LandlockFilesystem,
    /// Landlock refusing TCP bind and connect (ABI 4 and later).
    LandlockNetwork,
    /// Landlock scoping signals and abstract sockets to the sandbox (ABI 6).
    LandlockScope,
    /// A seccomp filter allowing only the system calls the runtime needs.
    Seccomp,
}

impl Layer {
    /// Every layer, in the order they are applied.
    pub const ALL: [Layer; 9] = [
        Layer::UserNamespace,
        Layer::NetworkNamespace,
        Layer::IpcNamespace,
        Layer::Rlimits,
        Layer::NoNewPrivs,
        Layer::LandlockFilesystem,
        Layer::LandlockNetwork,
        Layer::LandlockScope,
        Layer::Seccomp,
    ];

    /// Layers without which nothing may run: together they refuse every
    /// system call that opens, connects, executes or forks.
    pub const REQUIRED: [Layer; 2] = [Layer::NoNewPrivs, Layer::Seccomp];

    /// The name in reports (`user-namespace`, `seccomp`).
    pub const fn name(self) -> &'static str {
        match self {
            Layer::UserNamespace => "user-namespace",
            Layer::NetworkNamespace => "network-namespace",
            Layer::IpcNamespace => "ipc-namespace",
            Layer::Rlimits => "rlimits",
            Layer::NoNewPrivs => "no-new-privs",
            Layer::LandlockFilesystem => "landlock-filesystem",
            Layer::LandlockNetwork => "landlock-network",
            Layer::LandlockScope => "landlock-scope",
            Layer::Seccomp => "seccomp",
        }
    }

    /// The layer called `name`, if any.
    pub fn parse(name: &str) -> Option<Layer> {
        Layer::ALL.into_iter().find(|layer| layer.name() == name)
    }
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What became of one layer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase", tag = "status")]
pub enum LayerStatus {
    /// Applied, and its check refused what it should.
    Enforced,
    /// Not in force, and why (the kernel lacks it, it was refused, its
    /// check found it ineffective, or the host left it out).
    Unavailable {
        /// Why, in words.
        reason: String,
    },
}

/// The verdict over all layers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Enforcement {
    /// Every layer is in force.
    Full,
    /// The required layers are, some others are not.
    Partial,
    /// A required layer is not: nothing may run.
    Unavailable(String),
}

impl Enforcement {
    /// `full`, `partial` or `unavailable`.
    pub const fn as_str(&self) -> &'static str {
        match self {
            Enforcement::Full => "full",
            Enforcement::Partial => "partial",
            Enforcement::Unavailable(_) => "unavailable",
        }
    }
}

/// Each layer with its status, in the order applied.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The layers attempted.
    pub layers: Vec<(Layer, LayerStatus)>,
}

impl Report {
    /// Records what became of `layer`.
    pub fn set(&mut self, layer: Layer, status: LayerStatus) {
        match self.layers.iter_mut().find(|(l, _)| *l == layer) {
            Some(entry) => entry.1 = status,
            None => self.layers.push((layer, status)),
        }
    }

    /// Records `layer` as unavailable for `reason`.
    pub fn unavailable(&mut self, layer: Layer, reason: impl Into<String>) {
        self.set(
            layer,
            LayerStatus::Unavailable {
                reason: reason.into(),
            },
        );
    }

    /// The status of `layer` (unavailable when never attempted).
    pub fn status(&self, layer: Layer) -> LayerStatus {
        self.layers
            .iter()
            .find(|(l, _)| *l == layer)
            .map(|(_, status)| status.clone())
            .unwrap_or_else(|| LayerStatus::Unavailable {
                reason: "not attempted".to_string(),
            })
    }

    /// Whether `layer` is in force.
    pub fn enforced(&self, layer: Layer) -> bool {
        self.status(layer) == LayerStatus::Enforced
    }

    /// The layers in force, by name.
    pub fn enforced_names(&self) -> Vec<&'static str> {
        self.layers
            .iter()
            .filter(|(_, status)| *status == LayerStatus::Enforced)
            .map(|(layer, _)| layer.name())
            .collect()
    }

    /// The verdict: unavailable (naming the first required layer missing
    /// and why) unless every required layer is in force; full when all are.
    pub fn enforcement(&self) -> Enforcement {
        for layer in Layer::REQUIRED {
            if let LayerStatus::Unavailable { reason } = self.status(layer) {
                return Enforcement::Unavailable(format!("{layer}: {reason}"));
            }
        }
        if Layer::ALL.iter().all(|layer| self.enforced(*layer)) {
            Enforcement::Full
        } else {
            Enforcement::Partial
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_verdict_needs_the_required_layers_and_is_full_only_with_all() {
        let mut report = Report::default();
        assert!(matches!(report.enforcement(), Enforcement::Unavailable(_)));
        for layer in Layer::ALL {
            report.set(layer, LayerStatus::Enforced);
        }
        assert_eq!(report.enforcement(), Enforcement::Full);
        report.unavailable(Layer::NetworkNamespace, "refused");
        assert_eq!(report.enforcement(), Enforcement::Partial);
        assert!(!report.enforced_names().contains(&"network-namespace"));
        report.unavailable(Layer::Seccomp, "EINVAL");
        assert_eq!(
            report.enforcement(),
            Enforcement::Unavailable("seccomp: EINVAL".to_string())
        );
        assert_eq!(Layer::parse("landlock-scope"), Some(Layer::LandlockScope));
    }
}
