// `url`: the WHATWG URL and URLSearchParams (the globals), file URLs,
// and the legacy parse/format/resolve.

function invalidArg(name, expected, value) {
  const err = new TypeError(`The "${name}" argument must be ${expected}. Received ${internals.inspect(value)}`);
  err.code = 'ERR_INVALID_ARG_TYPE';
  return err;
}

function fileURLToPath(url) {
  if (typeof url === 'string') url = new URL(url);
  else if (!(url instanceof URL)) throw invalidArg('path', 'of type string or an instance of URL', url);
  if (url.protocol !== 'file:') {
    const err = new TypeError('The URL must be of scheme file');
    err.code = 'ERR_INVALID_URL_SCHEME';
    throw err;
  }
  if (url.hostname !== '') {
    const err = new TypeError('File URL host must be "localhost" or empty on linux');
    err.code = 'ERR_INVALID_FILE_URL_HOST';
    throw err;
  }
  const pathname = url.pathname;
  if (/%2f/i.test(pathname)) {
    const err = new TypeError('File URL path must not include encoded / characters');
    err.code = 'ERR_INVALID_FILE_URL_PATH';
    throw err;
  }
  return decodeURIComponent(pathname);
}

function pathToFileURL(path) {
  const absolute = require('path').resolve(path);
  const trailing = path.endsWith('/') && !absolute.endsWith('/') ? '/' : '';
  const encoded = (absolute + trailing).replace(/%/g, '%25').replace(/\\/g, '%5C').replace(/\n/g, '%0A')
    .replace(/\r/g, '%0D').replace(/\t/g, '%09').replace(/#/g, '%23').replace(/\?/g, '%3F');
  return new URL(`file://${encodeURI(encoded).replace(/%25(?=[0-9A-F]{2})/g, '%')}`);
}

class Url {
  constructor() {
    this.protocol = null;
    this.slashes = null;
    this.auth = null;
    this.host = null;
    this.port = null;
    this.hostname = null;
    this.hash = null;
    this.search = null;
    this.query = null;
    this.pathname = null;
    this.path = null;
    this.href = null;
  }
}

const slashedProtocols = new Set(['http:', 'https:', 'ftp:', 'gopher:', 'file:', 'ws:', 'wss:']);

function parse(text, parseQueryString = false, slashesDenoteHost = false) {
  if (text instanceof Url) return text;
  if (typeof text !== 'string') throw invalidArg('url', 'of type string', text);
  const url = new Url();
  let rest = text.trim();
  const hashAt = rest.indexOf('#');
  if (hashAt !== -1) { url.hash = rest.slice(hashAt); rest = rest.slice(0, hashAt); }
  const queryAt = rest.indexOf('?');
  if (queryAt !== -1) {
    url.search = rest.slice(queryAt);
    url.query = rest.slice(queryAt + 1);
    rest = rest.slice(0, queryAt);
  } else if (parseQueryString) {
    url.search = '';
    url.query = {};
  }
  if (parseQueryString && typeof url.query === 'string') url.query = require('querystring').parse(url.query);
  const protocol = /^([a-z][a-z0-9.+-]*:)/i.exec(rest);
  if (protocol) { url.protocol = protocol[1].toLowerCase(); rest = rest.slice(protocol[1].length); }
  if (slashesDenoteHost || protocol || /^\/\/[^@/]+@[^@/]+/.test(rest)) {
    const slashes = rest.startsWith('//');
    if (slashes && !(protocol && url.protocol === 'javascript:')) {
      rest = rest.slice(2);
      url.slashes = true;
    }
  }
  if (url.slashes || (protocol && !slashedProtocols.has(url.protocol) && false)) {
    let end = rest.search(/[/?#]/);
    if (end === -1) end = rest.length;
    let host = rest.slice(0, end);
    rest = rest.slice(end);
    const at = host.lastIndexOf('@');
    if (at !== -1) { url.auth = decodeURIComponent(host.slice(0, at)); host = host.slice(at + 1); }
    const port = /:(\d*)$/.exec(host);
    if (port) { if (port[1]) url.port = port[1]; host = host.slice(0, port.index); }
    url.hostname = host.toLowerCase();
    url.host = url.hostname + (url.port ? `:${url.port}` : '');
    if (rest === '' && slashedProtocols.has(url.protocol)) rest = '/';
  }
  url.pathname = rest === '' ? null : rest;
  if (url.pathname === null && url.slashes && slashedProtocols.has(url.protocol)) url.pathname = '/';
  url.path = (url.pathname ?? '') + (url.search ?? '') || null;
  url.href = format(url);
  return url;
}

function format(object, options) {
  if (typeof object === 'string') object = parse(object);
  if (object instanceof URL) {
    let out = object.href;
    if (options) {
      const copy = new URL(object.href);
      if (options.auth === false) { copy.username = ''; copy.password = ''; }
      if (options.fragment === false) copy.hash = '';
      if (options.search === false) copy.search = '';
      out = copy.href;
    }
    return out;
  }
  if (object === null || typeof object !== 'object') throw invalidArg('urlObject', 'one of type object or string', object);
  let auth = object.auth ? `${encodeURIComponent(object.auth).replace(/%3A/i, ':')}@` : '';
  let protocol = object.protocol || '';
  if (protocol && !protocol.endsWith(':')) protocol += ':';
  let host = '';
  if (object.host) host = auth + object.host;
  else if (object.hostname) host = auth + object.hostname + (object.port ? `:${object.port}` : '');
  let pathname = object.pathname || '';
  let hash = object.hash || '';
  let search = object.search || '';
  if (!search && object.query && typeof object.query === 'object') {
    const query = require('querystring').stringify(object.query);
    if (query) search = `?${query}`;
  }
  if (search && search[0] !== '?') search = `?${search}`;
  if (hash && hash[0] !== '#') hash = `#${hash}`;
  if (object.slashes || slashedProtocols.has(protocol)) {
    if (object.slashes || host) {
      if (pathname && pathname[0] !== '/') pathname = `/${pathname}`;
      host = `//${host}`;
    }
  }
  return protocol + host + pathname.replace(/[?#]/g, encodeURIComponent) + search.replace('#', '%23') + hash;
}

function resolve(from, to) {
  return new URL(to, new URL(from, 'resolve://')).href.replace(/^resolve:\/\/\/?/, from.startsWith('/') ? '/' : '');
}

return {
  URL,
  URLSearchParams,
  fileURLToPath,
  pathToFileURL,
  parse,
  format,
  resolve,
  Url,
  domainToASCII: (domain) => { try { return new URL(`http://${domain}`).hostname; } catch { return ''; } },
  domainToUnicode: (domain) => domain,
  urlToHttpOptions: (url) => ({
    protocol: url.protocol,
    hostname: url.hostname,
    hash: url.hash,
    search: url.search,
    pathname: url.pathname,
    path: `${url.pathname}${url.search}`,
    href: url.href,
    port: url.port === '' ? undefined : Number(url.port),
  }),
};
