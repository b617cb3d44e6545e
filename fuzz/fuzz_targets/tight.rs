//! The tight shell limits the shell targets run under (shared by
//! `shell_run` and `shell_shapes`), so a finding is small and fast.

use goccia_shell::Limits;

/// Limits a fuzz input cannot spend much of.
pub fn shell_limits() -> Limits {
    Limits::default()
        .max_commands(5_000)
        .max_loop_iterations(5_000)
        .max_function_depth(50)
        .max_substitution_bytes(64 << 10)
        .max_buffered_input(1 << 20)
        .max_concurrent_stages(16)
        .max_value_bytes(1 << 20)
        .max_memory(64 << 20)
}
