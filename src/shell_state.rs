//! A shell session's state as the shell itself prints it (docs/vfs.md,
//! "Snapshots"): its variables (`declare -p`, plain, exported, arrays,
//! with their attributes), functions (`declare -f`), aliases, traps,
//! options (`set +o`, `shopt -p`) and directory stack (`dirs -l -p`, whose
//! top is the working folder). Capturing runs in a subshell, so the
//! session — `$?` included — is left as it was; restoring runs a script
//! that first clears what the session holds now, then declares what was
//! captured, rebuilds the stack and sets the options last (so `set -e` or
//! `set -u` cannot cut the restore short).

/// Variables the shell keeps itself (or that describe the process), never
/// captured or cleared: `case` patterns.
const KEPT_BY_THE_SHELL: &str = "__goccia_*|BASH|BASH_*|BASHOPTS|BASHPID|SHELLOPTS|UID|EUID|PPID|GROUPS|RANDOM|SRANDOM|SECONDS|LINENO|FUNCNAME|HISTCMD|PIPESTATUS|_|EPOCHSECONDS|EPOCHREALTIME|DIRSTACK|PWD|OLDPWD|SHLVL|COMP_*|HOSTNAME|HOSTTYPE|MACHTYPE|OSTYPE";

/// Where the options begin in a capture.
const OPTIONS_MARK: &str = "#goccia-options";
/// Where the directory stack begins in a capture.
const DIRS_MARK: &str = "#goccia-dirs";

/// The command line that prints the session's state (its status kept).
pub(crate) fn capture_command() -> String {
    format!(
        "( __goccia_status=$?
  for __goccia_name in $(compgen -v); do
    case $__goccia_name in {KEPT_BY_THE_SHELL}) ;; *) declare -p \"$__goccia_name\" ;; esac
  done
  declare -f
  alias -p
  trap -p
  echo '{OPTIONS_MARK}'
  set +o
  shopt -p
  echo '{DIRS_MARK}'
  dirs -l -p
  exit $__goccia_status )"
    )
}

/// Why a capture could not be read.
#[derive(Debug, thiserror::Error)]
#[error("the shell's state could not be read back: {0}")]
pub struct UnreadableState(&'static str);

/// The script that puts a session back into the state `captured` (what
/// [`capture_command`] printed) describes.
pub(crate) fn restore_script(captured: &str) -> Result<String, UnreadableState> {
    let (declarations, rest) = captured
        .split_once(&format!("{OPTIONS_MARK}\n"))
        .ok_or(UnreadableState("no options"))?;
    let (options, dirs) = rest
        .split_once(&format!("{DIRS_MARK}\n"))
        .ok_or(UnreadableState("no directory stack"))?;
    let stack: Vec<&str> = dirs.lines().filter(|line| !line.is_empty()).collect();
    let (bottom, above) = stack
        .split_last()
        .ok_or(UnreadableState("an empty directory stack"))?;
    let mut script = format!(
        "set +e +u
for __goccia_name in $(compgen -A function); do unset -f \"$__goccia_name\"; done
unalias -a
for __goccia_name in $(compgen -v); do
  case $__goccia_name in {KEPT_BY_THE_SHELL}) ;; *) unset \"$__goccia_name\" 2>/dev/null ;; esac
done
for __goccia_name in EXIT ERR DEBUG RETURN HUP INT QUIT USR1 USR2 PIPE ALRM TERM CHLD CONT TSTP TTIN TTOU WINCH; do trap - \"$__goccia_name\"; done
dirs -c
"
    );
    script.push_str(declarations);
    script.push_str(&format!("\ncd -- {}\n", quoted(bottom)));
    for folder in above.iter().rev() {
        script.push_str(&format!("pushd -- {} >/dev/null\n", quoted(folder)));
    }
    script.push_str("unset __goccia_name\n");
    script.push_str(options);
    Ok(script)
}

/// `text` single-quoted for the shell.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_capture_becomes_a_script_that_rebuilds_the_stack_and_sets_options_last() {
        let captured = "declare -- x=\"1\"\nf () \n{ \n    echo f\n}\n#goccia-options\nset -o errexit\nshopt -s nullglob\n#goccia-dirs\n/b\n/a's\n/\n";
        let script = restore_script(captured).unwrap();
        let cd = script.find("cd -- '/'").unwrap();
        let first = script.find("pushd -- '/a'\\''s'").unwrap();
        let second = script.find("pushd -- '/b'").unwrap();
        assert!(cd < first && first < second, "{script}");
        assert!(script.trim_end().ends_with("shopt -s nullglob"), "{script}");
        assert!(script.find("declare -- x").unwrap() < cd);
        assert!(restore_script("declare -- x=1\n").is_err());
    }
}
