//! Building the JS errors the host throws.
//!
//! QuickJS's `throw_*` helpers cut messages at 255 bytes, so errors are
//! built by calling the realm's constructors instead.

use goccia_core::Stop;
use goccia_vfs::FsError;
use rquickjs::{Ctx, Error, Exception, Function, Object, Value, qjs};

/// `new <ctor>(message)` for one of the realm's error constructors.
pub fn new_error<'js>(ctx: &Ctx<'js>, ctor: &str, message: &str) -> Object<'js> {
    let made = ctx
        .globals()
        .get::<_, Function>(ctor)
        .and_then(|ctor| ctor.call::<_, Object>((message,)));
    match made {
        Ok(object) => object,
        // The guest replaced the constructor: fall back to a plain Error.
        Err(_) => Exception::from_message(ctx.clone(), message)
            .map(Exception::into_object)
            .unwrap_or_else(|_| Object::new(ctx.clone()).expect("object")),
    }
}

/// Throws `error`.
pub fn throw<'js>(ctx: &Ctx<'js>, error: Object<'js>) -> Error {
    ctx.throw(error.into_value())
}

/// A `TypeError` with a Node-style `code`.
pub fn type_error(ctx: &Ctx<'_>, code: &str, message: &str) -> Error {
    let error = new_error(ctx, "TypeError", message);
    let _ = error.set("code", code);
    throw(ctx, error)
}

/// Node's shape of a failed fs call: `CODE: description, syscall 'path'`
/// (+ ` -> 'dest'`), with `code`, `errno`, `syscall`, `path`, `dest`.
pub fn fs_error(
    ctx: &Ctx<'_>,
    error: &FsError,
    syscall: &str,
    path: &str,
    dest: Option<&str>,
) -> Error {
    let errno = error.errno;
    // A policy denial has its own code and text (docs/policy.md), distinct
    // from the world refusing (`EACCES` from a host, a quota).
    let denied = error.denied;
    let mut message = match &denied {
        Some(denied) => denied.js_message(syscall, path),
        None => format!(
            "{}: {}, {syscall} '{path}'",
            errno.code(),
            errno.description()
        ),
    };
    if let Some(dest) = dest {
        message.push_str(&format!(" -> '{dest}'"));
    }
    let object = new_error(ctx, "Error", &message);
    let _ = object.set("errno", -errno.number());
    match &denied {
        Some(denied) => {
            let _ = object.set("code", "FS_SANDBOX_DENIED");
            let _ = object.set("policy", denied.mode.as_str());
        }
        None => {
            let _ = object.set("code", errno.code());
        }
    }
    let _ = object.set("syscall", syscall);
    let _ = object.set("path", path);
    if let Some(dest) = dest {
        let _ = object.set("dest", dest);
    }
    throw(ctx, object)
}

/// Throws an error guest code cannot catch (no `catch`, no `finally`
/// runs): the run is over. The runner reports the run from the tripwire,
/// so the message only says what stopped it.
pub fn throw_stopped(ctx: &Ctx<'_>, stop: Stop) -> Error {
    let object = new_error(ctx, "InternalError", &stop.to_string());
    let value: Value = object.into_value();
    // SAFETY: `value` is a live object of this context; marking it changes
    // only how the interpreter propagates it.
    unsafe { qjs::JS_SetUncatchableError(ctx.as_raw().as_ptr(), value.as_raw()) };
    ctx.throw(value)
}
