import { readFile, writeFile, readdir } from 'node:fs/promises';
import path from 'node:path';
async function main() {
  const words = (await readFile('data/words.txt', 'utf8')).trim().split('\n');
  const entries = await readdir('data');
  await writeFile('summary.txt', `${words.length} words in ${entries.length} files\n`);
  return readFile('summary.txt', 'utf8');
}
main().then((s) => process.stdout.write(s)).catch((e) => { console.error(e); process.exit(1); });
