import { fileURLToPath } from 'url';
import path from 'path';
console.log(import.meta.url.startsWith('file:///'), path.basename(fileURLToPath(import.meta.url)));
console.log(typeof require, typeof module, typeof __filename);
import { createRequire } from 'module';
const require2 = createRequire(import.meta.url);
console.log(require2('./data/config.json').name, require2('greet').version);
