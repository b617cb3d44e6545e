// `timers`: the globals, on the run's virtual time.
const promises = require('timers/promises');
return {
  setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate,
  promises,
};
