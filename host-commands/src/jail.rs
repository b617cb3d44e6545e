//! The bubblewrap command line: new user, mount, PID, network, IPC and UTS
//! namespaces, dying with goccia, a new session (no terminal injection);
//! the host's system directories read-only with its secrets masked; a
//! fresh `/proc`, a minimal `/dev`, a private empty `/tmp`; the sandbox's
//! top-level folders and files from the scratch tree at their own paths,
//! writable as the write policy says; the environment the shell exports,
//! `PATH` of the system directories and `HOME=/tmp`, nothing of the host's.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use goccia_vfs::policy::{PROTECTED_NAMES, PolicyMode, WritePolicy};
use goccia_vfs::{Node, Snapshot, VfsPath};

use crate::programs::JAIL_PATH;

/// Top-level sandbox names a host command does not see: the jail's own
/// system folders and its private `/tmp` take those places.
pub const RESERVED: [&str; 14] = [
    "tmp",
    "usr",
    "bin",
    "sbin",
    "lib",
    "lib32",
    "lib64",
    "libx32",
    "etc",
    "proc",
    "dev",
    "sys",
    "run",
    LAUNCHER_NAME,
];

/// Where the launcher that adds Landlock is bound inside.
pub const LAUNCHER_NAME: &str = ".goccia-launcher";

/// Files and folders of the host's `/etc` hidden inside (credentials and
/// secrets); each is masked only where it exists.
pub const SECRETS: [&str; 12] = [
    "shadow",
    "shadow-",
    "gshadow",
    "gshadow-",
    "sudoers",
    "sudoers.d",
    "ssh",
    "ssl/private",
    "security/opasswd",
    "mysql/debian.cnf",
    "krb5.keytab",
    "postgresql-common/pg_service.conf",
];

/// What a command sees of the sandbox and may change: the top-level
/// entries bound, and the paths bound writable over them.
#[derive(Debug, Default)]
pub struct View {
    /// Top-level sandbox entries bound at their path (`/work`), each with
    /// whether it is a folder.
    pub entries: Vec<(String, bool)>,
    /// Paths bound writable (the policy's): whole entries under `full`,
    /// the writable roots under `workspace-write`, none under `read-only`.
    pub writable: Vec<VfsPath>,
    /// Protected folders (`.git`, `.goccia`) inside writable paths, bound
    /// read-only again over them.
    pub protected: Vec<VfsPath>,
}

impl View {
    /// What `tree` shows a command under `policy`.
    pub fn of(tree: &Snapshot, policy: &WritePolicy) -> View {
        let mut view = View::default();
        for (name, node) in tree.root().iter() {
            if RESERVED.contains(&name.as_ref()) {
                continue;
            }
            view.entries
                .push((name.to_string(), matches!(node, Node::Dir(_))));
        }
        let bound = |path: &VfsPath| {
            path.components()
                .next()
                .is_some_and(|top| view.entries.iter().any(|(name, _)| name == top))
        };
        view.writable = match policy.mode() {
            PolicyMode::ReadOnly => Vec::new(),
            PolicyMode::Full => view
                .entries
                .iter()
                .map(|(name, _)| VfsPath::root().join(name))
                .collect(),
            PolicyMode::WorkspaceWrite => policy
                .writable_roots()
                .iter()
                .filter(|root| bound(root) && tree.lookup(root).is_ok())
                .cloned()
                .collect(),
        };
        if policy.mode() == PolicyMode::WorkspaceWrite {
            for root in &view.writable {
                protected_below(tree, root, &mut view.protected);
            }
        }
        view
    }
}

/// Every `.git` and `.goccia` at or below `root`.
fn protected_below(tree: &Snapshot, root: &VfsPath, found: &mut Vec<VfsPath>) {
    let Ok(Node::Dir(dir)) = tree.lookup(root) else {
        return;
    };
    let mut work = vec![(root.clone(), dir)];
    while let Some((path, dir)) = work.pop() {
        for (name, child) in dir.iter() {
            let below = path.join(name);
            if PROTECTED_NAMES.contains(&name.as_ref()) {
                found.push(below);
            } else if let Node::Dir(child) = child {
                work.push((below, child.clone()));
            }
        }
    }
}

/// What the command line is made of.
pub struct Jail<'a> {
    /// The bubblewrap program.
    pub bwrap: &'a Path,
    /// The scratch tree's root on the host.
    pub scratch: &'a Path,
    /// What the command sees.
    pub view: &'a View,
    /// Its working directory (a sandbox path; `/` when not bound).
    pub cwd: &'a VfsPath,
    /// The variables the shell exports.
    pub env: &'a [(String, String)],
    /// The program, and whether it must be bound in by itself.
    pub program: &'a Path,
    /// The launcher that adds Landlock, if the probe found one working.
    pub launcher: Option<&'a Path>,
    /// The size of the private `/tmp` (a tmpfs, which is memory): the
    /// room the fs quota has left, at least one page.
    pub tmp_bytes: u64,
    /// With the gateway: the host file of the certificate bundle the
    /// jail's clients trust. The jail then runs in the network namespace
    /// made for it (loopback and the proxy only) instead of bubblewrap's
    /// empty one.
    pub gateway_bundle: Option<&'a Path>,
}

/// Where the jail's certificate bundle is bound inside.
pub const BUNDLE_INSIDE: &str = "/.goccia-ca.pem";

/// The variables that point the jail's clients at the gateway and its
/// bundle: proxies in both spellings (`NO_PROXY` empty, so nothing
/// bypasses it), and the bundle for OpenSSL, curl, Python's requests and
/// pip, git and Node.
fn gateway_env() -> Vec<(&'static str, &'static str)> {
    let proxy = goccia_gateway::jail_net::PROXY_URL;
    let mut env = Vec::new();
    for name in ["HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"] {
        env.push((name, proxy));
    }
    env.extend([("NO_PROXY", ""), ("no_proxy", "")]);
    for name in [
        "SSL_CERT_FILE",
        "CURL_CA_BUNDLE",
        "REQUESTS_CA_BUNDLE",
        "PIP_CERT",
        "GIT_SSL_CAINFO",
        "NODE_EXTRA_CA_CERTS",
    ] {
        env.push((name, BUNDLE_INSIDE));
    }
    env
}

impl Jail<'_> {
    /// The whole command line: bubblewrap's options, then the program (or
    /// the launcher and then the program) and `args`.
    pub fn argv(&self, args: &[String]) -> Vec<OsString> {
        let mut argv: Vec<OsString> = vec![self.bwrap.into()];
        let mut add = |items: &[&str]| argv.extend(items.iter().map(OsString::from));
        add(&["--unshare-user", "--unshare-pid"]);
        if self.gateway_bundle.is_none() {
            add(&["--unshare-net"]);
        }
        add(&[
            "--unshare-ipc",
            "--unshare-uts",
            "--unshare-cgroup-try",
            "--die-with-parent",
            "--new-session",
            "--hostname",
            "sandbox",
            "--clearenv",
        ]);
        for dir in ["/usr", "/etc"] {
            if Path::new(dir).is_dir() {
                add(&["--ro-bind", dir, dir]);
            }
        }
        for dir in ["/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"] {
            let path = Path::new(dir);
            match std::fs::read_link(path) {
                Ok(target) => {
                    argv.extend(["--symlink".into(), target.into_os_string(), dir.into()])
                }
                Err(_) if path.is_dir() => {
                    argv.extend(["--ro-bind".into(), dir.into(), dir.into()])
                }
                Err(_) => {}
            }
        }
        for secret in SECRETS {
            let path = Path::new("/etc").join(secret);
            match std::fs::symlink_metadata(&path) {
                Ok(meta) if meta.is_dir() => {
                    argv.extend(["--tmpfs".into(), path.into_os_string()]);
                }
                Ok(_) => {
                    argv.extend([
                        "--ro-bind".into(),
                        "/dev/null".into(),
                        path.into_os_string(),
                    ]);
                }
                Err(_) => {}
            }
        }
        argv.extend(["--proc", "/proc", "--dev", "/dev"].map(OsString::from));
        // A tmpfs of size 0 would be unbounded: at least one page.
        let tmp_bytes = self.tmp_bytes.max(4096).to_string();
        argv.extend(["--size", tmp_bytes.as_str(), "--tmpfs", "/tmp"].map(OsString::from));
        let host = |path: &VfsPath| -> PathBuf {
            let mut host = self.scratch.to_path_buf();
            host.extend(path.components());
            host
        };
        for (name, _) in &self.view.entries {
            let path = VfsPath::root().join(name);
            let bind = if self.view.writable.contains(&path) {
                "--bind"
            } else {
                "--ro-bind"
            };
            argv.extend([bind.into(), host(&path).into(), path.as_str().into()]);
        }
        for path in &self.view.writable {
            if path.depth() > 1 {
                argv.extend(["--bind".into(), host(path).into(), path.as_str().into()]);
            }
        }
        for path in &self.view.protected {
            argv.extend(["--ro-bind".into(), host(path).into(), path.as_str().into()]);
        }
        if !crate::programs::in_system_dirs(self.program) {
            argv.extend(["--ro-bind".into(), self.program.into(), self.program.into()]);
        }
        if let Some(launcher) = self.launcher {
            let inside = format!("/{LAUNCHER_NAME}");
            argv.extend(["--ro-bind".into(), launcher.into(), inside.into()]);
        }
        if let Some(bundle) = self.gateway_bundle {
            argv.extend(["--ro-bind".into(), bundle.into(), BUNDLE_INSIDE.into()]);
        }
        let cwd_bound = self.cwd.components().next().is_some_and(|top| {
            self.view
                .entries
                .iter()
                .any(|(name, is_dir)| *is_dir && name == top)
        });
        let cwd = if cwd_bound { self.cwd.as_str() } else { "/" };
        argv.extend(["--chdir".into(), cwd.into()]);
        for (name, value) in self.env {
            if name == "PATH" || name == "HOME" {
                continue;
            }
            argv.extend(["--setenv".into(), name.into(), value.into()]);
        }
        if self.gateway_bundle.is_some() {
            for (name, value) in gateway_env() {
                argv.extend(["--setenv".into(), name.into(), value.into()]);
            }
        }
        argv.extend(
            [
                "--setenv", "PATH", JAIL_PATH, "--setenv", "HOME", "/tmp", "--",
            ]
            .map(OsString::from),
        );
        if let Some(_launcher) = self.launcher {
            argv.push(format!("/{LAUNCHER_NAME}").into());
            argv.push(crate::inside::LAUNCHER_ARG.into());
            if self.gateway_bundle.is_some() {
                argv.extend([
                    "--connect".into(),
                    goccia_gateway::jail_net::PROXY_PORT.to_string().into(),
                ]);
            }
            for path in &self.view.writable {
                argv.extend(["--write".into(), path.as_str().into()]);
            }
            argv.push("--".into());
        }
        argv.push(self.program.into());
        argv.extend(args.iter().map(OsString::from));
        argv
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use goccia_vfs::{Quota, Vfs};

    fn p(s: &str) -> VfsPath {
        VfsPath::parse(s).unwrap()
    }

    #[test]
    fn the_view_follows_the_policy() {
        let mut vfs = Vfs::new(Quota::UNLIMITED);
        vfs.mkdir_all(&p("/work/repo/.git")).unwrap();
        vfs.mkdir_all(&p("/data")).unwrap();
        vfs.mkdir_all(&p("/etc/x")).unwrap();
        vfs.write_file(&p("/main.py"), "print(1)").unwrap();
        let tree = vfs.snapshot();
        let full = View::of(&tree, &WritePolicy::new(PolicyMode::Full, [], []));
        let names: Vec<&str> = full.entries.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["data", "main.py", "work"], "etc, tmp are reserved");
        assert_eq!(full.writable.len(), 3);
        let read_only = View::of(&tree, &WritePolicy::new(PolicyMode::ReadOnly, [], []));
        assert!(read_only.writable.is_empty());
        let workspace = View::of(
            &tree,
            &WritePolicy::new(PolicyMode::WorkspaceWrite, [p("/work")], [p("/missing")]),
        );
        assert_eq!(workspace.writable, [p("/work")]);
        assert_eq!(workspace.protected, [p("/work/repo/.git")]);
    }
}
