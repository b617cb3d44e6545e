// `fs/promises`: the promise forms of the `fs` module.
return require('fs').promises;
