const EventEmitter = require('events');
class Job extends EventEmitter {
  run() { this.emit('start'); for (let i = 1; i <= 3; i++) this.emit('progress', i); this.emit('done', 'ok'); }
}
const job = new Job();
job.on('start', () => console.log('start'));
job.on('progress', (i) => console.log('progress', i));
job.on('done', function (r) { console.log('done', r, this === job); });
job.run();
console.log(job.rawListeners('done').length, job.listeners('progress').length);
