//! The command table: every builtin and utility by name. The interpreter
//! reaches commands only through [`TABLE`], installed in each
//! [`Context`], so the commands (built on the interpreter) and the
//! interpreter never import each other. The context's public
//! constructors live here for that reason: they supply the table.

use std::sync::Arc;

use goccia_core::{Audit, Limits, Watch};
use goccia_vfs::SharedVfs;

use crate::builtins;
use crate::interp;
use crate::interp::{CommandFn, CommandKind, CommandTable, Context, Hooks};
use crate::utilities;

/// Every builtin and utility.
pub static TABLE: CommandTable = CommandTable {
    lookup,
    names: NAMES,
};

impl Context {
    /// A context for shells of one sandbox, running every command of
    /// [`TABLE`]; the `goccia` builtin is unavailable.
    pub fn new(vfs: SharedVfs, watch: Watch, limits: Limits) -> Arc<Self> {
        Context::build(
            vfs,
            watch,
            limits,
            &TABLE,
            Audit::default(),
            Hooks::default(),
        )
    }

    /// [`Context::new`] recording policy decisions in `audit`, with what
    /// `hooks` provide (the `goccia` builtin, host programs, the network).
    pub fn with_hooks(
        vfs: SharedVfs,
        watch: Watch,
        limits: Limits,
        audit: Audit,
        hooks: Hooks,
    ) -> Arc<Self> {
        Context::build(vfs, watch, limits, &TABLE, audit, hooks)
    }
}

macro_rules! registry {
    ($($kind:ident $name:literal => $function:path,)*) => {
        fn lookup(name: &str) -> Option<(CommandFn, CommandKind)> {
            match name {
                $($name => Some(($function as CommandFn, CommandKind::$kind)),)*
                _ => None,
            }
        }

        const NAMES: &[&str] = &[$($name),*];
    };
}

registry! {
    Builtin ":" => builtins::flow::colon,
    Builtin "true" => builtins::flow::colon,
    Builtin "false" => builtins::flow::false_,
    Builtin "echo" => builtins::print::echo,
    Builtin "printf" => builtins::print::printf,
    Builtin "cd" => builtins::dirs::cd,
    Builtin "pwd" => builtins::dirs::pwd,
    Builtin "exit" => builtins::flow::exit,
    Utility "goccia" => builtins::flow::goccia,
    Builtin "compgen" => builtins::complete::compgen,
    Builtin "complete" => builtins::complete::complete,
    Builtin "compopt" => builtins::complete::compopt,
    Builtin "history" => builtins::history::history,
    Builtin "fc" => builtins::history::fc,
    Builtin "return" => builtins::flow::return_,
    Builtin "break" => builtins::flow::break_,
    Builtin "continue" => builtins::flow::continue_,
    Builtin "shift" => builtins::flow::shift,
    Builtin "set" => builtins::options::set,
    Builtin "shopt" => builtins::options::shopt,
    Builtin "unset" => builtins::values::unset,
    Builtin "export" => interp::declare::export,
    Builtin "readonly" => interp::declare::readonly,
    Builtin "declare" => interp::declare::declare,
    Builtin "typeset" => interp::declare::declare,
    Builtin "local" => interp::declare::local,
    Builtin "eval" => builtins::flow::eval,
    Builtin "source" => builtins::flow::source,
    Builtin "." => builtins::flow::source,
    Builtin "alias" => builtins::lookup::alias,
    Builtin "unalias" => builtins::lookup::unalias,
    Builtin "type" => builtins::lookup::type_,
    Builtin "command" => builtins::lookup::command,
    Builtin "builtin" => builtins::lookup::builtin,
    Builtin "escalate" => builtins::escalate::escalate,
    Utility "which" => builtins::lookup::which,
    Builtin "hash" => builtins::hash::hash,
    Builtin "help" => builtins::lookup::help,
    Builtin "getopts" => builtins::values::getopts,
    Builtin "read" => builtins::read::read,
    Builtin "mapfile" => builtins::read::mapfile,
    Builtin "readarray" => builtins::read::mapfile,
    Builtin "let" => builtins::values::let_,
    Builtin "test" => builtins::values::test,
    Builtin "[" => builtins::values::bracket,
    Builtin "trap" => builtins::trap::trap,
    Builtin "pushd" => builtins::dirs::pushd,
    Builtin "popd" => builtins::dirs::popd,
    Builtin "dirs" => builtins::dirs::dirs,
    Builtin "wait" => builtins::jobs::wait,
    Builtin "jobs" => builtins::jobs::jobs,
    Builtin "disown" => builtins::flow::colon,
    Builtin "umask" => builtins::umask::umask,
    Builtin "times" => builtins::flow::times,
    Builtin "caller" => builtins::flow::caller,
    Builtin "exec" => builtins::flow::exec,
    Builtin "enable" => builtins::flow::colon,
    Builtin "kill" => builtins::jobs::kill,
    Builtin "ulimit" => builtins::ulimit::ulimit,
    Utility "cat" => utilities::text::lines::cat,
    Utility "ls" => utilities::files::list::ls,
    Utility "mkdir" => utilities::files::make::mkdir,
    Utility "rmdir" => utilities::files::make::rmdir,
    Utility "rm" => utilities::files::remove::rm,
    Utility "cp" => utilities::files::copy::cp,
    Utility "mv" => utilities::files::copy::mv,
    Utility "rename" => utilities::files::rename::rename,
    Utility "touch" => utilities::files::make::touch,
    Utility "stat" => utilities::files::info::stat,
    Utility "tree" => utilities::files::list::tree,
    Utility "df" => utilities::files::info::df,
    Utility "du" => utilities::files::info::du,
    Utility "realpath" => utilities::files::names::realpath,
    Utility "readlink" => utilities::files::names::readlink,
    Utility "basename" => utilities::files::names::basename,
    Utility "dirname" => utilities::files::names::dirname,
    Utility "chmod" => utilities::files::info::chmod,
    Utility "chown" => utilities::files::info::chown,
    Utility "chgrp" => utilities::files::info::chown,
    Utility "ln" => utilities::files::make::ln,
    Utility "mktemp" => utilities::files::make::mktemp,
    Utility "truncate" => utilities::files::make::truncate,
    Utility "file" => utilities::files::info::file,
    Utility "head" => utilities::text::lines::head,
    Utility "tail" => utilities::text::lines::tail,
    Utility "wc" => utilities::text::lines::wc,
    Utility "tee" => utilities::text::lines::tee,
    Utility "seq" => utilities::text::generate::seq,
    Utility "yes" => utilities::text::generate::yes,
    Utility "rev" => utilities::text::layout::rev,
    Utility "tac" => utilities::text::layout::tac,
    Utility "nl" => utilities::text::layout::nl,
    Utility "fold" => utilities::text::layout::fold,
    Utility "fmt" => utilities::text::fmt::fmt,
    Utility "env" => utilities::system::env,
    Utility "printenv" => utilities::system::printenv,
    Utility "sleep" => utilities::system::sleep,
    Utility "date" => utilities::date::date,
    Utility "bash" => builtins::bash::bash,
    Utility "sort" => utilities::text::sort::sort,
    Utility "uniq" => utilities::text::sort::uniq,
    Utility "cut" => utilities::text::fields::cut,
    Utility "tr" => utilities::text::tr::tr,
    Utility "paste" => utilities::text::fields::paste,
    Utility "comm" => utilities::text::sort::comm,
    Utility "join" => utilities::text::fields::join,
    Utility "column" => utilities::text::fields::column,
    Utility "split" => utilities::text::split::split,
    Utility "expand" => utilities::text::tabs::expand,
    Utility "unexpand" => utilities::text::tabs::unexpand,
    Utility "od" => utilities::bytes::od,
    Utility "hexdump" => utilities::bytes::hexdump,
    Utility "xxd" => utilities::bytes::xxd,
    Utility "base64" => utilities::bytes::base64,
    Utility "md5sum" => utilities::bytes::checksum,
    Utility "sha1sum" => utilities::bytes::checksum,
    Utility "sha224sum" => utilities::bytes::checksum,
    Utility "sha256sum" => utilities::bytes::checksum,
    Utility "sha384sum" => utilities::bytes::checksum,
    Utility "sha512sum" => utilities::bytes::checksum,
    Utility "cmp" => utilities::bytes::cmp,
    Utility "strings" => utilities::bytes::strings,
    Utility "expr" => utilities::numbers::expr,
    Utility "find" => utilities::find::find,
    Utility "grep" => utilities::grep::grep,
    Utility "egrep" => utilities::grep::egrep,
    Utility "fgrep" => utilities::grep::fgrep,
    Utility "rg" => utilities::rg::rg,
    Utility "curl" => utilities::net::curl::curl,
    Utility "wget" => utilities::net::wget::wget,
    Utility "yq" => utilities::yq::yq,
    Utility "sqlite3" => utilities::sqlite::sqlite3,
    Utility "sed" => utilities::sed::sed,
    Utility "awk" => utilities::awk::awk,
    Utility "tar" => utilities::archive::tar,
    Utility "gzip" => utilities::archive::gzip,
    Utility "gunzip" => utilities::archive::gunzip,
    Utility "zcat" => utilities::archive::zcat,
    Utility "zip" => utilities::archive::zip,
    Utility "unzip" => utilities::archive::unzip,
    Utility "bc" => utilities::bc::bc,
    Utility "jq" => utilities::jq::jq,
    Utility "gawk" => utilities::awk::awk,
    Utility "mawk" => utilities::awk::awk,
    Utility "diff" => utilities::diff::diff,
    Utility "patch" => utilities::patch::patch,
    Utility "node" => utilities::node::node,
    Utility "npm" => utilities::node::npm,
    Utility "npx" => utilities::node::npm,
    Utility "numfmt" => utilities::numbers::numfmt,
    Utility "shuf" => utilities::numbers::shuf,
    Utility "timeout" => utilities::process::timeout,
    Utility "nohup" => utilities::process::nohup,
    Utility "time" => utilities::process::time,
    Utility "ps" => utilities::process::ps,
    Utility "xargs" => utilities::process::xargs,
    Utility "whoami" => utilities::system::whoami,
    Utility "hostname" => utilities::system::hostname,
    Utility "tty" => utilities::system::tty,
    Utility "uname" => utilities::system::uname,
    Utility "id" => utilities::system::id,
    Utility "nproc" => utilities::system::nproc,
    Utility "envsubst" => utilities::text::envsubst::envsubst,
    Utility "sh" => builtins::bash::bash,
}
