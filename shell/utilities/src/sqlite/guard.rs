//! What keeps SQLite inside the sandbox. SQLite runs in this process
//! against an in-memory copy of the VFS file, so it must not reach the
//! host's files, outlive the deadline or take memory the sandbox is not
//! charged for:
//!
//! - no attached databases (`ATTACH` and `VACUUM INTO` would open host
//!   paths): the limit on attached databases is zero, and the authorizer
//!   refuses them too;
//! - temporary tables and indexes in memory (`temp_store`), and the
//!   pragmas that would move them to host folders refused;
//! - a progress handler stops a statement at the deadline or past the
//!   memory ceiling;
//! - the database may not grow past what the VFS quota has left;
//! - SQLite's own allocations go through Rust's allocator, so the
//!   sandbox's meter counts them (when this process configures SQLite
//!   before anything else opened a database; otherwise they are bounded
//!   by the limits above only).

use std::alloc::{Layout, alloc, dealloc, realloc};
use std::ffi::{c_int, c_void};
use std::sync::{Arc, Once};

use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;
use rusqlite::{Connection, ffi};

use goccia_interp::interp::Context;

/// Pragmas that would send data to host folders.
const REFUSED_PRAGMAS: &[&str] = &["temp_store", "temp_store_directory", "data_store_directory"];

/// Virtual machine steps between two looks at the deadline.
const PROGRESS_STEPS: c_int = 10_000;

/// Applies every guard to a fresh connection; `max_bytes` bounds the
/// database's size.
pub fn confine(
    connection: &Connection,
    context: &Arc<Context>,
    max_bytes: u64,
) -> rusqlite::Result<()> {
    connection.set_limit(Limit::SQLITE_LIMIT_ATTACHED, 0)?;
    let length = i32::try_from(context.limits.max_buffered_input).unwrap_or(i32::MAX);
    connection.set_limit(Limit::SQLITE_LIMIT_LENGTH, length)?;
    connection.execute_batch("PRAGMA temp_store = MEMORY;")?;
    // A file that is not a database fails these; it cannot grow either
    // (every statement that touches it fails), and `select 1` still runs,
    // as in sqlite3.
    let page_size = connection
        .query_row("PRAGMA page_size", [], |row| row.get::<_, u64>(0))
        .unwrap_or(4096);
    let pages = (max_bytes / page_size.max(512)).max(1);
    let _ = connection.query_row(&format!("PRAGMA max_page_count = {pages}"), [], |_| Ok(()));
    connection.authorizer(Some(|context: AuthContext<'_>| match context.action {
        AuthAction::Attach { .. } => Authorization::Deny,
        AuthAction::Pragma { pragma_name, .. }
            if REFUSED_PRAGMAS.contains(&pragma_name.to_ascii_lowercase().as_str()) =>
        {
            Authorization::Deny
        }
        _ => Authorization::Allow,
    }));
    let context = Arc::clone(context);
    connection.progress_handler(
        PROGRESS_STEPS,
        Some(move || goccia_interp::interrupt::stopped_now() || context.memory_exceeded()),
    );
    Ok(())
}

/// Routes SQLite's allocations through Rust's allocator (once per
/// process, before SQLite initializes).
pub fn route_allocations() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let methods = ffi::sqlite3_mem_methods {
            xMalloc: Some(sqlite_malloc),
            xFree: Some(sqlite_free),
            xRealloc: Some(sqlite_realloc),
            xSize: Some(sqlite_size),
            xRoundup: Some(sqlite_roundup),
            xInit: Some(sqlite_init),
            xShutdown: Some(sqlite_shutdown),
            pAppData: std::ptr::null_mut(),
        };
        // SAFETY: SQLite copies the methods; the call fails harmlessly
        // (SQLITE_MISUSE) when SQLite is already initialized.
        unsafe {
            ffi::sqlite3_config(ffi::SQLITE_CONFIG_MALLOC, &methods as *const _);
        }
    });
}

/// Each block starts with a header holding its size; 16 bytes keep the
/// payload aligned as SQLite wants (8) and as malloc would (16).
const HEADER: usize = 16;

fn layout(size: usize) -> Option<Layout> {
    Layout::from_size_align(size.checked_add(HEADER)?, HEADER).ok()
}

unsafe extern "C" fn sqlite_malloc(size: c_int) -> *mut c_void {
    let Some(layout) = usize::try_from(size).ok().and_then(layout) else {
        return std::ptr::null_mut();
    };
    // SAFETY: the layout is non-zero (it includes the header).
    unsafe {
        let block = alloc(layout);
        if block.is_null() {
            return std::ptr::null_mut();
        }
        block.cast::<usize>().write(size as usize);
        block.add(HEADER).cast()
    }
}

unsafe extern "C" fn sqlite_free(payload: *mut c_void) {
    if payload.is_null() {
        return;
    }
    // SAFETY: `payload` came from `sqlite_malloc`/`sqlite_realloc`, so the
    // header precedes it and records the size it was allocated with.
    unsafe {
        let block = payload.cast::<u8>().sub(HEADER);
        let size = block.cast::<usize>().read();
        if let Some(layout) = layout(size) {
            dealloc(block, layout);
        }
    }
}

unsafe extern "C" fn sqlite_realloc(payload: *mut c_void, size: c_int) -> *mut c_void {
    if payload.is_null() {
        // SAFETY: as for a fresh allocation.
        return unsafe { sqlite_malloc(size) };
    }
    let Some(new_layout) = usize::try_from(size).ok().and_then(layout) else {
        return std::ptr::null_mut();
    };
    // SAFETY: as in `sqlite_free`; `realloc` keeps the alignment.
    unsafe {
        let block = payload.cast::<u8>().sub(HEADER);
        let old = block.cast::<usize>().read();
        let Some(old_layout) = layout(old) else {
            return std::ptr::null_mut();
        };
        let moved = realloc(block, old_layout, new_layout.size());
        if moved.is_null() {
            return std::ptr::null_mut();
        }
        moved.cast::<usize>().write(size as usize);
        moved.add(HEADER).cast()
    }
}

unsafe extern "C" fn sqlite_size(payload: *mut c_void) -> c_int {
    if payload.is_null() {
        return 0;
    }
    // SAFETY: as in `sqlite_free`.
    unsafe {
        let size = payload.cast::<u8>().sub(HEADER).cast::<usize>().read();
        c_int::try_from(size).unwrap_or(c_int::MAX)
    }
}

unsafe extern "C" fn sqlite_roundup(size: c_int) -> c_int {
    size.saturating_add(7) & !7
}

unsafe extern "C" fn sqlite_init(_: *mut c_void) -> c_int {
    ffi::SQLITE_OK
}

unsafe extern "C" fn sqlite_shutdown(_: *mut c_void) {}
