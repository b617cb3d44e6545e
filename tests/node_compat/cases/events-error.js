const EventEmitter = require('events');
const e = new EventEmitter();
try { e.emit('error', new Error('unhandled')); } catch (err) { console.log('caught', err.message); }
try { e.emit('error', 'text'); } catch (err) { console.log(err.code, err.message); }
e.on('error', (err) => console.log('handled', err.message));
e.emit('error', new Error('now handled'));
