//! `--mode bytecode`: guest modules are compiled to QuickJS bytecode by the
//! host and runs (children, repeated runs in one process) load that
//! instead of compiling the source again.
//!
//! Only bytecode this process produced from a module's source is ever
//! loaded: the cache is keyed by the engine version, the module name and
//! a hash of the source, and nothing from the VFS is read as bytecode.

use std::collections::HashMap;
use std::sync::LazyLock;

use parking_lot::Mutex;
use rquickjs::module::Declared;
use rquickjs::{Ctx, Module, Result, WriteOptions};

/// How guest modules are executed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ExecMode {
    /// Compile each module from source (the default).
    #[default]
    Interpreted,
    /// Compile once to bytecode in the host, load the bytecode after.
    Bytecode,
}

goccia_core::named!(ExecMode {
    "interpreted" => ExecMode::Interpreted,
    "bytecode" => ExecMode::Bytecode,
});

/// What the cache may hold in all: past it, modules still run (compiled
/// from source) but are not cached.
const CACHE_LIMIT: usize = 64 << 20;

/// Identifies the engine in cache keys (bytecode is specific to it).
const ENGINE: &str = concat!("goccia-vm ", env!("CARGO_PKG_VERSION"), " quickjs-ng");

struct Cache {
    /// Entries are never evicted: QuickJS keeps pointers into loaded
    /// bytecode (it is read as ROM data), so a buffer must live as long as
    /// any runtime that loaded it. The limit bounds the total.
    entries: HashMap<blake3::Hash, &'static [u8]>,
    bytes: usize,
}

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(|| {
    Mutex::new(Cache {
        entries: HashMap::new(),
        bytes: 0,
    })
});

fn key(name: &str, source: &[u8]) -> blake3::Hash {
    let mut hasher = blake3::Hasher::new();
    hasher.update(ENGINE.as_bytes());
    hasher.update(&(name.len() as u64).to_le_bytes());
    hasher.update(name.as_bytes());
    hasher.update(source);
    hasher.finalize()
}

/// The module `name` with `source`, from cached bytecode when this
/// process compiled it before, else compiled now (and cached).
pub fn declare<'js>(ctx: &Ctx<'js>, name: &str, source: &[u8]) -> Result<Module<'js, Declared>> {
    let key = key(name, source);
    let cached = CACHE.lock().entries.get(&key).copied();
    if let Some(bytes) = cached {
        // SAFETY: `bytes` was written by this process's QuickJS from the
        // same name and source (the key says so), never read from the
        // guest, and lives for the rest of the process.
        if let Ok(module) = unsafe { Module::load(ctx.clone(), bytes) } {
            return Ok(module);
        }
        // Refused (should not happen): compile from source below.
        let _ = ctx.catch();
    }
    let module = Module::declare(ctx.clone(), name, source.to_vec())?;
    if let Ok(bytes) = module.write(WriteOptions::default()) {
        let mut cache = CACHE.lock();
        if cache.bytes + bytes.len() <= CACHE_LIMIT && !cache.entries.contains_key(&key) {
            cache.bytes += bytes.len();
            cache
                .entries
                .insert(key, Box::leak(bytes.into_boxed_slice()));
        }
    }
    Ok(module)
}

/// Modules compiled so far and their bytes (for tests and benchmarks).
pub fn cache_stats() -> (usize, usize) {
    let cache = CACHE.lock();
    (cache.entries.len(), cache.bytes)
}
