// parseArgs with tokens: options as written with the index of their
// argument, inline values, boolean options, positionals and `--`.
const { parseArgs, inspect } = require('util');
const options = {
  f: { type: 'boolean', short: 'f' },
  bar: { type: 'string' },
  o: { type: 'string', short: 'o' },
  v: { type: 'boolean', short: 'v' },
};
for (const args of [
  ['-f', '--bar', 'b', 'pos'],
  ['--bar=x', '-ox', '-o', 'y', '-fv', '--', 'a', '-b'],
  ['--f'],
]) {
  const parsed = parseArgs({ args, options, allowPositionals: true, tokens: true });
  console.log(inspect(parsed.tokens, { depth: 3 }));
  console.log(parsed.values, parsed.positionals);
}
