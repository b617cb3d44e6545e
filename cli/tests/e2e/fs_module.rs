//! The guest's `fs` module (docs/guest.md): sync, callback and promise
//! forms, Node's error shapes, quotas.

use crate::common::*;

/// Runs `body` after a small assertion helper; expects it to print `done`.
fn check(body: &str) {
    let source = format!(
        "import fs from 'fs';\n\
         const eq = (actual, expected, what) => {{\n\
           const a = JSON.stringify(actual), e = JSON.stringify(expected);\n\
           if (a !== e) throw new Error(`${{what}}: expected ${{e}}, got ${{a}}`);\n\
         }};\n\
         const fails = (fn, code, what) => {{\n\
           try {{ fn(); }} catch (error) {{ eq(error.code, code, what); return error; }}\n\
           throw new Error(`${{what}}: expected ${{code}}, nothing thrown`);\n\
         }};\n\
         {body}\n\
         console.log('done');"
    );
    js(&source).assert_ok().stdout_is("done\n");
}

#[test]
fn sync_reads_writes_and_appends() {
    check(
        "fs.writeFileSync('/a.txt', 'hello');\n\
         fs.appendFileSync('/a.txt', ' world');\n\
         eq(fs.readFileSync('/a.txt', 'utf8'), 'hello world', 'utf8');\n\
         eq(fs.readFileSync('/a.txt', { encoding: 'base64' }), 'aGVsbG8gd29ybGQ=', 'base64');\n\
         const bytes = fs.readFileSync('/a.txt');\n\
         eq(bytes instanceof Uint8Array, true, 'bytes'); eq(bytes.length, 11, 'length');\n\
         fs.writeFileSync('/b64', 'aGk=', 'base64'); eq(fs.readFileSync('/b64', 'utf8'), 'hi', 'base64 write');\n\
         fs.writeFileSync('/f64', new Float64Array([1.5, 2.5]));\n\
         eq(fs.readFileSync('/f64').length, 16, 'non-byte typed arrays keep every byte');\n\
         const view = new Uint8Array([9, 8, 7, 6]).subarray(1, 3); fs.writeFileSync('/view', view);\n\
         eq(Array.from(fs.readFileSync('/view')), [8, 7], 'views write their window');\n\
         fs.writeFileSync('/x', 'a', { flag: 'wx' });\n\
         fails(() => fs.writeFileSync('/x', 'b', { flag: 'wx' }), 'EEXIST', 'exclusive');\n\
         eq(fs.readFileSync('/x', 'utf8'), 'a', 'exclusive keeps content');\n\
         fs.writeFileSync(new URL('file:///url.txt'), 'u'); eq(fs.existsSync('/url.txt'), true, 'file URL');",
    );
}

#[test]
fn directories_list_stat_and_remove() {
    check(
        "eq(fs.mkdirSync('/a/b/c', { recursive: true }), '/a', 'first created');\n\
         eq(fs.mkdirSync('/a/b/c', { recursive: true }), undefined, 'nothing created');\n\
         fs.writeFileSync('/a/b/f.txt', 'x');\n\
         eq(fs.readdirSync('/a/b'), ['c', 'f.txt'], 'names');\n\
         const entries = fs.readdirSync('/a/b', { withFileTypes: true });\n\
         eq(entries.map((e) => [e.name, e.isDirectory(), e.isFile(), e.parentPath]), [['c', true, false, '/a/b'], ['f.txt', false, true, '/a/b']], 'dirents');\n\
         eq(fs.readdirSync('/a', { recursive: true }), ['b', 'b/c', 'b/f.txt'], 'recursive');\n\
         const st = fs.statSync('/a/b/f.txt');\n\
         eq([st.isFile(), st.isDirectory(), st.isSymbolicLink(), st.size], [true, false, false, 1], 'stat');\n\
         eq(st.mtime instanceof Date && st.mtimeMs > 0, true, 'mtime');\n\
         eq(fs.lstatSync('/a').isDirectory(), true, 'lstat');\n\
         eq(fs.statSync('/nope', { throwIfNoEntry: false }), undefined, 'throwIfNoEntry');\n\
         fails(() => fs.rmdirSync('/a'), 'ENOTEMPTY', 'rmdir non-empty');\n\
         fails(() => fs.rmSync('/a'), 'EISDIR', 'rm dir without recursive');\n\
         fs.rmSync('/a', { recursive: true }); eq(fs.existsSync('/a'), false, 'rm -r');\n\
         fs.rmSync('/a', { force: true });\n\
         fails(() => fs.rmSync('/a'), 'ENOENT', 'rm missing');\n\
         fs.mkdirSync('/e'); fs.rmdirSync('/e'); eq(fs.existsSync('/e'), false, 'rmdir');",
    );
}

#[test]
fn rename_copy_and_access() {
    check(
        "fs.mkdirSync('/src'); fs.writeFileSync('/src/a', 'A'); fs.mkdirSync('/src/sub'); fs.writeFileSync('/src/sub/b', 'B');\n\
         fs.copyFileSync('/src/a', '/a-copy'); eq(fs.readFileSync('/a-copy', 'utf8'), 'A', 'copyFile');\n\
         fails(() => fs.copyFileSync('/src/a', '/a-copy', fs.constants.COPYFILE_EXCL), 'EEXIST', 'COPYFILE_EXCL');\n\
         fails(() => fs.copyFileSync('/src', '/x'), 'EISDIR', 'copyFile of a dir');\n\
         fails(() => fs.cpSync('/src', '/dst'), 'EISDIR', 'cp dir without recursive');\n\
         fs.cpSync('/src', '/dst', { recursive: true }); eq(fs.readFileSync('/dst/sub/b', 'utf8'), 'B', 'cp -r');\n\
         fs.writeFileSync('/dst/a', 'changed'); eq(fs.readFileSync('/src/a', 'utf8'), 'A', 'copies are independent');\n\
         fs.cpSync('/src', '/dst', { recursive: true, force: false }); eq(fs.readFileSync('/dst/a', 'utf8'), 'changed', 'force:false keeps');\n\
         fails(() => fs.cpSync('/src', '/dst', { recursive: true, force: false, errorOnExist: true }), 'EEXIST', 'errorOnExist');\n\
         fails(() => fs.cpSync('/src', '/src/sub/inner', { recursive: true }), 'EINVAL', 'cp into itself');\n\
         fs.renameSync('/dst', '/moved'); eq([fs.existsSync('/dst'), fs.existsSync('/moved/sub/b')], [false, true], 'rename');\n\
         const e = fails(() => fs.renameSync('/none', '/other'), 'ENOENT', 'rename missing');\n\
         eq([e.message, e.syscall, e.path, e.dest], [\"ENOENT: no such file or directory, rename '/none' -> '/other'\", 'rename', '/none', '/other'], 'two-path error');\n\
         fails(() => fs.renameSync('/moved', '/moved/sub/x'), 'EINVAL', 'rename into itself');\n\
         fs.accessSync('/src/a'); fs.accessSync('/src/a', fs.constants.R_OK | fs.constants.W_OK);\n\
         fails(() => fs.accessSync('/src/a', fs.constants.X_OK), 'EACCES', 'not executable');\n\
         fails(() => fs.accessSync('/none'), 'ENOENT', 'access missing');\n\
         fs.unlinkSync('/src/a'); fails(() => fs.unlinkSync('/src'), 'EISDIR', 'unlink dir');",
    );
}

#[test]
fn errors_are_node_shaped() {
    check(
        "const e = fails(() => fs.readFileSync('/missing.txt'), 'ENOENT', 'read missing');\n\
         eq(e instanceof Error, true, 'is an Error');\n\
         eq([e.message, e.errno, e.syscall, e.path], [\"ENOENT: no such file or directory, open '/missing.txt'\", -2, 'open', '/missing.txt'], 'shape');\n\
         eq(fails(() => fs.readFileSync('missing'), 'ENOENT', 'relative').path, 'missing', 'path as passed');\n\
         fails(() => fs.readFileSync('/tmp'), 'EISDIR', 'read dir');\n\
         fails(() => fs.writeFileSync('/tmp', 'x'), 'EISDIR', 'write dir');\n\
         fails(() => fs.writeFileSync('/no/such/dir/f', 'x'), 'ENOENT', 'missing parent');\n\
         fs.writeFileSync('/file', '');\n\
         fails(() => fs.writeFileSync('/file/child', 'x'), 'ENOTDIR', 'file as dir');\n\
         eq(fails(() => fs.readdirSync('/file'), 'ENOTDIR', 'readdir file').syscall, 'scandir', 'readdir syscall');\n\
         fails(() => fs.mkdirSync('/tmp'), 'EEXIST', 'mkdir existing');\n\
         fails(() => fs.mkdirSync('/a/b'), 'ENOENT', 'mkdir missing parent');\n\
         fails(() => fs.readFileSync('/a\\u0000b'), 'EINVAL', 'NUL');\n\
         fails(() => fs.writeFileSync('/' + 'n'.repeat(300), 'x'), 'ENAMETOOLONG', 'long name');\n\
         let typeError; try { fs.readFileSync(42); } catch (err) { typeError = err; }\n\
         eq([typeError.name, typeError.code], ['TypeError', 'ERR_INVALID_ARG_TYPE'], 'bad path type');\n\
         eq(fs.readFileSync('/../../etc/../file', 'utf8'), '', '.. never leaves the root');",
    );
}

#[test]
fn callbacks_and_promises_settle_after_the_call_returns() {
    let run = js("import fs from 'fs';\n\
        const order = [];\n\
        fs.writeFile('/a', 'A', (err) => { order.push('write ' + err); });\n\
        order.push('after write call');\n\
        fs.readFile('/missing', (err, data) => { order.push('read ' + err.code + ' ' + data); });\n\
        fs.exists('/a', (exists) => order.push('exists ' + exists));\n\
        const pending = fs.promises.readFile('/a', 'utf8').then((text) => order.push('promise ' + text));\n\
        order.push('sync done');\n\
        await pending;\n\
        await fs.promises.mkdir('/d/e', { recursive: true });\n\
        const rejected = await fs.promises.rmdir('/d').catch((e) => e.code);\n\
        await new Promise((resolve) => setTimeout(resolve, 1));\n\
        console.log(order.join('\\n')); console.log(rejected, await fs.promises.exists('/d/e'));");
    run.assert_ok().stdout_is(
        "after write call\nsync done\nwrite null\nread ENOENT undefined\nexists true\npromise A\nENOTEMPTY true\n",
    );
}

#[test]
fn a_throwing_callback_is_an_uncaught_error() {
    js("import fs from 'fs'; fs.readFile('/nope', (err) => { throw err; });")
        .assert_code(1)
        .stderr_has("ENOENT: no such file or directory, open '/nope'");
}

#[test]
fn quota_refusals_are_enospc_and_keep_the_old_content() {
    let project = Project::new();
    run_js(
        &project,
        "import fs from 'fs';\n\
         fs.writeFileSync('/f', 'original');\n\
         try { fs.writeFileSync('/f', 'x'.repeat(5000)); } catch (e) { console.log(e.code, e.message); }\n\
         try { fs.appendFileSync('/f', 'x'.repeat(5000)); } catch (e) { console.log(e.code); }\n\
         console.log(fs.readFileSync('/f', 'utf8'));",
        &["--fs-quota-bytes", "4k"],
    )
    .assert_ok()
    .stdout_is("ENOSPC ENOSPC: no space left on device, open '/f'\nENOSPC\noriginal\n");
    run_js(
        &project,
        "import fs from 'fs'; for (let i = 0; ; i++) fs.mkdirSync('/d' + i);",
        &["--fs-node-limit", "50"],
    )
    .assert_code(3)
    .stderr_has("ENOSPC");
}
