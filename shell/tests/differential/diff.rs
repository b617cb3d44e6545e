//! `diff`'s output styles and options as one-liners use them (issue 49,
//! item 4): `ed` and RCS scripts, the template formats, `-I`, `-p`, `-t`,
//! `-T`, the white-space options, a folder beside a file, `-x`, and the
//! refusals GNU diffutils 3.8 gives. Header times are cut (`tail`) where a
//! unified or context header would show them.

/// Each case, after making two pairs of small files every case can use:
/// `old` and `new`, `s1` and `s2`.
macro_rules! with_files {
    ($($case:literal),* $(,)?) => {
        &[$(concat!("printf 'line one\\nline two\\nline three\\n' > old; printf 'line one\\nline 2\\nline three\\nline four\\n' > new; seq 10 > s1; printf '1\\n4\\n5\\nx\\ny\\n6\\n7\\n10\\n' > s2; ", $case)),*]
    };
}

pub const CASES: &[&str] = with_files![
    // ed scripts backwards and forwards, RCS, and the style words.
    r#"diff -e s1 s2; echo "st $?"; diff -f s1 s2; diff -n s1 s2; diff --normal old new; diff --ed old new"#,
    // A lone dot in an ed script is doubled, then mended.
    r#"diff -e old <(printf 'line one\n.\nx\n.\nline three\n')"#,
    // Lines without a final newline: RCS writes them as they are.
    r#"printf 'a\nb' > n1; printf 'a\nc' > n2; diff -n n1 n2 | od -c; diff n1 n2; diff -u n1 n2 | tail -n +3"#,
    // Two styles at once are refused; one style given twice is not.
    r#"diff -u -c old new 2>&1; echo "st $?"; diff -e -y old new 2>&1; echo "st $?"; diff -u -U 1 old new | tail -n +3; echo "st $?""#,
    // Obsolete context counts: -3 alone, -u0, the last count wins.
    r#"diff -3 old new; diff -u0 s1 s2 | tail -n +3; diff -U2 -1 -u s1 s2 | tail -n +3"#,
    // Template formats: line numbers, groups, widths, characters.
    r#"diff --line-format='%dn:%L' old new; echo "st $?"; diff --old-line-format='-%l
' --new-line-format='+%l
' --unchanged-line-format=' %l
' s1 s2"#,
    r#"diff --old-group-format='OLD %df-%dl (%dn)
%<' --new-group-format='NEW %dF,%dN after %de
%>' --changed-group-format='CH %de %dE %dm %dM %3dn|%-3dN|%c'X'%c'\101'%%
%<---
%>' --unchanged-group-format='' s1 s2"#,
    // The conditional of group templates as GNU reads it: numbers or
    // letters, T to the first `:` of its level, a `%` starting no
    // directive written as itself, nesting, a malformed one as text; line
    // templates have none.
    r#"c='%(n=1?one:many) %dn-%dN %(N=1?single:%dN lines)
'; n='new %(F=4?at four:elsewhere)%(e=3?%(E=3?both:one):neither)
'; o='%(1=1?x%)y:z)|%(n=2?two%:two:other)|%(x=1?a:b)|%(3=?a:b)
'; for pair in "s1 s2" "old new"; do diff --changed-group-format="$c" --new-group-format="$n" --old-group-format="$o" --unchanged-group-format='' $pair; echo "st $?"; done; diff --line-format='%(n=2?[two]:%dn) %l
' s1 s2"#,
    r#"diff --changed-group-format='%>' --unchanged-group-format='' old new; diff --unchanged-line-format='' --new-line-format='+%L' --old-line-format='-%L' old new"#,
    // -I: a change is ignored only when all its lines match.
    r#"diff -I line old new; echo "st $?"; diff -I two -I four old new; echo "st $?"; diff -I two old new; diff -u -I four old new | tail -n +3"#,
    // -B: empty lines only; with -w a line of blanks is empty.
    r#"printf 'a\nb\n' > p; printf 'a\n  \nb\n' > q; printf 'a\n\nb\n' > r; diff -B p q; echo "st $?"; diff -B p r; echo "st $?"; diff -B -w p q; echo "st $?""#,
    // -b keeps leading blanks apart from none; -Z, -E, --strip-trailing-cr.
    r#"diff -b <(printf ' a\nb  c \n') <(printf 'a\nb c\n'); echo "st $?"; diff -Z <(printf 'a  \n b\n') <(printf 'a\n  b\n'); echo "st $?"; diff -E <(printf 'a\tb\n') <(printf 'a       b\n'); echo "st $?"; diff --strip-trailing-cr <(printf 'a\r\nb\r\n') <(printf 'a\nc\n')"#,
    // -p labels hunks with the function above them; -F with a pattern.
    r#"printf 'int main() {\n  a;\n  b;\n  c;\n  d;\n  e;\n}\n' > c1; sed 's/e;/E;/' c1 > c2; diff -p -u c1 c2 | tail -n +3; diff -p -c c1 c2 | tail -n +3; diff -F '^int' -U1 c1 c2 | tail -n +3"#,
    // -t expands tabs, -T puts one after each mark, in every format.
    r#"printf 'a\tb\n\tx\n' > t1; printf 'a\tb\n\ty\n' > t2; diff -t t1 t2; diff -t -u t1 t2 | tail -n +3; diff -y -t t1 t2; diff -T old new; diff -T -u old new | tail -n +3; diff -T -c old new | tail -n +3"#,
    // A folder beside a file stands for the file of that name inside it.
    r#"mkdir D; cp old D/; diff D old; echo "st $?"; diff new D 2>&1; echo "st $?"; diff old D/; echo "st $?"; diff notes notes/todo.txt; echo "st $?""#,
    // -x and --exclude in a recursive comparison, echoed quoted.
    r#"mkdir D E; cp old D/; echo k > D/k.txt; echo line one > E/old; echo kk > E/k.txt; diff -x '*.txt' -r D E; echo "st $?"; diff --exclude=old -r D E; echo "st $?"; diff -r src notes | head -3"#,
    // --color is accepted (nothing is coloured off a terminal); a bad
    // word is refused.
    r#"diff --color=never old new; echo "st $?"; diff --color old new > /dev/null; echo "st $?"; diff --color=bogus old new 2>&1; echo "st $?""#,
    // -D: the merged file under #ifndef/#ifdef, as four group formats
    // that other template options refine; a second, different value of
    // any template is refused naming the option that gave it.
    r#"diff -D FOO old new; echo "st $?"; diff --ifdef=BAR old old; echo "st $?"; diff -D N --old-line-format='-%L' old new; diff -D A /dev/null s1; diff -D A s1 /dev/null; echo "st $?""#,
    r#"diff -D A -D B old new 2>&1; echo "st $?"; diff -D A -D A old new > /dev/null; echo "st $?"; diff -D A --changed-group-format='CH
' old new 2>&1; echo "st $?"; diff --line-format=X --old-line-format=Y old new 2>&1; echo "st $?"; diff -D A -u old new 2>&1; echo "st $?""#,
    // Refusals: status 2, GNU's words, nothing compared.
    r#"for o in -Q --foo '-U x' '-W 0' --tabsize=0 '-y -W x'; do diff $o old new 2>&1; echo "st $?"; done; diff -y -W 0 old new 2>&1; echo "st $?"; diff old 2>&1; echo "st $?"; diff old new s1 2>&1; echo "st $?""#,
    // -N with a folder on one side only: the absent one is an empty
    // folder, its files empty and dated at the epoch; without -r a folder
    // only one side has is "common"; --unidirectional-new-file only for
    // the first side; both absent are both reported, -N or not.
    r#"mkdir -p a/u b/v; echo x > a/f; echo y > a/u/g; echo z > b/v/h; echo w > b/only; touch -d '2024-01-02 03:04:05' a/f a/u/g b/v/h b/only; diff -Naur a gone; echo "st $?"; diff -Nr gone a; echo "st $?"; diff -N a gone; echo "st $?"; diff -Nqr a b; echo "st $?"; diff -N a b; echo "st $?"; diff -r a gone 2>&1; echo "st $?""#,
    r#"mkdir -p a/u b/v; echo x > a/f; echo z > b/v/h; echo w > b/only; diff --unidirectional-new-file -r a b; echo "st $?"; diff --unidirectional-new-file a b; echo "st $?"; diff --unidirectional-new-file -r gone a; echo "st $?"; diff --unidirectional-new-file -r a gone 2>&1; echo "st $?"; diff -N gone1 gone2 2>&1; echo "st $?"; diff -rs a/f gone 2>&1; echo "st $?""#,
];

/// Pairs of files generated from a fixed seed (a line per letter, the
/// second file an edit of the first or another draw): among the many
/// shortest edit scripts GNU diff prints the one its own search and
/// boundary shifts give, and so must `diff` here, in every style that
/// shows the alignment.
pub fn generated_alignments() -> Vec<String> {
    let mut draws = Draws(0x9e37_79b9_7f4a_7c15);
    let mut pairs = String::new();
    for (index, (longest, letters)) in [(8, "abcde"), (30, "abcdefgh"), (200, "abc")]
        .iter()
        .cycle()
        .take(45)
        .enumerate()
    {
        let letters = letters.as_bytes();
        let length = draws.below(longest + 1);
        let first = draws.lines(length, letters);
        let second = if draws.below(10) < 3 {
            let length = draws.below(longest + 1);
            draws.lines(length, letters)
        } else {
            let mut edited = first.clone();
            for _ in 0..=draws.below(6) {
                let at = draws.below(edited.len() as u64 + 1) as usize;
                let letter = letters[draws.below(letters.len() as u64) as usize];
                match draws.below(3) {
                    0 if at < edited.len() => {
                        edited.remove(at);
                    }
                    1 if at < edited.len() => edited[at] = letter,
                    _ => edited.insert(at, letter),
                }
            }
            edited
        };
        let text = |lines: &[u8]| -> String {
            lines.iter().map(|c| format!("{}\\n", *c as char)).collect()
        };
        pairs.push_str(&format!(
            "printf '{}' > a{index}; printf '{}' > b{index}; ",
            text(&first),
            text(&second)
        ));
    }
    // Unified and context headers carry the files' times: cut.
    [
        ("", ""),
        ("-u", " | sed 1,2d"),
        ("-c", " | sed 1,2d"),
        ("-y -W 20", ""),
    ]
    .iter()
    .map(|(flags, headers)| {
        format!(
            "{pairs}for i in $(seq 0 44); do echo \"== $i\"; diff {flags} a$i b$i{headers}; done"
        )
    })
    .collect()
}

/// A fixed sequence of draws (xorshift64*), the same on every machine.
struct Draws(u64);

impl Draws {
    fn below(&mut self, bound: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % bound
    }

    /// `count` lines, each one of `letters`.
    fn lines(&mut self, count: u64, letters: &[u8]) -> Vec<u8> {
        (0..count)
            .map(|_| letters[self.below(letters.len() as u64) as usize])
            .collect()
    }
}
