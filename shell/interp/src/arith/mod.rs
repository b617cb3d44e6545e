//! Shell arithmetic (`$(( ))`, `(( ))`, `let`, array indices): 64-bit
//! integers with bash's operators and precedence. Expressions are parsed to
//! a tree first so that `&&`, `||` and `?:` skip the side effects of the
//! branch they do not take.
//!
//! `parse` reads the text into a tree, `evaluate` runs a tree against the
//! shell's variables; this module holds the errors, the variable
//! interface and the cache of trees already parsed.

use thiserror::Error;

mod evaluate;
mod parse;

use evaluate::Evaluator;
use parse::{Expr, parse};

#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum ArithError {
    /// The expression does not parse or cannot be evaluated (`1 +`,
    /// `1/0`): bash reports it and abandons the command.
    #[error("{expr}: {message} (error token is \"{token}\")")]
    Invalid {
        expr: String,
        message: String,
        token: String,
    },
    /// `set -u` and the expression reads a variable that is not set: as
    /// fatal as `$name` would be.
    #[error("{0}: unbound variable")]
    Unbound(String),
}

/// How deep a variable's value may name another expression to evaluate
/// (`loop='i<=100&&(s+=i,i++,loop)'`): bash's limit, well inside the
/// native stack of a pipeline stage.
const MAX_RECURSION: usize = 1024;

/// `set -u` refuses to read an unset variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unbound;

/// An element of an array: a number for an indexed array, the
/// subscript's text for an associative one (`A[K]` is the key `K`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Index<'a> {
    Number(i64),
    Key(std::borrow::Cow<'a, str>),
}

/// Variables as arithmetic sees them.
pub trait ArithEnv {
    /// The text of `name` or `name[index]` (`None` when unset).
    fn get_var(&mut self, name: &str, index: Option<Index>) -> Result<Option<String>, Unbound>;
    fn set_var(&mut self, name: &str, index: Option<Index>, value: i64) -> Result<(), String>;
    /// Whether `name` is an associative array, whose subscripts are keys
    /// rather than expressions.
    fn is_assoc(&self, _name: &str) -> bool {
        false
    }
    /// A subscript's text with its expansions applied: a variable's
    /// value evaluated as arithmetic may hold `a[$i]`, which bash expands
    /// when it evaluates the subscript.
    fn expand_subscript(&mut self, text: &str) -> String {
        text.to_string()
    }
    /// Where parsed expressions are kept for the next evaluation, if
    /// anywhere.
    fn parsed(&self) -> Option<&Parsed> {
        None
    }
}

/// Expressions already parsed, by their text: a loop's `i < n`, `i++`
/// and `x + i % 7` are parsed once, not on every iteration. Bounded: past
/// [`Parsed::ENTRIES`] it starts over.
#[derive(Default)]
pub struct Parsed {
    trees: parking_lot::Mutex<std::collections::HashMap<Box<str>, std::sync::Arc<Expr>>>,
}

impl Parsed {
    /// Most expressions kept.
    const ENTRIES: usize = 512;
    /// Longest text kept (longer ones are rarely evaluated twice).
    const LONGEST: usize = 256;

    fn get(&self, text: &str) -> Option<std::sync::Arc<Expr>> {
        self.trees.lock().get(text).cloned()
    }

    fn keep(&self, text: &str, tree: std::sync::Arc<Expr>) {
        if text.len() > Self::LONGEST {
            return;
        }
        let mut trees = self.trees.lock();
        if trees.len() >= Self::ENTRIES {
            trees.clear();
        }
        trees.insert(text.into(), tree);
    }
}

/// Evaluates `text`; the empty expression is 0.
pub fn eval(text: &str, env: &mut dyn ArithEnv) -> Result<i64, ArithError> {
    eval_depth(text, env, 0)
}

fn eval_depth(text: &str, env: &mut dyn ArithEnv, depth: usize) -> Result<i64, ArithError> {
    if text.trim().is_empty() {
        return Ok(0);
    }
    let cached = env.parsed().and_then(|parsed| parsed.get(text));
    let expr = match cached {
        Some(expr) => expr,
        None => {
            let expr = std::sync::Arc::new(parse(text)?);
            if let Some(parsed) = env.parsed() {
                parsed.keep(text, expr.clone());
            }
            expr
        }
    };
    let mut evaluator = Evaluator { env, text, depth };
    evaluator.eval(&expr)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[derive(Default)]
    struct Vars(HashMap<String, String>);

    impl ArithEnv for Vars {
        fn get_var(&mut self, name: &str, index: Option<Index>) -> Result<Option<String>, Unbound> {
            let key = match index {
                Some(Index::Number(i)) => format!("{name}[{i}]"),
                Some(Index::Key(k)) => format!("{name}[{k}]"),
                None => name.to_string(),
            };
            Ok(self.0.get(&key).cloned())
        }
        fn set_var(&mut self, name: &str, index: Option<Index>, value: i64) -> Result<(), String> {
            let key = match index {
                Some(Index::Number(i)) => format!("{name}[{i}]"),
                Some(Index::Key(k)) => format!("{name}[{k}]"),
                None => name.to_string(),
            };
            self.0.insert(key, value.to_string());
            Ok(())
        }
        /// Names starting with `A` are associative arrays here.
        fn is_assoc(&self, name: &str) -> bool {
            name.starts_with('A')
        }
    }

    fn calc(text: &str) -> i64 {
        eval(text, &mut Vars::default()).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn precedence_and_operators() {
        assert_eq!(calc("1 + 2 * 3"), 7);
        assert_eq!(calc("(1 + 2) * 3"), 9);
        assert_eq!(calc("2 ** 3 ** 2"), 512);
        assert_eq!(calc("-2 ** 2"), 4);
        assert_eq!(calc("7 / 2"), 3);
        assert_eq!(calc("-7 % 3"), -1);
        assert_eq!(calc("1 << 4 | 1"), 17);
        assert_eq!(calc("5 > 3 && 2 > 1"), 1);
        assert_eq!(calc("0 || 0"), 0);
        assert_eq!(calc("!5"), 0);
        assert_eq!(calc("~0"), -1);
        assert_eq!(calc("1 ? 2 : 3"), 2);
        assert_eq!(calc("0x1F + 010 + 2#101"), 31 + 8 + 5);
        assert_eq!(calc("16#ff"), 255);
        assert_eq!(calc(""), 0);
    }

    #[test]
    fn variables_assignments_and_steps() {
        let mut vars = Vars::default();
        vars.0.insert("x".into(), "5".into());
        vars.0.insert("expr".into(), "x * 2".into());
        assert_eq!(eval("x++ + ++x", &mut vars).unwrap(), 5 + 7);
        assert_eq!(vars.0["x"], "7");
        assert_eq!(eval("y = x += 3, y", &mut vars).unwrap(), 10);
        assert_eq!(eval("expr + 1", &mut vars).unwrap(), 21);
        assert_eq!(eval("a[2] = 4, a[1+1] * 2", &mut vars).unwrap(), 8);
        assert_eq!(eval("unset_var + 1", &mut vars).unwrap(), 1);
        assert_eq!(eval("0 && (z = 1)", &mut vars).unwrap(), 0);
        assert!(
            !vars.0.contains_key("z"),
            "short-circuit skips side effects"
        );
    }

    #[test]
    fn associative_subscripts_are_keys() {
        let mut vars = Vars::default();
        vars.0.insert("K".to_string(), "5".to_string());
        assert_eq!(eval("A[K] = 7, A[x y] += 2, b[K] = 1", &mut vars), Ok(1));
        assert_eq!(vars.0.get("A[K]").map(String::as_str), Some("7"));
        assert_eq!(vars.0.get("A[x y]").map(String::as_str), Some("2"));
        assert_eq!(vars.0.get("b[5]").map(String::as_str), Some("1"));
        // a subscript that is no expression fails only for an indexed array,
        // with bash's message naming the subscript
        let error = eval("b[x y]", &mut vars).unwrap_err();
        assert_eq!(
            error.to_string(),
            "x y: syntax error in expression (error token is \"y\")"
        );
        assert!(eval("A[x", &mut vars).is_err(), "no closing bracket");
    }

    fn token_of(error: &ArithError) -> &str {
        match error {
            ArithError::Invalid { token, .. } => token,
            ArithError::Unbound(_) => panic!("{error} is no syntax error"),
        }
    }

    #[test]
    fn errors_name_the_token() {
        let error = eval("1/0", &mut Vars::default()).unwrap_err();
        assert_eq!(
            error.to_string(),
            "1/0: division by 0 (error token is \"0\")"
        );
        // at the end of the text the token is the last one read, as in bash
        for (text, token) in [("1 +", "+"), ("b*", "*"), ("2 ** ", "** "), ("1 ? 2", "2")] {
            let error = eval(text, &mut Vars::default()).unwrap_err();
            assert_eq!(token_of(&error), token, "{text}");
        }
        let error = eval("1 + * 2", &mut Vars::default()).unwrap_err();
        assert_eq!(
            token_of(&error),
            "* 2",
            "in the middle it is the rest of the text"
        );
        assert!(eval("2 3", &mut Vars::default()).is_err());
        assert!(eval("08", &mut Vars::default()).is_err());
    }
}
