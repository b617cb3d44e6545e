import path, { join, extname } from 'node:path';
import { basename } from 'path';
console.log(join('a', 'b'), extname('x.md'), basename('/q/w.e'), typeof path.resolve);
