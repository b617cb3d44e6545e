//! Host side of the guest's `fs` module: synchronous VFS operations with
//! Node's error shapes. The Node-shaped API (callbacks, promises, option
//! parsing) is `js/fs.js`.

use std::rc::Rc;

use goccia_vfs::{Errno, FsError, Node, NodeType, Vfs, VfsPath};
use rquickjs::{Array, Ctx, Function, Object, Result, TypedArray, Value};

use crate::encoding;
use crate::errors::{fs_error, throw_stopped};
use crate::host::Host;

/// One fs call: the host, the operation's Node syscall name, and the path
/// as the guest passed it.
struct Call<'a, 'js> {
    ctx: &'a Ctx<'js>,
    host: &'a Host,
    syscall: &'static str,
}

impl<'js> Call<'_, 'js> {
    fn begin<'a>(
        ctx: &'a Ctx<'js>,
        host: &'a Host,
        syscall: &'static str,
    ) -> Result<Call<'a, 'js>> {
        host.check()
            .map_err(|stopped| throw_stopped(ctx, stopped))?;
        Ok(Call { ctx, host, syscall })
    }

    /// `raw` resolved from the session's working directory.
    fn path(&self, raw: &str) -> Result<VfsPath> {
        self.host.cwd().resolve(raw).map_err(|error| {
            let errno = Errno::from(&error);
            self.error(&FsError::new(errno, &VfsPath::root()), raw, None)
        })
    }

    /// Throws `error` for `raw`, recording quota hits as evidence.
    fn error(&self, error: &FsError, raw: &str, dest: Option<&str>) -> rquickjs::Error {
        if error.quota.is_some() {
            self.host.tripwire.note_fs_quota();
        }
        if let Some(denied) = error.denied {
            self.host.audit.record(
                "policy",
                "deny",
                error.path.as_str(),
                Some(format!("{} under {} mode", self.syscall, denied.mode)),
            );
        }
        // Refusals (not plain misses) go to the audit trail.
        if error.quota.is_some() || matches!(error.errno, Errno::Inval | Errno::NameTooLong) {
            self.host.audit.record(
                "fs",
                "deny",
                raw,
                Some(format!("{} ({})", error.errno.code(), self.syscall)),
            );
        }
        fs_error(self.ctx, error, self.syscall, raw, dest)
    }

    fn fail(&self, errno: Errno, raw: &str, dest: Option<&str>) -> rquickjs::Error {
        self.error(&FsError::new(errno, &VfsPath::root()), raw, dest)
    }
}

fn function<'js, P, F>(ctx: &Ctx<'js>, object: &Object<'js>, name: &str, f: F) -> Result<()>
where
    F: rquickjs::function::IntoJsFunc<'js, P> + 'js,
{
    let function = Function::new(ctx.clone(), f)?;
    function.set_name(name)?;
    object.set(name, function)
}

/// The native functions behind `js/fs.js`.
pub fn natives<'js>(ctx: &Ctx<'js>, host: Rc<Host>) -> Result<Object<'js>> {
    let object = Object::new(ctx.clone())?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "readFile",
        move |ctx: Ctx<'js>, path: String, encoding: Value<'js>| {
            read_file(
                &ctx,
                &h,
                &path,
                encoding.as_string().map(|s| s.to_string()).transpose()?,
            )
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "writeFile",
        move |ctx: Ctx<'js>, path: String, data: Value<'js>, encoding: String, flag: String| {
            write_file(&ctx, &h, &path, data, &encoding, &flag)
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "mkdir",
        move |ctx: Ctx<'js>, path: String, recursive: bool| mkdir(&ctx, &h, &path, recursive),
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "readdir",
        move |ctx: Ctx<'js>, path: String| readdir(&ctx, &h, &path),
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "stat",
        move |ctx: Ctx<'js>, path: String, syscall: String, throw_if_missing: bool| {
            stat(
                &ctx,
                &h,
                &path,
                if syscall == "lstat" { "lstat" } else { "stat" },
                throw_if_missing,
            )
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "exists",
        move |ctx: Ctx<'js>, path: String| {
            let _call = Call::begin(&ctx, &h, "access")?;
            Ok::<_, rquickjs::Error>(
                h.cwd()
                    .resolve(&path)
                    .is_ok_and(|p| h.vfs.lock().exists(&p)),
            )
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "rm",
        move |ctx: Ctx<'js>, path: String, recursive: bool, force: bool| {
            rm(&ctx, &h, &path, recursive, force)
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "rmdir",
        move |ctx: Ctx<'js>, path: String, recursive: bool| rmdir(&ctx, &h, &path, recursive),
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "unlink",
        move |ctx: Ctx<'js>, path: String| {
            let call = Call::begin(&ctx, &h, "unlink")?;
            let target = call.path(&path)?;
            h.vfs
                .lock()
                .remove_file(&target)
                .map_err(|e| call.error(&e, &path, None))
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "rename",
        move |ctx: Ctx<'js>, from: String, to: String| {
            let call = Call::begin(&ctx, &h, "rename")?;
            let (source, target) = (call.path(&from)?, call.path(&to)?);
            h.vfs
                .lock()
                .rename(&source, &target)
                .map_err(|e| call.error(&e, &from, Some(&to)))
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "copyFile",
        move |ctx: Ctx<'js>, from: String, to: String, exclusive: bool| {
            copy_file(&ctx, &h, &from, &to, exclusive)
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "cp",
        move |ctx: Ctx<'js>,
              from: String,
              to: String,
              recursive: bool,
              force: bool,
              error_on_exist: bool| {
            cp(
                &ctx,
                &h,
                &from,
                &to,
                CpOptions {
                    recursive,
                    force,
                    error_on_exist,
                },
            )
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "symlink",
        move |ctx: Ctx<'js>, target: String, path: String| {
            let call = Call::begin(&ctx, &h, "symlink")?;
            let at = call.path(&path)?;
            h.vfs
                .lock()
                .symlink(&at, &target)
                .map_err(|e| call.error(&e, &target, Some(&path)))
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "readlink",
        move |ctx: Ctx<'js>, path: String| {
            let call = Call::begin(&ctx, &h, "readlink")?;
            let at = call.path(&path)?;
            h.vfs
                .lock()
                .read_link(&at)
                .map_err(|e| call.error(&e, &path, None))
        },
    )?;
    let h = host.clone();
    function(
        ctx,
        &object,
        "realpath",
        move |ctx: Ctx<'js>, path: String, native: bool| {
            // Node's JS `realpathSync` reports the `stat` that failed; its
            // `.native` form, the `realpath` call.
            let call = Call::begin(&ctx, &h, if native { "realpath" } else { "stat" })?;
            let at = call.path(&path)?;
            h.vfs
                .lock()
                .canonical(&at)
                .map(|real| real.to_string())
                .map_err(|e| call.error(&e, &path, None))
        },
    )?;
    let h = host;
    function(
        ctx,
        &object,
        "access",
        move |ctx: Ctx<'js>, path: String, mode: i32| {
            let call = Call::begin(&ctx, &h, "access")?;
            let target = call.path(&path)?;
            let stat = h
                .vfs
                .lock()
                .stat(&target)
                .map_err(|e| call.error(&e, &path, None))?;
            if mode & 1 != 0 && stat.mode & 0o111 == 0 {
                return Err(call.fail(Errno::Acces, &path, None));
            }
            Ok(())
        },
    )?;
    Ok(object)
}

fn read_file<'js>(
    ctx: &Ctx<'js>,
    host: &Host,
    path: &str,
    encoding: Option<String>,
) -> Result<Value<'js>> {
    let call = Call::begin(ctx, host, "open")?;
    let target = call.path(path)?;
    let data = host.vfs.lock().read_file(&target).map_err(|error| {
        if error.errno == Errno::IsDir {
            Call {
                syscall: "read",
                ..call
            }
            .error(&error, path, None)
        } else {
            call.error(&error, path, None)
        }
    })?;
    match encoding {
        Some(encoding) => {
            let text = encoding::decode(&data, &encoding);
            Ok(rquickjs::String::from_str(ctx.clone(), &text)?.into_value())
        }
        // Copied into the QuickJS heap, so the memory limit counts it.
        None => Ok(TypedArray::<u8>::new_copy(ctx.clone(), &data[..])?.into_value()),
    }
}

pub(crate) fn bytes_of(data: &Value<'_>, encoding: &str) -> Result<Vec<u8>> {
    if let Some(text) = data.as_string() {
        return Ok(encoding::encode(&text.to_string()?, encoding));
    }
    let array = TypedArray::<u8>::from_value(data.clone())?;
    // SAFETY: the bytes are copied before any JS can run and detach or
    // resize the buffer.
    let bytes = unsafe { array.as_bytes() }
        .ok_or_else(|| rquickjs::Error::new_from_js("detached buffer", "bytes"))?;
    Ok(bytes.to_vec())
}

fn write_file<'js>(
    ctx: &Ctx<'js>,
    host: &Host,
    path: &str,
    data: Value<'js>,
    encoding: &str,
    flag: &str,
) -> Result<()> {
    let call = Call::begin(ctx, host, "open")?;
    let target = call.path(path)?;
    let bytes = bytes_of(&data, encoding)?;
    let mut vfs = host.vfs.lock();
    let result = match flag {
        "a" => vfs.append_file(&target, bytes),
        "wx" => vfs.create_new(&target, bytes),
        "ax" => vfs.create_new(&target, bytes),
        _ => vfs.write_file(&target, bytes),
    };
    result.map_err(|e| call.error(&e, path, None))
}

fn mkdir(ctx: &Ctx<'_>, host: &Host, path: &str, recursive: bool) -> Result<Option<String>> {
    let call = Call::begin(ctx, host, "mkdir")?;
    let target = call.path(path)?;
    let mut vfs = host.vfs.lock();
    if recursive {
        let created = vfs
            .mkdir_all(&target)
            .map_err(|e| call.error(&e, path, None))?;
        Ok(created.map(|p| p.to_string()))
    } else {
        vfs.mkdir(&target).map_err(|e| call.error(&e, path, None))?;
        Ok(None)
    }
}

fn readdir<'js>(ctx: &Ctx<'js>, host: &Host, path: &str) -> Result<Array<'js>> {
    let call = Call::begin(ctx, host, "scandir")?;
    let target = call.path(path)?;
    let entries = host
        .vfs
        .lock()
        .read_dir(&target)
        .map_err(|e| call.error(&e, path, None))?;
    let array = Array::new(ctx.clone())?;
    for (index, entry) in entries.iter().enumerate() {
        let pair = Array::new(ctx.clone())?;
        pair.set(0, &*entry.name)?;
        pair.set(1, entry.node_type.as_str())?;
        array.set(index, pair)?;
    }
    Ok(array)
}

fn stat<'js>(
    ctx: &Ctx<'js>,
    host: &Host,
    path: &str,
    syscall: &'static str,
    throw_if_missing: bool,
) -> Result<Option<Object<'js>>> {
    let call = Call::begin(ctx, host, syscall)?;
    let target = call.path(path)?;
    let found = if syscall == "lstat" {
        host.vfs.lock().lstat(&target)
    } else {
        host.vfs.lock().stat(&target)
    };
    let stat = match found {
        Ok(stat) => stat,
        Err(error) if error.errno == Errno::NoEnt && !throw_if_missing => return Ok(None),
        Err(error) => return Err(call.error(&error, path, None)),
    };
    let object = Object::new(ctx.clone())?;
    object.set("type", stat.node_type.as_str())?;
    object.set("size", stat.size as f64)?;
    object.set("mode", stat.mode)?;
    object.set("mtimeMs", (stat.mtime_ns / 1_000) as f64 / 1_000.0)?;
    object.set("ino", inode_of(&target) as f64)?;
    Ok(Some(object))
}

/// A stable inode number per path (the VFS has no inodes).
fn inode_of(path: &VfsPath) -> u64 {
    path.as_str()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |hash, b| {
            (hash ^ b as u64).wrapping_mul(0x100_0000_01b3)
        })
        & ((1 << 53) - 1)
}

fn rm(ctx: &Ctx<'_>, host: &Host, path: &str, recursive: bool, force: bool) -> Result<()> {
    let call = Call::begin(ctx, host, "rm")?;
    let target = call.path(path)?;
    let mut vfs = host.vfs.lock();
    // A link is removed, not what it points at.
    match vfs.lookup_link(&target) {
        Err(error) if error.errno == Errno::NoEnt && force => Ok(()),
        // Node's rm looks the path up first and reports that call.
        Err(error) => Err(Call {
            syscall: "lstat",
            ..call
        }
        .error(&error, path, None)),
        Ok(Node::Dir(_)) if !recursive => Err(call.fail(Errno::IsDir, path, None)),
        Ok(_) => vfs
            .remove_all(&target)
            .map_err(|e| call.error(&e, path, None)),
    }
}

fn rmdir(ctx: &Ctx<'_>, host: &Host, path: &str, recursive: bool) -> Result<()> {
    let call = Call::begin(ctx, host, "rmdir")?;
    let target = call.path(path)?;
    let mut vfs = host.vfs.lock();
    if recursive {
        if let Ok(Node::File(_)) = vfs.lookup(&target) {
            return Err(call.fail(Errno::NotDir, path, None));
        }
        vfs.remove_all(&target)
            .map_err(|e| call.error(&e, path, None))
    } else {
        vfs.remove_dir(&target)
            .map_err(|e| call.error(&e, path, None))
    }
}

fn copy_file(ctx: &Ctx<'_>, host: &Host, from: &str, to: &str, exclusive: bool) -> Result<()> {
    let call = Call::begin(ctx, host, "copyfile")?;
    let (source, target) = (call.path(from)?, call.path(to)?);
    let mut vfs = host.vfs.lock();
    let fail = |errno| call.fail(errno, from, Some(to));
    match vfs.lookup(&source) {
        Err(error) => return Err(call.error(&error, from, Some(to))),
        Ok(Node::Dir(_)) => return Err(fail(Errno::IsDir)),
        Ok(_) => {}
    }
    match vfs.lookup(&target) {
        Ok(Node::Dir(_)) => return Err(fail(Errno::IsDir)),
        Ok(Node::File(_)) if exclusive => return Err(fail(Errno::Exist)),
        _ => {}
    }
    vfs.copy(&source, &target)
        .map_err(|e| call.error(&e, from, Some(to)))
}

#[derive(Clone, Copy)]
struct CpOptions {
    recursive: bool,
    force: bool,
    error_on_exist: bool,
}

fn cp(ctx: &Ctx<'_>, host: &Host, from: &str, to: &str, options: CpOptions) -> Result<()> {
    let call = Call::begin(ctx, host, "cp")?;
    let (source, target) = (call.path(from)?, call.path(to)?);
    if source == target || (target.starts_with(&source) && host.vfs.lock().is_dir(&source)) {
        return Err(call.fail(Errno::Inval, from, Some(to)));
    }
    let mut vfs = host.vfs.lock();
    let node = vfs
        .lookup(&source)
        .map_err(|e| call.error(&e, from, Some(to)))?;
    if node.node_type() == NodeType::Directory && !options.recursive {
        return Err(call.fail(Errno::IsDir, from, Some(to)));
    }
    // One change: if any path it writes is refused, nothing is written.
    vfs.all_or_nothing(|vfs| {
        if let Some(parent) = target.parent() {
            vfs.mkdir_all(&parent)?;
        }
        copy_tree(vfs, &source, &target, options)
    })
    .map_err(|e| call.error(&e, from, Some(to)))
}

/// `cp -r` semantics: directories merge into existing directories, files
/// overwrite only with `force`.
fn copy_tree(
    vfs: &mut Vfs,
    source: &VfsPath,
    target: &VfsPath,
    options: CpOptions,
) -> std::result::Result<(), FsError> {
    // Links are copied as links (Node's `cp` without `dereference`).
    let node = vfs.lookup_link(source)?;
    match (node, vfs.lookup_link(target).ok()) {
        (Node::Link(link), existing) => {
            if existing.is_some() {
                if !options.force {
                    return if options.error_on_exist {
                        Err(FsError::new(Errno::Exist, target))
                    } else {
                        Ok(())
                    };
                }
                vfs.remove_all(target)?;
            }
            vfs.symlink(target, link.target())
        }
        (Node::File(_), Some(Node::Dir(_))) => Err(FsError::new(Errno::IsDir, target)),
        (Node::Dir(_), Some(Node::File(_) | Node::Link(_))) => {
            Err(FsError::new(Errno::NotDir, target))
        }
        (Node::File(_), Some(Node::File(_) | Node::Link(_))) => {
            if options.force {
                vfs.copy(source, target)
            } else if options.error_on_exist {
                Err(FsError::new(Errno::Exist, target))
            } else {
                Ok(())
            }
        }
        (Node::Dir(dir), Some(Node::Dir(_))) => {
            for (name, _) in dir.iter() {
                copy_tree(vfs, &source.join(name), &target.join(name), options)?;
            }
            Ok(())
        }
        (_, None) => vfs.copy(source, target),
    }
}
