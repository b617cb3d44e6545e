// CommonJS (contract §11): `require` with Node's resolution inside the
// VFS — relative and absolute paths with Node's extensions and folder
// indexes, packages in `node_modules` folders up the tree with
// `package.json` `main` and `exports` (strings, subpaths, patterns and the
// `require`/`node`/`default` conditions), JSON, and the built-ins — the
// module cache (so cycles see a partly filled `exports`), and the errors
// Node gives (MODULE_NOT_FOUND with the require stack, ERR_REQUIRE_ESM,
// ERR_PACKAGE_PATH_NOT_EXPORTED).

const { node } = natives;
const path = require('path');
const cache = Object.create(null);
const scopes = new Map();
let mainModule;

class Module {
  constructor(id = '', parent) {
    this.id = id;
    this.path = path.dirname(id);
    this.exports = {};
    internals.initialExports.add(this.exports);
    this.filename = id;
    this.loaded = false;
    this.children = [];
    this.paths = nodeModulePaths(this.path);
    Object.defineProperty(this, 'parent', { value: parent, writable: true, enumerable: false, configurable: true });
  }
  require(id) { return requireFrom(this, id); }
}
Module._cache = cache;
Module._extensions = { '.js': null, '.json': null };
Module.builtinModules = node.builtinNames();
Module.isBuiltin = (name) => node.builtinName(String(name)) !== undefined;
Module.createRequire = (filename) => {
  const isUrl = filename instanceof URL || (typeof filename === 'string' && filename.startsWith('file:'));
  const from = isUrl ? require('url').fileURLToPath(filename) : String(filename);
  return makeRequire(new Module(from.endsWith('/') ? `${from}[require]` : from, undefined));
};
Module.Module = Module;
Module._nodeModulePaths = nodeModulePaths;
Module._resolveFilename = (request, parent) => resolveFilename(request, parent);
Module._load = (request, parent) => requireFrom(parent ?? new Module('/[goccia]', undefined), request);
Module.wrap = (source) => `(function (exports, require, module, __filename, __dirname) { ${source}\n});`;

function nodeModulePaths(from) {
  const out = [];
  let dir = path.resolve(from);
  while (true) {
    if (path.basename(dir) !== 'node_modules') out.push(dir === '/' ? '/node_modules' : `${dir}/node_modules`);
    if (dir === '/') break;
    dir = path.dirname(dir);
  }
  return out;
}

function invalidId(id) {
  const err = new TypeError(`The argument 'id' must be a non-empty string. Received ${internals.inspect(id)}`);
  err.code = 'ERR_INVALID_ARG_VALUE';
  return err;
}

function requireFrom(parent, request) {
  if (typeof request !== 'string' || request === '') throw invalidId(request);
  const builtin = node.builtinName(request);
  if (builtin !== undefined) return internals.requireBuiltin(builtin);
  if (request.startsWith('node:')) {
    const err = new Error(`No such built-in module: ${request}`);
    err.code = 'ERR_UNKNOWN_BUILTIN_MODULE';
    throw err;
  }
  const filename = resolveFilename(request, parent);
  return load(filename, parent).exports;
}

function load(filename, parent, inlineSource) {
  const cached = cache[filename];
  if (cached !== undefined) {
    if (parent && !parent.children.includes(cached)) parent.children.push(cached);
    return cached;
  }
  const module = new Module(filename, parent);
  if (parent === undefined && mainModule === undefined && filename === node.entry()) {
    mainModule = module;
    module.id = '.';
  }
  cache[filename] = module;
  if (parent) parent.children.push(module);
  let threw = true;
  try {
    if (filename.endsWith('.json')) {
      const text = node.readText(filename);
      try {
        module.exports = JSON.parse(stripBom(text));
      } catch (error) {
        error.message = `${filename}: ${error.message}`;
        throw error;
      }
    } else {
      if (isEsm(filename)) throw requireEsm(filename, parent);
      const source = stripShebang(stripBom(inlineSource ?? node.readText(filename)));
      const fn = node.compileFunction(source, filename);
      fn.call(module.exports, module.exports, makeRequire(module), module, filename, path.dirname(filename));
      // Node runs the main module's nextTick callbacks before its promise jobs.
      if (module === mainModule) internals.runTicks();
    }
    threw = false;
  } finally {
    if (threw) {
      delete cache[filename];
      if (parent) parent.children.splice(parent.children.indexOf(module), 1);
    }
  }
  module.loaded = true;
  return module;
}

function requireEsm(filename, parent) {
  const from = parent?.filename ?? node.entry();
  const err = new Error(`require() of ES Module ${filename} from ${from} not supported.\nInstead change the require of ${filename} in ${from} to a dynamic import() which is available in all CommonJS modules.`);
  err.code = 'ERR_REQUIRE_ESM';
  return err;
}

function makeRequire(module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => {
    if (typeof request !== 'string' || request === '') throw invalidId(request);
    if (node.builtinName(request) !== undefined) return request;
    if (options?.paths) {
      for (const base of options.paths) {
        try { return resolveFilename(request, new Module(path.join(path.resolve(base), '[resolve]'), undefined)); } catch {}
      }
    }
    return resolveFilename(request, module);
  };
  require.resolve.paths = (request) => (node.builtinName(request) !== undefined ? null : module.paths.slice());
  require.cache = cache;
  require.extensions = Module._extensions;
  Object.defineProperty(require, 'main', { get: () => mainModule, enumerable: true });
  return require;
}

function stripBom(text) { return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; }
function stripShebang(text) { return text.startsWith('#!') ? `//${text.slice(2)}` : text; }

function kind(file) { return node.kind(file) ?? null; }

function readPackage(dir) {
  const file = dir === '/' ? '/package.json' : `${dir}/package.json`;
  if (kind(file) !== 'file') return null;
  const text = node.readText(file);
  try {
    return JSON.parse(stripBom(text));
  } catch (error) {
    const err = new Error(`Invalid package config ${file}.`);
    err.code = 'ERR_INVALID_PACKAGE_CONFIG';
    err.cause = error;
    throw err;
  }
}

// The `type` of the nearest package.json up from `dir`.
function packageType(dir) {
  if (scopes.has(dir)) return scopes.get(dir);
  const pkg = readPackage(dir);
  const type = pkg !== null ? (pkg.type ?? 'commonjs') : dir === '/' ? 'commonjs' : packageType(path.dirname(dir));
  scopes.set(dir, type);
  return type;
}

function isEsm(filename) {
  if (filename.endsWith('.mjs')) return true;
  if (filename.endsWith('.cjs')) return false;
  return filename.endsWith('.js') && packageType(path.dirname(filename)) === 'module';
}

function tryFile(file) { return kind(file) === 'file' ? file : null; }
function tryExtensions(base) {
  for (const ext of ['.js', '.json']) {
    if (kind(base + ext) === 'file') return base + ext;
  }
  return null;
}
function tryIndex(dir) { return tryExtensions(path.join(dir, 'index')); }
function tryDirectory(dir) {
  if (kind(dir) !== 'dir') return null;
  const pkg = readPackage(dir);
  if (pkg && typeof pkg.main === 'string' && pkg.main !== '') {
    const main = path.resolve(dir, pkg.main);
    const found = tryFile(main) ?? tryExtensions(main) ?? tryIndex(main);
    if (found) return found;
  }
  return tryIndex(dir);
}
function tryPath(base) { return tryFile(base) ?? tryExtensions(base) ?? tryDirectory(base); }

const conditions = ['require', 'node', 'default', 'module-sync'];
function resolveTarget(target) {
  if (typeof target === 'string') return target;
  if (Array.isArray(target)) {
    for (const item of target) { const found = resolveTarget(item); if (found !== null) return found; }
    return null;
  }
  if (target !== null && typeof target === 'object') {
    for (const key of Object.keys(target)) {
      if (conditions.includes(key)) { const found = resolveTarget(target[key]); if (found !== null) return found; }
    }
  }
  return null;
}

function resolveExports(dir, subpath, exports, request) {
  const isConditions = exports !== null && typeof exports === 'object' && !Array.isArray(exports) &&
    Object.keys(exports).every((key) => !key.startsWith('.'));
  const map = typeof exports === 'string' || Array.isArray(exports) || isConditions ? { '.': exports } : exports;
  let target = null;
  if (Object.prototype.hasOwnProperty.call(map, subpath)) {
    target = resolveTarget(map[subpath]);
  } else {
    for (const key of Object.keys(map).sort((a, b) => b.length - a.length)) {
      const star = key.indexOf('*');
      if (star === -1) continue;
      const prefix = key.slice(0, star);
      const suffix = key.slice(star + 1);
      if (subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= key.length - 1) {
        const match = subpath.slice(prefix.length, subpath.length - suffix.length);
        const resolved = resolveTarget(map[key]);
        if (resolved !== null) target = resolved.replaceAll('*', match);
        break;
      }
    }
  }
  if (target === null) {
    const shown = subpath === '.' ? 'No "exports" main defined' : `Package subpath '${subpath}' is not defined by "exports"`;
    const err = new Error(`${shown} in ${dir}/package.json`);
    err.code = 'ERR_PACKAGE_PATH_NOT_EXPORTED';
    throw err;
  }
  const file = path.resolve(dir, target);
  if (kind(file) !== 'file') throw notFound(request, []);
  return file;
}

function notFound(request, stack) {
  const shown = stack.length ? `\nRequire stack:\n- ${stack.join('\n- ')}` : '';
  const err = new Error(`Cannot find module '${request}'${shown}`);
  err.code = 'MODULE_NOT_FOUND';
  err.requireStack = stack;
  return err;
}

function requireStack(parent) {
  const stack = [];
  for (let module = parent; module; module = module.parent) {
    if (module.filename) stack.push(module.filename);
  }
  return stack;
}

function resolveFilename(request, parent) {
  const from = parent?.filename ? path.dirname(parent.filename) : require('process').cwd();
  if (request.startsWith('/') || request.startsWith('./') || request.startsWith('../') || request === '.' || request === '..') {
    const base = path.resolve(from, request);
    const found = request.endsWith('/') ? tryDirectory(base) : tryPath(base);
    if (found) return found;
    throw notFound(request, requireStack(parent));
  }
  const parts = request.split('/');
  const name = request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  const rest = parts.slice(request.startsWith('@') ? 2 : 1).join('/');
  for (const dir of parent?.paths ?? nodeModulePaths(from)) {
    const packageDir = `${dir}/${name}`;
    if (kind(packageDir) === null) continue;
    const pkg = kind(packageDir) === 'dir' ? readPackage(packageDir) : null;
    if (pkg && pkg.exports !== undefined && pkg.exports !== null) {
      return resolveExports(packageDir, rest === '' ? '.' : `./${rest}`, pkg.exports, request);
    }
    const found = tryPath(rest === '' ? packageDir : `${packageDir}/${rest}`);
    if (found) return found;
  }
  throw notFound(request, requireStack(parent));
}

// An ES module imports a CommonJS one: its exports, loaded once.
function importCommonJs(filename, source) {
  return load(filename, undefined, source).exports;
}

// The names an ES module importing `source` (CommonJS) gets besides the
// default, found as Node finds them: by reading the source, not running
// it (`exports.x =`, `module.exports.x =`, `Object.defineProperty(exports,
// 'x'`, and the keys of a literal `module.exports = { ... }` up to the
// first value that is not a plain name).
function exportNames(source) {
  const names = new Set();
  const identifier = '([A-Za-z_$][\\w$]*)';
  for (const pattern of [
    new RegExp(`(?:^|[^.\\w$])(?:module\\.)?exports\\.${identifier}\\s*=(?!=)`, 'g'),
    new RegExp(`(?:^|[^.\\w$])(?:module\\.)?exports\\[\\s*['"]([^'"]+)['"]\\s*\\]\\s*=(?!=)`, 'g'),
    new RegExp(`Object\\.defineProperty\\(\\s*(?:module\\.)?exports\\s*,\\s*['"]([^'"]+)['"]`, 'g'),
  ]) {
    for (const match of source.matchAll(pattern)) names.add(match[1]);
  }
  for (const match of source.matchAll(/module\.exports\s*=\s*\{/g)) {
    let depth = 1;
    let at = match.index + match[0].length;
    let start = at;
    const keys = [];
    while (at < source.length && depth > 0) {
      const c = source[at];
      if (c === '{' || c === '[' || c === '(') depth++;
      else if (c === '}' || c === ']' || c === ')') depth--;
      if ((c === ',' && depth === 1) || depth === 0) { keys.push(source.slice(start, at)); start = at + 1; }
      at++;
    }
    // As Node's lexer reads a literal: shorthand names and `key: name`
    // entries count; at the first other value it stops reading.
    for (const entry of keys) {
      if (/^\s*\.\.\./.test(entry)) continue;
      const key = /^\s*(?:['"]([^'"]+)['"]|([A-Za-z_$][\w$]*))\s*(?::\s*[A-Za-z_$][\w$]*\s*)?$/.exec(entry);
      if (!key) break;
      names.add(key[1] ?? key[2]);
    }
  }
  names.delete('default');
  names.delete('__esModule');
  return [...names];
}

// Where an ES module's bare specifier leads (a package in node_modules),
// as Node's ES resolution finds it (the `import` condition first).
function esmResolve(request, base) {
  const saved = conditions.slice();
  conditions.splice(0, conditions.length, 'import', 'node', 'default', 'module-sync');
  try {
    return resolveFilename(request, new Module(base, undefined));
  } finally {
    conditions.splice(0, conditions.length, ...saved);
  }
}

return { Module, importCommonJs, requireFrom, exportNames, esmResolve, cache };
