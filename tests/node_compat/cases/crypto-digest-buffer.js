const crypto = require('crypto');
const d = crypto.createHash('sha256').update('x').digest();
console.log(Buffer.isBuffer(d), d.length, d.toString('hex').slice(0, 16));
console.log(crypto.createHash('md5').update('a', 'utf8').digest('base64url'));
console.log(crypto.getHashes().includes('sha256'));
