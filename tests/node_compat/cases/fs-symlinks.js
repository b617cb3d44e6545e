// Symbolic links: made, read, followed by reads and writes, not by lstat,
// readdir's dirents, realpath, unlink, and the promise and callback forms.
const fs = require('fs');
fs.mkdirSync('links');
fs.symlinkSync('../data/words.txt', 'links/w');
fs.symlinkSync('nowhere', 'links/dangling');
fs.symlinkSync('../data', 'links/dir');
console.log(fs.readlinkSync('links/w'), fs.readFileSync('links/w', 'utf8').split('\n')[0]);
console.log(fs.lstatSync('links/w').isSymbolicLink(), fs.statSync('links/w').isSymbolicLink(), fs.statSync('links/w').isFile());
console.log(fs.lstatSync('links/dir').isSymbolicLink(), fs.statSync('links/dir').isDirectory());
console.log(fs.realpathSync('links/dir/words.txt').endsWith('/data/words.txt'));
console.log(fs.readdirSync('links', { withFileTypes: true }).map((d) => `${d.name}:${d.isSymbolicLink()}:${d.isFile()}`).join(' '));
console.log(fs.existsSync('links/dangling'), fs.lstatSync('links/dangling').isSymbolicLink());
for (const attempt of [() => fs.readFileSync('links/dangling'), () => fs.symlinkSync('x', 'links/w'), () => fs.readlinkSync('data/words.txt'), () => fs.realpathSync('links/dangling')]) {
  try { attempt(); } catch (e) { console.log(e.code, e.syscall); }
}
fs.appendFileSync('links/w', 'through the link\n');
console.log(fs.readFileSync('data/words.txt', 'utf8').trim().split('\n').pop());
fs.unlinkSync('links/w');
console.log(fs.existsSync('links/w'), fs.existsSync('data/words.txt'));
fs.promises.readlink('links/dangling').then((t) => console.log('promise', t));
fs.readlink('links/dir', (error, target) => console.log('callback', error, target));
