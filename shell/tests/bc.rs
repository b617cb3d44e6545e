//! `bc` against outputs of GNU bc 1.07 (recorded: CI machines may not have
//! bc to compare with live).

#[path = "support/run.rs"]
mod run;

fn bc(program: &str) -> String {
    let script = format!("bc <<'EOF'\n{program}\nEOF");
    run::run(&script).stdout
}

#[test]
fn arithmetic_and_scale() {
    assert_eq!(
        bc("10/3\nscale=2; 10/3\nscale=2; 100.50 * 1.0825\n-5+3\n10%3"),
        "3\n3.33\n108.7912\n-2\n.01\n"
    );
    assert_eq!(
        bc("scale=10; 1/3\n0.5 + 0.25\n-0.5\nscale=2; -7/2\nscale=5; 7%3"),
        ".3333333333\n.75\n-.5\n-3.50\n.00001\n"
    );
    assert_eq!(
        bc("3^-2\nscale=3; 3^-2\nscale=4; sqrt(2)"),
        "0\n.111\n1.4142\n"
    );
}

#[test]
fn big_numbers_wrap_at_70_columns() {
    assert_eq!(
        bc("2^200"),
        "1606938044258990275541962092341162602522202993782792835301376\n"
    );
    assert_eq!(
        bc("2^300"),
        "20370359763344860862684456884093781610514683936659362506361404493543\\\n81299763336706183397376\n"
    );
}

#[test]
fn bases_variables_arrays_functions_and_control_flow() {
    assert_eq!(bc("obase=16; 255\nobase=2; 10"), "FF\n1010\n");
    assert_eq!(bc("ibase=16; FF"), "255\n");
    assert_eq!(
        bc("x=5\nx*2\na[3]=4; a[3]*2\nx++; x; --x"),
        "10\n8\n5\n6\n5\n"
    );
    assert_eq!(
        bc("define f(n) { if (n <= 1) return 1; return n * f(n-1); }\nf(20)"),
        "2432902008176640000\n"
    );
    assert_eq!(
        bc(
            "i=0; while (i < 3) { print i, \"\\n\"; i = i + 1 }\nfor (j = 0; j < 2; j++) j\n1 && 0; 1 || 0; !0"
        ),
        "0\n1\n2\n0\n1\n0\n1\n1\n"
    );
    assert_eq!(bc("length(123.45); scale(1.234)"), "5\n3\n");
}

#[test]
fn errors_are_reported_and_bc_goes_on() {
    let ran = run::run("printf '1/0\\n2+2\\n' | bc; echo \"status $?\"");
    assert_eq!(ran.stdout, "4\nstatus 0\n");
    assert!(ran.stderr.contains("Divide by zero"), "{}", ran.stderr);
}

#[test]
fn an_endless_bc_loop_stops_at_the_deadline() {
    let ran = run::run_on(
        run::fresh_vfs(),
        "echo 'while (1) { }' | bc",
        std::time::Duration::from_millis(200),
    );
    assert!(ran.status.is_err(), "{:?}", ran.status);
}
