//! The host side of Node's modules (docs/guest.md): hashes and HMACs
//! (`sha2`, `md-5`, `sha1`, `hmac`), random bytes (`getrandom`), Node's
//! text encodings for `Buffer`, the deterministic `process` (its entry,
//! its `--env`, the session's cwd, `exit` and `exitCode`, the QuickJS
//! heap, a monotonic clock), and what `require` needs of the VFS (a file's
//! text, whether a path is a file or a folder, compiling a CommonJS
//! module's function under its file name).

use std::rc::Rc;
use std::time::Instant;

use hmac::{Hmac, Mac};
use rquickjs::{Array, Ctx, Function, Object, Result, TypedArray, Value, qjs};
use sha2::Digest;

use crate::errors::{new_error, throw, throw_stopped, type_error};
use crate::host::Host;

/// The bytes of a `Uint8Array`, copied out before any guest code can run.
fn bytes_of(array: &TypedArray<'_, u8>) -> Vec<u8> {
    // SAFETY: read at once, before JS can run and detach the buffer.
    unsafe { array.as_bytes() }.unwrap_or(&[]).to_vec()
}

fn chunks_of(chunks: &Array<'_>) -> Result<Vec<Vec<u8>>> {
    chunks
        .iter::<TypedArray<u8>>()
        .map(|chunk| chunk.map(|chunk| bytes_of(&chunk)))
        .collect()
}

/// The digest of `chunks` under `algorithm`, or `None` for an unknown one.
fn digest(algorithm: &str, chunks: &[Vec<u8>]) -> Option<Vec<u8>> {
    fn run<D: Digest>(chunks: &[Vec<u8>]) -> Vec<u8> {
        let mut hasher = D::new();
        for chunk in chunks {
            hasher.update(chunk);
        }
        hasher.finalize().to_vec()
    }
    Some(match algorithm {
        "md5" => run::<md5::Md5>(chunks),
        "sha1" => run::<sha1::Sha1>(chunks),
        "sha224" => run::<sha2::Sha224>(chunks),
        "sha256" => run::<sha2::Sha256>(chunks),
        "sha384" => run::<sha2::Sha384>(chunks),
        "sha512" => run::<sha2::Sha512>(chunks),
        _ => return None,
    })
}

fn hmac(algorithm: &str, key: &[u8], chunks: &[Vec<u8>]) -> Option<Vec<u8>> {
    fn run<M: Mac + hmac::digest::KeyInit>(key: &[u8], chunks: &[Vec<u8>]) -> Vec<u8> {
        let mut mac = <M as hmac::digest::KeyInit>::new_from_slice(key).expect("any key length");
        for chunk in chunks {
            mac.update(chunk);
        }
        mac.finalize().into_bytes().to_vec()
    }
    Some(match algorithm {
        "md5" => run::<Hmac<md5::Md5>>(key, chunks),
        "sha1" => run::<Hmac<sha1::Sha1>>(key, chunks),
        "sha224" => run::<Hmac<sha2::Sha224>>(key, chunks),
        "sha256" => run::<Hmac<sha2::Sha256>>(key, chunks),
        "sha384" => run::<Hmac<sha2::Sha384>>(key, chunks),
        "sha512" => run::<Hmac<sha2::Sha512>>(key, chunks),
        _ => return None,
    })
}

fn digest_error(ctx: &Ctx<'_>, algorithm: &str) -> rquickjs::Error {
    let error = new_error(ctx, "Error", "Digest method not supported");
    let _ = error.set("code", "ERR_CRYPTO_INVALID_DIGEST");
    let _ = error.set("algorithm", algorithm);
    throw(ctx, error)
}

/// The host functions of Node's modules.
pub fn natives<'js>(ctx: &Ctx<'js>, host: Rc<Host>) -> Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    object.set(
        "digest",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, algorithm: String, chunks: Array<'js>| -> Result<TypedArray<'js, u8>> {
                let chunks = chunks_of(&chunks)?;
                let digest =
                    digest(&algorithm, &chunks).ok_or_else(|| digest_error(&ctx, &algorithm))?;
                TypedArray::new_copy(ctx, &digest)
            },
        )?,
    )?;
    object.set(
        "hmac",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>,
             algorithm: String,
             key: TypedArray<'js, u8>,
             chunks: Array<'js>|
             -> Result<TypedArray<'js, u8>> {
                let key = bytes_of(&key);
                let chunks = chunks_of(&chunks)?;
                let mac = hmac(&algorithm, &key, &chunks)
                    .ok_or_else(|| digest_error(&ctx, &algorithm))?;
                TypedArray::new_copy(ctx, &mac)
            },
        )?,
    )?;
    object.set(
        "randomBytes",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, size: u32| -> Result<TypedArray<'js, u8>> {
                let mut bytes = vec![0u8; size as usize];
                getrandom::fill(&mut bytes)
                    .map_err(|error| type_error(&ctx, "ERR_CRYPTO_RANDOM", &error.to_string()))?;
                TypedArray::new_copy(ctx, &bytes)
            },
        )?,
    )?;
    object.set(
        "encode",
        Function::new(
            ctx.clone(),
            |ctx: Ctx<'js>, text: String, encoding: String| -> Result<TypedArray<'js, u8>> {
                TypedArray::new_copy(ctx, crate::encoding::encode(&text, &encoding))
            },
        )?,
    )?;
    object.set(
        "decode",
        Function::new(
            ctx.clone(),
            |bytes: TypedArray<'js, u8>, encoding: String| -> String {
                crate::encoding::decode(&bytes_of(&bytes), &encoding)
            },
        )?,
    )?;
    object.set(
        "builtinName",
        Function::new(ctx.clone(), |specifier: String| {
            crate::modules::canonical(&specifier)
        })?,
    )?;
    object.set(
        "builtinNames",
        Function::new(ctx.clone(), || {
            crate::modules::PUBLIC
                .iter()
                .map(|name| name.to_string())
                .collect::<Vec<_>>()
        })?,
    )?;
    let h = host.clone();
    object.set(
        "entry",
        Function::new(ctx.clone(), move || h.entry.clone())?,
    )?;
    let h = host.clone();
    object.set(
        "env",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> Result<Object<'js>> {
            let env = Object::new(ctx)?;
            for (name, value) in &h.env {
                env.set(name.as_str(), value.as_str())?;
            }
            Ok(env)
        })?,
    )?;
    let h = host.clone();
    object.set(
        "cwd",
        Function::new(ctx.clone(), move || h.cwd().to_string())?,
    )?;
    let h = host.clone();
    object.set(
        "chdir",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, path: String| -> Result<()> {
                let target = h
                    .cwd()
                    .resolve(&path)
                    .ok()
                    .filter(|target| h.vfs.lock().is_dir(target));
                let Some(target) = target else {
                    let error = new_error(
                        &ctx,
                        "Error",
                        &format!(
                            "ENOENT: no such file or directory, chdir {} -> '{path}'",
                            h.cwd()
                        ),
                    );
                    let _ = error.set("code", "ENOENT");
                    let _ = error.set("errno", -2);
                    let _ = error.set("syscall", "chdir");
                    let _ = error.set("path", path.as_str());
                    return Err(throw(&ctx, error));
                };
                crate::goccia::with_shell(&h, |shell| shell.set_cwd(target));
                Ok(())
            },
        )?,
    )?;
    let h = host.clone();
    object.set(
        "exit",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>, code: i32| -> Result<()> {
            h.tripwire.exit(code);
            // Uncatchable, like a stop: nothing of the guest runs after it.
            let error = new_error(&ctx, "InternalError", &format!("process.exit({code})"));
            let value: Value = error.into_value();
            // SAFETY: a live object of this context, marked uncatchable.
            unsafe { qjs::JS_SetUncatchableError(ctx.as_raw().as_ptr(), value.as_raw()) };
            Err(ctx.throw(value))
        })?,
    )?;
    let h = host.clone();
    object.set(
        "setExitCode",
        Function::new(ctx.clone(), move |code: Option<i32>| {
            h.tripwire.set_exit_code(code)
        })?,
    )?;
    object.set(
        "heapUsed",
        Function::new(ctx.clone(), |ctx: Ctx<'js>| -> f64 {
            // SAFETY: reads the usage counters of this context's runtime.
            unsafe {
                let runtime = qjs::JS_GetRuntime(ctx.as_raw().as_ptr());
                let mut usage: qjs::JSMemoryUsage = std::mem::zeroed();
                qjs::JS_ComputeMemoryUsage(runtime, &mut usage);
                usage.malloc_size as f64
            }
        })?,
    )?;
    let started = Instant::now();
    object.set(
        "monotonicNs",
        Function::new(ctx.clone(), move || started.elapsed().as_nanos() as f64)?,
    )?;
    // `process.stdin`'s bytes, all of them (the calling shell's standard
    // input, read to its end, at most `max_buffered_input`), or null when
    // the run has none.
    let h = host.clone();
    object.set(
        "readStdin",
        Function::new(ctx.clone(), move |ctx: Ctx<'js>| -> Result<Value<'js>> {
            h.check().map_err(|stop| throw_stopped(&ctx, stop))?;
            let Some(reader) = h.stdin.clone() else {
                return Ok(Value::new_null(ctx));
            };
            let limit = h.limits.max_buffered_input;
            let read = goccia_shell::io::read_to_end_capped(&mut *reader.lock(), limit);
            h.check().map_err(|stop| throw_stopped(&ctx, stop))?;
            match read {
                Ok(bytes) => Ok(TypedArray::<u8>::new_copy(ctx.clone(), &bytes[..])?.into_value()),
                Err(error) => {
                    let message = format!("process.stdin: {error}");
                    Err(throw(&ctx, new_error(&ctx, "Error", &message)))
                }
            }
        })?,
    )?;
    let h = host.clone();
    object.set(
        "readText",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, path: String| -> Result<Option<String>> {
                h.check().map_err(|stop| throw_stopped(&ctx, stop))?;
                let Ok(path) = goccia_vfs::VfsPath::parse(&path) else {
                    return Ok(None);
                };
                Ok(h.vfs
                    .lock()
                    .read_file(&path)
                    .ok()
                    .map(|bytes| String::from_utf8_lossy(&bytes).into_owned()))
            },
        )?,
    )?;
    let h = host.clone();
    object.set(
        "kind",
        Function::new(ctx.clone(), move |path: String| -> Option<&'static str> {
            let path = goccia_vfs::VfsPath::parse(&path).ok()?;
            let vfs = h.vfs.lock();
            if vfs.is_file(&path) {
                Some("file")
            } else if vfs.is_dir(&path) {
                Some("dir")
            } else {
                None
            }
        })?,
    )?;
    let h = host;
    object.set(
        "compileFunction",
        Function::new(
            ctx.clone(),
            move |ctx: Ctx<'js>, source: String, filename: String| -> Result<Value<'js>> {
                h.check().map_err(|stop| throw_stopped(&ctx, stop))?;
                compile(&ctx, &source, &filename)
            },
        )?,
    )?;
    Ok(object)
}

/// Node's wrapper around a CommonJS module's source. The head has lines
/// of its own, numbered -1 and 0 (QuickJS takes 0 as "the default, 1"),
/// so the source's lines and columns are its own.
fn wrapped(source: &str) -> String {
    format!("(function (exports, require, module, __filename, __dirname) {{\n\n{source}\n}})")
}

/// A CommonJS module's function: its source inside Node's wrapper,
/// compiled as a (sloppy) script named by its file (stack traces name it).
pub(crate) fn compile<'js>(ctx: &Ctx<'js>, source: &str, filename: &str) -> Result<Value<'js>> {
    let code = std::ffi::CString::new(wrapped(source)).map_err(|_| {
        type_error(
            ctx,
            "ERR_INVALID_ARG_VALUE",
            "a module's source holds a NUL byte",
        )
    })?;
    let name = std::ffi::CString::new(filename).unwrap_or_default();
    eval_global(ctx, &code, &name, 0)
}

/// Whether `source` parses as a CommonJS module body: Node's own test for
/// a `.js` file that shows neither syntax (top-level `await` fails it, so
/// such a file is an ES module). Nothing runs; a parse error is cleared.
pub fn compiles_as_commonjs(ctx: &Ctx<'_>, source: &str) -> bool {
    // The loader reads a `#!` line as a comment (as Node does): so does
    // the test, or every script with one would be taken for a module.
    let source = match source.strip_prefix("#!") {
        Some(rest) => std::borrow::Cow::Owned(format!("//{rest}")),
        None => std::borrow::Cow::Borrowed(source),
    };
    let Ok(code) = std::ffi::CString::new(wrapped(&source)) else {
        return false;
    };
    let compiled = eval_global(
        ctx,
        &code,
        c"[detect]",
        qjs::JS_EVAL_FLAG_COMPILE_ONLY as i32,
    );
    if compiled.is_err() {
        drop(ctx.catch());
    }
    compiled.is_ok()
}

fn eval_global<'js>(
    ctx: &Ctx<'js>,
    code: &std::ffi::CStr,
    name: &std::ffi::CStr,
    flags: i32,
) -> Result<Value<'js>> {
    // SAFETY: plain QuickJS evaluation on this live context; the result is
    // owned by the returned value (or the pending exception).
    unsafe {
        let raw = ctx.as_raw().as_ptr();
        let mut options = qjs::JSEvalOptions {
            version: qjs::JS_EVAL_OPTIONS_VERSION as _,
            eval_flags: qjs::JS_EVAL_TYPE_GLOBAL as i32 | flags,
            filename: name.as_ptr(),
            line_num: -1,
        };
        let value = qjs::JS_Eval2(raw, code.as_ptr(), code.to_bytes().len() as _, &mut options);
        if qjs::JS_IsException(value) {
            return Err(rquickjs::Error::Exception);
        }
        Ok(Value::from_raw(ctx.clone(), value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_match_known_vectors() {
        let abc = vec![b"a".to_vec(), b"bc".to_vec()];
        let hex = |bytes: Vec<u8>| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(digest("md5", &abc).unwrap()),
            "900150983cd24fb0d6963f7d28e17f72"
        );
        assert_eq!(
            hex(digest("sha256", &abc).unwrap()),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert!(digest("whirlpool", &abc).is_none());
        assert_eq!(
            hex(hmac(
                "sha256",
                b"key",
                &[b"The quick brown fox jumps over the lazy dog".to_vec()]
            )
            .unwrap()),
            "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8"
        );
    }
}
