//! A host call's own working folder and variables (docs/calls.md): a
//! script run in a folder with variables bound for it alone, as `NAME=value
//! command` binds them, the session's own put back after.

use goccia_core::Stop;
use goccia_vfs::VfsPath;

use super::Shell;

impl Shell {
    /// [`Shell::run_script`] in `cwd` (a folder the caller checked) with
    /// `env` bound for this script alone, exported, as `NAME=value
    /// command` binds them: afterwards the working folder (`$PWD` and
    /// `$OLDPWD` too) and the variables of those names are as they were,
    /// while everything else the script did stays.
    pub fn run_script_in(
        &mut self,
        source: &str,
        cwd: Option<VfsPath>,
        env: &[(String, String)],
    ) -> Result<i32, Stop> {
        let depth = self.vars.depth();
        if !env.is_empty() {
            self.vars.push_temporary(crate::vars::FrameKind::Builtin);
            for (name, value) in env {
                self.vars.bind_temporary(name);
                if self.set_var(name, value.as_str()).is_ok()
                    && let Some(var) = self.vars.get_mut(name)
                {
                    var.attrs.exported = true;
                }
            }
        }
        let saved = cwd.map(|cwd| {
            let saved = (
                self.cwd.clone(),
                self.get_var("PWD"),
                self.get_var("OLDPWD"),
            );
            let _ = self.set_var("OLDPWD", self.cwd.as_str().to_string());
            let _ = self.set_var("PWD", cwd.as_str().to_string());
            self.cwd = cwd;
            saved
        });
        let result = self.run_script(source);
        if let Some((cwd, pwd, oldpwd)) = saved {
            self.cwd = cwd;
            for (name, value) in [("PWD", pwd), ("OLDPWD", oldpwd)] {
                match value {
                    Some(value) => {
                        let _ = self.set_var(name, value);
                    }
                    None => {
                        self.vars.unset(name);
                    }
                }
            }
        }
        self.vars.truncate(depth);
        result
    }
}
