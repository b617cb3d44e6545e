//! The engine configuration a run and every run it nests share: a child
//! inherits it whole and can only narrow it (its deadline and quota).

use goccia_core::{Audit, Limits, NetPolicy};

use crate::bytecode::ExecMode;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Engine {
    pub limits: Limits,
    pub mode: ExecMode,
    /// What `fetch` may reach (nothing by default).
    pub network: NetPolicy,
    /// Where security-relevant decisions are recorded (off by default).
    pub audit: Audit,
}
