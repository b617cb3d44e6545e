//! Escalation of a host-side call made for the agent (docs/policy.md): a
//! surface that writes on the guest's behalf (an MCP `write_file`, say)
//! takes the same two fields as the guest's own calls and gets the same
//! checks, approver and audit events.

use goccia_vfs::policy::{self, EscalationRequest, Scope, Subject};

use crate::error::AccessError;
use crate::sandbox::Sandbox;

impl Sandbox {
    /// Runs `call` (a fenced call such as [`Sandbox::write_as_guest`]) at
    /// the mode `sandbox_permissions` names if the host's approver grants
    /// it once; with neither field it runs under the sandbox's policy as
    /// it is. The rules are the guest's: both fields or neither, a
    /// justification that is not blank, a mode strictly wider than the
    /// current one; a refusal is [`AccessError::Escalation`] carrying the
    /// JS error code and the message docs/policy.md gives. `detail` is what the
    /// approver is shown (`writeFile /etc/motd`).
    ///
    /// ```
    /// # use goccia::{AccessError, Decision, PolicyMode, Sandbox};
    /// let sandbox = Sandbox::builder()
    ///     .policy(PolicyMode::ReadOnly)
    ///     .approver(|_: &goccia::EscalationRequest| Decision::AllowedOnce)
    ///     .build()?;
    /// let write = |s: &Sandbox| s.write_as_guest("/a.txt", "x");
    /// assert!(matches!(sandbox.with_escalation(None, None, "writeFile /a.txt", write), Err(AccessError::Denied { .. })));
    /// sandbox.with_escalation(Some("full"), Some("the task asks for it"), "writeFile /a.txt", write)?;
    /// let Err(AccessError::Escalation(error)) = sandbox.with_escalation(Some("full"), None, "writeFile /a.txt", write) else { panic!() };
    /// assert_eq!(error.code, "ERR_INVALID_ARG_VALUE");
    /// # Ok::<(), goccia::Error>(())
    /// ```
    pub fn with_escalation<R>(
        &self,
        sandbox_permissions: Option<&str>,
        justification: Option<&str>,
        detail: &str,
        call: impl FnOnce(&Sandbox) -> Result<R, AccessError>,
    ) -> Result<R, AccessError> {
        let current = self.policy();
        let requested =
            match policy::check_request(current.mode(), sandbox_permissions, justification) {
                Ok(Some(mode)) => mode,
                Ok(None) => return call(self),
                Err(error) => return Err(AccessError::Escalation(error)),
            };
        let request = EscalationRequest {
            requested_mode: requested,
            current_mode: current.mode(),
            justification: justification.unwrap_or_default().to_string(),
            subject: Subject::Operation,
            detail: detail.to_string(),
        };
        let audit = &self.engine().audit;
        audit.record(
            "escalation",
            "request",
            request.detail.clone(),
            Some(format!(
                "{} ({}): {}",
                request.requested_mode,
                request.subject.as_str(),
                request.justification
            )),
        );
        let granted = policy::escalate(&current, &request);
        audit.record(
            "escalation",
            "decision",
            request.detail.clone(),
            Some(match &granted {
                Ok(_) => "allowed-once".to_string(),
                Err(error) => error.code.to_string(),
            }),
        );
        let _scope = Scope::enter(granted.map_err(AccessError::Escalation)?);
        call(self)
    }
}
