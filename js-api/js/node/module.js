// `module`: createRequire, builtinModules, isBuiltin, Module.
const { Module } = require('goccia:cjs');
return {
  Module,
  createRequire: Module.createRequire,
  builtinModules: Module.builtinModules,
  isBuiltin: Module.isBuiltin,
};
