//! Letter case as glibc's `towupper`/`towlower` change it, which is what
//! bash (`${x^^}`, `declare -u`), GNU sed (`\U`, `\l`) and gawk
//! (`toupper`) use: one character for one, by Unicode's simple mappings.
//! Rust's `str::to_uppercase` applies the full mappings instead (`ß`
//! becomes `SS`, `ﬁ` becomes `FI`) and a final `Σ` becomes `ς`; none of
//! that happens in those tools.

/// The upper case of `c`, or `c` when it has none of one character.
pub fn upper_char(c: char) -> char {
    let mut mapped = c.to_uppercase();
    match (mapped.next(), mapped.next()) {
        (Some(single), None) => single,
        _ => c,
    }
}

/// The lower case of `c`, or `c` when it has none of one character. The
/// one letter whose full mapping is longer, `İ`, has `i` as its simple one.
pub fn lower_char(c: char) -> char {
    let mut mapped = c.to_lowercase();
    match (mapped.next(), mapped.next()) {
        (Some(single), None) => single,
        (Some(first), Some(_)) if c == '\u{130}' => first,
        _ => c,
    }
}

/// `text` with every character in upper case, one for one.
pub fn upper(text: &str) -> String {
    text.chars().map(upper_char).collect()
}

/// `text` with every character in lower case, one for one.
pub fn lower(text: &str) -> String {
    text.chars().map(lower_char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_character_for_one_as_glibc_maps_them() {
        assert_eq!(upper("straße ﬁx"), "STRAßE ﬁX");
        assert_eq!(lower("İSTANBUL ΟΔΟΣ"), "istanbul οδοσ");
        assert_eq!(upper("ǆ àé"), "Ǆ ÀÉ");
        assert_eq!(lower("ÀÉ ABC"), "àé abc");
    }
}
