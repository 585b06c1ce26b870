// Node (CommonJS) entry of `chat-display/core`: the module without the provider wire formats and
// streams (fromProvider, detectProtocol, toProvider, StreamAccumulator), about half the size of
// the whole one. Ready on require, like the main entry (./node.cjs).
"use strict";
const wasm = require("../pkg/core/node/chat_display.js");

function initSync() {
  return undefined;
}
function init() {
  return Promise.resolve(undefined);
}

module.exports = Object.assign({}, wasm, { default: init, initSync });
