const EventEmitter = require('events');
const e = new EventEmitter();
e.on('args', (...a) => console.log(a.length, JSON.stringify(a)));
e.emit('args'); e.emit('args', 1, 'two', [3]);
e.prependOnceListener('args', () => console.log('before all, once'));
e.emit('args', 0); e.emit('args', 9);
