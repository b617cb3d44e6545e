//! POSIX regular expressions (BRE for `grep`/`sed`, ERE for `grep -E`,
//! `sed -E`, `awk`, `[[ =~ ]]`) translated to the `regex` crate's syntax.
//! The differences handled: bracket expressions (`]` first is literal, a
//! backslash inside is literal), GNU word boundaries `\<` `\>`, `\s` `\w`
//! kept, literal braces that are not intervals, and BRE's escaped
//! operators.

/// ERE to Rust syntax.
pub fn ere_to_rust(pattern: &str) -> String {
    translate(pattern, false)
}

/// BRE to Rust syntax.
pub fn bre_to_rust(pattern: &str) -> String {
    translate(pattern, true)
}

/// True when the pattern uses backreferences (`\1`..`\9`), which need a
/// backtracking engine.
pub fn has_backreference(pattern: &str) -> bool {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    let mut in_bracket = false;
    while i < bytes.len() {
        match bytes[i] {
            b'[' if !in_bracket => in_bracket = true,
            b']' if in_bracket => in_bracket = false,
            b'\\' if !in_bracket => {
                if bytes.get(i + 1).is_some_and(|b| (b'1'..=b'9').contains(b)) {
                    return true;
                }
                i += 1;
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether glibc's `regcomp` refuses `pattern` as an ERE where the
/// translation would accept it: a repetition with nothing to repeat (`*`,
/// `+`, `?` or `{` first, after `(`, `|`, `^` or `$`) or a brace that is
/// no interval (`a{`, `x{a}`, `a{2,1}`). `[[ =~ ]]` fails with status 2
/// on those; GNU grep and sed read them more leniently.
pub fn regcomp_rejects_ere(pattern: &str) -> bool {
    let chars: Vec<char> = pattern.chars().collect();
    let mut i = 0;
    let mut can_repeat = false;
    while i < chars.len() {
        match chars[i] {
            '[' => {
                i = bracket(&chars, i).1;
                can_repeat = true;
                continue;
            }
            '\\' => {
                i += 2;
                can_repeat = true;
                continue;
            }
            '(' | '|' | '^' | '$' => can_repeat = false,
            '*' | '+' | '?' if !can_repeat => return true,
            '{' => {
                if !can_repeat {
                    return true;
                }
                let Some((length, low, high)) = interval(&chars[i + 1..]) else {
                    return true;
                };
                if let (Some(low), Some(high)) = (low, high)
                    && low > high
                {
                    return true;
                }
                i += 1 + length;
                continue;
            }
            _ => can_repeat = true,
        }
        i += 1;
    }
    false
}

/// An interval's body at the start of `chars`, the text after a `{`:
/// `n}`, `n,}`, `,m}`, `n,m}` (GNU's `,m` is from 0). Gives its length
/// with the `}` and its bounds (`None` where left out); `None` when the
/// text is no interval. Whether `n <= m` is left to the caller.
fn interval(chars: &[char]) -> Option<(usize, Option<u32>, Option<u32>)> {
    let close = chars.iter().position(|&c| c == '}')?;
    let body: String = chars[..close].iter().collect();
    let bound = |text: &str| -> Option<Option<u32>> {
        if text.is_empty() {
            Some(None)
        } else if text.chars().all(|c| c.is_ascii_digit()) {
            // Past u32, still an interval (the regex engine refuses it).
            Some(Some(text.parse().unwrap_or(u32::MAX)))
        } else {
            None
        }
    };
    let (low, high) = match body.split_once(',') {
        None if body.is_empty() => return None,
        None => {
            let n = bound(&body)?;
            (n, n)
        }
        Some((low, high)) => (bound(low)?, bound(high)?),
    };
    Some((close + 1, low, high))
}

fn translate(pattern: &str, basic: bool) -> String {
    let chars: Vec<char> = pattern.chars().collect();
    let mut out = String::with_capacity(pattern.len() + 8);
    let mut i = 0;
    // Where an operand may start (a `*` there is literal in BRE).
    let mut at_start = true;
    // Groups open (ERE).
    let mut depth = 0usize;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '[' => {
                let (class, next) = bracket(&chars, i);
                out.push_str(&class);
                i = next;
                at_start = false;
                continue;
            }
            '\\' => {
                let Some(&next) = chars.get(i + 1) else {
                    out.push_str("\\\\");
                    i += 1;
                    continue;
                };
                i += 2;
                match next {
                    '<' | '>' => out.push_str("\\b"),
                    '(' | ')' | '{' | '}' | '|' | '+' | '?' if basic => {
                        out.push(next);
                        at_start = next == '(' || next == '|';
                        continue;
                    }
                    '1'..='9' | 'w' | 'W' | 's' | 'S' | 'b' | 'B' | 'd' | 'D' => {
                        out.push('\\');
                        out.push(next);
                    }
                    'n' => out.push_str("\\n"),
                    't' => out.push_str("\\t"),
                    '`' => out.push_str("\\A"),
                    '\'' => out.push_str("\\z"),
                    other => push_literal(&mut out, other),
                }
                at_start = false;
                continue;
            }
            '(' | ')' | '|' | '+' | '?' if basic => push_literal(&mut out, c),
            '(' => {
                depth += 1;
                out.push('(');
            }
            // An unmatched `)` is an ordinary character in an ERE.
            ')' if depth == 0 => push_literal(&mut out, c),
            ')' => {
                depth -= 1;
                out.push(')');
            }
            '{' | '}' if basic => push_literal(&mut out, c),
            '{' => {
                // An interval only when well-formed (see `interval`).
                if !at_start && interval(&chars[i + 1..]).is_some() {
                    out.push('{');
                    if chars.get(i + 1) == Some(&',') {
                        out.push('0');
                    }
                } else {
                    out.push_str("\\{");
                }
            }
            '}' => {
                let opened = out.rfind('{').is_some_and(|p| !out[..p].ends_with('\\'));
                if opened && !out.ends_with("\\{") {
                    out.push('}');
                } else {
                    out.push_str("\\}");
                }
            }
            '*' if at_start => out.push_str("\\*"),
            '^' if basic && !at_start => out.push_str("\\^"),
            '$' if basic
                && i + 1 < chars.len()
                && !(chars[i + 1] == '\\' && matches!(chars.get(i + 2), Some(')') | Some('|'))) =>
            {
                out.push_str("\\$")
            }
            _ => out.push(c),
        }
        at_start = matches!(c, '(' | '|') && !basic || (c == '^' && at_start);
        i += 1;
    }
    out
}

fn push_literal(out: &mut String, c: char) {
    if "\\.+*?()|[]{}^$#&-~".contains(c) {
        out.push('\\');
    }
    out.push(c);
}

/// A bracket expression starting at `chars[start] == '['`; returns its
/// translation and the index after it. An unclosed `[` is literal.
fn bracket(chars: &[char], start: usize) -> (String, usize) {
    let mut i = start + 1;
    let mut out = String::from("[");
    if chars.get(i) == Some(&'^') {
        out.push('^');
        i += 1;
    }
    let mut first = true;
    loop {
        let Some(&c) = chars.get(i) else {
            return ("\\[".to_string(), start + 1);
        };
        if c == ']' && !first {
            out.push(']');
            return (out, i + 1);
        }
        first = false;
        if c == '[' && matches!(chars.get(i + 1), Some(':') | Some('=') | Some('.')) {
            let kind = chars[i + 1];
            let rest: String = chars[i + 2..].iter().collect();
            let close = format!("{kind}]");
            if let Some(end) = rest.find(&close) {
                let name = &rest[..end];
                match kind {
                    ':' => out.push_str(&format!("[:{name}:]")),
                    _ => {
                        for ch in name.chars() {
                            push_class_char(&mut out, ch);
                        }
                    }
                }
                i += 2 + name.chars().count() + 2;
                continue;
            }
        }
        push_class_char(&mut out, c);
        i += 1;
    }
}

fn push_class_char(out: &mut String, c: char) {
    if matches!(c, '\\' | ']' | '[' | '^' | '&' | '~') {
        out.push('\\');
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ere_matches(pattern: &str, text: &str) -> bool {
        regex::Regex::new(&ere_to_rust(pattern))
            .unwrap()
            .is_match(text)
    }

    fn bre_matches(pattern: &str, text: &str) -> bool {
        regex::Regex::new(&bre_to_rust(pattern))
            .unwrap()
            .is_match(text)
    }

    #[test]
    fn ere_translation() {
        assert!(ere_matches("^[0-9]+$", "123"));
        assert!(ere_matches("[[:alpha:]]+", "abc"));
        assert!(ere_matches("[]x]", "]"));
        assert!(ere_matches("a{2}", "aa"));
        assert!(ere_matches("a{", "a{"));
        assert!(ere_matches("\\<word\\>", "a word here"));
        assert!(ere_matches("[\\]", "\\"));
        assert!(ere_matches("(ab|cd)+", "abcd"));
        // GNU's `{,m}` counts from 0; a `)` that closes nothing is literal
        assert!(ere_matches("^xa{,2}$", "x"));
        assert!(!ere_matches("^xa{,2}$", "xaaa"));
        assert!(ere_matches("a)", "a)"));
        assert!(ere_matches("a{1,2,3}", "a{1,2,3}"), "no interval: literal");
    }

    #[test]
    fn regcomp_refusals() {
        // what glibc's regcomp refuses, which `[[ =~ ]]` reports as status 2
        for refused in [
            "*", "{", "a{", "a{1", "{1}", "x{a}", "a{2,1}", "a{}", "^*", "$*", "a|*", "(*)", "+",
        ] {
            assert!(regcomp_rejects_ere(refused), "{refused}");
        }
        for accepted in [
            "a**", "a{1}", "a{,2}", "a{,}", "()", "a|", ")", "[*]", "\\*", "a{1}{2}",
        ] {
            assert!(!regcomp_rejects_ere(accepted), "{accepted}");
        }
    }

    #[test]
    fn bre_translation() {
        assert!(bre_matches("a\\{2\\}", "aa"));
        assert!(bre_matches("a+b", "a+b"));
        assert!(!bre_matches("a+b", "aab"));
        assert!(bre_matches("\\(ab\\)*c", "ababc"));
        assert!(bre_matches("*star", "*star"));
        assert!(bre_matches("a|b", "a|b"));
        assert!(bre_matches("x\\|y", "y"));
        assert!(has_backreference("\\(a\\)\\1"));
        assert!(!has_backreference("[\\1]"));
    }
}
