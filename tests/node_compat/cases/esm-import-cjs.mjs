import data from './src/data.cjs';
import { items } from './src/data.cjs';
import greet from 'greet';
import * as a from './src/a.js';
console.log(data.total, items, greet.hello('esm'), a.name, a.default.name);
