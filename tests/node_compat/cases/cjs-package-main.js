const greet = require('greet');
console.log(greet.hello('world'), greet.version);
const util = require('@scope/util');
console.log(util.double(21));
