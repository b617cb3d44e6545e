const config = require('./data/config.json');
console.log(config.name, config.threshold, config.nested.flag);
console.log(require('./data/config') === config);
