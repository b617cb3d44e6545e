const util = require('util');
const old = util.deprecate(() => 'value', 'old() is deprecated', 'DEP0999');
console.log(old(), old());
