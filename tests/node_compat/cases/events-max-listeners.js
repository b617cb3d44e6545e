const EventEmitter = require('events');
const e = new EventEmitter();
console.log(e.getMaxListeners(), EventEmitter.defaultMaxListeners);
e.setMaxListeners(1);
e.prependListener('x', () => console.log('first'));
e.on('x', () => console.log('second'));
e.prependOnceListener('x', () => console.log('zeroth'));
e.emit('x'); e.emit('x');
console.log(e.rawListeners('x').length, e.eventNames());
