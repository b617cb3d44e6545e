//! `Clone` for [`Shell`], written out so that `clone_from` reuses what the
//! copy already holds: a session hands its state to the sandbox's other
//! users after every call (docs/calls.md), into the copy it handed over
//! last time, and a derived `clone_from` would allocate every string and
//! list afresh. One list of fields makes both methods; `clone` builds the
//! struct from it, so a field left out of the list does not compile.

use super::shell::Shell;

macro_rules! clone_fields {
    ($($field:ident),* $(,)?) => {
        impl Clone for Shell {
            fn clone(&self) -> Self {
                Shell {
                    $($field: self.$field.clone(),)*
                }
            }

            fn clone_from(&mut self, source: &Self) {
                $(self.$field.clone_from(&source.$field);)*
            }
        }
    };
}

clone_fields!(
    ctx,
    vars,
    functions,
    aliases,
    opts,
    positional,
    arg0,
    cwd,
    status,
    fds,
    func_stack,
    loop_depth,
    subshell,
    errexit_off,
    compound_redirect_failed,
    negations,
    async_pipeline,
    traps,
    hashed,
    parent_traps,
    running_traps,
    last_arg,
    subst_status,
    sources,
    dir_stack,
    pipestatus,
    pid,
    bashpid,
    at_prompt,
    waiting_shells,
    last_bg,
    jobs,
    history,
    completions,
    line,
    commands_read,
    substitution_depth,
    resource_limits,
    umask,
    traced_assignments,
    runs_script_file,
    runs_command_text,
    trap_line,
    random,
    started,
    getopts_offset,
    interactive,
    exit_requested,
    watch,
    procsubs,
);
