//! Commands agents reach for (issue 19 item 5), against the real tools on
//! the machine: Debian's `yq` (jq over YAML), `xxd`, `hexdump`, `od`,
//! `envsubst`, `fmt`, `sqlite3`, `zip`/`unzip`, `nproc`, `nohup`.

pub const CASES: &[&str] = &[
    // yq: YAML in; JSON out, or YAML with -y.
    r#"cat > c.yaml <<'YAML'
name: demo
version: 1.2
tags: [a, b]
deps:
  - name: x
    pin: "1.0"
  - {name: y, pin: null}
flag: yes
empty: {}
text: |
  two
  lines
YAML
yq . c.yaml; yq -r '.deps[].name' c.yaml; yq -c '.tags' c.yaml; yq -y . c.yaml; yq -y '.deps[0]' c.yaml"#,
    r#"printf 'a: 1\n---\na: 2\n' > m.yaml; yq .a m.yaml; yq -y . m.yaml; yq -s -c . m.yaml; yq -y '.a' m.yaml"#,
    r#"printf 'k: "it'"'"'s"\nq: "x: y"\nn: "0x10"\ns: " lead"\nu: "ünï"\nl: [1, [2, 3]]\n' > q.yaml; yq -y . q.yaml; yq -y '.l[1]' q.yaml"#,
    r#"printf 'a: 1\nb: [x]\n' | yq -y '.c = {"d": "e f", "g": [true, false]}'; printf 'a: 1\n' | yq --arg v hi -y '.b = $v'; printf 'x: 1\n' | yq -e .y; echo "st $?""#,
    r#"printf 'long: "aaaa bbbb cccc dddd eeee ffff gggg hhhh iiii jjjj kkkk llll mmmm nnnn oooo pppp qqqq rrrr"\n' | yq -y .; printf '[1.5, 100, -3, 0.25]\n' | yq -y ."#,
];
