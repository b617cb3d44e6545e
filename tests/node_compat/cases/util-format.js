const util = require('util');
console.log(util.format('%s:%s', 'a'), util.format('%d %i %f', '42.5', 42.9, '3.5'));
console.log(util.format('%j', { a: [1, 2] }), util.format('%%s %s', 'x'), util.format('a', 'b', 3));
console.log(util.format('%o', [1]), util.format(1, 2), util.format('%s', null, undefined));
