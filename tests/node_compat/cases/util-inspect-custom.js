const util = require('util');
class Money { constructor(n) { this.n = n; } [util.inspect.custom]() { return `Money(${this.n})`; } }
console.log(util.inspect(new Money(5)), [new Money(1)]);
console.log(util.inspect.custom === Symbol.for('nodejs.util.inspect.custom'));
