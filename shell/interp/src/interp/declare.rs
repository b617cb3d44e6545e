//! `declare`/`typeset`, `local`, `export`, `readonly`: attributes and
//! scoping of variables.

use std::borrow::Cow;
use std::io::Write;

use crate::ast::{AssignValue, Assignment, Word};
use crate::interp::{ExecResult, Shell};
use crate::vars::{Attrs, Value};

#[derive(Clone, Copy, Default)]
struct Flags {
    indexed: bool,
    assoc: bool,
    print: bool,
    functions: bool,
    function_names: bool,
    global: bool,
    set: Attrs,
    clear: Attrs,
}

enum Arg<'a> {
    Name(&'a str),
    Text(&'a str, &'a str),
    Assign(Cow<'a, Assignment>),
}

/// Which builtin, for its defaults.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Declare,
    Local,
    Export,
    Readonly,
}

fn which(name: &str) -> Which {
    match name {
        "local" => Which::Local,
        "export" => Which::Export,
        "readonly" => Which::Readonly,
        _ => Which::Declare,
    }
}

pub fn declare(shell: &mut Shell, args: &[String]) -> ExecResult {
    run_with_assignments(shell, args, &[])
}

pub fn local(shell: &mut Shell, args: &[String]) -> ExecResult {
    run_with_assignments(shell, args, &[])
}

pub fn export(shell: &mut Shell, args: &[String]) -> ExecResult {
    run_with_assignments(shell, args, &[])
}

pub fn readonly(shell: &mut Shell, args: &[String]) -> ExecResult {
    run_with_assignments(shell, args, &[])
}

/// Runs a declaration builtin whose assignment arguments were parsed as
/// assignments (`declare a=(1 2)`, `local x=$y` without splitting).
pub fn run_with_assignments(
    shell: &mut Shell,
    words: &[String],
    assignments: &[(usize, Assignment)],
) -> ExecResult {
    let name = words[0].as_str();
    let kind = which(name);
    // Outside a function bash reports `local` and still makes the
    // assignments (globally), with status 1.
    let misplaced_local = kind == Which::Local && shell.func_stack.is_empty();
    if misplaced_local {
        shell.fail("local", "can only be used in a function", 1);
    }
    let mut flags = Flags::default();
    match kind {
        Which::Export => flags.set.exported = true,
        Which::Readonly => flags.set.readonly = true,
        _ => {}
    }
    let mut args: Vec<Arg> = Vec::new();
    let mut options_done = false;
    for (index, word) in words.iter().enumerate().skip(1) {
        if let Some((_, assignment)) = assignments.iter().find(|(slot, _)| *slot == index) {
            args.push(Arg::Assign(Cow::Borrowed(assignment)));
            continue;
        }
        if !options_done && word == "--" {
            options_done = true;
            continue;
        }
        if !options_done && (word.starts_with('-') || word.starts_with('+')) && word.len() > 1 {
            let on = word.starts_with('-');
            for c in word[1..].chars() {
                let target = if on { &mut flags.set } else { &mut flags.clear };
                match c {
                    'a' => flags.indexed = on,
                    'A' => flags.assoc = on,
                    'i' => target.integer = true,
                    'l' => target.lower = true,
                    'u' => target.upper = true,
                    'r' => target.readonly = true,
                    'x' => target.exported = true,
                    'n' if kind == Which::Export => {
                        flags.clear.exported = true;
                        flags.set.exported = false;
                    }
                    'n' => target.nameref = true,
                    'g' => flags.global = true,
                    'p' => flags.print = true,
                    'f' => flags.functions = true,
                    'F' => flags.function_names = true,
                    't' => {}
                    other => {
                        return Ok(shell.fail(name, &format!("-{other}: invalid option"), 2));
                    }
                }
            }
            continue;
        }
        match word.split_once('=') {
            Some((n, value)) => match text_assignment(n, value, &flags) {
                Some(assignment) => args.push(Arg::Assign(Cow::Owned(assignment))),
                None => args.push(Arg::Text(n, value)),
            },
            None => args.push(Arg::Name(word)),
        }
    }
    if flags.functions || flags.function_names {
        return print_functions(shell, &args, flags.function_names);
    }
    // A bare `declare` (or `typeset`) lists as `set` does.
    if kind == Which::Declare && args.is_empty() && !flags.print && flags_are_default(&flags) {
        let text = shell.set_listing();
        return match shell.out().write_all(text.as_bytes()) {
            Ok(()) => Ok(0),
            Err(error) => shell.io_status(name, error),
        };
    }
    if flags.print || (args.is_empty() && kind != Which::Local) {
        return print_variables(shell, kind, &flags, &args);
    }
    let local = match kind {
        Which::Local => !misplaced_local,
        Which::Declare => !shell.func_stack.is_empty() && !flags.global,
        _ => false,
    };
    let mut status = i32::from(misplaced_local);
    for arg in args {
        // `export a[7]=8` and `readonly a[7]=8` name no variable: bash
        // refuses them and sets nothing.
        if matches!(kind, Which::Export | Which::Readonly) {
            let (arg_name, subscripted) = match &arg {
                Arg::Name(n) | Arg::Text(n, _) => (n.to_string(), n.contains('[')),
                Arg::Assign(a) => (
                    format!(
                        "{}[{}]",
                        a.name,
                        a.index
                            .as_ref()
                            .map(crate::parse::word_text)
                            .unwrap_or_default()
                    ),
                    a.index.is_some(),
                ),
            };
            if subscripted {
                status = shell.fail(name, &format!("`{arg_name}': not a valid identifier"), 1);
                continue;
            }
        }
        let (var_name, result) = match arg {
            // `readonly -a x` and `export -a x` with no value make no
            // array: bash gives such a name only the attribute.
            Arg::Name(var_name) if matches!(kind, Which::Export | Which::Readonly) => {
                let bare = Flags {
                    indexed: false,
                    assoc: false,
                    ..flags
                };
                (
                    var_name.to_string(),
                    declare_name(shell, var_name, &bare, local),
                )
            }
            Arg::Name(var_name) => (
                var_name.to_string(),
                declare_name(shell, var_name, &flags, local),
            ),
            Arg::Text(var_name, value) => {
                // bash names the whole word when it is no assignment:
                // `declare ]=x` reports `]=x'.
                let checked = match declare_name(shell, var_name, &flags, local) {
                    Err(_) if !is_name_with_subscript(var_name) => {
                        Err(format!("`{var_name}={value}': not a valid identifier"))
                    }
                    other => other,
                };
                let result = checked.and_then(|()| {
                    let (base, index) = match crate::interp::split_subscript(var_name) {
                        Some((base, index)) => (base, Some(index)),
                        None => (var_name, None),
                    };
                    match index {
                        Some(index) => {
                            let key = shell
                                .subscript_key(base, index)
                                .map_err(|e| e.to_string())?;
                            shell.set_element(base, key, value.to_string(), false)
                        }
                        None if flags.set.nameref => {
                            if let Some(var) = shell.vars.get_mut(base) {
                                var.value = Some(Value::Scalar(value.to_string()));
                            }
                            Ok(())
                        }
                        None => set_raw(shell, base, value),
                    }
                });
                (var_name.to_string(), result)
            }
            Arg::Assign(assignment) => {
                let var_name = assignment.name.clone();
                let was_readonly = shell
                    .vars
                    .get_raw(&var_name)
                    .is_some_and(|v| v.attrs.readonly);
                let mut result = declare_name(shell, &var_name, &flags, local);
                if result.is_ok() {
                    let mut assignment = assignment.into_owned();
                    if flags.set.readonly && !was_readonly {
                        // Assign first, then lock.
                        if let Some(var) = shell.vars.get_mut(&var_name) {
                            var.attrs.readonly = false;
                        }
                    }
                    if flags.set.nameref {
                        if let crate::ast::AssignValue::Scalar(word) = &assignment.value {
                            match shell.expand_string(word) {
                                Ok(target) if !is_reference_target(&target) => {
                                    shell.vars.unset(&var_name);
                                    result = Err(format!(
                                        "`{target}': invalid variable name for name reference"
                                    ));
                                }
                                Ok(target) => {
                                    if let Some(var) = shell.vars.get_mut(&var_name) {
                                        var.value = Some(Value::Scalar(target));
                                    }
                                }
                                Err(flow) => return Err(flow),
                            }
                        }
                    } else {
                        assignment.name = var_name.clone();
                        shell.assign(&assignment, false)?
                    }
                    if flags.set.readonly
                        && let Some(var) = shell.vars.get_mut(&var_name)
                    {
                        var.attrs.readonly = true;
                    }
                }
                (var_name, result)
            }
        };
        if let Err(message) = result {
            let text = if message.contains(':') {
                message
            } else {
                format!("{var_name}: {message}")
            };
            status = shell.fail(name, &text, 1);
        }
    }
    Ok(status)
}

/// A `name=value` argument that came out of an expansion but is still an
/// assignment bash parses: `name+=value` appends (`typeset s${dyn}+=x`),
/// and with `-a` or `-A` a parenthesised value is an array literal
/// (`typeset -a "$code"` with `code='x=(1 2 3)'`), parsed and expanded
/// as if written.
fn text_assignment(name: &str, value: &str, flags: &Flags) -> Option<Assignment> {
    if (flags.indexed || flags.assoc) && value.starts_with('(') && value.ends_with(')') {
        return parsed_assignment(&format!("{name}={value}"));
    }
    let target = name.strip_suffix('+')?;
    let (base, index) = match crate::interp::split_subscript(target) {
        Some((base, index)) => (base, Some(Word::literal(index))),
        None => (target, None),
    };
    crate::parse::is_name(base).then(|| Assignment {
        name: base.to_string(),
        index,
        append: true,
        value: AssignValue::Scalar(Word::quoted(value)),
    })
}

/// The one assignment `source` consists of, if it is exactly that.
fn parsed_assignment(source: &str) -> Option<Assignment> {
    let list = crate::parse::Parser::parse_all(source).ok()?;
    let [item] = list.items.as_slice() else {
        return None;
    };
    if !item.and_or.rest.is_empty() || item.and_or.first.commands.len() != 1 {
        return None;
    }
    match &item.and_or.first.commands[0] {
        crate::ast::Command::Simple(simple)
            if simple.words.is_empty() && simple.redirects.is_empty() =>
        {
            match simple.assignments.as_slice() {
                [assignment] => Some(assignment.clone()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// No attribute named (`declare` alone, not `declare -x`).
fn flags_are_default(flags: &Flags) -> bool {
    !flags.indexed
        && !flags.assoc
        && !flags.global
        && flags.set == Attrs::default()
        && flags.clear == Attrs::default()
}

fn set_raw(shell: &mut Shell, name: &str, value: &str) -> Result<(), String> {
    let readonly = shell.vars.get_raw(name).is_some_and(|v| v.attrs.readonly);
    if readonly {
        if let Some(var) = shell.vars.get_mut(name) {
            var.attrs.readonly = false;
        }
        let result = shell.set_var(name, value.to_string());
        if let Some(var) = shell.vars.get_mut(name) {
            var.attrs.readonly = true;
        }
        return result;
    }
    shell.set_var(name, value.to_string())
}

/// Whether `text` can be what a nameref names: a variable name, with a
/// subscript or not (empty: a reference not yet set).
fn is_reference_target(text: &str) -> bool {
    text.is_empty() || is_name_with_subscript(text)
}

/// Whether `text` is a variable name, with a subscript or not.
fn is_name_with_subscript(text: &str) -> bool {
    let base = crate::interp::split_subscript(text).map_or(text, |(base, _)| base);
    crate::parse::is_name(base)
}

/// Creates or updates `name` with the flags' attributes.
fn declare_name(shell: &mut Shell, name: &str, flags: &Flags, local: bool) -> Result<(), String> {
    let base = crate::interp::split_subscript(name).map_or(name, |(b, _)| b);
    if !crate::parse::is_name(base) {
        return Err(format!("`{name}': not a valid identifier"));
    }
    let exists_here = if local {
        shell.vars.is_local(base)
    } else {
        shell.vars.get_raw(base).is_some()
    };
    // A read-only global cannot be shadowed by a local (bash); a caller's
    // read-only local can.
    if local
        && !exists_here
        && shell
            .vars
            .get_global(base)
            .is_some_and(|var| var.attrs.readonly)
    {
        return Err(format!("{base}: readonly variable"));
    }
    let var = if local {
        shell.vars.declare_local(base)
    } else {
        // `-g` and plain `declare` outside a function both reach the global scope.
        shell.vars.entry(base)
    };
    if var.attrs.readonly
        && (flags.set.readonly || flags.clear != Attrs::default())
        && (flags.clear.readonly)
    {
        return Err(format!("{base}: readonly variable"));
    }
    if flags.assoc {
        match &var.value {
            Some(Value::Assoc(_)) => {}
            // Even an empty indexed array stays one.
            Some(Value::Indexed(_)) => {
                return Err(format!(
                    "{base}: cannot convert indexed to associative array"
                ));
            }
            // A scalar becomes element "0", as it becomes element 0 below.
            Some(Value::Scalar(text)) => {
                let element = (String::from("0"), text.clone());
                var.value = Some(Value::Assoc(std::iter::once(element).collect()));
            }
            None => {
                var.value = Some(Value::Assoc(Default::default()));
                var.attrs.unassigned = true;
            }
        }
    } else if flags.indexed {
        match &var.value {
            Some(Value::Indexed(_)) => {}
            Some(Value::Assoc(_)) => {
                return Err(format!(
                    "{base}: cannot convert associative to indexed array"
                ));
            }
            Some(Value::Scalar(text)) => {
                let text = text.clone();
                var.value = Some(Value::Indexed(std::collections::BTreeMap::from([(
                    0, text,
                )])));
            }
            None => {
                var.value = Some(Value::Indexed(Default::default()));
                var.attrs.unassigned = true;
            }
        }
    }
    if flags.set.nameref
        && !var.attrs.nameref
        && let Some(Value::Scalar(text)) = &var.value
        && !is_reference_target(text)
    {
        return Err(format!(
            "`{text}': invalid variable name for name reference"
        ));
    }
    let set = flags.set;
    let clear = flags.clear;
    let attrs = &mut var.attrs;
    attrs.exported = (attrs.exported || set.exported) && !clear.exported;
    attrs.readonly = attrs.readonly || set.readonly;
    attrs.integer = (attrs.integer || set.integer) && !clear.integer;
    attrs.nameref = (attrs.nameref || set.nameref) && !clear.nameref;
    if set.lower {
        attrs.lower = true;
        attrs.upper = false;
    }
    if set.upper {
        attrs.upper = true;
        attrs.lower = false;
    }
    if clear.lower {
        attrs.lower = false;
    }
    if clear.upper {
        attrs.upper = false;
    }
    let _ = exists_here;
    // Apply case attributes to an existing value.
    if (set.lower || set.upper)
        && let Some(Value::Scalar(text)) = &mut var.value
    {
        *text = if set.lower {
            crate::case::lower(text)
        } else {
            crate::case::upper(text)
        };
    }
    Ok(())
}

fn print_variables(shell: &mut Shell, kind: Which, flags: &Flags, args: &[Arg]) -> ExecResult {
    let mut text = String::new();
    let mut status = 0;
    let names: Vec<String> = if args.is_empty() {
        shell
            .vars
            .visible()
            .into_iter()
            .filter(|(_, var)| match kind {
                Which::Export => var.attrs.exported,
                Which::Readonly => var.attrs.readonly,
                _ => {
                    (!flags.set.exported || var.attrs.exported)
                        && (!flags.set.readonly || var.attrs.readonly)
                        && (!flags.set.integer || var.attrs.integer)
                        && (!flags.set.nameref || var.attrs.nameref)
                        && (!flags.set.lower || var.attrs.lower)
                        && (!flags.set.upper || var.attrs.upper)
                        && (!flags.assoc || matches!(var.value, Some(Value::Assoc(_))))
                        && (!flags.indexed || matches!(var.value, Some(Value::Indexed(_))))
                }
            })
            .map(|(name, _)| name)
            .collect()
    } else {
        args.iter()
            .map(|a| match a {
                Arg::Name(n) | Arg::Text(n, _) => n.to_string(),
                Arg::Assign(a) => a.name.clone(),
            })
            .collect()
    };
    for name in names {
        match shell.vars.get_raw(&name).is_some() {
            true => {
                let line = match shell.declaration_text(&name, false) {
                    Some(line) => line,
                    None => {
                        let flags = shell.attribute_flags(&name);
                        format!(
                            "declare -{} {name}",
                            if flags.is_empty() {
                                "-".to_string()
                            } else {
                                flags
                            }
                        )
                    }
                };
                text.push_str(&line);
                text.push('\n');
            }
            false => {
                status = shell.fail("declare", &format!("{name}: not found"), 1);
            }
        }
    }
    match shell.out().write_all(text.as_bytes()) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("declare", error),
    }
}

fn print_functions(shell: &mut Shell, args: &[Arg], names_only: bool) -> ExecResult {
    let mut names: Vec<String> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Name(n) => Some(n.to_string()),
            // A function's name may hold `=` (`declare -F a=b`).
            Arg::Text(n, value) => Some(format!("{n}={value}")),
            Arg::Assign(_) => None,
        })
        .collect();
    let listed = !names.is_empty();
    if names.is_empty() {
        names = shell.functions.keys().cloned().collect();
        names.sort();
    }
    let mut text = String::new();
    let mut status = 0;
    for name in names {
        if !shell.functions.contains_key(name.as_str()) {
            status = 1;
            continue;
        }
        if names_only && listed {
            // `declare -F name` answers with the bare name.
            text.push_str(&format!("{name}\n"));
        } else if names_only {
            text.push_str(&format!("declare -f {name}\n"));
        } else {
            text.push_str(&crate::interp::function_text(shell, &name));
        }
    }
    match shell.out().write_all(text.as_bytes()) {
        Ok(()) => Ok(status),
        Err(error) => shell.io_status("declare", error),
    }
}
