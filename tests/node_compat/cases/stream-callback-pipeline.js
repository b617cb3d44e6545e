const { pipeline, Readable, Writable } = require('stream');
let n = 0;
pipeline(Readable.from(['a', 'bb', 'ccc']), new Writable({ write(c, e, cb) { n += c.length; cb(); } }), (err) => {
  console.log('done', err, n);
});
