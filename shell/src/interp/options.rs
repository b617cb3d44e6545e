//! The shell's options, named in one table each for `set -o` (with their
//! single letters) and `shopt`: `set`, `shopt`, `[[ -o ]]`, `bash -e` and
//! the embedding API all read and write them here.

/// `set -o` / `shopt` options goccia acts on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// `set -e`.
    pub errexit: bool,
    /// `set -u`.
    pub nounset: bool,
    /// `set -o pipefail`.
    pub pipefail: bool,
    /// `set -x`.
    pub xtrace: bool,
    /// `set -f`.
    pub noglob: bool,
    /// `set -C`.
    pub noclobber: bool,
    /// `set -a`.
    pub allexport: bool,
    /// `set -n`.
    pub noexec: bool,
    /// `set -v`.
    pub verbose: bool,
    /// `shopt -s nullglob`.
    pub nullglob: bool,
    /// `shopt -s failglob`.
    pub failglob: bool,
    /// `shopt -s dotglob`.
    pub dotglob: bool,
    /// `shopt -s nocaseglob`.
    pub nocaseglob: bool,
    /// `shopt -s nocasematch`.
    pub nocasematch: bool,
    /// `shopt -s extglob`.
    pub extglob: bool,
    /// `shopt -s globstar`.
    pub globstar: bool,
    /// `shopt -s expand_aliases`.
    pub expand_aliases: bool,
    /// `shopt -s lastpipe`.
    pub lastpipe: bool,
    /// `shopt -s inherit_errexit`.
    pub inherit_errexit: bool,
    /// `set -E`: the ERR trap also runs in functions and subshells.
    pub errtrace: bool,
    /// `shopt -s globskipdots` (on by default, as in bash 5.2): `.*`
    /// never matches `.` and `..`.
    pub globskipdots: bool,
    /// `shopt -s promptvars` (on by default): a prompt's escapes are
    /// followed by `$` expansions.
    pub promptvars: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            errexit: false,
            nounset: false,
            pipefail: false,
            xtrace: false,
            noglob: false,
            noclobber: false,
            allexport: false,
            noexec: false,
            verbose: false,
            nullglob: false,
            failglob: false,
            dotglob: false,
            nocaseglob: false,
            nocasematch: false,
            extglob: false,
            globstar: false,
            expand_aliases: false,
            lastpipe: false,
            inherit_errexit: false,
            errtrace: false,
            globskipdots: true,
            promptvars: true,
        }
    }
}

/// A field of [`Options`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flag {
    Errexit,
    Nounset,
    Pipefail,
    Xtrace,
    Noglob,
    Noclobber,
    Allexport,
    Noexec,
    Verbose,
    Nullglob,
    Failglob,
    Dotglob,
    Nocaseglob,
    Nocasematch,
    Extglob,
    Globstar,
    ExpandAliases,
    Lastpipe,
    InheritErrexit,
    Globskipdots,
    Promptvars,
    Errtrace,
}

/// Where an option's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// A field goccia acts on.
    Flag(Flag),
    /// Accepted, always on (what goccia always does: brace expansion).
    On,
    /// Accepted, always off (job control, history and the like).
    Off,
}

/// One named option.
#[derive(Clone, Copy, Debug)]
pub struct Named {
    /// The name (`errexit`, `nullglob`).
    pub name: &'static str,
    /// `set`'s single letter (`e`), if it has one.
    pub letter: Option<char>,
    /// Where its value comes from.
    pub setting: Setting,
}

const fn named(name: &'static str, letter: Option<char>, setting: Setting) -> Named {
    Named {
        name,
        letter,
        setting,
    }
}

use Setting::{Off, On};

/// The `set -o` options, in bash's order.
pub const SET_OPTIONS: &[Named] = &[
    named("allexport", Some('a'), Setting::Flag(Flag::Allexport)),
    named("braceexpand", Some('B'), On),
    named("emacs", None, Off),
    named("errexit", Some('e'), Setting::Flag(Flag::Errexit)),
    named("errtrace", Some('E'), Setting::Flag(Flag::Errtrace)),
    named("functrace", Some('T'), Off),
    named("hashall", Some('h'), On),
    named("histexpand", Some('H'), Off),
    named("history", None, Off),
    named("ignoreeof", None, Off),
    named("interactive-comments", None, On),
    named("keyword", Some('k'), Off),
    named("monitor", Some('m'), Off),
    named("noclobber", Some('C'), Setting::Flag(Flag::Noclobber)),
    named("noexec", Some('n'), Setting::Flag(Flag::Noexec)),
    named("noglob", Some('f'), Setting::Flag(Flag::Noglob)),
    named("nolog", None, Off),
    named("notify", Some('b'), Off),
    named("nounset", Some('u'), Setting::Flag(Flag::Nounset)),
    named("onecmd", Some('t'), Off),
    named("physical", Some('P'), Off),
    named("pipefail", None, Setting::Flag(Flag::Pipefail)),
    named("posix", None, Off),
    named("privileged", Some('p'), Off),
    named("verbose", Some('v'), Setting::Flag(Flag::Verbose)),
    named("vi", None, Off),
    named("xtrace", Some('x'), Setting::Flag(Flag::Xtrace)),
];

/// The `shopt` options goccia knows, in bash's order.
pub const SHOPT_OPTIONS: &[Named] = &[
    named("autocd", None, Off),
    named("cdspell", None, Off),
    named("checkhash", None, On),
    named("checkwinsize", None, On),
    named("cmdhist", None, On),
    named("dotglob", None, Setting::Flag(Flag::Dotglob)),
    named("expand_aliases", None, Setting::Flag(Flag::ExpandAliases)),
    named("extglob", None, Setting::Flag(Flag::Extglob)),
    named("extquote", None, On),
    named("failglob", None, Setting::Flag(Flag::Failglob)),
    named("globskipdots", None, Setting::Flag(Flag::Globskipdots)),
    named("globstar", None, Setting::Flag(Flag::Globstar)),
    named("histappend", None, Off),
    named("inherit_errexit", None, Setting::Flag(Flag::InheritErrexit)),
    named("lastpipe", None, Setting::Flag(Flag::Lastpipe)),
    named("nocaseglob", None, Setting::Flag(Flag::Nocaseglob)),
    named("nocasematch", None, Setting::Flag(Flag::Nocasematch)),
    named("nullglob", None, Setting::Flag(Flag::Nullglob)),
    named("patsub_replacement", None, On),
    named("progcomp", None, On),
    named("promptvars", None, Setting::Flag(Flag::Promptvars)),
    named("sourcepath", None, On),
    named("xpg_echo", None, Off),
];

/// The option of `table` called `name`.
pub fn find(table: &'static [Named], name: &str) -> Option<&'static Named> {
    table.iter().find(|option| option.name == name)
}

/// The `set` option with single letter `letter`.
pub fn by_letter(letter: char) -> Option<&'static Named> {
    SET_OPTIONS
        .iter()
        .find(|option| option.letter == Some(letter))
}

impl Options {
    fn field(&mut self, flag: Flag) -> &mut bool {
        match flag {
            Flag::Errexit => &mut self.errexit,
            Flag::Nounset => &mut self.nounset,
            Flag::Pipefail => &mut self.pipefail,
            Flag::Xtrace => &mut self.xtrace,
            Flag::Noglob => &mut self.noglob,
            Flag::Noclobber => &mut self.noclobber,
            Flag::Allexport => &mut self.allexport,
            Flag::Noexec => &mut self.noexec,
            Flag::Verbose => &mut self.verbose,
            Flag::Nullglob => &mut self.nullglob,
            Flag::Failglob => &mut self.failglob,
            Flag::Dotglob => &mut self.dotglob,
            Flag::Nocaseglob => &mut self.nocaseglob,
            Flag::Nocasematch => &mut self.nocasematch,
            Flag::Extglob => &mut self.extglob,
            Flag::Globstar => &mut self.globstar,
            Flag::ExpandAliases => &mut self.expand_aliases,
            Flag::Lastpipe => &mut self.lastpipe,
            Flag::InheritErrexit => &mut self.inherit_errexit,
            Flag::Globskipdots => &mut self.globskipdots,
            Flag::Promptvars => &mut self.promptvars,
            Flag::Errtrace => &mut self.errtrace,
        }
    }

    /// The value of `option`.
    pub fn get(&self, option: &Named) -> bool {
        match option.setting {
            Setting::Flag(flag) => {
                let mut copy = *self;
                *copy.field(flag)
            }
            Setting::On => true,
            Setting::Off => false,
        }
    }

    /// Sets `option`; false for one whose value goccia does not act on
    /// (accepted, and left as it is).
    pub fn set(&mut self, option: &Named, on: bool) -> bool {
        match option.setting {
            Setting::Flag(flag) => {
                *self.field(flag) = on;
                true
            }
            Setting::On | Setting::Off => false,
        }
    }

    /// `set -o name` / `set +o name`; false for an unknown name.
    pub fn set_named(&mut self, name: &str, on: bool) -> bool {
        match find(SET_OPTIONS, name) {
            Some(option) => {
                self.set(option, on);
                true
            }
            None => false,
        }
    }

    /// The value of the `set -o` option `name` (false when unknown, as
    /// `[[ -o name ]]` is).
    pub fn is_set(&self, name: &str) -> bool {
        find(SET_OPTIONS, name).is_some_and(|option| self.get(option))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_reads_back_what_was_set() {
        for table in [SET_OPTIONS, SHOPT_OPTIONS] {
            for option in table {
                let mut options = Options::default();
                let acted = options.set(option, true);
                assert_eq!(
                    options.get(option),
                    acted || option.setting == Setting::On,
                    "{}",
                    option.name
                );
            }
        }
    }

    #[test]
    fn names_and_letters_are_unique_and_always_on_options_read_true() {
        let mut names: Vec<_> = SET_OPTIONS.iter().map(|o| o.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), SET_OPTIONS.len());
        let options = Options::default();
        assert!(options.is_set("braceexpand"));
        assert!(options.is_set("hashall"));
        assert!(!options.is_set("noexec"));
        assert!(!options.is_set("no-such-option"));
        assert_eq!(by_letter('e').map(|o| o.name), Some("errexit"));
        assert_eq!(by_letter('n').map(|o| o.name), Some("noexec"));
    }
}
