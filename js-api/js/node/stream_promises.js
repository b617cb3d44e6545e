// `stream/promises`: pipeline and finished as promises.
const stream = require('stream');
return {
  pipeline: (...streams) => new Promise((resolve, reject) => {
    stream.pipeline(...streams, (err, value) => (err ? reject(err) : resolve(value)));
  }),
  finished: (target, options) => new Promise((resolve, reject) => {
    stream.finished(target, options, (err) => (err ? reject(err) : resolve()));
  }),
};
