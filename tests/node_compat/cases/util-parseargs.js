const { parseArgs } = require('util');
const r = parseArgs({ args: ['-f', '--bar', 'b', 'pos', '-abc'], options: { foo: { type: 'boolean', short: 'f' }, bar: { type: 'string' }, a: { type: 'boolean' }, b: { type: 'boolean' }, c: { type: 'boolean' } }, allowPositionals: true });
console.log(JSON.stringify({ ...r.values }), JSON.stringify(r.positionals));
try { parseArgs({ args: ['--nope'], options: {} }); } catch (e) { console.log(e.code); }
const m = parseArgs({ args: ['--tag', 'a', '--tag', 'b'], options: { tag: { type: 'string', multiple: true }, level: { type: 'string', default: 'info' } } });
console.log(JSON.stringify({ ...m.values }));
