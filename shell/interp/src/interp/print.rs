//! Printing syntax back as bash does for `declare -f` and `type`: one
//! command per line, four-space indents, `;` between commands.

use std::fmt::Write as _;

use super::Shell;
use crate::ast::*;

/// `name () \n{ \n    body\n}\n` as bash prints a function.
pub(crate) fn function_text(shell: &Shell, name: &str) -> String {
    let Some(function) = shell.functions.get(name) else {
        return String::new();
    };
    let mut out = format!("{name} () \n");
    match &function.body {
        Command::Compound(compound, redirects) => match &**compound {
            CompoundCommand::Brace(list) => {
                out.push_str("{ \n");
                print_list(&mut out, list, 1);
                out.push('}');
                print_redirects(&mut out, redirects);
                out.push('\n');
            }
            other => {
                print_compound(&mut out, other, 0);
                print_redirects(&mut out, redirects);
                out.push('\n');
            }
        },
        other => {
            print_command(&mut out, other, 0);
            out.push('\n');
        }
    }
    out
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("    ");
    }
}

/// Prints each item on its own line, `;` after all but the last.
fn print_list(out: &mut String, list: &List, level: usize) {
    let count = list.items.len();
    for (i, item) in list.items.iter().enumerate() {
        indent(out, level);
        print_and_or(out, &item.and_or, level);
        if item.background {
            out.push_str(" &");
        } else if i + 1 < count {
            out.push(';');
        }
        out.push('\n');
    }
}

/// A command list item as `jobs` shows it (`sleep 1 | cat`).
pub(crate) fn and_or_text(and_or: &AndOr) -> String {
    let mut out = String::new();
    print_and_or(&mut out, and_or, 0);
    out
}

fn print_and_or(out: &mut String, and_or: &AndOr, level: usize) {
    print_pipeline(out, &and_or.first, level);
    for (op, pipeline) in &and_or.rest {
        out.push_str(match op {
            AndOrOp::And => " && ",
            AndOrOp::Or => " || ",
        });
        print_pipeline(out, pipeline, level);
    }
}

fn print_pipeline(out: &mut String, pipeline: &Pipeline, level: usize) {
    if pipeline.negated {
        out.push_str("! ");
    }
    for (i, command) in pipeline.commands.iter().enumerate() {
        if i > 0 {
            out.push_str(if pipeline.pipe_stderr[i - 1] {
                " |& "
            } else {
                " | "
            });
        }
        print_command(out, command, level);
    }
}

fn print_command(out: &mut String, command: &Command, level: usize) {
    match command {
        Command::Simple(simple) => {
            let mut parts: Vec<String> = Vec::new();
            for assignment in &simple.assignments {
                parts.push(assignment_text(assignment));
            }
            for (index, word) in simple.words.iter().enumerate() {
                match simple
                    .arg_assignments
                    .iter()
                    .find(|(slot, _)| *slot == index)
                {
                    Some((_, assignment)) => parts.push(assignment_text(assignment)),
                    None => parts.push(word_text(word)),
                }
            }
            out.push_str(&parts.join(" "));
            print_redirects(out, &simple.redirects);
        }
        Command::Compound(compound, redirects) => {
            print_compound(out, compound, level);
            print_redirects(out, redirects);
        }
        Command::FunctionDef(function) => {
            let _ = write!(out, "{} () ", function.name);
            print_command(out, &function.body, level);
        }
    }
}

fn print_compound(out: &mut String, compound: &CompoundCommand, level: usize) {
    match compound {
        CompoundCommand::Brace(list) => {
            out.push_str("{ \n");
            print_list(out, list, level + 1);
            indent(out, level);
            out.push('}');
        }
        CompoundCommand::Subshell(list) => {
            out.push_str("( ");
            let inner: Vec<String> = list
                .items
                .iter()
                .map(|item| {
                    let mut s = String::new();
                    print_and_or(&mut s, &item.and_or, level);
                    s
                })
                .collect();
            out.push_str(&inner.join("; "));
            out.push_str(" )");
        }
        CompoundCommand::If {
            branches,
            otherwise,
        } => {
            for (i, (cond, body)) in branches.iter().enumerate() {
                out.push_str(if i == 0 { "if " } else { "else\n" });
                if i > 0 {
                    indent(out, level);
                    out.push_str("if ");
                }
                out.push_str(&inline_list(cond, level));
                out.push_str("; then\n");
                print_list(out, body, level + 1);
                indent(out, level);
            }
            if let Some(otherwise) = otherwise {
                out.push_str("else\n");
                print_list(out, otherwise, level + 1);
                indent(out, level);
            }
            out.push_str("fi");
        }
        CompoundCommand::While { cond, body, until } => {
            out.push_str(if *until { "until " } else { "while " });
            out.push_str(&inline_list(cond, level));
            out.push_str("; do\n");
            print_list(out, body, level + 1);
            indent(out, level);
            out.push_str("done");
        }
        CompoundCommand::For {
            var, words, body, ..
        } => {
            let _ = write!(out, "for {var}");
            if let Some(words) = words {
                out.push_str(" in ");
                out.push_str(&words.iter().map(word_text).collect::<Vec<_>>().join(" "));
            }
            out.push_str(";\n");
            indent(out, level);
            out.push_str("do\n");
            print_list(out, body, level + 1);
            indent(out, level);
            out.push_str("done");
        }
        CompoundCommand::ArithFor {
            init,
            cond,
            step,
            body,
            ..
        } => {
            let _ = writeln!(
                out,
                "for (({}; {}; {}))",
                word_text(init),
                word_text(cond),
                word_text(step)
            );
            indent(out, level);
            out.push_str("do\n");
            print_list(out, body, level + 1);
            indent(out, level);
            out.push_str("done");
        }
        CompoundCommand::Select { var, words, body } => {
            let _ = write!(out, "select {var}");
            if let Some(words) = words {
                out.push_str(" in ");
                out.push_str(&words.iter().map(word_text).collect::<Vec<_>>().join(" "));
            }
            out.push_str(";\n");
            indent(out, level);
            out.push_str("do\n");
            print_list(out, body, level + 1);
            indent(out, level);
            out.push_str("done");
        }
        CompoundCommand::Case { word, arms, .. } => {
            let _ = writeln!(out, "case {} in ", word_text(word));
            for arm in arms {
                indent(out, level + 1);
                out.push_str(
                    &arm.patterns
                        .iter()
                        .map(word_text)
                        .collect::<Vec<_>>()
                        .join(" | "),
                );
                out.push_str(")\n");
                print_list(out, &arm.body, level + 2);
                indent(out, level + 1);
                out.push_str(match arm.terminator {
                    CaseTerminator::Break => ";;",
                    CaseTerminator::FallThrough => ";&",
                    CaseTerminator::TestNext => ";;&",
                });
                out.push('\n');
            }
            indent(out, level);
            out.push_str("esac");
        }
        CompoundCommand::Arith(word, _) => {
            let _ = write!(out, "(({}))", word_text(word));
        }
        CompoundCommand::Cond(expr, _) => {
            let _ = write!(out, "[[ {} ]]", cond_text(expr));
        }
        CompoundCommand::Coproc { name, body } => {
            let _ = write!(out, "coproc {name} ");
            print_command(out, body, level);
        }
    }
}

fn inline_list(list: &List, level: usize) -> String {
    list.items
        .iter()
        .map(|item| {
            let mut s = String::new();
            print_and_or(&mut s, &item.and_or, level);
            s
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn cond_text(expr: &CondExpr) -> String {
    match expr {
        CondExpr::Unary(op, word) => format!("{op} {}", word_text(word)),
        CondExpr::Binary(a, op, b) => format!("{} {op} {}", word_text(a), word_text(b)),
        CondExpr::Regex(a, b) => format!("{} =~ {}", word_text(a), word_text(b)),
        CondExpr::Word(word) => word_text(word),
        CondExpr::Not(inner) => format!("! {}", cond_text(inner)),
        CondExpr::And(a, b) => format!("{} && {}", cond_text(a), cond_text(b)),
        CondExpr::Or(a, b) => format!("{} || {}", cond_text(a), cond_text(b)),
    }
}

fn print_redirects(out: &mut String, redirects: &[Redirect]) {
    for redirect in redirects {
        out.push(' ');
        match &redirect.fd {
            RedirectFd::Number(n) => {
                let _ = write!(out, "{n}");
            }
            RedirectFd::Variable(name) => {
                let _ = write!(out, "{{{name}}}");
            }
            RedirectFd::Default => {}
        }
        let op = match redirect.op {
            RedirectOp::Read => "<",
            RedirectOp::Write => ">",
            RedirectOp::Clobber => ">|",
            RedirectOp::Append => ">>",
            RedirectOp::ReadWrite => "<>",
            RedirectOp::DupRead => "<&",
            RedirectOp::DupWrite => ">&",
            RedirectOp::WriteBoth => "&>",
            RedirectOp::AppendBoth => "&>>",
            RedirectOp::HereDoc => "<<",
            RedirectOp::HereString => "<<<",
        };
        out.push_str(op);
        if !matches!(redirect.op, RedirectOp::DupRead | RedirectOp::DupWrite) {
            out.push(' ');
        }
        out.push_str(&word_text(&redirect.target));
    }
}

fn assignment_text(assignment: &Assignment) -> String {
    let mut out = assignment.name.clone();
    if let Some(index) = &assignment.index {
        let _ = write!(out, "[{}]", word_text(index));
    }
    out.push_str(if assignment.append { "+=" } else { "=" });
    match &assignment.value {
        AssignValue::Scalar(word) => out.push_str(&word_text(word)),
        AssignValue::Array(elements) => out.push_str(&array_literal_text(elements)),
    }
    out
}

/// An array literal as source text: `(a [k]=v [j]+=w)`.
pub(crate) fn array_literal_text(elements: &[ArrayElement]) -> String {
    let items: Vec<String> = elements
        .iter()
        .map(|e| match &e.key {
            Some(key) => {
                let sign = if e.append { "+=" } else { "=" };
                format!("[{}]{sign}{}", word_text(key), word_text(&e.value))
            }
            None => word_text(&e.value),
        })
        .collect();
    format!("({})", items.join(" "))
}

/// A word as source text.
pub(crate) fn word_text(word: &Word) -> String {
    let mut out = String::new();
    for part in &word.parts {
        part_text(&mut out, part, false);
    }
    out
}

fn part_text(out: &mut String, part: &WordPart, in_quotes: bool) {
    match part {
        WordPart::Literal(text) => out.push_str(text),
        WordPart::SingleQuoted(text) => {
            if text.contains('\'')
                || text
                    .chars()
                    .any(|c| c.is_control() && c != '\n' && c != '\t')
            {
                out.push_str(&super::quote(text));
            } else {
                let _ = write!(out, "'{text}'");
            }
        }
        WordPart::Escaped(text) => {
            out.push('\\');
            out.push_str(text);
        }
        WordPart::DoubleQuoted(parts) => {
            out.push('"');
            for part in parts {
                part_text(out, part, true);
            }
            out.push('"');
        }
        WordPart::Param(param) => out.push_str(&param_text(param)),
        WordPart::CommandSub(list) => {
            let _ = write!(out, "$({})", inline_list(list, 0));
        }
        WordPart::ArithSub(word) => {
            let _ = write!(out, "$(({}))", word_text(word));
        }
        WordPart::Tilde(user) => {
            out.push('~');
            out.push_str(user);
        }
        WordPart::ProcessSub { input, list } => {
            let _ = write!(
                out,
                "{}({})",
                if *input { '<' } else { '>' },
                inline_list(list, 0)
            );
        }
    }
    let _ = in_quotes;
}

fn param_text(param: &ParamExpansion) -> String {
    if let ParamOp::Bad(text) = &param.op {
        return text.clone();
    }
    let simple =
        param.index.is_none() && !param.indirect && !param.length && param.op == ParamOp::None;
    if simple
        && (param.name.len() == 1
            || param
                .name
                .chars()
                .all(|c| c == '_' || c.is_ascii_alphanumeric()))
    {
        return format!("${}", param.name);
    }
    let mut out = String::from("${");
    if param.length {
        out.push('#');
    }
    if param.indirect {
        out.push('!');
    }
    out.push_str(&param.name);
    if let Some(index) = &param.index {
        let _ = write!(out, "[{}]", word_text(index));
    }
    let colon = |c: bool| if c { ":" } else { "" };
    match &param.op {
        ParamOp::None => {}
        ParamOp::Bad(_) => {}
        ParamOp::Default { colon: c, word } => {
            let _ = write!(out, "{}-{}", colon(*c), word_text(word));
        }
        ParamOp::Assign { colon: c, word } => {
            let _ = write!(out, "{}={}", colon(*c), word_text(word));
        }
        ParamOp::Error { colon: c, word } => {
            let _ = write!(out, "{}?{}", colon(*c), word_text(word));
        }
        ParamOp::Alternate { colon: c, word } => {
            let _ = write!(out, "{}+{}", colon(*c), word_text(word));
        }
        ParamOp::RemovePrefix { longest, pattern } => {
            let _ = write!(
                out,
                "{}{}",
                if *longest { "##" } else { "#" },
                word_text(pattern)
            );
        }
        ParamOp::RemoveSuffix { longest, pattern } => {
            let _ = write!(
                out,
                "{}{}",
                if *longest { "%%" } else { "%" },
                word_text(pattern)
            );
        }
        ParamOp::Replace {
            mode,
            pattern,
            replacement,
        } => {
            let op = match mode {
                ReplaceMode::First => "/",
                ReplaceMode::All => "//",
                ReplaceMode::Prefix => "/#",
                ReplaceMode::Suffix => "/%",
            };
            let _ = write!(out, "{op}{}/{}", word_text(pattern), word_text(replacement));
        }
        ParamOp::Substring { offset, length } => {
            let _ = write!(out, ":{}", word_text(offset));
            if let Some(length) = length {
                let _ = write!(out, ":{}", word_text(length));
            }
        }
        ParamOp::Case {
            upper,
            all,
            pattern,
        } => {
            let op = match (upper, all) {
                (true, true) => "^^",
                (true, false) => "^",
                (false, true) => ",,",
                (false, false) => ",",
            };
            let _ = write!(out, "{op}{}", word_text(pattern));
        }
        ParamOp::Transform(op) => {
            let _ = write!(out, "@{op}");
        }
        ParamOp::Names { at } => out.push(if *at { '@' } else { '*' }),
    }
    out.push('}');
    out
}
