use super::*;

fn parse(source: &str) -> List {
    Parser::parse_all(source).unwrap_or_else(|e| panic!("{source:?}: {e}"))
}

fn simple(list: &List, item: usize) -> &SimpleCommand {
    match &list.items[item].and_or.first.commands[0] {
        Command::Simple(command) => command,
        other => panic!("not simple: {other:?}"),
    }
}

#[test]
fn simple_commands_words_and_assignments() {
    let list = parse("A=1 B+=x echo hello 'w o' \"$x\" > out 2>&1");
    let command = simple(&list, 0);
    assert_eq!(command.assignments.len(), 2);
    assert!(command.assignments[1].append);
    assert_eq!(command.words.len(), 4);
    assert_eq!(command.redirects.len(), 2);
    assert_eq!(command.redirects[1].fd, RedirectFd::Number(2));
    assert_eq!(command.redirects[1].op, RedirectOp::DupWrite);
}

#[test]
fn lists_pipelines_and_and_or() {
    let list = parse("a | b |& c && ! d || e; f & g\nh");
    assert_eq!(list.items.len(), 4);
    let first = &list.items[0].and_or;
    assert_eq!(first.first.commands.len(), 3);
    assert_eq!(first.first.pipe_stderr, vec![false, true, false]);
    assert_eq!(first.rest.len(), 2);
    assert!(first.rest[0].1.negated);
    assert!(list.items[1].background);
}

#[test]
fn compound_commands() {
    let list = parse(
        "if a; then b; elif c; then d; else e; fi\nfor i in 1 2; do echo $i; done\nwhile x; do y; done\n\
         case $v in a|b) one;; *) two;& esac\n{ x; }\n(sub)\n((i++))\n[[ -f x && $a == b* ]]\nf() { echo f; }\n\
         for ((i=0;i<3;i++)); do :; done",
    );
    assert_eq!(list.items.len(), 10);
    assert!(matches!(
        list.items[8].and_or.first.commands[0],
        Command::FunctionDef(_)
    ));
}

#[test]
fn expansions_parse_into_parts() {
    let list =
        parse("echo ${x:-default} ${#y} ${z//a/b} $(echo hi) $((1+2)) `date` ~/dir $'a\\tb'");
    let words = &simple(&list, 0).words;
    assert!(
        matches!(&words[1].parts[0], WordPart::Param(p) if matches!(p.op, ParamOp::Default { colon: true, .. }))
    );
    assert!(matches!(&words[2].parts[0], WordPart::Param(p) if p.length));
    assert!(
        matches!(&words[3].parts[0], WordPart::Param(p) if matches!(p.op, ParamOp::Replace { mode: ReplaceMode::All, .. }))
    );
    assert!(matches!(&words[4].parts[0], WordPart::CommandSub(_)));
    assert!(matches!(&words[5].parts[0], WordPart::ArithSub(_)));
    assert!(matches!(&words[6].parts[0], WordPart::CommandSub(_)));
    assert!(matches!(&words[7].parts[0], WordPart::Tilde(u) if u.is_empty()));
    assert_eq!(words[8].parts[0], WordPart::SingleQuoted("a\tb".into()));
}

#[test]
fn here_documents_are_read_after_the_line() {
    let list = parse("cat <<EOF; echo after\nline $x\nEOF\necho next");
    assert_eq!(list.items.len(), 3);
    let redirect = &simple(&list, 0).redirects[0];
    assert!(redirect.heredoc.as_ref().unwrap().expand);
    let quoted = parse("cat <<'EOF'\n$x\nEOF\n");
    let doc = quoted.items[0].and_or.first.commands[0].clone();
    let Command::Simple(command) = doc else {
        panic!()
    };
    assert_eq!(
        command.redirects[0].heredoc.as_ref().unwrap().body,
        Word::quoted("$x\n")
    );
}

#[test]
fn arrays_and_declarations() {
    let list = parse("a=(1 two [5]=five)\ndeclare -a b=(x y) c=1");
    let Some(AssignValue::Array(elements)) = simple(&list, 0).assignments.first().map(|a| &a.value)
    else {
        panic!()
    };
    assert_eq!(elements.len(), 3);
    assert!(elements[2].key.is_some());
    let declare = simple(&list, 1);
    assert_eq!(declare.arg_assignments.len(), 2);
    assert_eq!(declare.arg_assignments[0].0, 2);
}

#[test]
fn syntax_errors_name_the_line() {
    let error = Parser::parse_all("echo ok\nif true; then\n  echo x\nfi fi").unwrap_err();
    assert_eq!(error.line, 4, "{error}");
    let error = Parser::parse_all("echo (").unwrap_err();
    assert!(error.message.contains("unexpected token"), "{error}");
    assert!(
        Parser::parse_all("if true; then echo")
            .unwrap_err()
            .incomplete
    );
    assert!(Parser::parse_all("echo 'open").unwrap_err().incomplete);
}

#[test]
fn aliases_expand_in_command_position() {
    let mut parser = Parser::new("ll -a; echo ll");
    parser.set_aliases([("ll".to_string(), "ls -l".to_string())].into(), true);
    let list = parser.next_command().unwrap().unwrap();
    let words: Vec<_> = simple(&list, 0)
        .words
        .iter()
        .map(|w| w.as_plain().unwrap())
        .collect();
    assert_eq!(words, ["ls", "-l", "-a"]);
    let words: Vec<_> = simple(&list, 1)
        .words
        .iter()
        .map(|w| w.as_plain().unwrap())
        .collect();
    assert_eq!(words, ["echo", "ll"]);
}
