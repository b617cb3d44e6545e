/// Counts the process's Rust allocations, so the shell's work (a `jq`
/// value, awk arrays) is held to `--max-memory` above what the VFS may
/// hold; see `goccia_core::host_memory`.
#[global_allocator]
static ALLOCATOR: goccia_core::host_memory::Counting = goccia_core::host_memory::Counting;

fn main() {
    std::process::exit(goccia::cli::main());
}
