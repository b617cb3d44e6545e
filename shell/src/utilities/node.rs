//! `node` where models type it (docs/shell.md): `node file.js`, `node -e
//! CODE`, `node -p EXPR` and a script on stdin run the sandbox's own
//! JavaScript runtime — the one `goccia` runs — on the sandbox's files,
//! through the same launcher as the shell's `goccia` command. `npm` and
//! `npx` say plainly that nothing can be installed here and what to do
//! instead. A host command of the same name (docs/host-commands.md) comes
//! first: these run only when the host named none.

use crate::interp::{ExecResult, Shell};
use crate::utilities::input::open_source;

/// Node's own status for an option it does not know.
const BAD_OPTION: i32 = 9;

/// What to run: a file, or source code.
enum Script {
    File(String),
    Code(String),
}

/// Reads node's command line: `-e`/`--eval`, `-p`/`--print` (the value of
/// the expression, printed), `--input-type` (the runtime takes ES modules
/// and CommonJS alike), `-` or nothing for a script on stdin.
type Parsed<'a> = (Option<Script>, bool, &'static str, &'a [String]);

fn script_of(args: &[String]) -> Result<Parsed<'_>, String> {
    let mut index = 1;
    let mut code = None;
    let mut print = false;
    // Code given inline is CommonJS unless it has module syntax, as in
    // Node 22, or as `--input-type` says.
    let mut name_as = "[eval].js";
    while let Some(arg) = args.get(index) {
        let (name, attached) = match arg.split_once('=') {
            Some((name, value)) if name.starts_with("--") => (name, Some(value)),
            _ => (arg.as_str(), None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            if let Some(value) = attached {
                return Ok(value.to_string());
            }
            index += 1;
            args.get(index)
                .cloned()
                .ok_or_else(|| format!("{what} requires an argument"))
        };
        match name {
            "-e" | "--eval" => code = Some(value(name)?),
            "-p" | "--print" => {
                code = Some(value(name)?);
                print = true;
            }
            "--input-type" => {
                let kind = value(name)?;
                name_as = match kind.as_str() {
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
    Ok(match (code, rest.first()) {
        (Some(code), _) => (Some(Script::Code(code)), print, name_as, rest),
        (None, Some(first)) if first != "-" => (
            Some(Script::File(first.clone())),
            false,
            name_as,
            &rest[1..],
        ),
        (None, Some(_)) => (None, false, name_as, &rest[1..]),
        (None, None) => (None, false, name_as, rest),
    })
}

pub fn node(shell: &mut Shell, args: &[String]) -> ExecResult {
    let (script, print, name_as, extra) = match script_of(args) {
        Ok(parsed) => parsed,
        Err(message) => return Ok(shell.fail_command("node", &message, BAD_OPTION)),
    };
    if !extra.is_empty() {
        let message = format!(
            "arguments after the script are not passed to it here (`{}`): process.argv holds the script only",
            extra.join(" ")
        );
        return Ok(shell.fail_command("node", &message, BAD_OPTION));
    }
    let mut launched = vec!["goccia".to_string()];
    match script {
        Some(Script::File(path)) => launched.push(path),
        Some(Script::Code(code)) => {
            let code = if print {
                // `-p`: the expression's value, as console.log shows it.
                let quoted = serde_json::to_string(&code).unwrap_or_default();
                format!("console.log(eval({quoted}));")
            } else {
                code
            };
            launched.extend(["--eval".to_string(), code, name_as.to_string()]);
        }
        None => {
            let Ok(mut source) = open_source(shell, "node", "-") else {
                return Ok(1);
            };
            let code = match source.read_all() {
                Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                Err(error) => return shell.io_status("node", error),
            };
            launched.extend(["--eval".to_string(), code, name_as.to_string()]);
        }
    }
    crate::builtins::flow::goccia(shell, &launched)
}

/// `npm`, `npx` (and the like): nothing is installed from a registry
/// inside the sandbox.
pub fn npm(shell: &mut Shell, args: &[String]) -> ExecResult {
    let name = args.first().map_or("npm", String::as_str);
    let message = format!(
        "packages cannot be installed in the sandbox (no registry, no network for it). \
         Seed node_modules from the host, or run the host's {name} as a host command \
         (--host-command {name}, docs/host-commands.md)"
    );
    Ok(shell.fail_command(name, &message, 1))
}
