//! The write policy (docs/policy.md): one home for the mode, the writable
//! roots and the protected names, and one check every writing path uses.
//! Also the escalation ladder and the verbatim texts of docs/policy.md for
//! denials and escalation outcomes, so every surface words them the same.
//!
//! The VFS enforces it (every mutating [`crate::Vfs`] operation checks
//! the policy in force); a call that runs under another policy than its
//! sandbox's (an escalation granted for one call, a child that narrows)
//! enters a [`Scope`] on its thread, and every thread doing that call's
//! work enters the same scope ([`current_scope`] carries it across).

use std::cell::RefCell;
use std::fmt;
use std::sync::Arc;

use crate::path::VfsPath;

/// How much of the VFS a call may change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PolicyMode {
    /// Nothing in the VFS may change.
    ReadOnly,
    /// Only paths under the writable roots, and never a `.git` or
    /// `.goccia` inside them.
    WorkspaceWrite,
    /// Anything in the VFS (the default).
    #[default]
    Full,
}

goccia_core::named!(PolicyMode {
    "read-only" => PolicyMode::ReadOnly,
    "workspace-write" => PolicyMode::WorkspaceWrite,
    "full" => PolicyMode::Full,
});

impl PolicyMode {
    /// Every mode, narrowest first.
    pub const ALL: [PolicyMode; 3] = [
        PolicyMode::ReadOnly,
        PolicyMode::WorkspaceWrite,
        PolicyMode::Full,
    ];

    /// The mode's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            PolicyMode::ReadOnly => "read-only",
            PolicyMode::WorkspaceWrite => "workspace-write",
            PolicyMode::Full => "full",
        }
    }

    /// Whether `self` allows strictly more than `current` (the only
    /// escalations anyone may be asked for): `read-only` → `workspace-write`
    /// or `full`, `workspace-write` → `full`.
    pub fn is_strictly_wider_than(self, current: PolicyMode) -> bool {
        self > current
    }
}

/// Names that stay read-only inside a writable root.
pub const PROTECTED_NAMES: [&str; 2] = [".git", ".goccia"];

/// The mode and the writable roots a sandbox's calls are checked against,
/// and the host's approver of escalations (if any). Cheap to clone.
#[derive(Clone, Default)]
pub struct WritePolicy {
    mode: PolicyMode,
    roots: Arc<[VfsPath]>,
    approver: Option<Arc<dyn Approver>>,
}

impl fmt::Debug for WritePolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WritePolicy")
            .field("mode", &self.mode)
            .field("roots", &self.roots)
            .field("approver", &self.approver.is_some())
            .finish()
    }
}

impl PartialEq for WritePolicy {
    fn eq(&self, other: &Self) -> bool {
        self.mode == other.mode
            && self.roots == other.roots
            && match (&self.approver, &other.approver) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl WritePolicy {
    /// The policy of `mode` with the writable roots of docs/policy.md: every
    /// `--copy-rw` target, every `--writable` path, and `/tmp` (the one
    /// place they are computed).
    pub fn new(
        mode: PolicyMode,
        copy_rw_targets: impl IntoIterator<Item = VfsPath>,
        writable: impl IntoIterator<Item = VfsPath>,
    ) -> Self {
        let mut roots: Vec<VfsPath> = copy_rw_targets.into_iter().chain(writable).collect();
        roots.push(VfsPath::parse("/tmp").expect("a valid path"));
        roots.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        roots.dedup();
        WritePolicy {
            mode,
            roots: roots.into(),
            approver: None,
        }
    }

    /// The same policy with `approver` deciding escalation requests.
    pub fn with_approver(mut self, approver: Arc<dyn Approver>) -> WritePolicy {
        self.approver = Some(approver);
        self
    }

    /// The approver escalation requests go to (`None`: every request is
    /// `unavailable` and denials carry no hint).
    pub fn approver(&self) -> Option<&Arc<dyn Approver>> {
        self.approver.as_ref()
    }

    /// The mode.
    pub fn mode(&self) -> PolicyMode {
        self.mode
    }

    /// The writable roots (what `workspace-write` allows), sorted.
    pub fn writable_roots(&self) -> &[VfsPath] {
        &self.roots
    }

    /// The same roots under another mode (a grant for one call, a child
    /// that narrows).
    pub fn with_mode(&self, mode: PolicyMode) -> WritePolicy {
        WritePolicy {
            mode,
            ..self.clone()
        }
    }

    /// The policy a child asking for `mode` runs under: the same roots
    /// and approver, at `mode` if it is no wider than this one's. A wider
    /// one is refused with `ERR_ESCALATION_NOT_WIDER` (a child widens only
    /// by escalating).
    pub fn narrowed_to(&self, mode: PolicyMode) -> Result<WritePolicy, EscalationError> {
        if mode.is_strictly_wider_than(self.mode) {
            return Err(EscalationError {
                code: "ERR_ESCALATION_NOT_WIDER",
                message: format!(
                    "a child run may only narrow the write policy: \"{mode}\" is wider than this call's current \"{}\" mode",
                    self.mode
                ),
            });
        }
        Ok(self.with_mode(mode))
    }

    /// Whether a write to `path` (already resolved: no `..`, links
    /// followed) is allowed; the denial names the mode.
    pub fn check(&self, path: &VfsPath) -> Result<(), Denied> {
        let allowed = match self.mode {
            PolicyMode::Full => true,
            PolicyMode::ReadOnly => false,
            // Every write is checked: no allocation on this path.
            PolicyMode::WorkspaceWrite => self.roots.iter().any(|root| {
                path.starts_with(root)
                    && !path.as_str()[root.as_str().len()..]
                        .split('/')
                        .any(|name| PROTECTED_NAMES.contains(&name))
            }),
        };
        if allowed { Ok(()) } else { Err(self.denial()) }
    }

    /// The denial this policy gives: its mode, and whether an approver
    /// could grant a wider one (the hint).
    pub fn denial(&self) -> Denied {
        Denied {
            mode: self.mode,
            escalable: self.approver.is_some() && self.mode != PolicyMode::Full,
        }
    }
}

/// A write the policy refused (distinct from the world refusing it: a
/// missing file, a quota).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Denied {
    /// The mode that refused it.
    pub mode: PolicyMode,
    /// An approver could grant a wider mode: the denial carries the hint.
    pub escalable: bool,
}

impl Denied {
    /// `[sandbox: file access denied under <mode> mode]`: the marker every
    /// denial carries, verbatim.
    pub fn marker(&self) -> String {
        format!("[sandbox: file access denied under {} mode]", self.mode)
    }

    /// The marker, followed by the escalation hint for `subject` when an
    /// approver could grant more.
    pub fn reason(&self, subject: Subject) -> String {
        if self.escalable {
            format!("{} {}", self.marker(), escalation_hint(subject))
        } else {
            self.marker()
        }
    }

    /// The JS error's message: `FS_SANDBOX_DENIED: <marker>, <syscall>
    /// '<path>'` (the hint after the marker when there is one).
    pub fn js_message(&self, syscall: &str, path: &str) -> String {
        format!(
            "FS_SANDBOX_DENIED: {}, {syscall} '{path}'",
            self.reason(Subject::Operation)
        )
    }

    /// The shell's stderr line: `<command>: <path>: <marker>` (the hint
    /// after the marker when there is one).
    pub fn shell_message(&self, command: &str, path: &str) -> String {
        format!("{command}: {path}: {}", self.reason(Subject::Command))
    }
}

impl fmt::Display for Denied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.marker())
    }
}

/// What is retried when an escalation is granted: a single `fs` call (an
/// operation) or a shell command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// An `fs` call.
    Operation,
    /// A shell command (`$`, `escalate --`).
    Command,
}

goccia_core::named!(Subject {
    "operation" => Subject::Operation,
    "command" => Subject::Command,
});

impl Subject {
    /// `operation` or `command`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Subject::Operation => "operation",
            Subject::Command => "command",
        }
    }
}

/// The hint added to a denial when an approver is configured, verbatim.
pub fn escalation_hint(subject: Subject) -> String {
    format!(
        "[sandbox: escalation available — retry this exact {} once with sandboxPermissions (the narrowest wider mode that suffices) and a justification]",
        subject.as_str()
    )
}

/// An escalation request refused before anyone is asked, or an approver's
/// answer other than a grant. `code` is the JS error code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscalationError {
    /// `ERR_INVALID_ARG_VALUE`, `ERR_ESCALATION_NOT_WIDER`,
    /// `ERR_ESCALATION_REJECTED`, `ERR_ESCALATION_CANCELLED` or
    /// `ERR_ESCALATION_UNAVAILABLE`.
    pub code: &'static str,
    /// The message, verbatim per docs/policy.md.
    pub message: String,
}

impl fmt::Display for EscalationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for EscalationError {}

/// The approver's decision on one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Runs exactly that call at the requested mode; never persisted.
    AllowedOnce,
    /// The user said no.
    Rejected,
    /// The user interrupted the question (Ctrl-C).
    Cancelled,
    /// Nobody can answer (no approver, no terminal).
    Unavailable,
}

/// Checks a request's two fields as given (`sandboxPermissions` and
/// `justification`), in docs/policy.md's order: both or neither, a
/// justification that is not blank, a mode that exists and is strictly
/// wider than `current`. `Ok(None)`: no escalation asked; `Ok(Some(mode))`:
/// the approver may now be asked for `mode`.
pub fn check_request(
    current: PolicyMode,
    mode: Option<&str>,
    justification: Option<&str>,
) -> Result<Option<PolicyMode>, EscalationError> {
    let invalid = |message: &str| EscalationError {
        code: "ERR_INVALID_ARG_VALUE",
        message: message.to_string(),
    };
    let (mode, justification) = match (mode, justification) {
        (None, None) => return Ok(None),
        (Some(mode), Some(justification)) => (mode, justification),
        _ => {
            return Err(invalid(
                "sandboxPermissions and justification must be given together",
            ));
        }
    };
    if justification.trim().is_empty() {
        return Err(invalid("the justification must not be blank"));
    }
    let Ok(requested) = mode.parse::<PolicyMode>() else {
        return Err(invalid(&format!(
            "sandboxPermissions must be read-only, workspace-write or full, not \"{mode}\""
        )));
    };
    if !requested.is_strictly_wider_than(current) {
        return Err(not_wider(requested, current));
    }
    Ok(Some(requested))
}

fn not_wider(requested: PolicyMode, current: PolicyMode) -> EscalationError {
    EscalationError {
        code: "ERR_ESCALATION_NOT_WIDER",
        message: format!(
            "sandbox escalation to \"{requested}\" is not strictly wider than this call's current \"{current}\" mode"
        ),
    }
}

/// What an approver's decision means for the call: the mode to run it at,
/// or the error it ends with.
pub fn decide(
    decision: Decision,
    requested: PolicyMode,
    subject: Subject,
) -> Result<PolicyMode, EscalationError> {
    let subject = subject.as_str();
    match decision {
        Decision::AllowedOnce => Ok(requested),
        Decision::Rejected => Err(EscalationError {
            code: "ERR_ESCALATION_REJECTED",
            message: format!("the user rejected escalating this {subject} to \"{requested}\""),
        }),
        Decision::Cancelled => Err(EscalationError {
            code: "ERR_ESCALATION_CANCELLED",
            message: format!("the user cancelled escalating this {subject} to \"{requested}\""),
        }),
        Decision::Unavailable => Err(EscalationError {
            code: "ERR_ESCALATION_UNAVAILABLE",
            message: format!(
                "no approver is available to escalate this {subject} to \"{requested}\""
            ),
        }),
    }
}

/// One escalation request, as the approver sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscalationRequest {
    /// The mode asked for (strictly wider than `current_mode`).
    pub requested_mode: PolicyMode,
    /// The mode the call runs under now.
    pub current_mode: PolicyMode,
    /// Why the guest says it needs it (not blank).
    pub justification: String,
    /// An `fs` call or a shell command.
    pub subject: Subject,
    /// What exactly would run: `writeFile /etc/x`, `rm -rf /w`.
    pub detail: String,
}

/// The host's word on escalation requests. A closure
/// `Fn(&EscalationRequest) -> Decision` is one.
pub trait Approver: Send + Sync {
    /// Decides one request. A grant covers that one call only.
    fn decide(&self, request: &EscalationRequest) -> Decision;
}

impl<F> Approver for F
where
    F: Fn(&EscalationRequest) -> Decision + Send + Sync,
{
    fn decide(&self, request: &EscalationRequest) -> Decision {
        self(request)
    }
}

/// Asks `policy`'s approver for `request` (already checked with
/// [`check_request`]) and says what the call runs under: `policy` at the
/// granted mode, or the outcome's error. Without an approver the answer is
/// `unavailable`.
pub fn escalate(
    policy: &WritePolicy,
    request: &EscalationRequest,
) -> Result<WritePolicy, EscalationError> {
    let decision = match &policy.approver {
        Some(approver) => approver.decide(request),
        None => Decision::Unavailable,
    };
    decide(decision, request.requested_mode, request.subject).map(|mode| policy.with_mode(mode))
}

thread_local! {
    /// The policy this thread's calls run under when it is not their
    /// sandbox's own (see [`Scope`]).
    static SCOPED: RefCell<Option<WritePolicy>> = const { RefCell::new(None) };
}

/// While alive, writes by this thread to a fenced VFS are checked against
/// this policy instead of the VFS's own: an escalation granted for one
/// call, or a child run that narrowed. Threads started for the call enter
/// it too ([`current_scope`]). Scopes nest; dropping restores the outer.
#[must_use = "the scope ends when dropped"]
pub struct Scope {
    outer: Option<WritePolicy>,
}

impl Scope {
    /// Enters `policy` on this thread.
    pub fn enter(policy: WritePolicy) -> Scope {
        let outer = SCOPED.with_borrow_mut(|scoped| scoped.replace(policy));
        Scope { outer }
    }

    /// Enters `policy` if there is one (a thread carrying its starter's
    /// scope).
    pub fn enter_if(policy: Option<WritePolicy>) -> Option<Scope> {
        policy.map(Scope::enter)
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        let outer = self.outer.take();
        SCOPED.with_borrow_mut(|scoped| *scoped = outer);
    }
}

/// The scope this thread is in, to carry into a thread it starts.
pub fn current_scope() -> Option<WritePolicy> {
    SCOPED.with_borrow(|scoped| scoped.clone())
}

/// Runs `f` with this thread's scope, if any (without cloning it).
pub(crate) fn with_scope<R>(f: impl FnOnce(Option<&WritePolicy>) -> R) -> R {
    SCOPED.with_borrow(|scoped| f(scoped.as_ref()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn the_ladder_allows_only_strictly_wider_modes() {
        use PolicyMode::*;
        let table = [
            (ReadOnly, ReadOnly, false),
            (ReadOnly, WorkspaceWrite, true),
            (ReadOnly, Full, true),
            (WorkspaceWrite, ReadOnly, false),
            (WorkspaceWrite, WorkspaceWrite, false),
            (WorkspaceWrite, Full, true),
            (Full, ReadOnly, false),
            (Full, WorkspaceWrite, false),
            (Full, Full, false),
        ];
        for (from, to, wider) in table {
            assert_eq!(to.is_strictly_wider_than(from), wider, "{from} -> {to}");
            let checked = check_request(from, Some(to.as_str()), Some("needed"));
            if wider {
                assert_eq!(checked, Ok(Some(to)));
            } else {
                let error = checked.unwrap_err();
                assert_eq!(error.code, "ERR_ESCALATION_NOT_WIDER");
                assert_eq!(
                    error.message,
                    format!(
                        "sandbox escalation to \"{to}\" is not strictly wider than this call's current \"{from}\" mode"
                    )
                );
            }
        }
        for mode in PolicyMode::ALL {
            assert_eq!(mode.as_str().parse::<PolicyMode>(), Ok(mode));
        }
        assert!("danger".parse::<PolicyMode>().is_err());
        assert_eq!(PolicyMode::default(), PolicyMode::Full);
    }

    #[test]
    fn requests_are_checked_before_anyone_is_asked() {
        let current = PolicyMode::ReadOnly;
        assert_eq!(check_request(current, None, None), Ok(None));
        for (mode, justification) in [
            (Some("full"), None),
            (None, Some("why")),
            (Some("full"), Some("  ")),
            (Some("danger"), Some("why")),
        ] {
            let error = check_request(current, mode, justification).unwrap_err();
            assert_eq!(
                error.code, "ERR_INVALID_ARG_VALUE",
                "{mode:?} {justification:?}"
            );
        }
    }

    #[test]
    fn every_outcome_has_its_code_and_text() {
        let full = PolicyMode::Full;
        assert_eq!(
            decide(Decision::AllowedOnce, full, Subject::Command),
            Ok(full)
        );
        let rejected = decide(Decision::Rejected, full, Subject::Operation).unwrap_err();
        assert_eq!(rejected.code, "ERR_ESCALATION_REJECTED");
        assert_eq!(
            rejected.message,
            "the user rejected escalating this operation to \"full\""
        );
        let cancelled = decide(Decision::Cancelled, full, Subject::Command).unwrap_err();
        assert_eq!(cancelled.code, "ERR_ESCALATION_CANCELLED");
        let unavailable = decide(Decision::Unavailable, full, Subject::Command).unwrap_err();
        assert_eq!(unavailable.code, "ERR_ESCALATION_UNAVAILABLE");
        assert_eq!(
            unavailable.message,
            "no approver is available to escalate this command to \"full\""
        );
        assert_eq!(
            escalation_hint(Subject::Operation),
            "[sandbox: escalation available — retry this exact operation once with sandboxPermissions (the narrowest wider mode that suffices) and a justification]"
        );
    }

    #[test]
    fn writable_roots_protected_names_and_denial_texts() {
        let policy = WritePolicy::new(
            PolicyMode::WorkspaceWrite,
            [p("/work")],
            [p("/notes"), p("/work")],
        );
        assert_eq!(
            policy.writable_roots(),
            [p("/notes"), p("/tmp"), p("/work")]
        );
        assert!(policy.check(&p("/work/src/a.rs")).is_ok());
        assert!(policy.check(&p("/work")).is_ok());
        assert!(policy.check(&p("/tmp/x")).is_ok());
        for denied in [
            "/etc/x",
            "/workspace/a",
            "/work/.git/HEAD",
            "/work/sub/.goccia",
            "/",
        ] {
            assert_eq!(
                policy.check(&p(denied)),
                Err(Denied {
                    mode: PolicyMode::WorkspaceWrite,
                    escalable: false,
                }),
                "{denied}"
            );
        }
        // `..` is resolved before the check: it cannot climb out of a root.
        assert!(policy.check(&p("/work/../etc/passwd")).is_err());
        let read_only = policy.with_mode(PolicyMode::ReadOnly);
        assert!(read_only.check(&p("/tmp/x")).is_err());
        assert!(
            policy
                .with_mode(PolicyMode::Full)
                .check(&p("/etc/x"))
                .is_ok()
        );
        let mut denied = Denied {
            mode: PolicyMode::ReadOnly,
            escalable: false,
        };
        assert_eq!(
            denied.js_message("open", "/a.txt"),
            "FS_SANDBOX_DENIED: [sandbox: file access denied under read-only mode], open '/a.txt'"
        );
        assert_eq!(
            denied.shell_message("touch", "/a.txt"),
            "touch: /a.txt: [sandbox: file access denied under read-only mode]"
        );
        denied.escalable = true;
        assert_eq!(
            denied.shell_message("touch", "/a.txt"),
            "touch: /a.txt: [sandbox: file access denied under read-only mode] [sandbox: escalation available — retry this exact command once with sandboxPermissions (the narrowest wider mode that suffices) and a justification]"
        );
        assert_eq!(
            denied.js_message("open", "/a.txt"),
            "FS_SANDBOX_DENIED: [sandbox: file access denied under read-only mode] [sandbox: escalation available — retry this exact operation once with sandboxPermissions (the narrowest wider mode that suffices) and a justification], open '/a.txt'"
        );
        let approver: Arc<dyn Approver> = Arc::new(|_: &EscalationRequest| Decision::Rejected);
        let with_approver = policy.clone().with_approver(approver);
        assert!(with_approver.check(&p("/etc")).unwrap_err().escalable);
        assert!(!with_approver.with_mode(PolicyMode::Full).denial().escalable);
    }
}
