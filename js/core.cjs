// Node (CommonJS) entry of `chat-display/core`: the module without the provider wire formats and
// streams (fromProvider, detectProtocol, toProvider, StreamAccumulator), about half the size of
// the whole one. Ready on require, like the main entry (./node.cjs, which says why its exports are
// spread).
"use strict";
const { init, initSync } = require("./ready.cjs");
module.exports = { ...require("../pkg/core/node/chat_display.js"), default: init, initSync };
