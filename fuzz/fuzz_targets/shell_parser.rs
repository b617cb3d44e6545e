//! The shell parser on any text: it returns a tree or a syntax error,
//! never panics or overflows.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let _ = goccia_shell::Shell::check_syntax(text);
});
