const crypto = require('crypto');
for (const alg of ['sha256', 'sha1', 'md5', 'sha512', 'sha384', 'sha224']) {
  console.log(alg, crypto.createHash(alg).update('hello ').update('world').digest('hex'));
}
console.log(crypto.createHash('sha256').update(Buffer.from([1, 2, 3])).digest('base64'));
