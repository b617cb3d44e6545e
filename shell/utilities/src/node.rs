//! `node` where models type it (docs/shell.md): `node file.js`, `node -e
//! CODE`, `node -p EXPR` and a script on stdin run the sandbox's own
//! JavaScript runtime — the one `goccia` runs — on the sandbox's files,
//! through the same launcher as the shell's `goccia` command. `npm` and
//! `npx` say plainly that nothing can be installed here and what to do
//! instead. A host command of the same name (docs/host-commands.md) comes
//! first: these run only when the host named none.

use goccia_interp::input::open_source;
use goccia_interp::interp::{ExecResult, ShellView};

/// Node's own status for an option it does not know.
const BAD_OPTION: i32 = 9;

/// What to run.
enum Script {
    /// A file of the sandbox.
    File(String),
    /// Source given inline (`-e`; `-p` already wrapped to print its value).
    Code(String),
    /// Source read from stdin (no script, or `-`).
    Stdin,
}

/// A `node` command line, read.
struct Invocation<'a> {
    script: Script,
    /// The name inline source runs under: its folder is the shell's, its
    /// extension the module kind (`--input-type`).
    name: &'static str,
    /// Words after the script.
    extra: &'a [String],
}

/// Reads node's command line: `-e`/`--eval`, `-p`/`--print` (the value of
/// the expression, printed), `--input-type`, a script path, `-` or
/// nothing for a script on stdin.
fn invocation(args: &[String]) -> Result<Invocation<'_>, String> {
    let mut index = 1;
    let mut code = None;
    // Code given inline is CommonJS unless it has module syntax, as in
    // Node 22, or as `--input-type` says.
    let mut name = "[eval].js";
    while let Some(arg) = args.get(index) {
        let (option, attached) = match arg.split_once('=') {
            Some((option, value)) if option.starts_with("--") => (option, Some(value)),
            _ => (arg.as_str(), None),
        };
        let mut value = || -> Result<String, String> {
            if let Some(value) = attached {
                return Ok(value.to_string());
            }
            index += 1;
            args.get(index)
                .cloned()
                .ok_or_else(|| format!("{option} requires an argument"))
        };
        match option {
            "-e" | "--eval" => code = Some(value()?),
            "-p" | "--print" => {
                // The expression's value, as console.log shows it.
                let quoted = serde_json::to_string(&value()?).unwrap_or_default();
                code = Some(format!("console.log(eval({quoted}));"));
            }
            "--input-type" => {
                let kind = value()?;
                name = match kind.as_str() {
                    "module" => "[eval].mjs",
                    "commonjs" => "[eval].cjs",
                    _ => {
                        return Err(format!(
                            "--input-type must be module or commonjs, not `{kind}`"
                        ));
                    }
                };
            }
            "--" => {
                index += 1;
                break;
            }
            "-" => break,
            other if other.starts_with('-') => {
                return Err(format!(
                    "bad option: {other} (the sandbox's node takes -e, -p, --input-type and a script)"
                ));
            }
            _ => break,
        }
        index += 1;
    }
    let rest = &args[index.min(args.len())..];
    let (script, extra) = match (code, rest.first()) {
        (Some(code), _) => (Script::Code(code), rest),
        (None, Some(first)) if first != "-" => (Script::File(first.clone()), &rest[1..]),
        (None, Some(_)) => (Script::Stdin, &rest[1..]),
        (None, None) => (Script::Stdin, rest),
    };
    Ok(Invocation {
        script,
        name,
        extra,
    })
}

pub fn node(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let invocation = match invocation(args) {
        Ok(invocation) => invocation,
        Err(message) => return Ok(shell.fail_command("node", &message, BAD_OPTION)),
    };
    if !invocation.extra.is_empty() {
        let message = format!(
            "arguments after the script are not passed to it here (`{}`): process.argv holds the script only",
            invocation.extra.join(" ")
        );
        return Ok(shell.fail_command("node", &message, BAD_OPTION));
    }
    let code = match invocation.script {
        Script::File(path) => {
            return shell.run_nested(&["goccia".to_string(), path]);
        }
        Script::Code(code) => code,
        Script::Stdin => {
            let Ok(mut source) = open_source(shell, "node", "-") else {
                return Ok(1);
            };
            match source.read_all() {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(error) => return shell.io_status("node", error),
            }
        }
    };
    let launched = [
        "goccia".to_string(),
        "--eval".to_string(),
        code,
        invocation.name.to_string(),
    ];
    shell.run_nested(&launched)
}

/// `npm`, `npx` (and the like): nothing is installed from a registry
/// inside the sandbox.
pub fn npm(shell: &mut ShellView, args: &[String]) -> ExecResult {
    let name = args.first().map_or("npm", String::as_str);
    let message = format!(
        "packages cannot be installed in the sandbox (no registry, no network for it). \
         Seed node_modules from the host, or run the host's {name} as a host command \
         (--host-command {name}, docs/host-commands.md)"
    );
    Ok(shell.fail_command(name, &message, 1))
}
