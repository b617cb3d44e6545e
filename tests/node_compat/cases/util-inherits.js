const util = require('util');
const EventEmitter = require('events');
function Animal(name) { EventEmitter.call(this); this.name = name; }
util.inherits(Animal, EventEmitter);
const a = new Animal('cat');
a.on('speak', (w) => console.log(a.name, w));
a.emit('speak', 'meow');
console.log(Animal.super_ === EventEmitter, a instanceof EventEmitter);
