const { EventEmitter, errorMonitor } = require('events');
const e = new EventEmitter();
e.on(errorMonitor, (err) => console.log('monitor', err.message));
try { e.emit('error', new Error('unhandled')); } catch (err) { console.log('thrown', err.message); }
e.on('error', (err) => console.log('handled', err.message));
e.emit('error', new Error('second'));
