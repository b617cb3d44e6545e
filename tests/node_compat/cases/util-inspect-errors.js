const util = require('util');
const e = new Error('with props');
e.code = 'E_CODE';
console.log(util.inspect(e).split('\n')[0]);
console.log(util.inspect(e).includes("code: 'E_CODE'"));
console.log(util.inspect({ err: new TypeError('nested') }).split('\n')[0]);
console.log(String(new Error('s')), `${new TypeError('t')}`);
console.log(util.format('%s', new Error('fmt')).split('\n')[0]);
