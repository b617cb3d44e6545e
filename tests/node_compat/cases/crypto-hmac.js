const { createHmac } = require('node:crypto');
console.log(createHmac('sha256', 'secret').update('message').digest('hex'));
console.log(createHmac('sha1', Buffer.from('k')).update('a').update('b').digest('base64'));
console.log(createHmac('md5', 'key').digest('hex'));
