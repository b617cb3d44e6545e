const fs = require('fs');
const fd = fs.openSync('pos.txt', 'w+');
fs.writeSync(fd, 'hello world');
fs.writeSync(fd, 'J', 6);
fs.writeSync(fd, Buffer.from('!!'), 0, 2, 20);
const buf = Buffer.alloc(5);
console.log(fs.readSync(fd, buf, 0, 5, 6), JSON.stringify(buf.toString()));
console.log(fs.fstatSync(fd).size);
fs.ftruncateSync(fd, 5);
fs.closeSync(fd);
console.log(JSON.stringify(fs.readFileSync('pos.txt', 'utf8')));
const a = fs.openSync('pos.txt', 'a');
fs.writeSync(a, ' again', 0);
fs.closeSync(a);
console.log(fs.readFileSync('pos.txt', 'utf8'));
try { fs.closeSync(a); } catch (e) { console.log(e.code, e.syscall); }
try { fs.openSync('missing.txt', 'r'); } catch (e) { console.log(e.code, e.message); }
try { fs.openSync('pos.txt', 'wx'); } catch (e) { console.log(e.code); }
const r = fs.openSync('pos.txt', 'r');
try { fs.writeSync(r, 'x'); } catch (e) { console.log(e.code); }
const small = Buffer.alloc(4);
let n, out = '';
while ((n = fs.readSync(r, small)) > 0) out += small.subarray(0, n).toString();
console.log(out);
fs.closeSync(r);
