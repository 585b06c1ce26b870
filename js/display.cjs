// Node (CommonJS) entry of `chat-display/display`: the module of the display functions alone
// (extractDisplayItems, toDisplayMessages, isChatDisplayError, toText), within 35 KB gzipped.
// Ready on require, like the main entry (./node.cjs, which says why its exports are spread).
"use strict";
const { init, initSync } = require("./ready.cjs");
module.exports = { ...require("../pkg/display/node/chat_display.js"), default: init, initSync };
