//! Here-document bodies are read when the line that introduced them ends,
//! after the command is partly built: the redirect gets a placeholder that
//! is filled in once the whole command is parsed.

use std::collections::HashMap;
use std::sync::Arc;

use crate::ast::*;

pub(crate) struct PendingHereDoc {
    pub id: usize,
    pub delimiter: String,
    pub strip_tabs: bool,
    pub expand: bool,
}

const MARK: &str = "\u{0}goccia-heredoc\u{0}";

pub(crate) fn placeholder(id: usize) -> HereDoc {
    HereDoc {
        body: Word::literal(&format!("{MARK}{id}")),
        expand: false,
    }
}

fn placeholder_id(doc: &HereDoc) -> Option<usize> {
    doc.body.as_plain()?.strip_prefix(MARK)?.parse().ok()
}

/// Replaces every placeholder in `list` with its body (an empty body when
/// the input ended before it).
pub(crate) fn fill(list: &mut List, bodies: &mut HashMap<usize, HereDoc>) {
    for item in &mut list.items {
        fill_pipeline(&mut item.and_or.first, bodies);
        for (_, pipeline) in &mut item.and_or.rest {
            fill_pipeline(pipeline, bodies);
        }
    }
}

fn fill_pipeline(pipeline: &mut Pipeline, bodies: &mut HashMap<usize, HereDoc>) {
    for command in &mut pipeline.commands {
        fill_command(command, bodies);
    }
}

fn fill_command(command: &mut Command, bodies: &mut HashMap<usize, HereDoc>) {
    match command {
        Command::Simple(simple) => {
            fill_redirects(&mut simple.redirects, bodies);
            for word in &mut simple.words {
                fill_word(word, bodies);
            }
            for assignment in &mut simple.assignments {
                fill_assignment(assignment, bodies);
            }
            for (_, assignment) in &mut simple.arg_assignments {
                fill_assignment(assignment, bodies);
            }
        }
        Command::Compound(compound, redirects) => {
            fill_redirects(redirects, bodies);
            fill_compound(compound, bodies);
        }
        Command::FunctionDef(function) => fill_command(&mut Arc::make_mut(function).body, bodies),
    }
}

fn fill_assignment(assignment: &mut Assignment, bodies: &mut HashMap<usize, HereDoc>) {
    match &mut assignment.value {
        AssignValue::Scalar(word) => fill_word(word, bodies),
        AssignValue::Array(elements) => {
            for element in elements {
                fill_word(&mut element.value, bodies);
            }
        }
    }
}

fn fill_compound(compound: &mut CompoundCommand, bodies: &mut HashMap<usize, HereDoc>) {
    match compound {
        CompoundCommand::Brace(list) | CompoundCommand::Subshell(list) => fill(list, bodies),
        CompoundCommand::If {
            branches,
            otherwise,
        } => {
            for (cond, body) in branches {
                fill(cond, bodies);
                fill(body, bodies);
            }
            if let Some(list) = otherwise {
                fill(list, bodies);
            }
        }
        CompoundCommand::For { words, body, .. } | CompoundCommand::Select { words, body, .. } => {
            for word in words.iter_mut().flatten() {
                fill_word(word, bodies);
            }
            fill(body, bodies);
        }
        CompoundCommand::ArithFor {
            init,
            cond,
            step,
            body,
            ..
        } => {
            for word in [init, cond, step] {
                fill_word(word, bodies);
            }
            fill(body, bodies)
        }
        CompoundCommand::While { cond, body, .. } => {
            fill(cond, bodies);
            fill(body, bodies);
        }
        CompoundCommand::Case { word, arms, .. } => {
            fill_word(word, bodies);
            for arm in arms {
                fill(&mut arm.body, bodies);
            }
        }
        CompoundCommand::Coproc { body, .. } => fill_command(body, bodies),
        CompoundCommand::Arith(word, _) => fill_word(word, bodies),
        CompoundCommand::Cond(expr, _) => fill_cond(expr, bodies),
    }
}

fn fill_cond(expr: &mut CondExpr, bodies: &mut HashMap<usize, HereDoc>) {
    match expr {
        CondExpr::Unary(_, word) | CondExpr::Word(word) => fill_word(word, bodies),
        CondExpr::Binary(left, _, right) | CondExpr::Regex(left, right) => {
            fill_word(left, bodies);
            fill_word(right, bodies);
        }
        CondExpr::Not(inner) => fill_cond(inner, bodies),
        CondExpr::And(left, right) | CondExpr::Or(left, right) => {
            fill_cond(left, bodies);
            fill_cond(right, bodies);
        }
    }
}

fn fill_redirects(redirects: &mut [Redirect], bodies: &mut HashMap<usize, HereDoc>) {
    for redirect in redirects {
        if let Some(doc) = &mut redirect.heredoc
            && let Some(id) = placeholder_id(doc)
        {
            *doc = bodies.remove(&id).unwrap_or(HereDoc {
                body: Word::quoted(""),
                expand: false,
            });
        }
    }
}

pub(crate) fn fill_word(word: &mut Word, bodies: &mut HashMap<usize, HereDoc>) {
    for part in &mut word.parts {
        fill_part(part, bodies);
    }
}

fn fill_part(part: &mut WordPart, bodies: &mut HashMap<usize, HereDoc>) {
    match part {
        WordPart::CommandSub(list) | WordPart::ProcessSub { list, .. } => {
            fill(Arc::make_mut(list), bodies)
        }
        WordPart::DoubleQuoted(parts) => {
            for part in parts {
                fill_part(part, bodies);
            }
        }
        WordPart::ArithSub(word) => fill_word(word, bodies),
        _ => {}
    }
}
