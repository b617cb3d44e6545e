console.log(typeof process.pid, typeof process.platform, process.argv.length >= 2, process.argv.slice(2));
console.log(typeof process.env, process.env.NO_SUCH_VAR_X);
console.log(typeof process.hrtime.bigint(), Array.isArray(process.hrtime()));
console.log(typeof process.memoryUsage().heapUsed, typeof process.uptime());
console.log(typeof process.version, process.versions.node !== undefined);
console.log(typeof process.stdout.write, typeof process.stderr.write);
process.stdout.write('no newline');
process.stdout.write('\n');
