//! Whether confinement can be had, found by trying it: bubblewrap starts a
//! program in every namespace the jail uses, and the launcher reports
//! whether Landlock held inside. Probed once per process (per bubblewrap
//! program) and cached; without a working bubblewrap every host command
//! fails closed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use serde::Serialize;

use crate::jail::LAUNCHER_NAME;
use crate::programs::Program;

/// A working backend and what it enforces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Backend {
    /// `bwrap`.
    pub name: &'static str,
    /// The bubblewrap program.
    #[serde(skip)]
    pub bwrap: PathBuf,
    /// The launcher bound inside to add Landlock, when it held in the
    /// probe.
    #[serde(skip)]
    pub launcher: Option<PathBuf>,
    /// `full` when every layer holds, else `partial`.
    pub enforcement: &'static str,
    /// The layers in force.
    pub layers: Vec<&'static str>,
    /// The layers not in force, with why.
    pub missing: Vec<(&'static str, String)>,
}

/// The layers bubblewrap itself gives (it fails if one cannot be had).
const JAIL_LAYERS: [&str; 8] = [
    "user-namespace",
    "mount-namespace",
    "pid-namespace",
    "network-namespace",
    "ipc-namespace",
    "uts-namespace",
    "no-new-privs",
    "rlimits",
];

/// Verdicts by bubblewrap program and launcher.
type Verdicts = HashMap<(PathBuf, Option<PathBuf>), Result<Backend, String>>;

static CACHE: Mutex<Option<Verdicts>> = Mutex::new(None);

/// The backend for `bwrap` (a name looked up in the system directories,
/// or a path) with `launcher` (the goccia binary), probed on first use.
pub fn backend(bwrap: &Path, launcher: Option<&Path>) -> Result<Backend, String> {
    let key = (bwrap.to_path_buf(), launcher.map(Path::to_path_buf));
    let mut cache = CACHE.lock().unwrap_or_else(|poison| poison.into_inner());
    let cache = cache.get_or_insert_with(HashMap::new);
    if let Some(known) = cache.get(&key) {
        return known.clone();
    }
    let verdict = probe(bwrap, launcher);
    cache.insert(key, verdict.clone());
    verdict
}

fn probe(bwrap: &Path, launcher: Option<&Path>) -> Result<Backend, String> {
    let found = if bwrap.components().count() == 1 {
        Program::resolve(
            &bwrap.to_string_lossy(),
            None,
            Some(crate::programs::JAIL_PATH),
        )
        .map(|program| program.path)
        .map_err(|_| {
            "bubblewrap (bwrap) is not installed (Debian package `bubblewrap`)".to_string()
        })?
    } else if bwrap.is_file() {
        bwrap.to_path_buf()
    } else {
        return Err(format!("bubblewrap is not at {}", bwrap.display()));
    };
    let jail = |extra: &[&str]| {
        let mut command = Command::new(&found);
        command
            .args([
                "--unshare-user",
                "--unshare-pid",
                "--unshare-net",
                "--unshare-ipc",
                "--unshare-uts",
                "--die-with-parent",
                "--new-session",
                "--clearenv",
                "--ro-bind",
                "/usr",
                "/usr",
                "--proc",
                "/proc",
                "--dev",
                "/dev",
                "--tmpfs",
                "/tmp",
            ])
            .args(extra)
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // As the commands will run: the same identity and limits.
        crate::spawn::Identity::fresh().prepare(
            &mut command,
            crate::spawn::Bounds {
                memory: 1 << 30,
                processes: 16,
                file_size: None,
            },
            None,
        );
        for dir in ["/bin", "/lib", "/lib64"] {
            if let Ok(target) = std::fs::read_link(dir) {
                command.arg("--symlink").arg(target).arg(dir);
            } else if Path::new(dir).is_dir() {
                command.args(["--ro-bind", dir, dir]);
            }
        }
        command
    };
    let mut plain = jail(&[]);
    plain.args(["--", "/usr/bin/true"]);
    let output = plain
        .output()
        .map_err(|error| format!("cannot run {}: {error}", found.display()))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr
            .trim()
            .lines()
            .last()
            .unwrap_or("no message")
            .to_string();
        return Err(format!("bwrap cannot set up its namespaces ({last})"));
    }
    let mut layers: Vec<&'static str> = JAIL_LAYERS.to_vec();
    let mut missing = Vec::new();
    let mut working_launcher = None;
    match launcher {
        Some(path) => {
            let inside = format!("/{LAUNCHER_NAME}");
            let mut command = jail(&["--ro-bind", &path.to_string_lossy(), &inside]);
            command.args(["--", &inside, crate::inside::LAUNCHER_ARG, "--probe"]);
            let said = command
                .output()
                .map(|output| String::from_utf8_lossy(&output.stdout).into_owned());
            match said.as_deref().map(str::trim) {
                Ok("landlock enforced") => {
                    layers.push("landlock");
                    working_launcher = Some(path.to_path_buf());
                }
                Ok(other) => missing.push((
                    "landlock",
                    other
                        .strip_prefix("landlock unavailable: ")
                        .unwrap_or(
                            "the launcher did not answer (it must be readable by the jail's user)",
                        )
                        .to_string(),
                )),
                Err(error) => missing.push(("landlock", error.to_string())),
            }
        }
        None => missing.push((
            "landlock",
            "no launcher (this program is not goccia)".into(),
        )),
    }
    // Never root inside: RLIMIT_NPROC binds, and the host's permissions
    // stand behind the mounts.
    layers.extend(["unprivileged-user", "process-limit"]);
    Ok(Backend {
        name: "bwrap",
        bwrap: found,
        launcher: working_launcher,
        enforcement: if missing.is_empty() {
            "full"
        } else {
            "partial"
        },
        layers,
        missing,
    })
}
