import { open, readFile, truncate } from 'node:fs/promises';
import fs from 'node:fs';
const fh = await open('handle.txt', 'w');
await fh.write('first line\n');
await fh.writeFile('second line\n');
console.log(typeof fh.fd, (await fh.stat()).size);
await fh.close();
console.log(await readFile('handle.txt', 'utf8'));
const rh = await open('handle.txt');
const { bytesRead, buffer } = await rh.read(Buffer.alloc(5), 0, 5, 0);
console.log(bytesRead, buffer.toString());
console.log(JSON.stringify(await rh.readFile('utf8')));
await rh.close();
await truncate('handle.txt', 3);
console.log(fs.readFileSync('handle.txt', 'utf8'));
fs.open('handle.txt', 'r', (err, fd) => {
  const b = Buffer.alloc(3);
  fs.read(fd, b, 0, 3, 0, (err2, n, same) => {
    console.log(err, err2, n, same === b, b.toString());
    fs.close(fd, (err3) => console.log('closed', err3));
  });
});
