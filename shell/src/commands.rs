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
    ($($kind:ident $name:literal => $access:ident($function:path),)*) => {
        fn lookup(name: &str) -> Option<(CommandFn, CommandKind)> {
            match name {
                $($name => Some((CommandFn::$access($function), CommandKind::$kind)),)*
                _ => None,
            }
        }

        const NAMES: &[&str] = &[$($name),*];
    };
}

registry! {
    Builtin ":" => Shell(builtins::flow::colon),
    Builtin "true" => Shell(builtins::flow::colon),
    Builtin "false" => Shell(builtins::flow::false_),
    Builtin "echo" => Shell(builtins::print::echo),
    Builtin "printf" => Shell(builtins::print::printf),
    Builtin "cd" => Shell(builtins::dirs::cd),
    Builtin "pwd" => Shell(builtins::dirs::pwd),
    Builtin "exit" => Shell(builtins::flow::exit),
    Utility "goccia" => Shell(builtins::flow::goccia),
    Builtin "compgen" => Shell(builtins::complete::compgen),
    Builtin "complete" => Shell(builtins::complete::complete),
    Builtin "compopt" => Shell(builtins::complete::compopt),
    Builtin "history" => Shell(builtins::history::history),
    Builtin "fc" => Shell(builtins::history::fc),
    Builtin "return" => Shell(builtins::flow::return_),
    Builtin "break" => Shell(builtins::flow::break_),
    Builtin "continue" => Shell(builtins::flow::continue_),
    Builtin "shift" => Shell(builtins::flow::shift),
    Builtin "set" => Shell(builtins::options::set),
    Builtin "shopt" => Shell(builtins::options::shopt),
    Builtin "unset" => Shell(builtins::values::unset),
    Builtin "export" => Shell(interp::declare::export),
    Builtin "readonly" => Shell(interp::declare::readonly),
    Builtin "declare" => Shell(interp::declare::declare),
    Builtin "typeset" => Shell(interp::declare::declare),
    Builtin "local" => Shell(interp::declare::local),
    Builtin "eval" => Shell(builtins::flow::eval),
    Builtin "source" => Shell(builtins::flow::source),
    Builtin "." => Shell(builtins::flow::source),
    Builtin "alias" => Shell(builtins::lookup::alias),
    Builtin "unalias" => Shell(builtins::lookup::unalias),
    Builtin "type" => Shell(builtins::lookup::type_),
    Builtin "command" => Shell(builtins::lookup::command),
    Builtin "builtin" => Shell(builtins::lookup::builtin),
    Builtin "escalate" => Shell(builtins::escalate::escalate),
    Utility "which" => Shell(builtins::lookup::which),
    Builtin "hash" => Shell(builtins::hash::hash),
    Builtin "help" => Shell(builtins::lookup::help),
    Builtin "getopts" => Shell(builtins::values::getopts),
    Builtin "read" => Shell(builtins::read::read),
    Builtin "mapfile" => Shell(builtins::read::mapfile),
    Builtin "readarray" => Shell(builtins::read::mapfile),
    Builtin "let" => Shell(builtins::values::let_),
    Builtin "test" => Shell(builtins::values::test),
    Builtin "[" => Shell(builtins::values::bracket),
    Builtin "trap" => Shell(builtins::trap::trap),
    Builtin "pushd" => Shell(builtins::dirs::pushd),
    Builtin "popd" => Shell(builtins::dirs::popd),
    Builtin "dirs" => Shell(builtins::dirs::dirs),
    Builtin "wait" => Shell(builtins::jobs::wait),
    Builtin "jobs" => Shell(builtins::jobs::jobs),
    Builtin "disown" => Shell(builtins::flow::colon),
    Builtin "umask" => Shell(builtins::umask::umask),
    Builtin "times" => Shell(builtins::flow::times),
    Builtin "caller" => Shell(builtins::flow::caller),
    Builtin "exec" => Shell(builtins::flow::exec),
    Builtin "enable" => Shell(builtins::flow::colon),
    Builtin "kill" => Shell(builtins::jobs::kill),
    Builtin "ulimit" => Shell(builtins::ulimit::ulimit),
    Utility "cat" => View(utilities::text::lines::cat),
    Utility "ls" => View(utilities::files::list::ls),
    Utility "mkdir" => View(utilities::files::make::mkdir),
    Utility "rmdir" => View(utilities::files::make::rmdir),
    Utility "rm" => View(utilities::files::remove::rm),
    Utility "cp" => View(utilities::files::copy::cp),
    Utility "mv" => View(utilities::files::copy::mv),
    Utility "rename" => View(utilities::files::rename::rename),
    Utility "touch" => View(utilities::files::make::touch),
    Utility "stat" => View(utilities::files::info::stat),
    Utility "tree" => View(utilities::files::list::tree),
    Utility "df" => View(utilities::files::info::df),
    Utility "du" => View(utilities::files::info::du),
    Utility "realpath" => View(utilities::files::names::realpath),
    Utility "readlink" => View(utilities::files::names::readlink),
    Utility "basename" => View(utilities::files::names::basename),
    Utility "dirname" => View(utilities::files::names::dirname),
    Utility "chmod" => View(utilities::files::info::chmod),
    Utility "chown" => View(utilities::files::info::chown),
    Utility "chgrp" => View(utilities::files::info::chown),
    Utility "ln" => View(utilities::files::make::ln),
    Utility "mktemp" => View(utilities::files::make::mktemp),
    Utility "truncate" => View(utilities::files::make::truncate),
    Utility "file" => View(utilities::files::info::file),
    Utility "head" => View(utilities::text::lines::head),
    Utility "tail" => View(utilities::text::lines::tail),
    Utility "wc" => View(utilities::text::lines::wc),
    Utility "tee" => View(utilities::text::lines::tee),
    Utility "seq" => View(utilities::text::generate::seq),
    Utility "yes" => View(utilities::text::generate::yes),
    Utility "rev" => View(utilities::text::layout::rev),
    Utility "tac" => View(utilities::text::layout::tac),
    Utility "nl" => View(utilities::text::layout::nl),
    Utility "fold" => View(utilities::text::layout::fold),
    Utility "fmt" => View(utilities::text::fmt::fmt),
    Utility "env" => View(utilities::system::env),
    Utility "printenv" => View(utilities::system::printenv),
    Utility "sleep" => View(utilities::system::sleep),
    Utility "date" => View(utilities::date::date),
    Utility "bash" => Shell(builtins::bash::bash),
    Utility "sort" => View(utilities::text::sort::sort),
    Utility "uniq" => View(utilities::text::sort::uniq),
    Utility "cut" => View(utilities::text::fields::cut),
    Utility "tr" => View(utilities::text::tr::tr),
    Utility "paste" => View(utilities::text::fields::paste),
    Utility "comm" => View(utilities::text::sort::comm),
    Utility "join" => View(utilities::text::fields::join),
    Utility "column" => View(utilities::text::fields::column),
    Utility "split" => View(utilities::text::split::split),
    Utility "expand" => View(utilities::text::tabs::expand),
    Utility "unexpand" => View(utilities::text::tabs::unexpand),
    Utility "od" => View(utilities::bytes::od),
    Utility "hexdump" => View(utilities::bytes::hexdump),
    Utility "xxd" => View(utilities::bytes::xxd),
    Utility "base64" => View(utilities::bytes::base64),
    Utility "md5sum" => View(utilities::bytes::checksum),
    Utility "sha1sum" => View(utilities::bytes::checksum),
    Utility "sha224sum" => View(utilities::bytes::checksum),
    Utility "sha256sum" => View(utilities::bytes::checksum),
    Utility "sha384sum" => View(utilities::bytes::checksum),
    Utility "sha512sum" => View(utilities::bytes::checksum),
    Utility "cmp" => View(utilities::bytes::cmp),
    Utility "strings" => View(utilities::bytes::strings),
    Utility "expr" => View(utilities::numbers::expr),
    Utility "find" => View(utilities::find::find),
    Utility "grep" => View(utilities::grep::grep),
    Utility "egrep" => View(utilities::grep::egrep),
    Utility "fgrep" => View(utilities::grep::fgrep),
    Utility "rg" => View(utilities::rg::rg),
    Utility "curl" => View(utilities::net::curl::curl),
    Utility "wget" => View(utilities::net::wget::wget),
    Utility "yq" => View(utilities::yq::yq),
    Utility "sqlite3" => View(utilities::sqlite::sqlite3),
    Utility "sed" => View(utilities::sed::sed),
    Utility "awk" => View(utilities::awk::awk),
    Utility "tar" => View(utilities::archive::tar),
    Utility "gzip" => View(utilities::archive::gzip),
    Utility "gunzip" => View(utilities::archive::gunzip),
    Utility "zcat" => View(utilities::archive::zcat),
    Utility "zip" => View(utilities::archive::zip),
    Utility "unzip" => View(utilities::archive::unzip),
    Utility "bc" => View(utilities::bc::bc),
    Utility "jq" => View(utilities::jq::jq),
    Utility "gawk" => View(utilities::awk::awk),
    Utility "mawk" => View(utilities::awk::awk),
    Utility "diff" => View(utilities::diff::diff),
    Utility "patch" => View(utilities::patch::patch),
    Utility "node" => View(utilities::node::node),
    Utility "npm" => View(utilities::node::npm),
    Utility "npx" => View(utilities::node::npm),
    Utility "numfmt" => View(utilities::numbers::numfmt),
    Utility "shuf" => View(utilities::numbers::shuf),
    Utility "timeout" => View(utilities::process::timeout),
    Utility "nohup" => View(utilities::process::nohup),
    Utility "time" => View(utilities::process::time),
    Utility "ps" => View(utilities::process::ps),
    Utility "xargs" => View(utilities::process::xargs),
    Utility "whoami" => View(utilities::system::whoami),
    Utility "hostname" => View(utilities::system::hostname),
    Utility "tty" => View(utilities::system::tty),
    Utility "uname" => View(utilities::system::uname),
    Utility "id" => View(utilities::system::id),
    Utility "nproc" => View(utilities::system::nproc),
    Utility "envsubst" => View(utilities::text::envsubst::envsubst),
    Utility "sh" => Shell(builtins::bash::bash),
}
