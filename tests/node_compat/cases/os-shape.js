const os = require('os');
console.log(os.EOL === '\n', typeof os.platform(), typeof os.type(), typeof os.arch(), typeof os.release());
console.log(typeof os.tmpdir(), typeof os.homedir(), typeof os.hostname(), Array.isArray(os.cpus()));
console.log(typeof os.totalmem(), typeof os.freemem(), typeof os.uptime(), os.endianness());
console.log(typeof os.userInfo().username, typeof os.constants.signals.SIGINT, typeof os.networkInterfaces());
console.log(os.availableParallelism() >= 1, os.devNull);
