// Node (CommonJS) entry of `chat-display/core`: the module without the provider wire formats and
// streams (fromProvider, detectProtocol, toProvider, StreamAccumulator), about half the size of
// the whole one. Ready on require, like the main entry (./ready.cjs).
"use strict";
module.exports = require("./ready.cjs")(require("../pkg/core/node/chat_display.js"));
