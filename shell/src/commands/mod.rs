//! The commands: shell builtins and coreutils-style utilities over the
//! VFS. Each is a function from the shell and its arguments (`args[0]` is
//! the command name) to an exit status.

mod archive;
mod awk;
mod bash;
mod bc;
mod builtins;
mod bytes;
mod columns;
mod date;
pub mod declare;
mod diff;
mod files;
mod find;
mod grep;
mod input;
mod jq;
pub(crate) mod matcher;
mod misc;
pub(crate) mod printf;
mod read;
mod sed;
mod text;

pub(crate) use builtins::set_option;
pub(crate) use date::{parse_date, parse_touch_stamp, strftime_utc};
pub(crate) use input::*;

/// `shopt -s`/`-u` of one option; false for an unknown name.
pub(crate) fn set_shopt(shell: &mut Shell, name: &str, on: bool) -> bool {
    match builtins::shopt_flag(&mut shell.opts, name) {
        Some(flag) => {
            *flag = on;
            true
        }
        None => false,
    }
}

use crate::interp::{ExecResult, Shell};

pub type CommandFn = fn(&mut Shell, &[String]) -> ExecResult;

/// How `type` describes a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A shell builtin (`cd`, `echo`, ...).
    Builtin,
    /// A utility (`cat`, `grep`, ...): reported as a file in `/usr/bin`.
    Utility,
}

macro_rules! registry {
    ($($kind:ident $name:literal => $function:path,)*) => {
        /// The command of this name.
        pub fn lookup(name: &str) -> Option<CommandFn> {
            match name {
                $($name => Some($function),)*
                _ => None,
            }
        }

        pub fn kind(name: &str) -> Option<Kind> {
            match name {
                $($name => Some(Kind::$kind),)*
                _ => None,
            }
        }

        /// Every command name.
        pub fn names() -> impl Iterator<Item = &'static str> {
            [$($name),*].into_iter()
        }
    };
}

registry! {
    Builtin ":" => builtins::colon,
    Builtin "true" => builtins::colon,
    Builtin "false" => builtins::false_,
    Builtin "echo" => builtins::echo,
    Builtin "printf" => printf::printf,
    Builtin "cd" => builtins::cd,
    Builtin "pwd" => builtins::pwd,
    Builtin "exit" => builtins::exit,
    Builtin "goccia" => builtins::goccia,
    Builtin "compgen" => builtins::compgen,
    Builtin "return" => builtins::return_,
    Builtin "break" => builtins::break_,
    Builtin "continue" => builtins::continue_,
    Builtin "shift" => builtins::shift,
    Builtin "set" => builtins::set,
    Builtin "shopt" => builtins::shopt,
    Builtin "unset" => builtins::unset,
    Builtin "export" => declare::export,
    Builtin "readonly" => declare::readonly,
    Builtin "declare" => declare::declare,
    Builtin "typeset" => declare::declare,
    Builtin "local" => declare::local,
    Builtin "eval" => builtins::eval,
    Builtin "source" => builtins::source,
    Builtin "." => builtins::source,
    Builtin "alias" => builtins::alias,
    Builtin "unalias" => builtins::unalias,
    Builtin "type" => builtins::type_,
    Builtin "command" => builtins::command,
    Builtin "builtin" => builtins::builtin,
    Utility "which" => builtins::which,
    Builtin "hash" => builtins::colon,
    Builtin "help" => builtins::help,
    Builtin "getopts" => builtins::getopts,
    Builtin "read" => read::read,
    Builtin "mapfile" => read::mapfile,
    Builtin "readarray" => read::mapfile,
    Builtin "let" => builtins::let_,
    Builtin "test" => builtins::test,
    Builtin "[" => builtins::bracket,
    Builtin "trap" => builtins::trap,
    Builtin "pushd" => builtins::pushd,
    Builtin "popd" => builtins::popd,
    Builtin "dirs" => builtins::dirs,
    Builtin "wait" => builtins::colon,
    Builtin "jobs" => builtins::colon,
    Builtin "disown" => builtins::colon,
    Builtin "umask" => builtins::umask,
    Builtin "times" => builtins::times,
    Builtin "caller" => builtins::caller,
    Builtin "exec" => builtins::exec,
    Builtin "enable" => builtins::colon,
    Builtin "kill" => builtins::kill,
    Builtin "ulimit" => builtins::ulimit,
    Utility "cat" => files::cat,
    Utility "ls" => files::ls,
    Utility "mkdir" => files::mkdir,
    Utility "rmdir" => files::rmdir,
    Utility "rm" => files::rm,
    Utility "cp" => files::cp,
    Utility "mv" => files::mv,
    Utility "touch" => files::touch,
    Utility "stat" => files::stat,
    Utility "tree" => files::tree,
    Utility "df" => files::df,
    Utility "du" => files::du,
    Utility "realpath" => files::realpath,
    Utility "readlink" => files::readlink,
    Utility "basename" => files::basename,
    Utility "dirname" => files::dirname,
    Utility "chmod" => files::chmod,
    Utility "chown" => files::chown,
    Utility "chgrp" => files::chown,
    Utility "ln" => files::ln,
    Utility "mktemp" => files::mktemp,
    Utility "truncate" => files::truncate,
    Utility "file" => files::file,
    Utility "head" => text::head,
    Utility "tail" => text::tail,
    Utility "wc" => text::wc,
    Utility "tee" => text::tee,
    Utility "seq" => text::seq,
    Utility "yes" => text::yes,
    Utility "rev" => text::rev,
    Utility "tac" => text::tac,
    Utility "nl" => text::nl,
    Utility "fold" => text::fold,
    Utility "env" => builtins::env,
    Utility "printenv" => builtins::printenv,
    Utility "sleep" => builtins::sleep,
    Utility "date" => date::date,
    Utility "bash" => bash::bash,
    Utility "sort" => columns::sort,
    Utility "uniq" => columns::uniq,
    Utility "cut" => columns::cut,
    Utility "tr" => columns::tr,
    Utility "paste" => columns::paste,
    Utility "comm" => columns::comm,
    Utility "join" => columns::join,
    Utility "column" => columns::column,
    Utility "split" => columns::split,
    Utility "expand" => columns::expand,
    Utility "od" => bytes::od,
    Utility "base64" => bytes::base64,
    Utility "md5sum" => bytes::checksum,
    Utility "sha1sum" => bytes::checksum,
    Utility "sha224sum" => bytes::checksum,
    Utility "sha256sum" => bytes::checksum,
    Utility "sha384sum" => bytes::checksum,
    Utility "sha512sum" => bytes::checksum,
    Utility "cmp" => bytes::cmp,
    Utility "strings" => bytes::strings,
    Utility "expr" => misc::expr,
    Utility "find" => find::find,
    Utility "grep" => grep::grep,
    Utility "egrep" => grep::egrep,
    Utility "fgrep" => grep::fgrep,
    Utility "rg" => grep::rg,
    Utility "sed" => sed::sed,
    Utility "awk" => awk::awk,
    Utility "tar" => archive::tar,
    Utility "gzip" => archive::gzip,
    Utility "gunzip" => archive::gunzip,
    Utility "zcat" => archive::zcat,
    Utility "bc" => bc::bc,
    Utility "jq" => jq::jq,
    Utility "gawk" => awk::awk,
    Utility "mawk" => awk::awk,
    Utility "diff" => diff::diff,
    Utility "numfmt" => misc::numfmt,
    Utility "shuf" => misc::shuf,
    Utility "timeout" => misc::timeout,
    Utility "xargs" => misc::xargs,
    Utility "whoami" => misc::whoami,
    Utility "hostname" => misc::hostname,
    Utility "uname" => misc::uname,
    Utility "id" => misc::id,
    Utility "sh" => bash::bash,
}
