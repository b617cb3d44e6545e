//! One MCP session: its sandbox and the tools of docs/mcp.md. Each tool
//! is a thin call into the library on a blocking thread (a slow shell
//! command never holds the protocol loop), answered as text.

use std::sync::{Arc, OnceLock};

use goccia::{
    AccessError, Approver, CallOptions, DiffFormat, NodeType, Run, Sandbox, SetupError, SnapshotId,
};
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::{InputResponses, RequestState};
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, Implementation, InitializeRequestParams,
    InitializeResult, ListResourcesResult, PaginatedRequestParams, ProtocolVersion,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
};
use rmcp::service::{NotificationContext, RequestContext, RoleServer};
use rmcp::{ErrorData, ServerHandler, tool, tool_handler, tool_router};

use crate::approval::{ClientApprover, NobodyToAsk, PeerSlot};
use crate::config::{Approval, McpConfig};
use crate::handles::{Caller, HandleRefusal, Handles};
use crate::params::HasSandbox;
use crate::params::{
    DiffArgs, EditFileArgs, ListArgs, NoArgs, ReadFileArgs, RestoreArgs, RunScriptArgs,
    SandboxArgs, ShellArgs, SnapshotArgs, WriteFileArgs,
};
use crate::render;
use crate::suspended::{CallLink, Calls, call_key};
use crate::work::{ShellLine, Work};

const INSTRUCTIONS: &str = "\
goccia is a sandbox: a virtual filesystem (seeded from the host when the server started) with a \
bash-language shell and a JavaScript runtime working on it. Paths are paths in that filesystem, \
not on the host. Nothing reaches the host's disk unless the host allowed write-back and you call \
write_back. `diff` shows exactly what changed since the sandbox was seeded; `snapshot`/`restore` \
undo. A write the policy refuses fails with [sandbox: file access denied under <mode> mode]; \
when escalation is available, the shell's `escalate --mode <mode> --justification <why> -- \
<command>` asks the user once. Clients of the 2026-07-28 revision (no sessions) call open_sandbox \
first and pass its handle as `sandbox` in every call.";

/// What every handler of one server shares: how sandboxes are made, the
/// sandboxes open by handle, and whether `write_back` is offered.
pub(crate) struct Shared {
    config: McpConfig,
    handles: Handles,
    calls: Calls,
    /// Settled once at start-up, from a sandbox the factory made.
    offers_write_back: bool,
}

impl Shared {
    /// What a sandbox no client can be asked about answers escalations
    /// with: `unavailable` where the client would have been asked, the
    /// factory's own choice otherwise.
    fn approver_without_a_client(config: &McpConfig) -> Option<Arc<dyn Approver>> {
        match config.approval {
            Approval::Client => Some(Arc::new(NobodyToAsk)),
            Approval::Sandbox => None,
        }
    }

    /// The server's shared state; the factory is tried once here, so a
    /// sandbox that cannot be made stops the server before it serves.
    pub(crate) fn new(config: &McpConfig) -> Result<Arc<Shared>, SetupError> {
        let probe = (config.factory)(Shared::approver_without_a_client(config))?;
        Ok(Shared::from_made(config, &probe))
    }

    /// The shared state, `write_back` offered or not as `made` (one
    /// sandbox of the factory's) says.
    fn from_made(config: &McpConfig, made: &Sandbox) -> Arc<Shared> {
        Arc::new(Shared {
            offers_write_back: config.write_back && made.has_copy_rw(),
            handles: Handles::new(config.handle_idle_ttl, config.max_handles),
            calls: Calls::new(config.approval_timeout),
            config: config.clone(),
        })
    }
}

/// One MCP connection's handler: the session's sandbox (made on its first
/// use, for clients with a session), the sandboxes open by handle (for
/// clients of the 2026-07-28 revision), and the tools.
#[derive(Clone)]
pub struct GocciaMcp {
    shared: Arc<Shared>,
    session: Arc<OnceLock<Arc<Sandbox>>>,
    peer: PeerSlot,
    tool_router: ToolRouter<Self>,
}

impl std::fmt::Debug for GocciaMcp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GocciaMcp").finish_non_exhaustive()
    }
}

/// A tool's failure to do what was asked (a missing file, an ambiguous
/// edit), shown to the model as an error result it can act on.
pub(crate) fn refused(message: impl Into<String>) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message.into())])
}

pub(crate) fn text(message: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(message.into())])
}

pub(crate) fn panicked(error: tokio::task::JoinError) -> ErrorData {
    ErrorData::internal_error(format!("the sandbox call failed: {error}"), None)
}

/// Whether a request speaks the revision without sessions.
fn stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
}

/// Whether the client of a 2026-07-28 request can be asked a question: it
/// declared form elicitation in the request's `_meta` (an `elicitation`
/// naming neither mode means form, as in the handshake era). A client
/// that cannot is never asked: its guest's requests are `unavailable`.
fn can_be_asked(context: &RequestContext<RoleServer>) -> bool {
    context
        .meta
        .client_capabilities()
        .and_then(|capabilities| capabilities.elicitation)
        .is_some_and(|elicitation| elicitation.form.is_some() || elicitation.url.is_none())
}

/// Who calls: the bearer token's hash over HTTP (set by the transport),
/// the one client over stdio.
fn caller(context: &RequestContext<RoleServer>) -> Caller {
    context
        .extensions
        .get::<axum::http::request::Parts>()
        .and_then(|parts| parts.extensions.get::<Caller>())
        .cloned()
        .unwrap_or_else(|| Caller("stdio".to_string()))
}

/// The sandbox a call acts on.
enum Target {
    /// The session's own (the handshake era).
    Session(Arc<Sandbox>),
    /// One opened by handle, and the link its escalations ask through.
    Handle(Arc<Sandbox>, CallLink),
}

/// One tool call as the server sees it: who calls, in which era, on which
/// handle, what identifies it for a retry, and the retry's answer.
struct Call {
    /// The tool call's span: the child of the client's trace when its
    /// `_meta` carries a `traceparent` (docs/telemetry.md).
    span: tracing::Span,
    caller: Caller,
    stateless: bool,
    /// A 2026-07-28 call whose client declared elicitation: it may be
    /// suspended on a question.
    suspendable: bool,
    handle: Option<String>,
    key: String,
    state: Option<String>,
    responses: Option<rmcp::model::InputResponses>,
}

impl Call {
    fn new<A: serde::Serialize + HasSandbox>(
        context: &RequestContext<RoleServer>,
        tool: &str,
        args: &A,
        state: Option<String>,
        responses: Option<rmcp::model::InputResponses>,
    ) -> Call {
        let span = tracing::info_span!("goccia.mcp.tool", gen_ai.tool.name = tool);
        if let Some(parent) = context.meta.get_traceparent() {
            goccia::telemetry::continue_trace(&span, parent);
        }
        let stateless = stateless(context);
        let suspendable = stateless && can_be_asked(context);
        Call {
            span,
            caller: caller(context),
            stateless,
            suspendable,
            handle: args.sandbox().map(str::to_string),
            // Only a call that can be suspended needs identifying for its
            // retry: its arguments (a whole file for write_file) are not
            // hashed on every call.
            key: if suspendable && args.sandbox().is_some() {
                call_key(tool, args)
            } else {
                String::new()
            },
            state,
            responses,
        }
    }
}

impl GocciaMcp {
    /// A server of one connection (stdio): its session's sandbox made by
    /// `config`'s factory now — once, the same sandbox telling whether
    /// `write_back` is offered. Must be called on the Tokio runtime the
    /// session will run on.
    pub fn new(config: &McpConfig) -> Result<Self, SetupError> {
        let peer: PeerSlot = Arc::new(OnceLock::new());
        let made = (config.factory)(Self::session_approver(config, &peer))?;
        let shared = Shared::from_made(config, &made);
        Ok(Self::with_parts(
            shared,
            peer,
            OnceLock::from(Arc::new(made)),
        ))
    }

    /// One connection's handler over a server's shared state (HTTP): its
    /// session's sandbox made on first use.
    pub(crate) fn with_shared(shared: Arc<Shared>) -> Self {
        Self::with_parts(shared, Arc::new(OnceLock::new()), OnceLock::new())
    }

    fn with_parts(shared: Arc<Shared>, peer: PeerSlot, session: OnceLock<Arc<Sandbox>>) -> Self {
        let mut tool_router = Self::tool_router();
        if !shared.offers_write_back {
            tool_router.remove_route("write_back");
        }
        GocciaMcp {
            shared,
            session: Arc::new(session),
            peer,
            tool_router,
        }
    }

    /// Who the session's sandbox asks about escalations: the client over
    /// `peer` ([`Approval::Client`]), or the factory's own choice.
    fn session_approver(config: &McpConfig, peer: &PeerSlot) -> Option<Arc<dyn Approver>> {
        match config.approval {
            Approval::Client => Some(Arc::new(ClientApprover {
                peer: peer.clone(),
                runtime: tokio::runtime::Handle::current(),
                timeout: config.approval_timeout,
            })),
            Approval::Sandbox => None,
        }
    }

    /// The session's sandbox, made on first use.
    pub fn sandbox(&self) -> Result<Arc<Sandbox>, SetupError> {
        if let Some(sandbox) = self.session.get() {
            return Ok(sandbox.clone());
        }
        let config = &self.shared.config;
        let made = Arc::new((config.factory)(Self::session_approver(
            config, &self.peer,
        ))?);
        Ok(self.session.get_or_init(|| made).clone())
    }

    /// The sandbox a call acts on: the one its handle names (required in
    /// the 2026-07-28 revision), else the session's.
    fn target(&self, call: &Call) -> Result<Target, ErrorData> {
        let refusal = |refusal: HandleRefusal| ErrorData::invalid_params(refusal.to_string(), None);
        match &call.handle {
            Some(handle) => {
                let (sandbox, link) = self
                    .shared
                    .handles
                    .get(&call.caller, handle)
                    .map_err(refusal)?;
                Ok(Target::Handle(sandbox, link))
            }
            None if call.stateless => Err(refusal(HandleRefusal::Missing)),
            None => self.sandbox().map(Target::Session).map_err(|error| {
                ErrorData::internal_error(format!("the sandbox could not be made: {error}"), None)
            }),
        }
    }

    /// Runs `work` on the call's sandbox (see [`Sandbox::run_shell_then`]
    /// for a command line, which holds no thread here while it runs).
    async fn blocking(
        &self,
        call: Call,
        work: impl FnOnce(&Sandbox) -> CallToolResult + Send + 'static,
    ) -> Result<CallToolResponse, ErrorData> {
        self.dispatch(call, Work::Blocking(Box::new(work))).await
    }

    /// Runs `work` on the call's sandbox. In the 2026-07-28 revision a
    /// handle's call runs suspended-capable (`crate::suspended`): its
    /// guest's escalation answers `input_required`, and a retry carrying
    /// `requestState` delivers the answer instead of running anew.
    async fn dispatch(&self, call: Call, work: Work) -> Result<CallToolResponse, ErrorData> {
        if call.stateless
            && let Some(state) = &call.state
        {
            return self
                .shared
                .calls
                .answer(
                    call.caller.clone(),
                    call.key.clone(),
                    state,
                    call.responses.as_ref(),
                )
                .await;
        }
        let span = call.span.clone();
        match self.target(&call)? {
            // A call that may be suspended on a question runs on a thread
            // of its own, which waits for the answer while the tool call
            // answers `input_required`.
            Target::Handle(sandbox, link) if call.suspendable => {
                self.shared
                    .calls
                    .run(&link, call.caller, call.key, move || {
                        Ok(work.run_blocking(&sandbox, &span))
                    })
                    .await
            }
            // One that cannot be asked runs in place, its handle's calls
            // still one at a time; its guest's requests are `unavailable`.
            Target::Handle(sandbox, link) if call.stateless => {
                let _turn = link.turn().await;
                work.answer(sandbox, span).await
            }
            Target::Handle(sandbox, _) | Target::Session(sandbox) => {
                work.answer(sandbox, span).await
            }
        }
    }

    /// A run with this call's deadline, its output captured against the
    /// sandbox's budget (truncated per docs/calls.md with the server's defaults).
    async fn run(
        &self,
        call: Call,
        timeout_ms: Option<u64>,
        runs: impl FnOnce(&Sandbox, &CallOptions) -> Result<Run, goccia::RunError> + Send + 'static,
    ) -> Result<CallToolResponse, ErrorData> {
        self.blocking(call, move |sandbox| {
            match crate::work::call_options(sandbox, timeout_ms) {
                Ok(options) => crate::work::rendered(runs(sandbox, &options)),
                Err(refusal) => refusal,
            }
        })
        .await
    }
}

#[tool_router]
impl GocciaMcp {
    #[tool(
        description = "Run a bash command line in the sandbox's virtual shell (pipes, redirections, \
        loops, functions; coreutils, grep, sed, awk, jq, find, diff, patch, tar and more, all working \
        on the sandbox filesystem, never the host). The session keeps its cwd, variables and functions \
        between calls. Returns the exit code, stdout and stderr; long output is cut in the middle.",
        annotations(title = "Shell", open_world_hint = false)
    )]
    async fn shell(
        &self,
        Parameters(args): Parameters<ShellArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "shell", &args, state, responses);
        let ShellArgs {
            command,
            timeout_ms,
            cwd,
            env,
            sandbox: _,
        } = args;
        let line = ShellLine {
            command,
            timeout_ms,
            cwd,
            env,
        };
        self.dispatch(call, Work::Shell(line)).await
    }

    #[tool(
        description = "Run JavaScript in the sandbox (QuickJS, ES modules, Node-style fs on the sandbox \
        filesystem, `$` for shell commands, fetch only to allowed hosts). Give `path` of a module in the \
        sandbox or inline `code`. Returns the exit code, stdout, stderr and the default export as JSON.",
        annotations(title = "Run JavaScript", open_world_hint = false)
    )]
    async fn run_script(
        &self,
        Parameters(args): Parameters<RunScriptArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "run_script", &args, state, responses);
        let RunScriptArgs {
            path,
            code,
            timeout_ms,
            sandbox: _,
        } = args;
        match (path, code) {
            (Some(path), None) => {
                self.run(call, timeout_ms, move |sandbox, options| {
                    sandbox.run_script_with(&path, options)
                })
                .await
            }
            (None, Some(code)) => {
                self.run(call, timeout_ms, move |sandbox, options| {
                    sandbox.run_code_with(&code, options)
                })
                .await
            }
            _ => Ok(CallToolResponse::from(refused(
                "give exactly one of `path` (a module in the sandbox) and `code` (inline source)",
            ))),
        }
    }

    #[tool(
        description = "Read a text file of the sandbox filesystem. `offset` (first line, from 1) and \
        `limit` (number of lines) read a part; a long file is cut at the output limit with a note saying \
        where to read on.",
        annotations(title = "Read file", read_only_hint = true, open_world_hint = false)
    )]
    async fn read_file(
        &self,
        Parameters(args): Parameters<ReadFileArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "read_file", &args, state, responses);
        self.blocking(call, move |sandbox| {
            // A relative path is the shell's: from the session's cwd.
            let mut args = args;
            args.path = sandbox.shell_path(&args.path);
            let bytes = match sandbox.read(&args.path) {
                Ok(bytes) => bytes,
                Err(error) => return refused(error.to_string()),
            };
            let Ok(content) = std::str::from_utf8(&bytes) else {
                return refused(format!(
                    "{} is a binary file ({} bytes): inspect it with the shell (od -c, base64, wc -c)",
                    args.path,
                    bytes.len()
                ));
            };
            if args.limit == Some(0) {
                return refused("limit must be at least 1");
            }
            let max = sandbox.limits().max_output;
            text(render::lines(
                content,
                args.offset.unwrap_or(1),
                args.limit,
                max,
            ))
        })
        .await
    }

    #[tool(
        description = "Create or overwrite a file in the sandbox filesystem with the given text \
        (parent folders are created). Subject to the sandbox's write policy; after a denial that offers \
        escalation, retry once with sandboxPermissions and a justification. The host is not touched.",
        annotations(title = "Write file", destructive_hint = true, open_world_hint = false)
    )]
    async fn write_file(
        &self,
        Parameters(args): Parameters<WriteFileArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "write_file", &args, state, responses);
        self.blocking(call, move |sandbox| {
            // A relative path is the shell's: from the session's cwd.
            let mut args = args;
            args.path = sandbox.shell_path(&args.path);
            let size = args.content.len();
            let detail = format!("writeFile {}", args.path);
            let written = sandbox.with_escalation(
                args.sandbox_permissions.as_deref(),
                args.justification.as_deref(),
                &detail,
                |sandbox| sandbox.write_as_guest(&args.path, args.content),
            );
            match written {
                Ok(()) => text(format!("wrote {size} bytes to {}", args.path)),
                Err(error) => refused(access_error(sandbox, error)),
            }
        })
        .await
    }

    #[tool(
        description = "Replace exactly one occurrence of `oldText` by `newText` in a sandbox file. If \
        `oldText` occurs zero or several times nothing changes and the answer says how many times it \
        was found: include more surrounding lines to make it unique.",
        annotations(title = "Edit file", destructive_hint = true, open_world_hint = false)
    )]
    async fn edit_file(
        &self,
        Parameters(args): Parameters<EditFileArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "edit_file", &args, state, responses);
        self.blocking(call, move |sandbox| {
            // A relative path is the shell's: from the session's cwd.
            let mut args = args;
            args.path = sandbox.shell_path(&args.path);
            let bytes = match sandbox.read(&args.path) {
                Ok(bytes) => bytes,
                Err(error) => return refused(error.to_string()),
            };
            let Ok(content) = std::str::from_utf8(&bytes) else {
                return refused(format!(
                    "{} is not UTF-8 text: edit it with the shell",
                    args.path
                ));
            };
            let edited = match render::edit(&args.path, content, &args.old_text, &args.new_text) {
                Ok(edited) => edited,
                Err(error) => return refused(error.to_string()),
            };
            let detail = format!("edit {}", args.path);
            let written = sandbox.with_escalation(
                args.sandbox_permissions.as_deref(),
                args.justification.as_deref(),
                &detail,
                |sandbox| sandbox.write_as_guest(&args.path, edited),
            );
            match written {
                Ok(()) => text(format!("replaced 1 occurrence in {}", args.path)),
                Err(error) => refused(access_error(sandbox, error)),
            }
        })
        .await
    }

    #[tool(
        description = "List a folder of the sandbox filesystem: folders end with /, files show their \
        size. With `recursive`, every path below it, one per line.",
        annotations(title = "List folder", read_only_hint = true, open_world_hint = false)
    )]
    async fn list(
        &self,
        Parameters(args): Parameters<ListArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "list", &args, state, responses);
        self.blocking(call, move |sandbox| {
            let root = sandbox.shell_path(&args.path.unwrap_or_else(|| "/".to_string()));
            let mut lines = Vec::new();
            match walk(
                sandbox,
                &root,
                "",
                args.recursive.unwrap_or(false),
                &mut lines,
            ) {
                Ok(()) if lines.is_empty() => text(format!("{root} is empty")),
                Ok(()) => text(lines.join("\n") + "\n"),
                Err(error) => refused(error.to_string()),
            }
        })
        .await
    }

    #[tool(
        description = "What changed in the sandbox filesystem since it was seeded: `unified` (default) \
        is a patch `git apply` takes, `json` lists each changed path with its kind and hashes.",
        annotations(title = "Diff", read_only_hint = true, open_world_hint = false)
    )]
    async fn diff(
        &self,
        Parameters(args): Parameters<DiffArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "diff", &args, state, responses);
        let name = args.format.unwrap_or_else(|| "unified".to_string());
        let Some(format) = DiffFormat::parse(&name) else {
            return Ok(CallToolResponse::from(refused(format!(
                "format must be unified or json, not `{name}`"
            ))));
        };
        self.blocking(call, move |sandbox| {
            if sandbox.changes().is_empty() {
                return text("no changes since the sandbox was seeded");
            }
            text(sandbox.diff(format))
        })
        .await
    }

    #[tool(
        description = "Remember the sandbox filesystem and the shell session (cwd, variables, \
        functions, aliases, options) as they are now (instant, no copy of files), with an optional \
        label; `restore` with the returned id puts both back exactly.",
        annotations(title = "Snapshot", open_world_hint = false)
    )]
    async fn snapshot(
        &self,
        Parameters(args): Parameters<SnapshotArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "snapshot", &args, state, responses);
        self.blocking(call, move |sandbox| {
            match sandbox.snapshot_labeled(args.label.as_deref()) {
                Ok(id) => text(format!("snapshot id: {}", id.index())),
                Err(error) => refused(error.to_string()),
            }
        })
        .await
    }

    #[tool(
        description = "Put the sandbox filesystem and the shell session back exactly as they were \
        when `snapshot` returned this id.",
        annotations(
            title = "Restore snapshot",
            destructive_hint = true,
            open_world_hint = false
        )
    )]
    async fn restore(
        &self,
        Parameters(args): Parameters<RestoreArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "restore", &args, state, responses);
        let Some(index) = args.snapshot_id.index() else {
            return Ok(CallToolResponse::from(refused(format!(
                "snapshotId `{}` is not an id `snapshot` returned (a number)",
                args.snapshot_id
            ))));
        };
        self.blocking(call, move |sandbox| {
            match sandbox.restore(SnapshotId::from_index(index)) {
                Ok(()) => text(format!("restored snapshot {index}")),
                Err(error) => refused(error.to_string()),
            }
        })
        .await
    }

    #[tool(
        description = "Open a new sandbox, seeded as the server was told, and return its handle: \
        `{\"sandbox\": \"sbx_...\"}`. Clients of the 2026-07-28 revision name it as `sandbox` in every \
        other call; it is yours alone and is closed after a while unused (see close_sandbox).",
        annotations(title = "Open sandbox", open_world_hint = false)
    )]
    async fn open_sandbox(
        &self,
        Parameters(_): Parameters<NoArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let shared = self.shared.clone();
        let caller = caller(&context);
        let opened = tokio::task::spawn_blocking(move || {
            // Its escalations are asked through the call running on it
            // (`crate::suspended`).
            let (link, asker) = CallLink::new(shared.config.approval_timeout);
            let approver: Option<Arc<dyn Approver>> = match shared.config.approval {
                Approval::Client => Some(Arc::new(asker)),
                Approval::Sandbox => None,
            };
            let sandbox = (shared.config.factory)(approver)
                .map_err(|error| format!("the sandbox could not be made: {error}"))?;
            shared
                .handles
                .open(&caller, sandbox, link)
                .map_err(|refusal| refusal.to_string())
        })
        .await
        .map_err(panicked)?;
        Ok(match opened {
            Ok(handle) => text(serde_json::json!({ "sandbox": handle }).to_string()),
            Err(message) => refused(message),
        })
    }

    #[tool(
        description = "Close a sandbox opened with open_sandbox: its files and shell are let go and its \
        handle names nothing from then on.",
        annotations(
            title = "Close sandbox",
            destructive_hint = true,
            open_world_hint = false
        )
    )]
    async fn close_sandbox(
        &self,
        Parameters(args): Parameters<SandboxArgs>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let Some(handle) = args.sandbox else {
            return Err(ErrorData::invalid_params(
                "close_sandbox needs `sandbox`: the handle open_sandbox returned",
                None,
            ));
        };
        self.shared
            .handles
            .close(&caller(&context), &handle)
            .map_err(|refusal| ErrorData::invalid_params(refusal.to_string(), None))?;
        Ok(text(format!("closed {handle}")))
    }

    #[tool(
        description = "Write the sandbox's changes back to the host folders it was seeded from with \
        write-back allowed. Only call it when the user wants the changes on their disk. Afterwards the \
        diff starts again from the written state.",
        annotations(
            title = "Write back to the host",
            destructive_hint = true,
            open_world_hint = true
        )
    )]
    async fn write_back(
        &self,
        Parameters(args): Parameters<SandboxArgs>,
        context: RequestContext<RoleServer>,
        RequestState(state): RequestState,
        InputResponses(responses): InputResponses,
    ) -> Result<CallToolResponse, ErrorData> {
        let call = Call::new(&context, "write_back", &args, state, responses);
        self.blocking(call, |sandbox| match sandbox.write_back() {
            Ok(report) => {
                let mut shown = report.render();
                if report.skipped.is_empty() {
                    sandbox.rebaseline();
                } else {
                    shown.push_str("skipped changes stay in the diff; nothing was rebaselined\n");
                }
                if report.written.is_empty() && report.skipped.is_empty() {
                    shown = "nothing to write back: no changes\n".to_string();
                }
                text(shown)
            }
            Err(error) => refused(error.to_string()),
        })
        .await
    }
}

/// The denial's full text (marker and, when an approver could grant
/// more, the hint), an escalation's refusal with its code, or the error
/// as it is.
fn access_error(sandbox: &Sandbox, error: AccessError) -> String {
    match &error {
        AccessError::Denied { path, .. } => {
            let denial = sandbox.policy().denial();
            format!("{path}: {}", denial.reason(goccia::Subject::Operation))
        }
        AccessError::Escalation(refusal) => format!("{}: {}", refusal.code, refusal.message),
        _ => error.to_string(),
    }
}

/// Lines of a listing of `path` (names relative to the first folder).
fn walk(
    sandbox: &Sandbox,
    path: &str,
    prefix: &str,
    recursive: bool,
    lines: &mut Vec<String>,
) -> Result<(), AccessError> {
    for entry in sandbox.list(path)? {
        let child = if path.ends_with('/') {
            format!("{path}{}", entry.name)
        } else {
            format!("{path}/{}", entry.name)
        };
        let name = format!("{prefix}{}", entry.name);
        let size = match entry.node_type {
            NodeType::File => sandbox.read(&child).ok().map(|bytes| bytes.len() as u64),
            NodeType::Directory | NodeType::Symlink => None,
        };
        lines.push(render::entry_line(&name, entry.node_type, size));
        if recursive && entry.node_type == NodeType::Directory {
            walk(sandbox, &child, &format!("{name}/"), true, lines)?;
        }
    }
    Ok(())
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for GocciaMcp {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_resources()
            .build();
        let mut info = ServerConfig::new(capabilities);
        info.protocol_version = ProtocolVersion::V_2025_11_25;
        info.server_info = Implementation::new("goccia", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(INSTRUCTIONS.to_string());
        info
    }

    /// Both eras: revisions with a session (a sandbox is one) and the
    /// 2026-07-28 revision without (sandboxes are named by handles).
    fn supported_protocol_versions(&self) -> std::borrow::Cow<'static, [ProtocolVersion]> {
        std::borrow::Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
    }

    /// The client is known from its `initialize` on: a tool call that
    /// races the `initialized` notification (HTTP carries them on separate
    /// requests) can still ask it for an escalation.
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        context.peer.set_peer_info(request.clone());
        let _ = self.peer.set(context.peer.clone());
        self.negotiate_initialize(&request)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let _ = self.peer.set(context.peer);
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(crate::resources::list())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let sandbox = self.sandbox().map_err(|error| {
            ErrorData::internal_error(format!("the sandbox could not be made: {error}"), None)
        })?;
        crate::resources::read(&sandbox, &request.uri).map(ReadResourceResponse::from)
    }
}
