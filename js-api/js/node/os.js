// `os` with fixed values: nothing of the host (contract §11).
const cpus = () => [{
  model: 'sandbox',
  speed: 0,
  times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 },
}];
const constants = Object.freeze({
  signals: Object.freeze({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGPIPE: 13, SIGTERM: 15 }),
  errno: Object.freeze({ ENOENT: 2, EACCES: 13, EEXIST: 17, ENOTDIR: 20, EISDIR: 21, EINVAL: 22, ENOSPC: 28 }),
  priority: Object.freeze({ PRIORITY_LOW: 19, PRIORITY_NORMAL: 0, PRIORITY_HIGH: -14 }),
});
return {
  EOL: '\n',
  devNull: '/dev/null',
  constants,
  arch: () => 'x64',
  machine: () => 'x86_64',
  platform: () => 'linux',
  type: () => 'Linux',
  release: () => '6.0.0-sandbox',
  version: () => '#1 SMP goccia',
  hostname: () => 'sandbox',
  homedir: () => '/',
  tmpdir: () => '/tmp',
  endianness: () => 'LE',
  cpus,
  availableParallelism: () => 1,
  loadavg: () => [0, 0, 0],
  uptime: () => 0,
  totalmem: () => 536870912,
  freemem: () => 268435456,
  networkInterfaces: () => ({}),
  userInfo: () => ({ uid: 1000, gid: 1000, username: 'sandbox', homedir: '/', shell: '/bin/sh' }),
  getPriority: () => 0,
  setPriority: () => {},
};
