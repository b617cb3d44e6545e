//! jq's results as YAML, written the way Debian's `yq -y` writes them
//! (PyYAML's emitter, block style, indented sequences, Unicode as is):
//! a string is plain when YAML 1.1 would read it back as the same string,
//! else single-quoted, else (control characters) double-quoted; long
//! scalars fold at column 80; documents after the first start with
//! `---`, and a stream whose last document is a plain scalar ends with
//! `...`.

use yaml_rust2::{Yaml, YamlLoader};

/// Where scalars fold.
const BEST_WIDTH: usize = 80;
/// Each level's indentation.
const INDENT: usize = 2;

/// jq's compact output (one JSON value per line) as YAML documents.
pub fn documents(json_lines: &str) -> Result<String, String> {
    // At the start of the stream, as at the start of any line.
    let mut writer = Writer {
        whitespace: true,
        indention: true,
        ..Writer::default()
    };
    let mut first = true;
    for line in json_lines.lines().filter(|line| !line.trim().is_empty()) {
        let values = YamlLoader::load_from_str(line).map_err(|error| error.to_string())?;
        for value in values {
            writer.document(&value, first);
            first = false;
        }
    }
    if writer.open_ended {
        writer.text("...");
        writer.newline();
    }
    Ok(writer.out)
}

#[derive(Default)]
struct Writer {
    out: String,
    column: usize,
    /// The last thing written is whitespace (a value needs no space).
    whitespace: bool,
    /// The line holds only indentation so far.
    indention: bool,
    /// The last document was a plain scalar at the root.
    open_ended: bool,
}

/// How a string may be written (PyYAML's analysis of a scalar).
struct Analysis {
    multiline: bool,
    allow_flow_plain: bool,
    allow_block_plain: bool,
    allow_single_quoted: bool,
}

impl Writer {
    fn text(&mut self, text: &str) {
        self.out.push_str(text);
        self.column += text.chars().count();
        self.whitespace = false;
        self.indention = false;
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.column = 0;
        self.whitespace = true;
        self.indention = true;
    }

    /// To `indent` on a new line, unless the line holds only indentation
    /// up to there.
    fn indent_to(&mut self, indent: usize) {
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.newline();
        }
        if self.column < indent {
            self.out.push_str(&" ".repeat(indent - self.column));
            self.column = indent;
            self.whitespace = true;
        }
    }

    fn document(&mut self, value: &Yaml, first: bool) {
        self.open_ended = false;
        if !first {
            self.text("---");
            match value {
                Yaml::Hash(map) if !map.is_empty() => self.newline(),
                Yaml::Array(items) if !items.is_empty() => self.newline(),
                _ => self.text(" "),
            }
            self.whitespace = true;
        }
        match value {
            Yaml::Hash(map) if !map.is_empty() => self.mapping(value, 0),
            Yaml::Array(items) if !items.is_empty() => self.sequence(value, 0),
            scalar => {
                self.open_ended = self.scalar(scalar, INDENT, true);
                self.open_ended &= true;
            }
        }
        self.newline();
    }

    fn mapping(&mut self, value: &Yaml, indent: usize) {
        let Yaml::Hash(map) = value else { return };
        for (key, item) in map {
            self.indent_to(indent);
            let key_text = match key {
                Yaml::String(s) => s.clone(),
                other => scalar_text(other),
            };
            self.string(&key_text, indent + INDENT, false, true);
            self.text(":");
            self.value(item, indent);
        }
    }

    fn sequence(&mut self, value: &Yaml, indent: usize) {
        let Yaml::Array(items) = value else { return };
        for item in items {
            self.indent_to(indent);
            self.text("-");
            self.text(" ");
            self.whitespace = true;
            self.indention = true;
            match item {
                Yaml::Hash(map) if !map.is_empty() => self.mapping(item, indent + INDENT),
                Yaml::Array(inner) if !inner.is_empty() => self.sequence(item, indent + INDENT),
                scalar => {
                    self.scalar(scalar, indent + INDENT, false);
                }
            }
        }
    }

    /// A mapping's value after its `key:`.
    fn value(&mut self, item: &Yaml, indent: usize) {
        match item {
            Yaml::Hash(map) if !map.is_empty() => self.mapping(item, indent + INDENT),
            Yaml::Array(items) if !items.is_empty() => self.sequence(item, indent + INDENT),
            scalar => {
                self.text(" ");
                self.whitespace = true;
                self.scalar(scalar, indent + INDENT, false);
            }
        }
    }

    /// A scalar (or an empty collection); whether it was written plain.
    fn scalar(&mut self, value: &Yaml, indent: usize, root: bool) -> bool {
        match value {
            Yaml::String(s) => self.string(s, indent, true, false) && root,
            Yaml::Hash(_) => {
                self.text("{}");
                false
            }
            Yaml::Array(_) => {
                self.text("[]");
                false
            }
            other => {
                self.text(&scalar_text(other));
                root
            }
        }
    }

    /// A string in the style PyYAML chooses; whether it was plain.
    fn string(&mut self, text: &str, indent: usize, split: bool, key: bool) -> bool {
        let analysis = analyze(text);
        let plain = !(key && (text.is_empty() || analysis.multiline))
            && analysis.allow_block_plain
            && analysis.allow_flow_plain | analysis.allow_block_plain
            && resolves_to_string(text);
        if plain {
            self.plain(text, indent, split);
            true
        } else if analysis.allow_single_quoted && !(key && analysis.multiline) {
            self.single_quoted(text, indent, split);
            false
        } else {
            self.double_quoted(text, indent, split);
            false
        }
    }

    fn plain(&mut self, text: &str, indent: usize, split: bool) {
        let chars: Vec<char> = text.chars().collect();
        let mut start = 0;
        let mut spaces = false;
        for end in 0..=chars.len() {
            let ch = chars.get(end).copied();
            if spaces {
                if ch != Some(' ') {
                    if start + 1 == end && self.column > BEST_WIDTH && split {
                        self.indent_to(indent);
                        self.whitespace = false;
                        self.indention = false;
                    } else {
                        let piece: String = chars[start..end].iter().collect();
                        self.text(&piece);
                    }
                    start = end;
                }
            } else if ch.is_none() || ch == Some(' ') {
                let piece: String = chars[start..end].iter().collect();
                self.text(&piece);
                start = end;
            }
            if let Some(ch) = ch {
                spaces = ch == ' ';
            }
        }
    }

    fn single_quoted(&mut self, text: &str, indent: usize, split: bool) {
        self.text("'");
        let chars: Vec<char> = text.chars().collect();
        let is_break = |c: char| matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}');
        let (mut start, mut spaces, mut breaks) = (0, false, false);
        for end in 0..=chars.len() {
            let ch = chars.get(end).copied();
            if spaces {
                if ch != Some(' ') {
                    if start + 1 == end
                        && self.column > BEST_WIDTH
                        && split
                        && start != 0
                        && end != chars.len()
                    {
                        self.indent_to(indent);
                    } else {
                        let piece: String = chars[start..end].iter().collect();
                        self.text(&piece);
                    }
                    start = end;
                }
            } else if breaks {
                if ch.is_none_or(|c| !is_break(c)) {
                    if chars[start] == '\n' {
                        self.newline();
                    }
                    for &br in &chars[start..end] {
                        if br == '\n' {
                            self.newline();
                        } else {
                            self.out.push(br);
                            self.newline();
                        }
                    }
                    self.indent_to(indent);
                    start = end;
                }
            } else if (ch.is_none() || ch.is_some_and(|c| c == ' ' || is_break(c) || c == '\''))
                && start < end
            {
                let piece: String = chars[start..end].iter().collect();
                self.text(&piece);
                start = end;
            }
            if ch == Some('\'') {
                self.text("''");
                start = end + 1;
            }
            if let Some(ch) = ch {
                spaces = ch == ' ';
                breaks = is_break(ch);
            }
        }
        self.text("'");
    }

    fn double_quoted(&mut self, text: &str, indent: usize, split: bool) {
        self.text("\"");
        let chars: Vec<char> = text.chars().collect();
        let mut start = 0;
        for end in 0..=chars.len() {
            let ch = chars.get(end).copied();
            let needs_escape = ch.is_none_or(|c| {
                matches!(
                    c,
                    '"' | '\\' | '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}'
                ) || !(('\u{20}'..='\u{7E}').contains(&c)
                    || ('\u{A0}'..='\u{D7FF}').contains(&c)
                    || ('\u{E000}'..='\u{FFFD}').contains(&c))
            });
            if needs_escape {
                if start < end {
                    let piece: String = chars[start..end].iter().collect();
                    self.text(&piece);
                    start = end;
                }
                if let Some(c) = ch {
                    let escaped = match c {
                        '\0' => "\\0".to_string(),
                        '\x07' => "\\a".to_string(),
                        '\x08' => "\\b".to_string(),
                        '\t' => "\\t".to_string(),
                        '\n' => "\\n".to_string(),
                        '\x0B' => "\\v".to_string(),
                        '\x0C' => "\\f".to_string(),
                        '\r' => "\\r".to_string(),
                        '\x1B' => "\\e".to_string(),
                        '"' => "\\\"".to_string(),
                        '\\' => "\\\\".to_string(),
                        '\u{85}' => "\\N".to_string(),
                        '\u{A0}' => "\\_".to_string(),
                        '\u{2028}' => "\\L".to_string(),
                        '\u{2029}' => "\\P".to_string(),
                        c if (c as u32) <= 0xFF => format!("\\x{:02X}", c as u32),
                        c if (c as u32) <= 0xFFFF => format!("\\u{:04X}", c as u32),
                        c => format!("\\U{:08X}", c as u32),
                    };
                    self.text(&escaped);
                    start = end + 1;
                }
            }
            // Folding at a space past the width, as PyYAML does.
            if ch == Some(' ')
                && end > 0
                && end + 1 < chars.len()
                && self.column + (end - start) > BEST_WIDTH
                && split
            {
                let piece: String = chars[start..end].iter().collect();
                self.text(&piece);
                self.text("\\");
                start = end;
                self.indent_to(indent);
                self.whitespace = false;
                self.indention = false;
                if chars[start] == ' ' {
                    self.text("\\");
                }
            }
        }
        self.text("\"");
    }
}

/// A scalar that is not a string, as PyYAML represents it.
fn scalar_text(value: &Yaml) -> String {
    match value {
        Yaml::Null | Yaml::BadValue | Yaml::Alias(_) => "null".to_string(),
        Yaml::Boolean(b) => b.to_string(),
        Yaml::Integer(i) => i.to_string(),
        Yaml::Real(text) => {
            let lower = text.to_ascii_lowercase();
            if lower.contains("inf") || text == "1.7976931348623157e+308" {
                if text.starts_with('-') {
                    "-.inf"
                } else {
                    ".inf"
                }
                .to_string()
            } else if lower.contains('e') && !lower.contains('.') {
                // Python's repr keeps a `.0` before the exponent in YAML.
                let at = lower.find('e').unwrap_or(lower.len());
                format!("{}.0{}", &lower[..at], &lower[at..])
            } else {
                lower
            }
        }
        Yaml::String(s) => s.clone(),
        Yaml::Hash(_) => "{}".to_string(),
        Yaml::Array(_) => "[]".to_string(),
    }
}

/// PyYAML's `analyze_scalar`, for the flags the style needs.
fn analyze(text: &str) -> Analysis {
    if text.is_empty() {
        return Analysis {
            multiline: false,
            allow_flow_plain: false,
            allow_block_plain: false,
            allow_single_quoted: true,
        };
    }
    let chars: Vec<char> = text.chars().collect();
    let is_break = |c: char| matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}');
    let is_space_or_break =
        |c: Option<char>| c.is_none_or(|c| c == ' ' || c == '\t' || is_break(c) || c == '\0');
    let (mut block_indicators, mut flow_indicators) = (false, false);
    let (mut line_breaks, mut special_characters) = (false, false);
    let (mut leading_space, mut leading_break) = (false, false);
    let (mut trailing_space, mut trailing_break) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    if text.starts_with("---") || text.starts_with("...") {
        block_indicators = true;
        flow_indicators = true;
    }
    let mut preceded_by_whitespace = true;
    let mut followed_by_whitespace = chars.len() == 1 || is_space_or_break(chars.get(1).copied());
    let (mut previous_space, mut previous_break) = (false, false);
    for (index, &ch) in chars.iter().enumerate() {
        if index == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(ch) {
                flow_indicators = true;
                block_indicators = true;
            }
            if ch == '?' || ch == ':' {
                flow_indicators = true;
                if followed_by_whitespace {
                    block_indicators = true;
                }
            }
            if ch == '-' && followed_by_whitespace {
                flow_indicators = true;
                block_indicators = true;
            }
        } else {
            if ",?[]{}".contains(ch) {
                flow_indicators = true;
            }
            if ch == ':' {
                flow_indicators = true;
                if followed_by_whitespace {
                    block_indicators = true;
                }
            }
            if ch == '#' && preceded_by_whitespace {
                flow_indicators = true;
                block_indicators = true;
            }
        }
        if is_break(ch) {
            line_breaks = true;
        }
        if !(ch == '\n' || ('\u{20}'..='\u{7E}').contains(&ch)) {
            let unicode = (ch == '\u{85}'
                || ('\u{A0}'..='\u{D7FF}').contains(&ch)
                || ('\u{E000}'..='\u{FFFD}').contains(&ch)
                || ('\u{10000}'..='\u{10FFFF}').contains(&ch))
                && ch != '\u{FEFF}';
            if !unicode {
                special_characters = true;
            }
        }
        if ch == ' ' {
            if index == 0 {
                leading_space = true;
            }
            if index == chars.len() - 1 {
                trailing_space = true;
            }
            if previous_break {
                break_space = true;
            }
            previous_space = true;
            previous_break = false;
        } else if is_break(ch) {
            if index == 0 {
                leading_break = true;
            }
            if index == chars.len() - 1 {
                trailing_break = true;
            }
            if previous_space {
                space_break = true;
            }
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_whitespace = is_space_or_break(Some(ch));
        followed_by_whitespace =
            index + 2 >= chars.len() || is_space_or_break(chars.get(index + 2).copied());
    }
    let mut allow_flow_plain = true;
    let mut allow_block_plain = true;
    let mut allow_single_quoted = true;
    if leading_space || leading_break || trailing_space || trailing_break {
        allow_flow_plain = false;
        allow_block_plain = false;
    }
    if break_space {
        allow_flow_plain = false;
        allow_block_plain = false;
        allow_single_quoted = false;
    }
    if space_break || special_characters {
        allow_flow_plain = false;
        allow_block_plain = false;
        allow_single_quoted = false;
    }
    if line_breaks {
        allow_flow_plain = false;
        allow_block_plain = false;
    }
    if flow_indicators {
        allow_flow_plain = false;
    }
    if block_indicators {
        allow_block_plain = false;
    }
    Analysis {
        multiline: line_breaks,
        allow_flow_plain,
        allow_block_plain,
        allow_single_quoted,
    }
}

/// Whether YAML 1.1 (PyYAML's resolver) reads `text` written plain back as
/// a string: not a bool, int, float, null, timestamp, merge or value key.
fn resolves_to_string(text: &str) -> bool {
    const BOOLS: &[&str] = &[
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ];
    const NULLS: &[&str] = &["~", "null", "Null", "NULL", ""];
    if BOOLS.contains(&text) || NULLS.contains(&text) || text == "<<" || text == "=" {
        return false;
    }
    !(is_int(text) || is_float(text) || is_timestamp(text))
}

fn digits_underscores(text: &str, digit: impl Fn(char) -> bool) -> bool {
    !text.is_empty() && text.chars().all(|c| digit(c) || c == '_')
}

fn is_int(text: &str) -> bool {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    if let Some(binary) = body.strip_prefix("0b") {
        return digits_underscores(binary, |c| c == '0' || c == '1');
    }
    if let Some(hex) = body.strip_prefix("0x") {
        return digits_underscores(hex, |c| c.is_ascii_hexdigit());
    }
    if body == "0" {
        return true;
    }
    if let Some(octal) = body.strip_prefix('0') {
        return digits_underscores(octal, |c| ('0'..='7').contains(&c));
    }
    if body.starts_with(|c: char| ('1'..='9').contains(&c)) {
        // Decimal, or base 60 (`1:30`).
        let mut parts = body.split(':');
        let first = parts.next().unwrap_or("");
        if !digits_underscores(first, |c| c.is_ascii_digit()) {
            return false;
        }
        return parts.all(is_sexagesimal);
    }
    false
}

fn is_sexagesimal(part: &str) -> bool {
    (1..=2).contains(&part.len())
        && part.chars().all(|c| c.is_ascii_digit())
        && (part.len() == 1 || part.starts_with(|c: char| ('0'..='5').contains(&c)))
}

fn is_float(text: &str) -> bool {
    let body = text.strip_prefix(['+', '-']).unwrap_or(text);
    if matches!(body, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    // [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*  (base 60)
    if let Some((whole, fraction)) = body.split_once('.')
        && whole.contains(':')
    {
        let mut parts = whole.split(':');
        let first = parts.next().unwrap_or("");
        return first.starts_with(|c: char| c.is_ascii_digit())
            && digits_underscores(first, |c| c.is_ascii_digit())
            && parts.all(is_sexagesimal)
            && fraction.chars().all(|c| c.is_ascii_digit() || c == '_');
    }
    // ([0-9][0-9_]*)?\.[0-9._]*([eE][-+][0-9]+)?  and  \.[0-9][0-9_]*(...)?
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(at) => (&body[..at], Some(&body[at + 1..])),
        None => (body, None),
    };
    if let Some(exponent) = exponent {
        let Some(digits) = exponent.strip_prefix(['+', '-']) else {
            return false;
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return false;
        }
    }
    let Some((whole, fraction)) = mantissa.split_once('.') else {
        return false;
    };
    if whole.is_empty() {
        return fraction.starts_with(|c: char| c.is_ascii_digit())
            && fraction.chars().all(|c| c.is_ascii_digit() || c == '_');
    }
    whole.starts_with(|c: char| c.is_ascii_digit())
        && digits_underscores(whole, |c| c.is_ascii_digit())
        && fraction
            .chars()
            .all(|c| c.is_ascii_digit() || c == '_' || c == '.')
}

fn is_timestamp(text: &str) -> bool {
    let bytes = text.as_bytes();
    let digit = |i: usize| bytes.get(i).is_some_and(u8::is_ascii_digit);
    // YYYY-MM-DD, or the start of a longer date-time.
    let date = bytes.len() >= 8
        && (0..4).all(digit)
        && bytes[4] == b'-'
        && digit(5)
        && (bytes[6] == b'-' || (digit(6) && bytes.get(7) == Some(&b'-')));
    if !date {
        return false;
    }
    if bytes.len() == 10 && digit(8) && digit(9) && bytes[7] == b'-' {
        return true;
    }
    // A date-time: a `T`, `t` or blanks, then hh:mm:ss.
    text.contains(':') && (text.contains('T') || text.contains('t') || text.contains(' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_as_pyyaml_chooses_them() {
        let yaml = documents(
            r#"{"a":1,"b":["x",{"k":"v","n":null}],"c":"str: with colon","e":1.5,"f":"","g":[1,[2,3]],"h":"multi\nline\n","i":{},"j":[],"k":"123","l":"yes","t":"tab\there","q":"it's","z":"0x10","dash":"-x","col":"x:y","star":"*a","big":1e-05}"#,
        )
        .unwrap();
        assert_eq!(
            yaml,
            "a: 1\nb:\n  - x\n  - k: v\n    n: null\nc: 'str: with colon'\ne: 1.5\nf: ''\ng:\n  - 1\n  - - 2\n    - 3\nh: 'multi\n\n  line\n\n  '\ni: {}\nj: []\nk: '123'\nl: 'yes'\nt: \"tab\\there\"\nq: it's\nz: '0x10'\ndash: -x\ncol: x:y\nstar: '*a'\nbig: 1.0e-05\n"
        );
        assert_eq!(documents("\"x\"\n").unwrap(), "x\n...\n");
        assert_eq!(documents("1\n2\n").unwrap(), "1\n--- 2\n...\n");
        assert_eq!(
            documents("{\"a\":1}\n{\"a\":2}\n").unwrap(),
            "a: 1\n---\na: 2\n"
        );
    }

    #[test]
    fn long_scalars_fold_at_the_width() {
        let long = "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq rrrr ssss tttt";
        let yaml = documents(&format!("{{\"long\":\"{long}\"}}")).unwrap();
        assert_eq!(
            yaml,
            "long: aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp\n  qqqq rrrr ssss tttt\n"
        );
    }
}
