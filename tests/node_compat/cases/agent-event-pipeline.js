const EventEmitter = require('events');
const util = require('util');
class Job extends EventEmitter {
  run(items) {
    for (const [i, item] of items.entries()) this.emit('progress', i + 1, items.length, item);
    this.emit('done', items.length);
  }
}
const job = new Job();
job.on('progress', (i, n, item) => console.log(util.format('[%d/%d] %s', i, n, item)));
job.once('done', (n) => console.log(`finished ${n}`));
job.run(['lint', 'test', 'build']);
