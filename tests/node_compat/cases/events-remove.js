const { EventEmitter } = require('events');
const e = new EventEmitter();
const f = () => console.log('f');
e.on('a', f); e.on('a', f); e.on('b', f);
e.off('a', f); e.emit('a');
e.removeAllListeners('a'); console.log(e.emit('a'));
e.removeAllListeners(); console.log(e.eventNames().length);
