// Node (CommonJS) entry of `chat-display/display`: the module of the display functions alone
// (extractDisplayItems, toDisplayMessages, isChatDisplayError, toText), within 35 KB gzipped.
// Ready on require, like the main entry (./ready.cjs).
"use strict";
module.exports = require("./ready.cjs")(require("../pkg/display/node/chat_display.js"));
