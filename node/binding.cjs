"use strict";
// The native addon, compiled at install (build.cjs) into goccia.node.
try {
  module.exports = require("./goccia.node");
} catch (error) {
  throw new Error(
    `goccia: the native addon ${__dirname}/goccia.node cannot be loaded (${error.message}); ` +
      `"npm install" of this folder compiles it with cargo (node/README.md, "Install")`,
  );
}
