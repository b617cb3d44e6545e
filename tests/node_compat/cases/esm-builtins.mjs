import fs, { readFileSync } from 'fs';
import { join } from 'node:path';
import EventEmitter, { once } from 'events';
import { Buffer } from 'node:buffer';
import process from 'node:process';
console.log(fs.readFileSync === readFileSync, join('a', 'b'), typeof EventEmitter, typeof once);
console.log(Buffer === globalThis.Buffer, process === globalThis.process);
