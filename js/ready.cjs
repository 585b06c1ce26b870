// What every Node entry (node.cjs, core.cjs, display.cjs) adds to a module built for Node:
// wasm-bindgen's nodejs glue compiles and instantiates it synchronously on require, so every
// function is ready to call. `default` (init) and `initSync` exist so that universal code written
// for browsers (`await init()`) runs unchanged; here they have nothing left to do.
"use strict";

function initSync() {
  return undefined;
}
function init() {
  return Promise.resolve(undefined);
}

module.exports = { init, initSync };
