import { readFile, writeFile, readdir, mkdir, stat, rm, access } from 'node:fs/promises';
await mkdir('p/q', { recursive: true });
await writeFile('p/q/file.txt', 'async data');
console.log(await readFile('p/q/file.txt', 'utf8'));
console.log(await readdir('p'), (await stat('p/q/file.txt')).size);
try { await readFile('p/none'); } catch (e) { console.log(e.code); }
try { await access('p/none'); } catch (e) { console.log('access', e.code); }
await rm('p', { recursive: true });
console.log((await readdir('.')).includes('p'));
