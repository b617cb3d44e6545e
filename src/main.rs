//! The `goccia` command line: a thin layer over the library (`goccia::`),
//! built with the default feature `cli`.

mod cli;

/// Counts the process's Rust allocations, so the shell's work (a `jq`
/// value, awk arrays) is held to `--max-memory` above what the VFS may
/// hold; see `goccia::host_memory`.
#[global_allocator]
static ALLOCATOR: goccia::host_memory::Counting = goccia::host_memory::Counting;

fn main() {
    std::process::exit(cli::main());
}
