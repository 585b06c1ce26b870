// Node (CommonJS) entry: the module is compiled and instantiated synchronously on require, so
// every function is ready to call. `default` (init) and `initSync` exist so that universal code
// written for browsers (`await init()`) runs unchanged; here they have nothing left to do.
"use strict";
const wasm = require("../pkg/node/chat_display.js");

function initSync() {
  return undefined;
}
function init() {
  return Promise.resolve(undefined);
}

module.exports = Object.assign({}, wasm, { default: init, initSync });
