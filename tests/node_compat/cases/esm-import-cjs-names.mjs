import { total } from './src/data.cjs';
import { hello, version } from 'greet';
import { double } from '@scope/util';
import * as ns from './src/b.js';
console.log(total, hello('named'), version, double(4), Object.keys(ns).sort().join(','), ns.default.uses);
