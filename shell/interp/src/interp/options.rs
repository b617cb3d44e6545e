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
    /// `set -T`: the DEBUG and RETURN traps also run in functions,
    /// sourced files and subshells.
    pub functrace: bool,
    /// `shopt -s globskipdots` (on by default, as in bash 5.2): `.*`
    /// never matches `.` and `..`.
    pub globskipdots: bool,
    /// `shopt -s promptvars` (on by default): a prompt's escapes are
    /// followed by `$` expansions.
    pub promptvars: bool,
    /// `set -B` (on by default): `{a,b}` and `{1..3}` expand.
    pub braceexpand: bool,
    /// The options of [`Setting::Recorded`], one bit each.
    pub recorded: u128,
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
            functrace: false,
            globskipdots: true,
            promptvars: true,
            braceexpand: true,
            recorded: SET_OPTIONS
                .iter()
                .chain(SHOPT_OPTIONS)
                .fold(0, |bits, option| match option.setting {
                    Setting::Recorded(bit, true) => bits | 1 << bit,
                    _ => bits,
                }),
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
    Braceexpand,
    Errtrace,
    Functrace,
}

/// Where an option's value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Setting {
    /// A field goccia acts on.
    Flag(Flag),
    /// Read back as set, starting at the default; nothing in goccia
    /// depends on it (job control, history, `checkwinsize`, ...). The
    /// number is its bit in [`Options::recorded`].
    Recorded(u8, bool),
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

/// The `set -o` options, in bash's order.
pub const SET_OPTIONS: &[Named] = &[
    named("allexport", Some('a'), Setting::Flag(Flag::Allexport)),
    named("braceexpand", Some('B'), Setting::Flag(Flag::Braceexpand)),
    named("emacs", None, Setting::Recorded(0, false)),
    named("errexit", Some('e'), Setting::Flag(Flag::Errexit)),
    named("errtrace", Some('E'), Setting::Flag(Flag::Errtrace)),
    named("functrace", Some('T'), Setting::Flag(Flag::Functrace)),
    named("hashall", Some('h'), Setting::Recorded(2, true)),
    named("histexpand", Some('H'), Setting::Recorded(3, false)),
    named("history", None, Setting::Recorded(4, false)),
    named("ignoreeof", None, Setting::Recorded(5, false)),
    named("interactive-comments", None, Setting::Recorded(6, true)),
    named("keyword", Some('k'), Setting::Recorded(7, false)),
    named("monitor", Some('m'), Setting::Recorded(8, false)),
    named("noclobber", Some('C'), Setting::Flag(Flag::Noclobber)),
    named("noexec", Some('n'), Setting::Flag(Flag::Noexec)),
    named("noglob", Some('f'), Setting::Flag(Flag::Noglob)),
    named("nolog", None, Setting::Recorded(9, false)),
    named("notify", Some('b'), Setting::Recorded(10, false)),
    named("nounset", Some('u'), Setting::Flag(Flag::Nounset)),
    named("onecmd", Some('t'), Setting::Recorded(11, false)),
    named("physical", Some('P'), Setting::Recorded(12, false)),
    named("pipefail", None, Setting::Flag(Flag::Pipefail)),
    named("posix", None, Setting::Recorded(13, false)),
    named("privileged", Some('p'), Setting::Recorded(14, false)),
    named("verbose", Some('v'), Setting::Flag(Flag::Verbose)),
    named("vi", None, Setting::Recorded(15, false)),
    named("xtrace", Some('x'), Setting::Flag(Flag::Xtrace)),
];

/// The `shopt` options, in bash's order (bash 5.2's list).
pub const SHOPT_OPTIONS: &[Named] = &[
    named("autocd", None, Setting::Recorded(16, false)),
    named("assoc_expand_once", None, Setting::Recorded(17, false)),
    named("cdable_vars", None, Setting::Recorded(18, false)),
    named("cdspell", None, Setting::Recorded(19, false)),
    named("checkhash", None, Setting::Recorded(20, false)),
    named("checkjobs", None, Setting::Recorded(21, false)),
    named("checkwinsize", None, Setting::Recorded(22, true)),
    named("cmdhist", None, Setting::Recorded(23, true)),
    named("compat31", None, Setting::Recorded(24, false)),
    named("compat32", None, Setting::Recorded(25, false)),
    named("compat40", None, Setting::Recorded(26, false)),
    named("compat41", None, Setting::Recorded(27, false)),
    named("compat42", None, Setting::Recorded(28, false)),
    named("compat43", None, Setting::Recorded(29, false)),
    named("compat44", None, Setting::Recorded(30, false)),
    named("complete_fullquote", None, Setting::Recorded(31, true)),
    named("direxpand", None, Setting::Recorded(32, false)),
    named("dirspell", None, Setting::Recorded(33, false)),
    named("dotglob", None, Setting::Flag(Flag::Dotglob)),
    named("execfail", None, Setting::Recorded(34, false)),
    named("expand_aliases", None, Setting::Flag(Flag::ExpandAliases)),
    named("extdebug", None, Setting::Recorded(35, false)),
    named("extglob", None, Setting::Flag(Flag::Extglob)),
    named("extquote", None, Setting::Recorded(36, true)),
    named("failglob", None, Setting::Flag(Flag::Failglob)),
    named("force_fignore", None, Setting::Recorded(37, true)),
    named("globasciiranges", None, Setting::Recorded(38, true)),
    named("globskipdots", None, Setting::Flag(Flag::Globskipdots)),
    named("globstar", None, Setting::Flag(Flag::Globstar)),
    named("gnu_errfmt", None, Setting::Recorded(39, false)),
    named("histappend", None, Setting::Recorded(40, false)),
    named("histreedit", None, Setting::Recorded(41, false)),
    named("histverify", None, Setting::Recorded(42, false)),
    named("hostcomplete", None, Setting::Recorded(43, true)),
    named("huponexit", None, Setting::Recorded(44, false)),
    named("inherit_errexit", None, Setting::Flag(Flag::InheritErrexit)),
    named("interactive_comments", None, Setting::Recorded(45, true)),
    named("lastpipe", None, Setting::Flag(Flag::Lastpipe)),
    named("lithist", None, Setting::Recorded(46, false)),
    named("localvar_inherit", None, Setting::Recorded(47, false)),
    named("localvar_unset", None, Setting::Recorded(48, false)),
    named("login_shell", None, Setting::Recorded(49, false)),
    named("mailwarn", None, Setting::Recorded(50, false)),
    named(
        "no_empty_cmd_completion",
        None,
        Setting::Recorded(51, false),
    ),
    named("nocaseglob", None, Setting::Flag(Flag::Nocaseglob)),
    named("nocasematch", None, Setting::Flag(Flag::Nocasematch)),
    named("noexpand_translation", None, Setting::Recorded(52, false)),
    named("nullglob", None, Setting::Flag(Flag::Nullglob)),
    named("patsub_replacement", None, Setting::Recorded(53, true)),
    named("progcomp", None, Setting::Recorded(54, true)),
    named("progcomp_alias", None, Setting::Recorded(55, false)),
    named("promptvars", None, Setting::Flag(Flag::Promptvars)),
    named("restricted_shell", None, Setting::Recorded(56, false)),
    named("shift_verbose", None, Setting::Recorded(57, false)),
    named("sourcepath", None, Setting::Recorded(58, true)),
    named("varredir_close", None, Setting::Recorded(59, false)),
    named("xpg_echo", None, Setting::Recorded(60, false)),
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
            Flag::Braceexpand => &mut self.braceexpand,
            Flag::Errtrace => &mut self.errtrace,
            Flag::Functrace => &mut self.functrace,
        }
    }

    /// The value of `option`.
    pub fn get(&self, option: &Named) -> bool {
        match option.setting {
            Setting::Flag(flag) => {
                let mut copy = *self;
                *copy.field(flag)
            }
            Setting::Recorded(bit, _) => self.recorded & 1 << bit != 0,
        }
    }

    /// Sets `option`.
    pub fn set(&mut self, option: &Named, on: bool) {
        match option.setting {
            Setting::Flag(flag) => *self.field(flag) = on,
            Setting::Recorded(bit, _) => {
                if on {
                    self.recorded |= 1 << bit;
                    // One line-editing mode at a time.
                    let other = match option.name {
                        "emacs" => find(SET_OPTIONS, "vi"),
                        "vi" => find(SET_OPTIONS, "emacs"),
                        _ => None,
                    };
                    if let Some(Setting::Recorded(other_bit, _)) = other.map(|o| o.setting) {
                        self.recorded &= !(1 << other_bit);
                    }
                } else {
                    self.recorded &= !(1 << bit);
                }
            }
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

    /// The value of the `shopt` option `name` (false when unknown).
    pub fn is_shopt_set(&self, name: &str) -> bool {
        find(SHOPT_OPTIONS, name).is_some_and(|option| self.get(option))
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
                options.set(option, true);
                assert!(options.get(option), "{} on", option.name);
                options.set(option, false);
                assert!(!options.get(option), "{} off", option.name);
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
