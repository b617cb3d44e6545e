import { format, inspect, promisify } from 'node:util';
import util from 'util';
console.log(format('%s-%s', 1, 2), inspect([1, [2, [3, [4, [5]]]]]), typeof promisify, util.format === format);
