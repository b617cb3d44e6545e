//! Text `file` names by what it holds: keys and certificates, documents
//! by their first line, diffs, the source languages file 5.44's rules
//! recognise, and CSV (file's own count of fields per line). The rules
//! and their order were read off file 5.44's answers (Debian 12), case by
//! case; where file's rules weigh several, the first here wins.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// How `file` words what it found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// The name alone (`PEM certificate`).
    Alone,
    /// The name, then the encoding (`C source, ASCII text`).
    Source,
    /// A script: the encoding, then `executable`.
    Script,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Found {
    name: Cow<'static, str>,
    mime: &'static str,
    form: Form,
}

impl Found {
    const fn new(name: &'static str, mime: &'static str, form: Form) -> Found {
        Found {
            name: Cow::Borrowed(name),
            mime,
            form,
        }
    }

    /// The description `file` gives, and the MIME type.
    pub(super) fn describe(&self, encoding: &str, details: &str) -> (String, &'static str) {
        let description = match self.form {
            Form::Alone => self.name.to_string(),
            Form::Source => format!("{}, {encoding}{details}", self.name),
            Form::Script => format!("{}, {encoding} executable{details}", self.name),
        };
        (description, self.mime)
    }
}

/// Files known by how they start.
const STARTS: &[(&str, Found)] = &[
    (
        "-----BEGIN CERTIFICATE REQUEST-----",
        Found::new("PEM certificate request", "text/plain", Form::Alone),
    ),
    (
        "-----BEGIN CERTIFICATE-----",
        Found::new("PEM certificate", "text/plain", Form::Alone),
    ),
    (
        "-----BEGIN RSA PRIVATE KEY-----",
        Found::new("PEM RSA private key", "text/plain", Form::Alone),
    ),
    (
        "-----BEGIN DSA PRIVATE KEY-----",
        Found::new("PEM DSA private key", "text/plain", Form::Alone),
    ),
    (
        "-----BEGIN EC PRIVATE KEY-----",
        Found::new("PEM EC private key", "text/plain", Form::Alone),
    ),
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----",
        Found::new("OpenSSH private key", "text/plain", Form::Alone),
    ),
    (
        "ssh-rsa ",
        Found::new("OpenSSH RSA public key", "text/plain", Form::Alone),
    ),
    (
        "ssh-ed25519 ",
        Found::new("OpenSSH ED25519 public key", "text/plain", Form::Alone),
    ),
    (
        "ssh-dss ",
        Found::new("OpenSSH DSA public key", "text/plain", Form::Alone),
    ),
    (
        "ecdsa-sha2-nistp",
        Found::new("OpenSSH ECDSA public key", "text/plain", Form::Alone),
    ),
    (
        "BEGIN:VCARD",
        Found::new("vCard visiting card", "text/vcard", Form::Alone),
    ),
    (
        "<?php",
        Found::new("PHP script", "text/x-php", Form::Source),
    ),
    (
        "diff ",
        Found::new("diff output", "text/x-diff", Form::Source),
    ),
    (
        "Index: ",
        Found::new("RCS/CVS diff output", "text/x-diff", Form::Source),
    ),
];

const UNIFIED_DIFF: Found = Found::new("unified diff output", "text/x-diff", Form::Source);
const CONTEXT_DIFF: Found = Found::new("context diff output", "text/x-diff", Form::Source);
const PYTHON: Found = Found::new("Python script", "text/x-script.python", Form::Script);
/// file's rule for `if __name__ == '__main__':` (single quotes) names the
/// language but gives no MIME type of its own, and it is tried before the
/// others; with double quotes another rule, in its turn, gives the type.
const PYTHON_MAIN: Found = Found::new("Python script", "text/plain", Form::Script);
const C_PLUS_PLUS: Found = Found::new("C++ source", "text/x-c++", Form::Source);
const JAVA: Found = Found::new("Java source", "text/x-java", Form::Source);
const C: Found = Found::new("C source", "text/x-c", Form::Source);
const MAKEFILE: Found = Found::new("makefile script", "text/x-makefile", Form::Source);
const BSD_MAKEFILE: Found = Found::new("BSD makefile script", "text/x-makefile", Form::Source);
const PERL_MODULE: Found = Found::new("Perl5 module source", "text/plain", Form::Source);
const BATCH: Found = Found::new("DOS batch file", "text/x-msdos-batch", Form::Source);
const CSV: Found = Found::new("CSV text", "text/csv", Form::Alone);

/// Each language's lines, in the order they are tried.
static RULES: LazyLock<Vec<(Regex, Found)>> = LazyLock::new(|| {
    let rules: &[(&str, Found)] = &[
        (r"(?m)^--- .*\n\+\+\+ .*\n@@ ", UNIFIED_DIFF),
        (r"\A\*\*\* .*\n--- ", CONTEXT_DIFF),
        (r#"if __name__ == '__main__'[ \t]*:"#, PYTHON_MAIN),
        (
            r"(?m)^[ \t]*def [A-Za-z_][A-Za-z0-9_]*[ \t]*\(.*\)[ \t]*:",
            PYTHON,
        ),
        (
            r"(?m)^from[ \t]+[A-Za-z_.][A-Za-z0-9_.]*[ \t]+import\b",
            PYTHON,
        ),
        (r"(?m)^class [A-Za-z_][A-Za-z0-9_]*(\(.*\))?[ \t]*:", PYTHON),
        (r#"if __name__ == "__main__"[ \t]*:"#, PYTHON),
        (
            r"(?m)^(template[ \t]*<|namespace[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{|using namespace\b|class [A-Za-z_][A-Za-z0-9_]*[ \t]*\{)",
            C_PLUS_PLUS,
        ),
        (r"(?m)^import java\.", JAVA),
        (r#"(?m)^#[ \t]*include[ \t]*[<"]"#, C),
        (r"main[ \t]*\([^)]*\)\s*\{", C),
        (r"(?m)^struct [A-Za-z_][A-Za-z0-9_]*[ \t]*\{", C),
        (r"(?m)^(all:|CFLAGS|LDFLAGS|VPATH|\.PRECIOUS)", MAKEFILE),
        (r"(?m)^\.include[ \t]", BSD_MAKEFILE),
        (
            r"(?m)^package[ \t]+[A-Za-z_][A-Za-z0-9_:]*[ \t]*;",
            PERL_MODULE,
        ),
        (r"(?i)\A@echo off", BATCH),
    ];
    rules
        .iter()
        .map(|(pattern, found)| {
            let rule = Regex::new(pattern).expect("file's rules are valid");
            (rule, found.clone())
        })
        .collect()
});

/// What `text` is, if file would name it beyond its encoding.
pub(super) fn recognise(text: &str) -> Option<Found> {
    if let Some((_, found)) = STARTS.iter().find(|(start, _)| text.starts_with(start)) {
        return Some(found.clone());
    }
    if let Some(found) = postscript(text).or_else(|| rtf(text)) {
        return Some(found);
    }
    if let Some((_, found)) = RULES.iter().find(|(rule, _)| rule.is_match(text)) {
        return Some(found.clone());
    }
    is_csv(text.as_bytes()).then_some(CSV)
}

/// PostScript, and the DSC level a `%!PS-Adobe-` line declares.
fn postscript(text: &str) -> Option<Found> {
    let rest = text.strip_prefix("%!PS")?;
    let line = rest.lines().next().unwrap_or("");
    let mut found = Found::new(
        "PostScript document text",
        "application/postscript",
        Form::Alone,
    );
    if let Some(level) = line.strip_prefix("-Adobe-") {
        let mut words = level.split_whitespace();
        let version = words.next().unwrap_or("");
        let eps = words.next().is_some_and(|word| word.starts_with("EPSF"));
        found.name = Cow::Owned(format!(
            "PostScript document text conforming DSC level {version}{}",
            if eps { ", type EPS" } else { "" }
        ));
    }
    Some(found)
}

/// Rich Text: its version and, when declared, the ANSI character set.
fn rtf(text: &str) -> Option<Found> {
    let rest = text.strip_prefix("{\\rtf1")?;
    let name = if rest.starts_with("\\ansi") {
        "Rich Text Format data, version 1, ANSI"
    } else {
        "Rich Text Format data, version 1"
    };
    Some(Found::new(name, "text/rtf", Form::Alone))
}

/// file's CSV test: every line has as many commas as the first (outside
/// double quotes), at least one, over at least three lines; ten such
/// lines are enough.
fn is_csv(data: &[u8]) -> bool {
    const LINES: usize = 10;
    let (mut fields, mut first, mut lines) = (0, 0, 0);
    let mut at = 0;
    while at < data.len() {
        match data[at] {
            b'"' => {
                // To the closing quote (a doubled quote stays inside).
                at += 1;
                while at < data.len() {
                    if data[at] == b'"' {
                        if data.get(at + 1) == Some(&b'"') {
                            at += 1;
                        } else {
                            break;
                        }
                    }
                    at += 1;
                }
            }
            b',' => fields += 1,
            b'\n' => {
                lines += 1;
                if lines == LINES {
                    return first != 0 && first == fields;
                }
                if first == 0 {
                    if fields == 0 {
                        return false;
                    }
                    first = fields;
                } else if first != fields {
                    return false;
                }
                fields = 0;
            }
            _ => {}
        }
        at += 1;
    }
    first != 0 && lines > 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(text: &str) -> Option<String> {
        recognise(text).map(|found| found.name.into_owned())
    }

    #[test]
    fn languages_as_file_names_them() {
        assert_eq!(
            name("def f():\n    pass\n"),
            Some("Python script".to_string())
        );
        assert_eq!(name("import os\nimport sys\n"), None);
        assert_eq!(name("#include <stdio.h>\n"), Some("C source".to_string()));
        assert_eq!(
            name("#include <stdio.h>\nclass A {};\n"),
            Some("C++ source".to_string())
        );
        assert_eq!(name("fn main() {}\n"), Some("C source".to_string()));
        assert_eq!(name("x = main();\n"), None);
        assert_eq!(name("all:\n\techo\n"), Some("makefile script".to_string()));
        assert_eq!(name("clean:\n\trm x\n"), None);
        assert_eq!(
            name("package com.a;\nimport java.util.List;\n"),
            Some("Java source".to_string())
        );
        assert_eq!(
            name("--- a\n+++ b\n@@ -1 +1 @@\n"),
            Some("unified diff output".to_string())
        );
    }

    #[test]
    fn csv_needs_three_lines_of_equal_fields() {
        assert!(is_csv(b"a,b\n1,2\n3,4\n"));
        assert!(!is_csv(b"a,b,c\n1,2,3\n"));
        assert!(!is_csv(b"a,b\n1,2\n3\n"));
        assert!(is_csv(b"\"a,x\",b\n1,2\n3,4\n"));
    }
}
