//! The locale, as far as the language sees it: its character type.
//!
//! bash reads `LC_ALL`, else `LC_CTYPE`, else `LANG` (shell variables,
//! exported or not). A UTF-8 locale reads strings as characters; `C`,
//! `POSIX` and an unset locale read them as bytes, so `?` matches one
//! byte of `μ` and `${#x}` counts bytes. goccia has the `C`, `POSIX` and
//! UTF-8 locales (any name whose codeset is UTF-8 is `C.UTF-8`); another
//! name reads as `C`, and assigning it to an `LC_` variable warns as
//! glibc's failed `setlocale` makes bash warn.

use super::Shell;

/// The variables bash hands to `setlocale` on assignment (`LANG` it
/// takes quietly).
const LOCALE_VARIABLES: [&str; 6] = [
    "LC_ALL",
    "LC_CTYPE",
    "LC_COLLATE",
    "LC_MESSAGES",
    "LC_NUMERIC",
    "LC_TIME",
];

impl Shell {
    /// True when the locale's character type is bytes (`C`, `POSIX`, an
    /// unknown name, or nothing set).
    pub(crate) fn bytewise_locale(&self) -> bool {
        let name = ["LC_ALL", "LC_CTYPE", "LANG"]
            .into_iter()
            .find_map(|variable| self.scalar_value(variable).filter(|v| !v.is_empty()));
        !name.is_some_and(is_utf8)
    }

    /// Runs `f` on `text` as the locale reads it: byte by byte in the C
    /// locale ([`crate::raw::bytewise`], the result regrouped after),
    /// as it is otherwise.
    pub(crate) fn in_locale(&self, text: String, f: impl FnOnce(String) -> String) -> String {
        if !self.bytewise_locale() || text.is_ascii() {
            return f(text);
        }
        let result = f(crate::raw::bytewise(&text).into_owned());
        crate::raw::regroup(&result).into_owned()
    }

    /// `text` spelled as the locale reads it (one character per byte in
    /// the C locale), for patterns and for the strings they are matched
    /// against.
    pub(crate) fn locale_chars<'a>(&self, text: &'a str) -> std::borrow::Cow<'a, str> {
        if self.bytewise_locale() {
            crate::raw::bytewise(text)
        } else {
            std::borrow::Cow::Borrowed(text)
        }
    }

    /// bash's warning for a locale variable set to a locale that does not
    /// exist (`LC_ALL` set overrides the others, which are then not
    /// tried).
    pub(crate) fn check_locale_assignment(&mut self, name: &str, value: &str) {
        if !LOCALE_VARIABLES.contains(&name) || value.is_empty() || exists(value) {
            return;
        }
        if name != "LC_ALL" && self.scalar_value("LC_ALL").is_some_and(|v| !v.is_empty()) {
            return;
        }
        let message = format!(
            "warning: setlocale: {name}: cannot change locale ({value}): No such file or directory"
        );
        self.report_at_line(&message);
    }

    fn scalar_value(&self, name: &str) -> Option<&str> {
        self.vars
            .get_raw(name)
            .and_then(|var| var.value.as_ref())
            .and_then(|value| value.scalar())
    }
}

/// A locale name whose codeset is UTF-8 (`C.UTF-8`, `en_US.utf8`).
fn is_utf8(name: &str) -> bool {
    let codeset = name.split_once('.').map_or("", |(_, rest)| rest);
    let codeset = codeset.split_once('@').map_or(codeset, |(set, _)| set);
    codeset.eq_ignore_ascii_case("utf-8") || codeset.eq_ignore_ascii_case("utf8")
}

fn exists(name: &str) -> bool {
    name == "C" || name == "POSIX" || is_utf8(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_locales_are_named_by_their_codeset() {
        assert!(is_utf8("C.UTF-8"));
        assert!(is_utf8("C.utf8"));
        assert!(is_utf8("en_US.UTF-8@euro"));
        assert!(!is_utf8("C"));
        assert!(!is_utf8("en_US"));
        assert!(!is_utf8("en_US.ISO-8859-1"));
        assert!(exists("POSIX") && exists("C") && !exists("invalid"));
    }
}
