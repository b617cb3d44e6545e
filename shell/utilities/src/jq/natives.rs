//! The filters jq has and jaq lacks or implements against the host, as
//! natives over the command's own data and as jq definitions.

use jaq_core::box_iter::box_once;
use jaq_core::native::{Filter, Fun, bome, run, v};
use jaq_core::{Exn, RunPtr};
use jaq_json::Val;

use super::runtime::JqData;

/// jaq natives that reach the host (`env` reads the process environment)
/// or print through the `log` crate (`debug`, `stderr`): replaced below.
const REPLACED: &[&str] = &["env", "debug_empty", "stderr_empty"];

/// Every native filter the compiler knows.
pub(crate) fn functions() -> impl Iterator<Item = Fun<JqData>> {
    jaq_core::funs()
        .chain(jaq_std::funs().filter(|(name, _, _)| !REPLACED.contains(name)))
        .chain(
            jaq_std::input::funs::<JqData>()
                .into_vec()
                .into_iter()
                .map(|filter| run::<JqData>(filter)),
        )
        .chain(jaq_json::funs())
        .chain(
            own()
                .into_vec()
                .into_iter()
                .map(|filter| run::<JqData>(filter)),
        )
}

fn own() -> Box<[Filter<RunPtr<JqData>>]> {
    Box::new([
        ("env", v(0), |cv| box_once(Ok(cv.0.data().env.clone()))),
        ("input_filename", v(0), |cv| {
            let position = cv.0.data().position.borrow();
            box_once(Ok(match &position.file {
                Some(file) => Val::from(file.clone()),
                None => Val::Null,
            }))
        }),
        ("input_line_number", v(0), |cv| {
            let index = cv.0.data().position.borrow().index;
            bome(Ok(Val::from(index)))
        }),
        ("debug_empty", v(0), |cv| {
            let text = format!("[\"DEBUG:\",{}]\n", compact(&cv.1));
            cv.0.data()
                .stderr
                .borrow_mut()
                .extend_from_slice(text.as_bytes());
            Box::new(std::iter::empty())
        }),
        ("stderr_empty", v(0), |cv| {
            let mut stderr = cv.0.data().stderr.borrow_mut();
            match &cv.1 {
                Val::TStr(text) | Val::BStr(text) => stderr.extend_from_slice(text),
                other => stderr.extend_from_slice(compact(other).as_bytes()),
            }
            Box::new(std::iter::empty::<Result<Val, Exn<'_, Val>>>())
        }),
    ])
}

fn compact(value: &Val) -> String {
    value.to_string()
}

/// jq builtins missing from jaq's standard library, in jq.
pub(crate) const EXTRA_DEFS: &str = r#"
def get_search_list: [];
def leaf_paths: paths(scalars);
def halt_error($code): (if type == "string" then . else tojson + "\n" end | stderr_empty), halt($code);
def match(re; flags): matches(re; flags)[] | .[0] + { captures: .[1:] | map({offset, length, string, name}) };
def match(re): match(re; "");
"#;
