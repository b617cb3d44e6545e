//! `//TRANSLIT`: what glibc's C.UTF-8 locale writes for a character the
//! target set lacks. Its tables are long; these are the entries for Latin
//! letters, punctuation and symbols an agent's text holds, read off glibc
//! 2.36's answers. Then a letter's accents are dropped (its canonical
//! decomposition), then its compatibility form is tried (ligatures,
//! full-width and superscript forms); anything else becomes `?`.

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// Replacements glibc makes that neither decomposition gives.
const TABLE: &[(char, &str)] = &[
    ('ß', "ss"),
    ('æ', "ae"),
    ('Æ', "AE"),
    ('œ', "oe"),
    ('Œ', "OE"),
    ('ø', "o"),
    ('Ø', "O"),
    ('ł', "l"),
    ('Ł', "L"),
    ('đ', "d"),
    ('Đ', "D"),
    ('ð', "d"),
    ('Ð', "D"),
    ('þ', "th"),
    ('Þ', "TH"),
    ('ı', "i"),
    ('ƒ', "f"),
    ('µ', "u"),
    ('\u{201C}', "\""),
    ('\u{201D}', "\""),
    ('\u{201E}', ",,"),
    ('\u{2018}', "'"),
    ('\u{2019}', "'"),
    ('\u{201A}', ","),
    ('«', "<<"),
    ('»', ">>"),
    ('\u{2039}', "<"),
    ('\u{203A}', ">"),
    ('\u{2010}', "-"),
    ('\u{2013}', "-"),
    ('\u{2014}', "--"),
    ('\u{2026}', "..."),
    ('\u{2022}', "o"),
    ('·', "."),
    ('€', "EUR"),
    ('£', "GBP"),
    ('¥', "JPY"),
    ('¢', "c"),
    ('©', "(C)"),
    ('®', "(R)"),
    ('\u{2122}', "(TM)"),
    ('±', "+-"),
    ('×', "x"),
    ('÷', "/"),
    ('½', " 1/2 "),
    ('¼', " 1/4 "),
    ('¾', " 3/4 "),
    ('¡', "!"),
    ('¬', "!"),
    ('¦', "|"),
    ('´', "'"),
    ('¸', ","),
    ('ˆ', "^"),
    ('˜', "~"),
    ('\u{2020}', "+"),
    ('\u{2192}', "->"),
    ('\u{2190}', "<-"),
    ('\u{2264}', "<="),
    ('\u{2265}', ">="),
    ('\u{2260}', "!="),
    // glibc has none for these, and decomposition would give a blank.
    ('¨', "?"),
    ('¯', "?"),
];

/// What to write for `c`, given what the target set can hold (`fits`).
pub(super) fn transliterate(c: char, fits: impl Fn(&str) -> bool) -> String {
    if let Some((_, text)) = TABLE.iter().find(|(from, _)| *from == c)
        && fits(text)
    {
        return (*text).to_string();
    }
    let stripped = |text: &mut dyn Iterator<Item = char>| -> String {
        text.filter(|c| !is_combining_mark(*c)).collect()
    };
    for candidate in [
        stripped(&mut std::iter::once(c).nfd()),
        stripped(&mut std::iter::once(c).nfkd()),
    ] {
        if !candidate.is_empty() && candidate != c.to_string() && fits(&candidate) {
            return candidate;
        }
    }
    "?".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_lose_accents_and_symbols_become_words() {
        let ascii = |text: &str| text.is_ascii();
        let all: String = "é Ł ß ﬁ Ａ ² “ … € ½ ° 日"
            .split(' ')
            .map(|c| transliterate(c.chars().next().unwrap(), ascii))
            .collect::<Vec<_>>()
            .join("|");
        assert_eq!(all, "e|L|ss|fi|A|2|\"|...|EUR| 1/2 |?|?");
    }
}
