//! goccia's utilities: coreutils-style commands over the VFS, one family
//! per folder or file. Each is a function from the view of the shell that
//! runs it ([`ShellView`](goccia_interp::ShellView)) and its arguments
//! (`args[0]` is the name) to a status; [`UTILITIES`] names them. They
//! read their arguments with [`args`] and their input with
//! [`goccia_interp::input`].
//!
//! This crate sits on the interpreter (`goccia-interp`), which never
//! imports it: `goccia-shell` puts both in one command table.

pub mod archive;
pub mod args;
pub mod awk;
pub mod bc;
pub mod bytes;
pub mod cal;
pub mod date;
pub mod diff;
pub mod factor;
pub mod files;
pub mod find;
pub mod getconf;
pub mod grep;
pub mod jq;
pub mod locale;
pub mod matcher;
pub mod net;
pub mod node;
pub mod numbers;
pub mod output;
pub mod patch;
pub mod process;
pub mod rg;
pub mod sed;
pub mod sqlite;
pub mod system;
pub mod text;
pub mod yq;

goccia_interp::commands! {
    /// Every utility.
    pub static UTILITIES = {
        Utility "cat" => View(text::lines::cat),
        Utility "ls" => View(files::list::ls),
        Utility "mkdir" => View(files::make::mkdir),
        Utility "rmdir" => View(files::make::rmdir),
        Utility "rm" => View(files::remove::rm),
        Utility "cp" => View(files::copy::cp),
        Utility "mv" => View(files::copy::mv),
        Utility "rename" => View(files::rename::rename),
        Utility "touch" => View(files::make::touch),
        Utility "stat" => View(files::stat::stat),
        Utility "tree" => View(files::list::tree),
        Utility "df" => View(files::info::df),
        Utility "du" => View(files::info::du),
        Utility "realpath" => View(files::names::realpath),
        Utility "readlink" => View(files::names::readlink),
        Utility "basename" => View(files::names::basename),
        Utility "dirname" => View(files::names::dirname),
        Utility "chmod" => View(files::info::chmod),
        Utility "chown" => View(files::owner::chown),
        Utility "chgrp" => View(files::owner::chown),
        Utility "install" => View(files::install::install),
        Utility "ln" => View(files::make::ln),
        Utility "mktemp" => View(files::make::mktemp),
        Utility "truncate" => View(files::make::truncate),
        Utility "file" => View(files::info::file),
        Utility "head" => View(text::lines::head),
        Utility "tail" => View(text::lines::tail),
        Utility "wc" => View(text::lines::wc),
        Utility "tee" => View(text::lines::tee),
        Utility "seq" => View(text::generate::seq),
        Utility "yes" => View(text::generate::yes),
        Utility "rev" => View(text::layout::rev),
        Utility "tac" => View(text::layout::tac),
        Utility "nl" => View(text::layout::nl),
        Utility "fold" => View(text::layout::fold),
        Utility "fmt" => View(text::fmt::fmt),
        Utility "env" => View(system::env),
        Utility "printenv" => View(system::printenv),
        Utility "sleep" => View(system::sleep),
        Utility "date" => View(date::date),
        Utility "cal" => View(cal::cal),
        Utility "sort" => View(text::sort::sort),
        Utility "uniq" => View(text::sort::uniq),
        Utility "cut" => View(text::fields::cut),
        Utility "tr" => View(text::tr::tr),
        Utility "paste" => View(text::fields::paste),
        Utility "comm" => View(text::sort::comm),
        Utility "join" => View(text::join::join),
        Utility "tsort" => View(text::tsort::tsort),
        Utility "look" => View(text::look::look),
        Utility "pr" => View(text::pr::pr),
        Utility "iconv" => View(text::iconv::iconv),
        Utility "column" => View(text::column::column),
        Utility "split" => View(text::split::split),
        Utility "csplit" => View(text::csplit::csplit),
        Utility "expand" => View(text::tabs::expand),
        Utility "unexpand" => View(text::tabs::unexpand),
        Utility "od" => View(bytes::od),
        Utility "dd" => View(bytes::dd),
        Utility "hexdump" => View(bytes::hexdump),
        Utility "xxd" => View(bytes::xxd),
        Utility "base64" => View(bytes::base64),
        Utility "base32" => View(bytes::base32),
        Utility "md5sum" => View(bytes::checksum),
        Utility "sha1sum" => View(bytes::checksum),
        Utility "sha224sum" => View(bytes::checksum),
        Utility "sha256sum" => View(bytes::checksum),
        Utility "sha384sum" => View(bytes::checksum),
        Utility "sha512sum" => View(bytes::checksum),
        Utility "cmp" => View(bytes::cmp),
        Utility "cksum" => View(bytes::cksum),
        Utility "sum" => View(bytes::sum),
        Utility "strings" => View(bytes::strings),
        Utility "expr" => View(numbers::expr),
        Utility "find" => View(find::find),
        Utility "grep" => View(grep::grep),
        Utility "egrep" => View(grep::egrep),
        Utility "fgrep" => View(grep::fgrep),
        Utility "rg" => View(rg::rg),
        Utility "curl" => View(net::curl::curl),
        Utility "wget" => View(net::wget::wget),
        Utility "yq" => View(yq::yq),
        Utility "sqlite3" => View(sqlite::sqlite3),
        Utility "sed" => View(sed::sed),
        Utility "awk" => View(awk::awk),
        Utility "tar" => View(archive::tar),
        Utility "cpio" => View(archive::cpio),
        Utility "gzip" => View(archive::gzip),
        Utility "gunzip" => View(archive::gunzip),
        Utility "zcat" => View(archive::zcat),
        Utility "bzip2" => View(archive::bzip2),
        Utility "bunzip2" => View(archive::bunzip2),
        Utility "bzcat" => View(archive::bzcat),
        Utility "zip" => View(archive::zip),
        Utility "unzip" => View(archive::unzip),
        Utility "bc" => View(bc::bc),
        Utility "jq" => View(jq::jq),
        Utility "gawk" => View(awk::awk),
        Utility "mawk" => View(awk::awk),
        Utility "diff" => View(diff::diff),
        Utility "patch" => View(patch::patch),
        Utility "node" => View(node::node),
        Utility "npm" => View(node::npm),
        Utility "npx" => View(node::npm),
        Utility "numfmt" => View(numbers::numfmt),
        Utility "factor" => View(factor::factor),
        Utility "getconf" => View(getconf::getconf),
        Utility "locale" => View(locale::locale),
        Utility "shuf" => View(numbers::shuf),
        Utility "timeout" => View(process::timeout),
        Utility "nohup" => View(process::nohup),
        Utility "time" => View(process::time),
        Utility "ps" => View(process::ps),
        Utility "xargs" => View(process::xargs),
        Utility "whoami" => View(system::whoami),
        Utility "hostname" => View(system::hostname),
        Utility "tty" => View(system::tty),
        Utility "uname" => View(system::uname),
        Utility "id" => View(system::id),
        Utility "nproc" => View(system::nproc),
        Utility "envsubst" => View(text::envsubst::envsubst),
    }
}
