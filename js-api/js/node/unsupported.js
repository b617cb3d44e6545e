// Node modules that reach outside the sandbox (processes, sockets,
// threads): importable, and every function throws ERR_SANDBOX_UNSUPPORTED
// naming what to use instead.
const instead = {
  child_process: 'run commands with `$` from the goccia module (or the shell), which runs them in the sandbox',
  worker_threads: 'use runScript from the goccia module for another run (a child sandbox if you pass `sandbox: true`)',
  cluster: 'use runScript from the goccia module for another run',
};
const advice = instead[moduleName] ?? 'use fetch (allowed hosts only) for HTTP';
function unsupported(name) {
  return function () {
    const err = new Error(`${moduleName}.${name} is not available in the sandbox: ${advice}`);
    err.code = 'ERR_SANDBOX_UNSUPPORTED';
    throw err;
  };
}
const names = {
  child_process: ['exec', 'execSync', 'execFile', 'execFileSync', 'spawn', 'spawnSync', 'fork'],
  net: ['createServer', 'createConnection', 'connect', 'Socket', 'Server', 'isIP', 'isIPv4', 'isIPv6'],
  http: ['createServer', 'request', 'get', 'Agent', 'Server'],
  https: ['createServer', 'request', 'get', 'Agent', 'Server'],
  http2: ['connect', 'createServer', 'createSecureServer'],
  tls: ['connect', 'createServer', 'createSecureContext'],
  dgram: ['createSocket'],
  dns: ['lookup', 'resolve', 'resolve4', 'resolve6', 'reverse'],
  cluster: ['fork', 'setupPrimary'],
  worker_threads: ['Worker', 'MessageChannel', 'BroadcastChannel'],
}[moduleName] ?? [];
const module = {};
for (const name of names) module[name] = unsupported(name);
if (moduleName === 'worker_threads') Object.assign(module, { isMainThread: true, parentPort: null, workerData: null, threadId: 0 });
if (moduleName === 'cluster') Object.assign(module, { isPrimary: true, isMaster: true, isWorker: false });
if (moduleName === 'net') {
  const v4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
  module.isIPv4 = (text) => v4.test(text);
  module.isIPv6 = (text) => /^[0-9a-f:]+$/i.test(text) && text.includes(':');
  module.isIP = (text) => (module.isIPv4(text) ? 4 : module.isIPv6(text) ? 6 : 0);
}
if (moduleName === 'http' || moduleName === 'https') {
  module.STATUS_CODES = { 200: 'OK', 201: 'Created', 204: 'No Content', 301: 'Moved Permanently', 302: 'Found', 304: 'Not Modified', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };
  module.METHODS = ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'];
}
return module;
