const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode('abc'));
console.log(digest instanceof ArrayBuffer, Buffer.from(digest).toString('hex'));
const { webcrypto } = await import('node:crypto');
const sha1 = await webcrypto.subtle.digest({ name: 'SHA-1' }, new Uint8Array([1, 2, 3]));
console.log(Buffer.from(sha1).toString('base64'));
