//! Runs every example in `examples/`: each asserts its own outcome, so a
//! change that breaks what an example demonstrates fails here.

#[path = "../examples/fan_out.rs"]
mod fan_out;
#[path = "../examples/lint_fix.rs"]
mod lint_fix;
#[path = "../examples/pipeline.rs"]
mod pipeline;

#[test]
fn fan_out_merges_disjoint_children_and_reports_the_conflicting_one() {
    fan_out::main();
}

#[test]
fn lint_fix_differs_from_the_report_only_in_the_host_tree() {
    lint_fix::main();
}

#[test]
fn pipeline_mixes_shell_and_js_in_one_session() {
    pipeline::main();
}
