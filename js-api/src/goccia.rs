//! Host side of the guest's `goccia` module (`js/goccia.js`): `shell` runs
//! one `$` command in the sandbox's shared shell, `runScript` asks the
//! [`Nest`](crate::nest::Nest) for a nested run.

use std::io::{self, Write};
use std::rc::Rc;

use goccia_core::{FailureKind, LimitKind, Output, Stream};
use goccia_shell::Shell;
use goccia_shell::io::{BytesReader, Fd};
use rquickjs::{Ctx, Function, Object, Result, Value};

use crate::errors::{new_error, throw, throw_stopped};
use crate::host::Host;
use crate::nest::{NestError, ParentState, ScriptRequest, ScriptResult};

/// The native functions behind `js/goccia.js`.
pub fn natives<'js>(ctx: &Ctx<'js>, host: Rc<Host>) -> Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    let h = host.clone();
    let shell = Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>, command: String, options: Object<'js>| {
            run_command(&ctx, &h, &command, &options)
        },
    )?;
    object.set("shell", shell)?;
    let run_script = Function::new(
        ctx.clone(),
        move |ctx: Ctx<'js>, path: String, options: String| run_script(&ctx, &host, path, &options),
    )?;
    object.set("runScript", run_script)?;
    Ok(object)
}

// ----- $ -----

/// Options of one `$` command.
struct CommandOptions {
    quiet: bool,
    cwd: Option<String>,
    env: Vec<(String, String)>,
    stdin: Vec<u8>,
}

fn command_options<'js>(options: &Object<'js>) -> Result<CommandOptions> {
    let stdin = match options.get::<_, Value>("stdin")? {
        value if value.is_string() || value.is_object() => crate::fs::bytes_of(&value, "utf8")?,
        _ => Vec::new(),
    };
    let env = match options.get::<_, Option<Object>>("env")? {
        Some(env) => env.props::<String, String>().collect::<Result<Vec<_>>>()?,
        None => Vec::new(),
    };
    Ok(CommandOptions {
        quiet: options.get::<_, Option<bool>>("quiet")?.unwrap_or(false),
        cwd: options.get("cwd")?,
        env,
        stdin,
    })
}

/// Runs `command` in the shared shell (or, with `cwd`/`env`, in a copy of
/// it, so those stay with this command) and returns what it printed.
fn run_command<'js>(
    ctx: &Ctx<'js>,
    host: &Host,
    command: &str,
    options: &Object<'js>,
) -> Result<Object<'js>> {
    host.check()
        .map_err(|stopped| throw_stopped(ctx, stopped))?;
    let options = command_options(options)?;
    let stdout = Captured::new(host, Stream::Stdout, options.quiet);
    let stderr = Captured::new(host, Stream::Stderr, options.quiet);
    let mut slot = host.shell.lock();
    let shared = slot.get_or_insert_with(|| new_shell(host));
    // The session's shell may come from another run (or `run_shell`):
    // this command runs under this run's deadline.
    shared.set_watch(host.watch.clone());
    let mut copy = (options.cwd.is_some() || !options.env.is_empty()).then(|| shared.subshell());
    let shell = copy.as_mut().unwrap_or(shared);
    let saved = [0, 1, 2].map(|fd| shell.fds().get(fd).cloned());
    shell
        .fds_mut()
        .set(0, Fd::reader(BytesReader::new(options.stdin.clone())));
    shell.fds_mut().set(1, Fd::writer(stdout.clone()));
    shell.fds_mut().set(2, Fd::writer(stderr.clone()));
    let prepared = prepare_copy(shell, &options);
    let status = match prepared {
        Ok(()) => shell.run_line(command).map(|line| line.status),
        Err(status) => Ok(status),
    };
    for (fd, saved) in saved.into_iter().enumerate() {
        if let Some(saved) = saved {
            shell.fds_mut().set(fd, saved);
        }
    }
    drop(slot);
    // A `$` that hits the deadline or a limit ends the whole run.
    let status = status.map_err(|stop| throw_stopped(ctx, host.stopped(stop)))?;
    let result = Object::new(ctx.clone())?;
    result.set("exitCode", status)?;
    result.set(
        "stdout",
        String::from_utf8_lossy(&stdout.take()).into_owned(),
    )?;
    result.set(
        "stderr",
        String::from_utf8_lossy(&stderr.take()).into_owned(),
    )?;
    Ok(result)
}

/// Applies `.cwd()` and `.env()` to the command's own copy of the shell.
fn prepare_copy(shell: &mut Shell, options: &CommandOptions) -> std::result::Result<(), i32> {
    if let Some(cwd) = &options.cwd {
        let target = shell
            .cwd()
            .resolve(cwd)
            .ok()
            .filter(|path| shell.context().vfs.lock().is_dir(path));
        match target {
            Some(path) => shell.set_cwd(path),
            None => {
                shell.write_stderr(format!("cd: {cwd}: No such file or directory\n").as_bytes());
                return Err(1);
            }
        }
    }
    for (name, value) in &options.env {
        if !shell.export(name, value) {
            shell.write_stderr(format!("export: `{name}': not a valid identifier\n").as_bytes());
            return Err(1);
        }
    }
    Ok(())
}

/// Runs `change` on the sandbox's shared shell (made first if no `$` or
/// session made it yet): `process.chdir` moves the session's cwd.
pub(crate) fn with_shell(host: &Host, change: impl FnOnce(&mut Shell)) {
    let mut slot = host.shell.lock();
    let shell = slot.get_or_insert_with(|| new_shell(host));
    change(shell);
}

/// The shell all `$` of this sandbox share, at `/` with the sandbox's
/// deadline; its own `goccia` builtin nests through the same runner.
fn new_shell(host: &Host) -> Shell {
    let network = crate::fetch::ShellNetwork {
        policy: host.network.clone(),
        audit: host.audit.clone(),
        advice: host.advice.clone(),
        relay: host.relay.clone(),
    };
    let context = goccia_shell::context_with_hooks(
        host.vfs.clone(),
        host.watch.clone(),
        host.limits.clone(),
        host.audit.clone(),
        goccia_shell::Hooks {
            launcher: Some(host.nest.launcher()),
            host: host.programs.0.clone(),
            network: Some(std::sync::Arc::new(network)),
        },
    );
    let mut shell = Shell::new(
        context,
        Fd::null_input(),
        Fd::null_output(),
        Fd::null_output(),
    );
    for (name, value) in &host.env {
        shell.export(name, value);
    }
    shell
}

/// A `$` command's stdout or stderr: kept for the result and, unless
/// quiet, written through to the sandbox's output as produced. Every byte
/// is charged to the sandbox's output budget once.
#[derive(Clone)]
struct Captured {
    buffer: std::sync::Arc<parking_lot::Mutex<Vec<u8>>>,
    /// Where the bytes are charged (and, unless quiet, printed).
    output: Output,
    stream: Stream,
}

impl Captured {
    fn new(host: &Host, stream: Stream, quiet: bool) -> Self {
        let output = if quiet {
            Output::to_writers(io::sink(), io::sink(), host.output.budget().clone())
        } else {
            host.output.clone()
        };
        Captured {
            buffer: Default::default(),
            output,
            stream,
        }
    }

    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.buffer.lock())
    }
}

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.output.write(self.stream, bytes);
        self.buffer.lock().extend_from_slice(bytes);
        written
            .map(|()| bytes.len())
            .map_err(goccia_core::Stop::into_io)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

// ----- runScript -----

fn run_script<'js>(
    ctx: &Ctx<'js>,
    host: &Host,
    path: String,
    options: &str,
) -> Result<Object<'js>> {
    host.check()
        .map_err(|stopped| throw_stopped(ctx, stopped))?;
    let request = ScriptRequest::from_options(path, options).map_err(|message| {
        let error = new_error(ctx, "TypeError", &format!("runScript: {message}"));
        throw(ctx, error)
    })?;
    let parent = ParentState {
        vfs: host.vfs.clone(),
        watch: host.watch.clone(),
        budget: host.output.budget().clone(),
        shell: host.shell.clone(),
        // A child run reads no stdin of its caller's.
        stdin: None,
    };
    let result = host.nest.run_script(&parent, request);
    // The caller's own deadline may have passed while the child ran.
    host.check()
        .map_err(|stopped| throw_stopped(ctx, stopped))?;
    match result {
        Ok(result) => result_object(ctx, result),
        Err(error @ NestError::Depth { .. }) => {
            let advice = host.advice.for_limit(LimitKind::Depth);
            let message = format!("runScript: {error}{advice}");
            let error = new_error(ctx, "Error", &message);
            error.set("code", "ERR_DEPTH")?;
            Err(throw(ctx, error))
        }
        Err(NestError::NotWider(refusal)) => {
            let error = new_error(ctx, "Error", &format!("runScript: {}", refusal.message));
            error.set("code", refusal.code)?;
            Err(throw(ctx, error))
        }
    }
}

fn result_object<'js>(ctx: &Ctx<'js>, result: ScriptResult) -> Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    object.set("exitCode", result.exit_code)?;
    object.set(
        "stdout",
        String::from_utf8_lossy(&result.stdout).into_owned(),
    )?;
    object.set(
        "stderr",
        String::from_utf8_lossy(&result.stderr).into_owned(),
    )?;
    if let Some(value) = result.result {
        object.set("resultJson", value.to_string())?;
    }
    object.set("error", result.error)?;
    // The typed changes become text here, at the JS boundary: the diff in
    // its format, and the change list as the JSON diff's records.
    let (diff, changes) = match &result.changes {
        Some(changes) => {
            let records = goccia_vfs::changes::to_document(&changes.changes).changes;
            let json = serde_json::to_string(&records).expect("change records serialise");
            (Some(changes.render()), Some(json))
        }
        None => (None, None),
    };
    object.set("diff", diff)?;
    object.set("changesJson", changes)?;
    object.set("failureKind", result.failure_kind.map(FailureKind::as_str))?;
    Ok(object)
}
