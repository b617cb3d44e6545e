const EventEmitter = require('events');
const e = new EventEmitter();
e.on('x', (a, b) => console.log('first', a, b));
e.prependListener('x', () => console.log('prepended'));
e.once('x', () => console.log('once'));
console.log(e.emit('x', 1, 2), e.emit('x', 3, 4), e.emit('none'));
console.log(e.listenerCount('x'), e.eventNames());
